package model_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// FuzzParse: no input panics; whatever is produced encodes to valid JSON that
// passes ValidateJSON and converts again to the same bytes.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"data":{"servers":[{"name":"a.b/cc","description":"d","version":"1"}]}}`,
		`{"servers":[{"name":"x","image":"i","description":"d"}]}`,
		`{"servers":{"k":{"image":"i","description":"d","env_vars":[null]}},"remote_servers":{"r":{"url":"https://x","transport":"sse","description":"d"}}}`,
		`{"groups":[{"servers":{"g":{"image":"i","description":"d"}}}]}`,
		`{"data":{"servers":null}}`, `[]`, `"x"`, `{`, ``,
	} {
		f.Add([]byte(s), uint8(0))
	}
	formats := []model.Format{model.FormatAuto, model.FormatUpstream, model.FormatToolHive, model.FormatList}
	f.Fuzz(func(t *testing.T, data []byte, fi uint8) {
		opts := model.ParseOptions{Format: formats[int(fi)%len(formats)]}
		reg, _ := model.Convert(data, opts, "2025-01-01T00:00:00Z")
		if reg == nil {
			return
		}
		out := reg.Encode()
		if !json.Valid(out) {
			t.Fatalf("output is not JSON: %s", out)
		}
		if ds := model.ValidateJSON(out, model.ObjectRef{}); ds.HasErrors() {
			t.Fatalf("output invalid: %v\n%s", ds, out)
		}
		again, _ := model.Convert(out, model.ParseOptions{}, "2025-01-01T00:00:00Z")
		if again == nil || string(again.Encode()) != string(out) {
			t.Fatalf("second conversion differs from\n%s", out)
		}
	})
}
