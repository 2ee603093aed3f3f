package bench

import (
	"strings"
	"testing"

	thtypes "github.com/stacklok/toolhive-core/registry/types"

	"github.com/mcpreg/mcpreg/model"
)

// TestOracleDocumentMembers: for the members of a document outside its
// server entries ($schema, version, meta, data's other lists, numbers
// anywhere), `mcpreg validate` (model.ValidateJSON) gives ToolHive's verdict,
// except where docs/compatibility.md says model is stricter.
func TestOracleDocumentMembers(t *testing.T) {
	const entry = `{"name":"io.github.acme/fetch","description":"d","version":"1.0.0"}`
	const meta = `"meta":{"last_updated":"` + oracleNow + `"}`
	const item = `"namespace":"io.github.acme","name":"my-skill","description":"d","version":"1.0.0"`
	with := func(members string) string {
		return `{"version":"1.0.0",` + meta + `,` + members + `}`
	}
	servers := `"data":{"servers":[` + entry + `]}`
	list := func(key, items string) string {
		return with(`"data":{"servers":[` + entry + `],"` + key + `":` + items + `}`)
	}
	for _, tt := range []struct {
		name, doc string
		stricter  bool // ToolHive accepts, model rejects on purpose
	}{
		{name: "valid", doc: with(`"$schema":"` + model.RegistrySchemaURL + `",` + servers)},
		{name: "$schema null", doc: with(`"$schema":null,` + servers)},
		{name: "$schema number", doc: with(`"$schema":5,` + servers)},
		{name: "$schema empty", doc: with(`"$schema":"",` + servers)},
		{name: "$schema relative", doc: with(`"$schema":"registry.json",` + servers)},
		{name: "$schema repeated", doc: with(`"$schema":"https://example.com/s.json","$schema":5,` + servers)},
		{name: "huge number at top", doc: with(`"x":1e400,` + servers)},
		{name: "huge number in meta", doc: `{"version":"1.0.0","meta":{"last_updated":"` + oracleNow + `","n":-1e999},` + servers + `}`},
		{name: "huge number in data", doc: list("x", `{"n":1e400}`)},
		{name: "number in a string", doc: with(`"x":"1e400",` + servers)},
		{name: "skills empty", doc: list("skills", `[]`)},
		{name: "skills null", doc: list("skills", `null`)},
		{name: "skills object", doc: list("skills", `{}`)},
		{name: "skill valid", doc: list("skills", `[{`+item+`,"allowedTools":["a"],"provenance":{"attestation":{"predicate":{}}}}]`)},
		{name: "skill empty", doc: list("skills", `[{}]`)},
		{name: "skill name", doc: list("skills", `[{`+item+`,"name":"a"}]`)},
		{name: "skill repeated tool", doc: list("skills", `[{`+item+`,"allowedTools":["a","a"]}]`)},
		{name: "skill provenance member", doc: list("skills", `[{`+item+`,"provenance":{"x":1}}]`)},
		{name: "skill description", doc: list("skills", `[{`+item+`,"description":"`+strings.Repeat("é", 1025)+`"}]`)},
		{name: "plugin valid", doc: list("plugins", `[{`+item+`,"compatibility":"`+strings.Repeat("x", 501)+`","provenance":{"x":1}}]`)},
		{name: "plugin not an object", doc: list("plugins", `[1]`)},
		{name: "plugin package", doc: list("plugins", `[{`+item+`,"packages":[{"registryType":"npm"}]}]`)},
		{name: "plugin repository", doc: list("plugins", `[{`+item+`,"repository":{"url":"x y"}}]`)},
		{name: "last_updated a date", doc: `{"version":"1.0.0","meta":{"last_updated":"2025-09-01"},` + servers + `}`, stricter: true},
		{name: "last_updated a time", doc: `{"version":"1.0.0","meta":{"last_updated":"12:00:00"},` + servers + `}`, stricter: true},
		{name: "name and version twice", doc: with(`"data":{"servers":[` + entry + `,` + entry + `]}`), stricter: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			thErr := thtypes.ValidateUpstreamRegistryBytes([]byte(tt.doc))
			ds := model.ValidateJSON([]byte(tt.doc), model.ObjectRef{Kind: "File", Name: "f.json"})
			switch {
			case tt.stricter && (thErr != nil || !ds.HasErrors()):
				t.Errorf("want ToolHive to accept and model to reject; ToolHive: %v; model:\n%v", thErr, ds)
			case !tt.stricter && (thErr == nil) == ds.HasErrors():
				t.Errorf("ToolHive: %v; model:\n%v", thErr, ds)
			}
		})
	}
}
