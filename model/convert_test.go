package model_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/model"
)

const fixedNow = "2025-06-01T00:00:00Z"

// TestConvertGolden converts each case of testdata/convert (input.json) and
// compares the document (want.json, absent when none is produced) and the
// diagnostics (want-diagnostics.txt) with the golden files.
func TestConvertGolden(t *testing.T) {
	for _, dir := range golden.Cases(t, "../testdata/convert") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "input.json"))
			if err != nil {
				t.Fatal(err)
			}
			src := model.ObjectRef{Kind: "File", Name: "input.json"}
			reg, ds := model.Convert(data, model.ParseOptions{Source: src}, fixedNow)
			wantDoc := filepath.Join(dir, "want.json")
			if reg == nil {
				if _, err := os.Stat(wantDoc); err == nil && !golden.Update() {
					t.Errorf("no document produced, but %s exists", wantDoc)
				}
			} else {
				out := reg.Encode()
				golden.Check(t, wantDoc, out)
				// What convert emits must itself be valid and stable.
				if vds := model.ValidateJSON(out, src); vds.HasErrors() {
					t.Errorf("converted document is invalid:\n%s", lines(vds))
				}
				again, ds2 := model.Convert(out, model.ParseOptions{Source: src}, fixedNow)
				if again == nil || string(again.Encode()) != string(out) {
					t.Errorf("converting the output again changed it; diagnostics:\n%s", lines(ds2))
				}
			}
			golden.Check(t, filepath.Join(dir, "want-diagnostics.txt"), []byte(lines(ds)))
		})
	}
}

func lines(ds model.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}
