package bench

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/model"
)

// TestValidateWithParseIndex: model.Parse records where the objects and
// arrays of each entry lie while it validates the JSON, and ValidateServer
// uses that index instead of scanning each member again. Whatever the entry
// (gen.UpstreamServer draws good and bad ones), and whether written compact
// or indented, the diagnostics are those of the same entry read on its own
// by model.ParseServer, which has no index — also after members were changed.
func TestValidateWithParseIndex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		entry := gen.UpstreamServer().Draw(t, "entry")
		if rapid.Bool().Draw(t, "number") {
			// A number with an exponent, which the index does not cover.
			n := rapid.SampledFrom([]string{"1.5e3", "2E308", "-1e-400"}).Draw(t, "value")
			if entry == "{}" {
				entry = `{"x-big":{"n":[` + n + `]}}`
			} else {
				entry = `{"x-big":{"n":[` + n + `]},` + entry[1:]
			}
		}
		if rapid.Bool().Draw(t, "indent") {
			b, _ := json.MarshalIndent(json.RawMessage(entry), "", "  ")
			entry = string(b)
		}
		reg, ds := model.Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), model.ParseOptions{})
		if reg == nil || len(reg.Servers) != 1 {
			if len(ds.WithReason(model.ReasonInvalidEntry)) == 0 {
				t.Fatalf("entry dropped without InvalidEntry: %v", ds)
			}
			return
		}
		indexed := reg.Servers[0]
		alone, err := model.ParseServer([]byte(entry))
		if err != nil {
			t.Fatal(err)
		}
		if rapid.Bool().Draw(t, "change") {
			for _, s := range []*model.Server{indexed, alone} {
				s.Set("packages", json.RawMessage(`[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"fileSha256":1e999}]`))
			}
		}
		got := model.ValidateServer(indexed, model.ObjectRef{Kind: "T"}, "e")
		want := model.ValidateServer(alone, model.ObjectRef{Kind: "T"}, "e")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("diagnostics with the index differ (-without +with):\n%s", diff)
		}
	})
}
