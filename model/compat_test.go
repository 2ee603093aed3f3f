package model

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var compatObj = ObjectRef{Kind: "File", Name: "in.json"}

// serverMeasure is the registry server's own measure, written out the way
// it does it: encoding/json's Marshal of the publisher-provided map.
func serverMeasure(t *testing.T, entry string) int {
	t.Helper()
	var v struct {
		Meta struct {
			PP map[string]any `json:"io.modelcontextprotocol.registry/publisher-provided"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal([]byte(entry), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Meta.PP) == 0 {
		return 0
	}
	b, err := json.Marshal(v.Meta.PP)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func metaEntry(block string) string {
	return `{"name":"io.ex/meta","description":"d","version":"1.0.0","_meta":{"io.modelcontextprotocol.registry/publisher-provided":` + block + `}}`
}

func TestPublisherMetaSize(t *testing.T) {
	tests := []struct {
		name  string
		entry string
		want  int
	}{
		{"no _meta", `{"name":"io.ex/a"}`, 0},
		{"empty block", metaEntry(`{}`), 0},
		{"other _meta keys only", `{"name":"io.ex/a","_meta":{"x":{"a":1}}}`, 0},
		// 10 '<' cost 60 bytes: {"k":"<60 bytes>"} is 8+60.
		{"html escaped", metaEntry(`{"k":"<<<<<<<<<<"}`), 68},
		{"ampersand and gt", metaEntry(`{"k":"&>"}`), 8 + 12},
		{"whitespace dropped", metaEntry(`{ "k" : [ 1 , 2 ] }`), len(`{"k":[1,2]}`)},
		{"numbers through float64", metaEntry(`{"k":1e20,"j":2.0}`), len(`{"j":2,"k":100000000000000000000}`)},
		{"escapes undone", metaEntry(`{"k":"\u00e9\/"}`), len(`{"k":"é/"}`)},
		{"repeated key: the last counts", metaEntry(`{"k":"long value","k":"v"}`), len(`{"k":"v"}`)},
		{"u2028 escaped", metaEntry("{\"k\":\"\u2028\"}"), len(`{"k":"\u2028"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseServer([]byte(tt.entry))
			if err != nil {
				t.Fatal(err)
			}
			got := PublisherMetaSize(s)
			if got != tt.want {
				t.Errorf("PublisherMetaSize = %d, want %d", got, tt.want)
			}
			if srv := serverMeasure(t, tt.entry); srv != got {
				t.Errorf("PublisherMetaSize = %d, the server's measure %d", got, srv)
			}
		})
	}
}

// TestMetaTooLarge: the limit applies to the measured size, so text that
// is short raw but long escaped is dropped; the default is the server's.
func TestMetaTooLarge(t *testing.T) {
	lt := func(n int) string { return metaEntry(`{"k":"` + strings.Repeat("<", n) + `"}`) }
	tests := []struct {
		name   string
		entry  string
		limit  int
		wantOK bool
		want   string
	}{
		{"50 KB of < measure 300 KB", lt(50_000), 0, false, "measures 300008 bytes"},
		{"just at the default limit", lt((DefaultMaxMetaSize - 8) / 6), 0, true, ""},
		{"one over the default limit", lt((DefaultMaxMetaSize-8)/6 + 1), 0, false, "measures 262148 bytes"},
		{"a configured limit", lt(10), 67, false, "measures 68 bytes as ToolHive's registry server counts them (encoding/json, with <, > and & as 6-byte escapes), over the limit of 67 bytes"},
		{"a configured limit met", lt(10), 68, true, ""},
		{"no limit", lt(50_000), -1, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseServer([]byte(tt.entry))
			if err != nil {
				t.Fatal(err)
			}
			ok, ds := Canonicalize(s, compatObj, "data.servers[0]", NormalizeOptions{MaxMetaSize: tt.limit})
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v: %v", ok, tt.wantOK, ds)
			}
			if tt.wantOK {
				if len(ds) != 0 {
					t.Errorf("diagnostics %v", ds)
				}
				return
			}
			if len(ds) != 1 || ds[0].Reason != ReasonMetaTooLarge || ds[0].Field != "data.servers[0]._meta" ||
				!strings.Contains(ds[0].Message, `server "io.ex/meta" skipped`) || !strings.Contains(ds[0].Message, tt.want) {
				t.Errorf("diagnostics %v, want one MetaTooLarge saying %q", ds, tt.want)
			}
		})
	}
}

