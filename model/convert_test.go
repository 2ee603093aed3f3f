package model_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
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

// TestConvertStandInOnlyForWrittenEntries: an entry without a description
// that Convert drops (a bad name, a repeated name) has the drop as its one
// diagnostic; only the entries written get a MissingDescription Info.
func TestConvertStandInOnlyForWrittenEntries(t *testing.T) {
	data := `{"servers":[{"name":"io.acme/bad name","image":"ghcr.io/acme/a:1"},` +
		`{"name":"io.acme/good","image":"ghcr.io/acme/b:1"},` +
		`{"name":"io.acme/good","image":"ghcr.io/acme/c:1"}]}`
	reg, ds := model.Convert([]byte(data), model.ParseOptions{Source: model.ObjectRef{Kind: "File", Name: "md.json"}}, "2025-01-01T00:00:00Z")
	if reg == nil || len(reg.Servers) != 1 || reg.Servers[0].Name() != "io.acme/good" {
		t.Fatalf("servers: %v", ds)
	}
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Reason)+" "+d.Field)
	}
	want := []string{
		"InvalidEntry servers[0]",
		"MissingDescription servers[1].description",
		"DuplicateServer servers[2]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s\n%v", strings.Join(got, "\n"), strings.Join(want, "\n"), ds)
	}
}

// TestConvertKeepsVersions: a document listing several versions of one
// server (as a merge with the versions strategy writes it, and as
// ValidateRegistry accepts it) converts to itself; only one version listed
// twice is a DuplicateServer.
func TestConvertKeepsVersions(t *testing.T) {
	entry := func(v, url string) string {
		return `{"name":"com.example/aa","description":"d","version":"` + v + `","remotes":[{"type":"streamable-http","url":"` + url + `"}]}`
	}
	doc := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[` +
		entry("2.0.0", "https://a.example.com/v2") + `,` + entry("1.0.0", "https://a.example.com/v1") + `,` + entry("2.0.0", "https://a.example.com/v2b") + `]}}`
	reg, ds := model.Convert([]byte(doc), model.ParseOptions{Source: model.ObjectRef{Kind: "File", Name: "f.json"}}, "2025-01-01T00:00:00Z")
	if reg == nil {
		t.Fatalf("no registry: %v", ds)
	}
	var got []string
	for _, s := range reg.Servers {
		got = append(got, s.Name()+"@"+s.Version())
	}
	if want := []string{"com.example/aa@1.0.0", "com.example/aa@2.0.0"}; !slices.Equal(got, want) {
		t.Errorf("servers %v; want %v", got, want)
	}
	if len(ds) != 1 || ds[0].Reason != model.ReasonDuplicateServer || ds[0].Field != "data.servers[2]" {
		t.Errorf("diagnostics %v; want one DuplicateServer for data.servers[2]", ds)
	}
	again, ds := model.Convert(reg.Encode(), model.ParseOptions{}, "2025-01-01T00:00:00Z")
	if len(ds) != 0 || !bytes.Equal(again.Encode(), reg.Encode()) {
		t.Errorf("converting the result again: %v\n%s", ds, again.Encode())
	}
}
