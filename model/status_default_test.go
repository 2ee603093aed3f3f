package model

import (
	"slices"
	"strings"
	"testing"
)

// TestAddMissingStatus: each ToolHive extension object without a status gets
// "status":"active" first, every other byte kept; anything else is left
// alone.
func TestAddMissingStatus(t *testing.T) {
	const pp, th = `"io.modelcontextprotocol.registry/publisher-provided"`, `"io.github.stacklok"`
	for _, tc := range []struct {
		name, meta, want string
		keys             []string
	}{
		{"empty object", `{` + pp + `:{` + th + `:{"k":{}}}}`, `{` + pp + `:{` + th + `:{"k":{"status":"active"}}}}`, []string{"k"}},
		{"members kept in order", `{"a":1,` + pp + `:{"x":{},` + th + `:{"k": {"tier":"Official" , "tags":["t"]}}}}`,
			`{"a":1,` + pp + `:{"x":{},` + th + `:{"k":{"status":"active","tier":"Official" , "tags":["t"]}}}}`, []string{"k"}},
		{"only those without", `{` + pp + `:{` + th + `:{"b":{"tags":[]},"a":{"status":"deprecated"},"c":{}}}}`,
			`{` + pp + `:{` + th + `:{"b":{"status":"active","tags":[]},"a":{"status":"deprecated"},"c":{"status":"active"}}}}`, []string{"b", "c"}},
		{"status present", `{` + pp + `:{` + th + `:{"k":{"status":"active"}}}}`, "", nil},
		{"not an object", `{` + pp + `:{` + th + `:{"k":[1]}}}`, "", nil},
		{"another publisher", `{` + pp + `:{"com.example":{"k":{}}}}`, "", nil},
		{"no extensions", `{"a":{}}`, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseServer([]byte(`{"name":"a/b","_meta":` + tc.meta + `}`))
			if err != nil {
				t.Fatal(err)
			}
			keys := addMissingStatus(s)
			if !slices.Equal(keys, tc.keys) {
				t.Errorf("keys %q, want %q", keys, tc.keys)
			}
			got, _ := s.Get(KeyMeta)
			want := tc.want
			if want == "" {
				want = tc.meta
			}
			if string(got) != want {
				t.Errorf("_meta\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestStatusWarningsMaskKeys: the warning of a default status names the
// extension's key, a URL by convention, without its user information.
func TestStatusWarningsMaskKeys(t *testing.T) {
	ds := statusWarnings(&Server{}, ObjectRef{Kind: "File", Name: "f"}, "data.servers[0]", []string{"https://u:s3cret@a.example.com/mcp"})
	if len(ds) != 1 || strings.Contains(ds[0].Field, "s3cret") || strings.Contains(ds[0].Message, "s3cret") {
		t.Fatalf("diagnostics %v repeat the password", ds)
	}
}