func canon(t *testing.T, entry string) (string, bool, Diagnostics) {
	t.Helper()
	s, err := ParseServer([]byte(entry))
	if err != nil {
		t.Fatal(err)
	}
	ok, ds := Canonicalize(s, compatObj, "data.servers[0]", NormalizeOptions{})
	return string(s.AppendJSON(nil)), ok, ds
}

func TestCanonicalize(t *testing.T) {
	tests := []struct {
		name  string
		entry string
		want  string
		diags []string // reason, field and a part of the message
	}{
		{
			name:  "no $schema is added",
			entry: `{"name":"io.ex/a","version":"1"}`,
			want:  `{"name":"io.ex/a","version":"1"}`,
		},
		{
			name:  "$schema kept as written",
			entry: `{"name":"io.ex/a","$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json"}`,
			want:  `{"name":"io.ex/a","$schema":"https://static.modelcontextprotocol.io/schemas/2025-10-17/server.schema.json"}`,
		},
		{
			name:  "remotes keep their order",
			entry: `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"streamable-http","url":"https://b.ex/mcp"},{"type":"sse","url":"https://z.ex/sse"},{"type":"streamable-http","url":"https://a.ex/mcp","headers":[{"name":"X"}]}]}`,
			want:  `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"streamable-http","url":"https://b.ex/mcp"},{"type":"sse","url":"https://z.ex/sse"},{"type":"streamable-http","url":"https://a.ex/mcp","headers":[{"name":"X"}]}]}`,
		},
		{
			name:  "a repeated remote: the first copy is kept, what the second loses is said",
			entry: `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://a.ex/sse","headers":[{"name":"A"}]},{"type":"sse","url":"https://a.ex/sse","headers":[{"name":"B"}]},{"type":"sse","url":"https://a.ex/sse"}]}`,
			want:  `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://a.ex/sse","headers":[{"name":"A"}]}]}`,
			diags: []string{
				`DuplicateRemote data.servers[0].remotes[1] server "io.ex/a": remote 1 removed: it repeats the type "sse" and URL "https://a.ex/sse" of remote 0, which is kept as the first; ToolHive's registry server would keep one of them without a word; its "headers" differ from the copy kept and are not in the output`,
				`DuplicateRemote data.servers[0].remotes[2] server "io.ex/a": remote 2 removed: it repeats the type "sse" and URL "https://a.ex/sse" of remote 0, which is kept as the first; ToolHive's registry server would keep one of them without a word; its "headers" differ from the copy kept and are not in the output`,
			},
		},
		{
			name:  "an identical remote loses nothing; same URL, other type is another remote",
			entry: `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://a.ex/"},{"url":"https://a.ex/","type":"sse"},{"type":"streamable-http","url":"https://a.ex/"}]}`,
			want:  `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://a.ex/"},{"type":"streamable-http","url":"https://a.ex/"}]}`,
			diags: []string{`DuplicateRemote data.servers[0].remotes[1] server "io.ex/a": remote 1 removed: it repeats the type "sse" and URL "https://a.ex/" of remote 0, which is kept as the first; ToolHive's registry server would keep one of them without a word; it holds the same members as the copy kept, so nothing is lost`},
		},
		{
			name:  "userinfo is not repeated",
			entry: `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://u:secret@a.ex/"},{"type":"sse","url":"https://u:secret@a.ex/"}]}`,
			want:  `{"$schema":"x","name":"io.ex/a","remotes":[{"type":"sse","url":"https://u:secret@a.ex/"}]}`,
			diags: []string{`DuplicateRemote data.servers[0].remotes[1] server "io.ex/a": remote 1 removed: it repeats the type "sse" and URL "https://***@a.ex/" of remote 0`},
		},
		{
			name: "a repeated package: keyed by registryType, identifier and transport type",
			entry: `{"$schema":"x","name":"io.ex/a","packages":[` +
				`{"registryType":"npm","identifier":"@ex/a","version":"1.0.0","transport":{"type":"stdio"}},` +
				`{"registryType":"npm","identifier":"@ex/a","version":"2.0.0","transport":{"type":"stdio"},"environmentVariables":[{"name":"TOKEN"}]},` +
				`{"registryType":"npm","identifier":"@ex/a","version":"1.0.0","transport":{"type":"streamable-http","url":"http://localhost:8080/mcp"}},` +
				`{"registryType":"oci","identifier":"@ex/a","transport":{"type":"stdio"}}]}`,
			want: `{"$schema":"x","name":"io.ex/a","packages":[` +
				`{"registryType":"npm","identifier":"@ex/a","version":"1.0.0","transport":{"type":"stdio"}},` +
				`{"registryType":"npm","identifier":"@ex/a","version":"1.0.0","transport":{"type":"streamable-http","url":"http://localhost:8080/mcp"}},` +
				`{"registryType":"oci","identifier":"@ex/a","transport":{"type":"stdio"}}]}`,
			diags: []string{`DuplicatePackage data.servers[0].packages[1] server "io.ex/a": package 1 removed: it repeats the registryType "npm", identifier "@ex/a" and transport "stdio" of package 0, which is kept as the first; ToolHive's registry server fails the whole source on a repeated package; its "environmentVariables", "version" differ from the copy kept and are not in the output`},
		},
		{
			name:  "packages keep their order",
			entry: `{"$schema":"x","name":"io.ex/a","packages":[{"registryType":"npm","identifier":"a","version":"1.0.0"},{"registryType":"npm","identifier":"b","version":"2.0.0"}]}`,
			want:  `{"$schema":"x","name":"io.ex/a","packages":[{"registryType":"npm","identifier":"a","version":"1.0.0"},{"registryType":"npm","identifier":"b","version":"2.0.0"}]}`,
		},
		{
			name:  "numbers a float64 changes are warned about and written as read",
			entry: `{"$schema":"x","name":"io.ex/a","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"p":{"big":12345678901234567890,"s":"12345678901234567890","fine":[2.0,1e3,0.1,-0,1.50,9007199254740993,1.00000000000000000001]}}}}`,
			want:  `{"$schema":"x","name":"io.ex/a","_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"p":{"big":12345678901234567890,"s":"12345678901234567890","fine":[2.0,1e3,0.1,-0,1.50,9007199254740993,1.00000000000000000001]}}}}`,
			diags: []string{`InexactNumber data.servers[0]._meta server "io.ex/a": 3 numbers of the publisher-provided _meta not held exactly by a float64, which ToolHive's registry server will change: 12345678901234567890 as 12345678901234567000, 9007199254740993 as 9007199254740992, 1.00000000000000000001 as 1; written as read`},
		},
		{
			name:  "numbers outside the publisher-provided block are not the server's business",
			entry: `{"$schema":"x","name":"io.ex/a","_meta":{"other":{"big":12345678901234567890}}}`,
			want:  `{"$schema":"x","name":"io.ex/a","_meta":{"other":{"big":12345678901234567890}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, ds := canon(t, tt.entry)
			if !ok {
				t.Fatalf("dropped: %v", ds)
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if len(ds) != len(tt.diags) {
				t.Fatalf("diagnostics %v, want %d", ds, len(tt.diags))
			}
			for i, d := range ds {
				line := string(d.Reason) + " " + d.Field + " " + d.Message
				if d.Severity != SeverityWarning || !strings.HasPrefix(line, tt.diags[i]) {
					t.Errorf("diagnostic %d:\n got %s %s\nwant Warning %s", i, d.Severity, line, tt.diags[i])
				}
			}
			// Canonical form is a fixed point.
			again, ok, ds := canon(t, got)
			if !ok || again != got || len(ds.WithReason(ReasonDuplicatePackage))+len(ds.WithReason(ReasonDuplicateRemote)) > 0 {
				t.Errorf("not a fixed point:\n%s\n%v", again, ds)
			}
		})
	}
}

// TestInexactNumberCap: a message lists at most three numbers and counts the rest.
func TestInexactNumberCap(t *testing.T) {
	big := strings.Repeat("9", 60)
	entry := metaEntry(`{"p":[` + strings.Repeat(big+",", 9) + big + `]}`)
	_, ok, ds := canon(t, entry)
	if !ok || len(ds) != 1 {
		t.Fatalf("ok %v, %v", ok, ds)
	}
	if !strings.Contains(ds[0].Message, "10 numbers") || !strings.Contains(ds[0].Message, " and 7 more; written as read") ||
		strings.Contains(ds[0].Message, big) {
		t.Errorf("message %q", ds[0].Message)
	}
}

func TestThroughFloat64(t *testing.T) {
	for lit, want := range map[string]bool{
		"2.0": false, "1e3": false, "1E+3": false, "0.1": false, "-0": false, "1.50": false, "123456789012345": false,
		"9007199254740992": false, "9007199254740993": true, "12345678901234567890": true, "0.30000000000000001": true,
		"1.00000000000000000001": true, "1e-400": true, "5e-324": false,
	} {
		if _, got := throughFloat64([]byte(lit)); got != want {
			t.Errorf("throughFloat64(%s) changed = %v, want %v", lit, got, want)
		}
	}
}

// TestConvertEmpty: a document without servers converts to an empty one,
// with an EmptyRegistry warning that says why.
func TestConvertEmpty(t *testing.T) {
	for _, tt := range []struct{ in, why string }{
		{`{"data":{"servers":[]}}`, "the input has no server entry"},
		{`{"data":{"servers":[{"name":"io.ex/a","version":"latest","description":"d"}]}}`, "all 1 server entries read were dropped"},
	} {
		reg, ds := Convert([]byte(tt.in), ParseOptions{Source: compatObj}, "2025-01-01T00:00:00Z")
		if reg == nil || len(reg.Servers) != 0 {
			t.Fatalf("%s: want an empty registry", tt.in)
		}
		got := ds.WithReason(ReasonEmptyRegistry)
		if d := cmp.Diff(1, len(got)); d != "" || got[0].Severity != SeverityWarning || got[0].Field != "data.servers" || !strings.Contains(got[0].Message, "("+tt.why+")") {
			t.Errorf("%s: %v", tt.in, ds)
		}
	}
}

// TestCheckServerCompat: what validation adds for ToolHive's registry
// server, with the entry left as it is.
func TestCheckServerCompat(t *testing.T) {
	doc := `{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[` +
		`{"name":"io.ex/pkgs","description":"d","version":"1.0.0","packages":[{"registryType":"npm","identifier":"a","transport":{"type":"stdio"}},{"registryType":"npm","identifier":"a","transport":{"type":"stdio"}}]},` +
		`{"name":"io.ex/remotes","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://a.ex/"},{"type":"sse","url":"https://a.ex/"}]},` +
		metaEntry(`{"k":"`+strings.Repeat("<", 50_000)+`"}`) + `]}}`
	reg, ds := Parse([]byte(doc), ParseOptions{Source: compatObj})
	if reg == nil {
		t.Fatal(ds)
	}
	before := string(reg.AppendJSON(nil))
	got := CheckServerCompat(reg, compatObj, NormalizeOptions{})
	if string(reg.AppendJSON(nil)) != before {
		t.Error("the document was changed")
	}
	var lines []string
	for _, d := range got {
		lines = append(lines, d.Severity.String()+" "+string(d.Reason)+" "+d.Field)
	}
	want := []string{"Error DuplicatePackage data.servers[0].packages[1]", "Warning DuplicateRemote data.servers[1].remotes[1]", "Error MetaTooLarge data.servers[2]._meta"}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("(-want +got):\n%s\n%v", d, got)
	}
	if !strings.Contains(got[0].Message, "package 1 repeats the registryType") || !strings.Contains(got[2].Message, `server "io.ex/meta": its publisher-provided _meta measures 300008 bytes`) {
		t.Errorf("messages: %v", got)
	}
	// Nothing is removed by a check: no message speaks of a copy kept or of
	// the output.
	for _, d := range got {
		if strings.Contains(d.Message, "kept") || strings.Contains(d.Message, "output") || strings.Contains(d.Message, "removed") {
			t.Errorf("message of a check speaks of a change: %s", d.Message)
		}
	}
	diff, _ := Parse([]byte(`{"data":{"servers":[{"name":"io.ex/d","description":"d","version":"1.0.0","remotes":[`+
		`{"type":"sse","url":"https://a.ex/","headers":[{"name":"A"}]},{"type":"sse","url":"https://a.ex/"}]}]}}`), ParseOptions{Source: compatObj})
	if d := CheckServerCompat(diff, compatObj, NormalizeOptions{}); len(d) != 1 || !strings.HasSuffix(d[0].Message, `of remote 0; ToolHive's registry server would keep one of them without a word; the two differ in "headers"`) {
		t.Errorf("differing copies: %v", d)
	}
	empty, _ := Parse([]byte(`{"data":{"servers":[]}}`), ParseOptions{Source: compatObj})
	if e := CheckServerCompat(empty, compatObj, NormalizeOptions{}); len(e) != 1 || e[0].Reason != ReasonEmptyRegistry || e[0].Severity != SeverityWarning {
		t.Errorf("empty: %v", e)
	}
}
