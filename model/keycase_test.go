package model

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestCaseVariantsRefused: a member whose name spells, in another case, a
// member of the struct ToolHive decodes its level into is refused with the
// path of the member, at every level of server.json and of ToolHive's
// publisher extensions the checks read; names that match no member, and
// the keys of levels decoded into maps, are passed through.
func TestCaseVariantsRefused(t *testing.T) {
	const base = `"name":"io.example/srv","description":"d","version":"1.0.0"`
	ext := func(members string) string {
		return `"_meta":{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active"` + members + `}}}}`
	}
	remote := func(members string) string {
		return `"remotes":[{"type":"sse","url":"https://a.example.com/sse"` + members + `}]`
	}
	pkg := func(members string) string {
		return `"packages":[{"registryType":"oci","identifier":"ghcr.io/a/b:1","transport":{"type":"stdio"}` + members + `}]`
	}
	for _, c := range []struct {
		members string
		field   string // "" when the entry is valid
		as      string
	}{
		{`"NAME":"io.example/other"`, "NAME", KeyName},
		{`"Remotes":[{"type":"sse","url":"https://evil.example.com/sse"}]`, "Remotes", KeyRemotes},
		{`"_META":{}`, "_META", KeyMeta},
		{`"WebsiteURL":"https://x.example.com"`, "WebsiteURL", "websiteUrl"},
		{`"$Schema":"x"`, "$Schema", KeySchema},
		// Unicode simple folding, as encoding/json's: ſ (U+017F) is an s,
		// K (U+212A, the kelvin sign) a k.
		{`"ſchema":"x","$ſchema":"x"`, "$ſchema", KeySchema},
		{`"repository":{"url":"https://github.com/a/b","source":"github","ſource":"x"}`, "repository.ſource", "source"},
		{`"icons":[{"src":"https://a.example.com/i.png","MimeType":"image/gif"}]`, "icons[0].MimeType", "mimeType"},
		{remote(`,"URL":"https://user:pw@evil.example.com/sse"`), "remotes[0].URL", "url"},
		{remote(`,"headers":[{"name":"A","Value":"x"}]`), "remotes[0].headers[0].Value", "value"},
		{remote(`,"headers":[{"name":"A","NAME":"B"}]`), "remotes[0].headers[0].NAME", KeyName},
		{remote(`,"variables":{"v":{"IsSecret":"yes"}}`), "remotes[0].variables[v].IsSecret", "isSecret"},
		{pkg(`,"Identifier":"ghcr.io/evil/x:1"`), "packages[0].Identifier", "identifier"},
		{pkg(`,"environmentVariables":[{"name":"A","Variables":{}}]`), "packages[0].environmentVariables[0].Variables", "variables"},
		{pkg(`,"runtimeArguments":[{"type":"named","name":"--a","ValueHint":"x"}]`), "packages[0].runtimeArguments[0].ValueHint", "valueHint"},
		{`"_meta":{"IO.modelcontextprotocol.registry/publisher-provided":{}}`, "_meta.IO.modelcontextprotocol.registry/publisher-provided", PublisherProvidedKey},
		{ext(`,"Tier":"Bogus"`), "_meta[" + PublisherProvidedKey + "][" + ToolHivePublisher + "][img].Tier", "tier"},
		{ext(`,"metadata":{"Stars":-1}`), "_meta[" + PublisherProvidedKey + "][" + ToolHivePublisher + "][img].metadata.Stars", "stars"},
		{ext(`,"metadata":{"kubernetes":{"\u212aind":"x"}}`), "_meta[" + PublisherProvidedKey + "][" + ToolHivePublisher + "][img].metadata.kubernetes.\u212aind", "kind"},
		{ext(`,"permissions":{"network":{"Outbound":{}}}`), "_meta[" + PublisherProvidedKey + "][" + ToolHivePublisher + "][img].permissions.network.Outbound", "outbound"},
		{ext(`,"env_vars":[{"name":"A","Secret":true}]`), "_meta[" + PublisherProvidedKey + "][" + ToolHivePublisher + "][img].env_vars[0].Secret", "secret"},

		// Not another spelling of any member: passed through.
		{`"x-name":"a","names":"b","Name2":"c"`, "", ""},
		{remote(`,"URLs":"x"`), "", ""},
		// Levels decoded into maps take any key.
		{remote(`,"variables":{"URL":{"description":"d"},"url":{"description":"d"}}`), "", ""},
		{ext(`,"custom_metadata":{"Status":"x","TIER":1}`), "", ""},
		{`"_meta":{"` + PublisherProvidedKey + `":{"com.example":{"Name":{"URL":1}}}}`, "", ""},
	} {
		entry := `{` + base + `,` + c.members + `}`
		s, err := ParseServer([]byte(entry))
		if err != nil {
			t.Fatalf("%s: %v", entry, err)
		}
		ds := ValidateServer(s, ObjectRef{Kind: "File", Name: "f"}, "")
		var got []string
		for _, d := range ds {
			if strings.Contains(d.Message, "is another spelling of") {
				got = append(got, d.Field)
				if !strings.Contains(d.Message, `"`+c.as+`"`) {
					t.Errorf("%s: message %q does not name %q", c.members, d.Message, c.as)
				}
			}
		}
		switch {
		case c.field == "" && len(got) > 0:
			t.Errorf("%s: refused as another spelling at %q; it is not one", c.members, got)
		case c.field != "" && (len(got) != 1 || got[0] != c.field):
			t.Errorf("%s: refused at %q, want once at %q (all: %v)", c.members, got, c.field, ds)
		}
		// The lean reading agrees: it accepts no entry the checks refuse.
		if _, lean := leanEntry(s); lean && len(ds) > 0 {
			t.Errorf("%s: read lean, but the checks say %v", c.members, ds)
		}
		// And so does a merge's reading: Parse (the scan's lean reading,
		// packed members), then NormalizeWith.
		reg, pds := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: Parse: %v", entry, pds)
		}
		ok, nds := NormalizeWith(reg.Servers[0], ObjectRef{Kind: "File", Name: "f"}, "", NormalizeOptions{})
		if ok != (c.field == "") {
			t.Errorf("%s: NormalizeWith ok = %v, want %v (%v)", c.members, ok, c.field == "", nds)
		}
	}
}

