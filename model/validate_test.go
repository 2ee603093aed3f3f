package model_test

import (
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestValidateServer is the truth table of the SPEC §8 entry rules: each row
// an entry, the reason and severity expected (none for a valid entry), and a
// fragment the message must hold so the rule is named.
func TestValidateServer(t *testing.T) {
	long := strings.Repeat("x", 101)
	tests := []struct {
		name     string
		entry    string
		reason   model.Reason
		severity model.Severity
		field    string
		says     string
	}{
		{name: "valid", entry: `{"name":"io.github.acme/box","description":"d","version":"1.0.0"}`},
		{name: "valid remotes", entry: `{"name":"com.example/xx","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://e.example/sse"},{"type":"streamable-http","url":"http://e.example:8080/mcp"}]}`},
		{name: "two slashes", entry: `{"name":"com.example/srv/d","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: `exactly one "/"`},
		{name: "no slash", entry: `{"name":"abc","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: `exactly one "/"`},
		{name: "too short", entry: `{"name":"a/","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "minimum is 3"},
		{name: "too long", entry: `{"name":"a/` + strings.Repeat("b", 199) + `","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "maximum is 200"},
		{name: "bad char", entry: `{"name":"a b/c","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "does not match"},
		{name: "official stricter rule warns", entry: `{"name":"a/b-","description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, severity: model.SeverityWarning, field: "name", says: "official MCP registry"},
		{name: "no name", entry: `{"description":"d","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "name", says: "required"},
		{name: "description 101", entry: `{"name":"com.example/srv","description":"` + long + `","version":"1.0.0"}`, reason: model.ReasonDescriptionTooLong, field: "description", says: "101 characters"},
		{name: "description 100 runes", entry: `{"name":"com.example/srv","description":"` + strings.Repeat("é", 100) + `","version":"1.0.0"}`},
		{name: "description empty", entry: `{"name":"com.example/srv","description":"","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "description", says: "empty"},
		{name: "description missing", entry: `{"name":"com.example/srv","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "description", says: "required"},
		{name: "title 101", entry: `{"name":"com.example/srv","description":"d","title":"` + long + `","version":"1.0.0"}`, reason: model.ReasonInvalidEntry, field: "title", says: "title"},
		{name: "version latest", entry: `{"name":"com.example/srv","description":"d","version":"latest"}`, reason: model.ReasonInvalidEntry, field: "version", says: `"latest"`},
		{name: "version 256", entry: `{"name":"com.example/srv","description":"d","version":"` + strings.Repeat("1", 256) + `"}`, reason: model.ReasonInvalidEntry, field: "version", says: "255"},
		{name: "version missing", entry: `{"name":"com.example/srv","description":"d"}`, reason: model.ReasonInvalidEntry, field: "version", says: "required"},
		{name: "remote stdio", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"stdio","url":"https://x.example"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].type", says: `"stdio"`},
		{name: "remote ftp", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"ftp://x.example"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "does not match"},
		{name: "remote space", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"https://x.example/a b"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "does not match"},
		{name: "remote no url", entry: `{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse"}]}`, reason: model.ReasonInvalidEntry, field: "remotes[0].url", says: "needs a url"},
		{name: "package transport", entry: `{"name":"com.example/srv","description":"d","version":"1","packages":[{"registryType":"oci","identifier":"i","transport":{"type":"carrier-pigeon"}}]}`, reason: model.ReasonInvalidEntry, field: "packages[0].transport.type", says: "carrier-pigeon"},
		{name: "package missing identifier", entry: `{"name":"com.example/srv","description":"d","version":"1","packages":[{"registryType":"oci","transport":{"type":"stdio"}}]}`, reason: model.ReasonInvalidEntry, field: "packages[0]", says: "identifier"},
		{name: "toolhive ext status", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"tier":"Official"}}}}}`, reason: model.ReasonInvalidEntry, field: "status", says: "status"},
		{name: "toolhive ext tag", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"img":{"status":"active","tags":["Web"]}}}}}`, reason: model.ReasonInvalidEntry, field: "tags", says: `"Web"`},
		{name: "other publisher free", entry: `{"name":"com.example/srv","description":"d","version":"1","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"com.x":{"anything":{"tags":["Web"]}}}}}`},
		{name: "repository needs source", entry: `{"name":"com.example/srv","description":"d","version":"1","repository":{"url":"https://github.com/a/b"}}`, reason: model.ReasonInvalidEntry, field: "repository", says: "source"},
	}
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := model.ParseServer([]byte(tt.entry))
			if err != nil {
				t.Fatal(err)
			}
			ds := model.ValidateServer(s, obj, "data.servers[0]")
			if tt.reason == "" {
				if len(ds) != 0 {
					t.Fatalf("want valid, got %v", ds)
				}
				return
			}
			if len(ds) != 1 {
				t.Fatalf("want one diagnostic, got %d: %v", len(ds), ds)
			}
			d := ds[0]
			if d.Reason != tt.reason || d.Severity != tt.severity || !strings.HasSuffix(d.Field, tt.field) || !strings.Contains(d.Message, tt.says) {
				t.Errorf("got %s\nwant %s %s field *%s message containing %q", d, tt.severity, tt.reason, tt.field, tt.says)
			}
			if name := s.Name(); name != "" && !strings.Contains(d.Message, name) {
				t.Errorf("message does not name the server %q: %s", name, d.Message)
			}
		})
	}
}

func TestValidateRegistryDocumentRules(t *testing.T) {
	obj := model.ObjectRef{Kind: "File", Name: "f.json"}
	doc := `{"version":"1.0","meta":{"last_updated":"yesterday"},"data":{"servers":[
		{"name":"com.example/srv","description":"d","version":"1","remotes":[{"type":"sse","url":"https://same.example/sse"}]},
		{"name":"com.example/srv","description":"d","version":"1"},
		{"name":"com.example/other","description":"d","version":"1","remotes":[{"type":"sse","url":"https://same.example/sse"}]}]}}`
	ds := model.ValidateJSON([]byte(doc), obj)
	for _, want := range []struct {
		reason model.Reason
		field  string
	}{
		{model.ReasonInvalidEntry, "version"},
		{model.ReasonInvalidEntry, "meta.last_updated"},
		{model.ReasonDuplicateServer, "data.servers[1].name"},
		{model.ReasonDuplicateRemoteURL, "data.servers[2].remotes[0].url"},
	} {
		found := false
		for _, d := range ds {
			if d.Reason == want.reason && d.Field == want.field && d.Severity == model.SeverityError {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s error on %s in:\n%s", want.reason, want.field, lines(ds))
		}
	}
	if len(ds) != 4 {
		t.Errorf("want 4 diagnostics, got:\n%s", lines(ds))
	}
}

func TestNormalizeShortens(t *testing.T) {
	s := model.NewServer("com.example/srv", strings.Repeat("word ", 40), "1.0.0")
	ok, ds := model.Normalize(s, model.ObjectRef{Kind: "File", Name: "f"}, "x")
	if !ok || len(ds) != 1 || ds[0].Reason != model.ReasonDescriptionTooLong || ds[0].Severity != model.SeverityWarning {
		t.Fatalf("ok=%v ds=%v", ok, ds)
	}
	if n := len([]rune(s.Description())); n > model.DescriptionMaxLen || n < 75 {
		t.Errorf("shortened description has %d characters: %q", n, s.Description())
	}
	if vs := model.ValidateServer(s, model.ObjectRef{}, ""); len(vs) != 0 {
		t.Errorf("normalised entry still invalid: %v", vs)
	}
}

func TestParseFormatOverride(t *testing.T) {
	list := []byte(`{"servers":[{"name":"a","image":"i","description":"d"}]}`)
	if reg, ds := model.Parse(list, model.ParseOptions{Format: model.FormatToolHive}); reg != nil || len(ds) != 1 || ds[0].Reason != model.ReasonUnknownFormat {
		t.Errorf("toolhive override on list data: reg=%v ds=%v", reg, ds)
	}
	reg, ds := model.Parse(list, model.ParseOptions{Format: model.FormatList, DefaultNamespace: "com.example"})
	if reg == nil || len(ds) != 0 || reg.Servers[0].Name() != "com.example/a" {
		t.Errorf("list override: reg=%v ds=%v", reg, ds)
	}
	for _, s := range []string{"auto", "upstream", "toolhive", "legacy", "list", ""} {
		if _, err := model.ParseFormat(s); err != nil {
			t.Errorf("ParseFormat(%q): %v", s, err)
		}
	}
	if _, err := model.ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat(yaml) accepted")
	}
}