// TestDocumentCaseVariantsRefused: ValidateJSON refuses a document member
// that spells one of the document's, its meta's or its data's in another
// case ("Data" beside "data" would be read in its place).
func TestDocumentCaseVariantsRefused(t *testing.T) {
	const entry = `{"name":"io.example/srv","description":"d","version":"1.0.0"}`
	for _, c := range []struct {
		doc   string
		field string // "" when valid
	}{
		{`{"version":"1.0.0","data":{"servers":[` + entry + `]},"Data":{"servers":[]}}`, "Data"},
		{`{"version":"1.0.0","VERSION":"x","data":{"servers":[` + entry + `]}}`, "VERSION"},
		{`{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z","Last_updated":"x"},"data":{"servers":[` + entry + `]}}`, "meta.Last_updated"},
		{`{"version":"1.0.0","data":{"servers":[` + entry + `],"SERVERS":[]}}`, "data.SERVERS"},
		{`{"version":"1.0.0","x-data":1,"data":{"servers":[` + entry + `],"skills":[]}}`, ""},
	} {
		ds := ValidateJSON([]byte(c.doc), ObjectRef{Kind: "File", Name: "f"})
		var got []string
		for _, d := range ds {
			if strings.Contains(d.Message, "is another spelling of") {
				got = append(got, d.Field)
				if d.Severity != SeverityError {
					t.Errorf("%s: %v is not an Error", c.doc, d)
				}
			}
		}
		if c.field == "" && len(got) > 0 || c.field != "" && (len(got) != 1 || got[0] != c.field) {
			t.Errorf("%s: refused at %q, want %q (all: %v)", c.doc, got, c.field, ds)
		}
	}
}

// TestDocumentServersRequired: ValidateJSON refuses a document whose
// data.servers is missing or null, as the registry schema does (a merge or a
// conversion reads those as no server); [] is valid, with EmptyRegistry.
func TestDocumentServersRequired(t *testing.T) {
	const head = `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":`
	for doc, refused := range map[string]bool{
		head + `{"servers":null}}`:              true,
		head + `{}}`:                            true,
		head + `{"skills":[]}}`:                 true,
		head + `{"servers":[]}}`:                false,
		head + `{"servers":null,"servers":[]}}`: false,
	} {
		var got bool
		for _, d := range ValidateJSON([]byte(doc), ObjectRef{Kind: "File", Name: "f"}) {
			if d.Severity == SeverityError && d.Field == "data.servers" && d.Reason == ReasonInvalidEntry {
				got = true
			}
		}
		if got != refused {
			t.Errorf("%s: refused %v, want %v", doc, got, refused)
		}
	}
}

// TestKeySetsCoverLeanKeys: each key the lean reading checks at a level is a
// member of that level's keySet, so that the two lists, kept apart for
// speed, cannot drift (a key read lean but missing from its keySet would let
// another spelling of it through).
func TestKeySetsCoverLeanKeys(t *testing.T) {
	for _, c := range []struct {
		level string
		lits  any
		ks    keySet
	}{
		{"repository", repositoryKeys, caseRepository},
		{"transport", transportKeys, caseTransport},
		{"package", pkgKeys, casePackage},
		{"keyValueInput", keyValueKeys, caseKeyValueInput},
		{"_meta", metaKeys, caseServerMeta},
		{"extension", extensionKeys, caseExtension},
		{"metadata", metadataKeys, caseExtMetadata},
		{"icon", iconKeys, caseIcon},
		{"env_var", envVarKeys, caseExtEnvVar},
		{"kubernetes", kubernetesKeys, caseExtKubernetes},
		{"permissions", permissionsKeys, caseExtPermissions},
	} {
		v := reflect.ValueOf(c.lits)
		for i := range v.NumField() {
			lit := v.Field(i).FieldByName("s").String()
			key := strings.TrimSuffix(strings.TrimPrefix(lit, `"`), `":`)
			if !slices.Contains(c.ks, key) {
				t.Errorf("%s: the lean reading checks %q, which its keySet lacks", c.level, key)
			}
		}
	}
}
