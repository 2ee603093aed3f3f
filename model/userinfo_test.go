package model

import (
	"strings"
	"testing"
)

func TestHasUserinfo(t *testing.T) {
	rows := []struct {
		url  string
		want bool
	}{
		{"https://user:pw@example.com/x", true},
		{"https://token@example.com", true},
		{"HTTPS://u:p@example.com", true},
		{"https:u:p@example.com", true},     // special scheme: slashes optional
		{"https:\\\\u:p@example.com", true}, // backslashes read as slashes
		{" \thttps://u:p@example.com", true},
		{"//u:p@example.com/x", true},
		{"git+ssh://git@github.com/o/r.git", true},
		{"ftp:u@example.com", true},
		{"https://example.com/", false},
		{"https://www.npmjs.com/package/@scope/name", false},
		{"https://example.com/x?by=a@b", false},
		{"https://example.com/#a@b", false},
		{"mailto:team@example.com", false},
		{"urn:x:a@b", false},
		{"a@b", false},
	}
	for _, r := range rows {
		if got := hasUserinfo(r.url); got != r.want {
			t.Errorf("hasUserinfo(%q) = %v; want %v", r.url, got, r.want)
		}
	}
}

// TestNormalizeRefusesPublishedUserinfo: an entry that would publish a URL
// with user information in a member other than a remote (which has a URL
// policy of its own and is removed) is skipped with one InvalidEntry naming
// the member, the credential masked. ValidateServer, which holds a document
// to the schemas alone, accepts the same entries; URLs with "@" elsewhere
// than in the authority are kept.
func TestNormalizeRefusesPublishedUserinfo(t *testing.T) {
	const secret = "s3cr3t"
	base := `"name":"com.example/server","description":"d","version":"1.0.0"`
	pkg := func(transport string) string {
		return `"packages":[{"registryType":"oci","identifier":"example/s:1","transport":` + transport + `}]`
	}
	meta := func(provenance string) string {
		return `"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"example/s:1":{"status":"active","provenance":` + provenance + `}}}}`
	}
	refused := []struct{ member, field string }{
		{`"websiteUrl":"https://u:` + secret + `@example.com/"`, "websiteUrl"},
		{`"repository":{"url":"https://deploy:` + secret + `@github.com/o/r","source":"github"}`, "repository.url"},
		{`"icons":[{"src":"https://u:` + secret + `@cdn.example.com/i.png"}]`, "icons[0].src"},
		{pkg(`{"type":"streamable-http","url":"https://u:` + secret + `@example.com/mcp"}`), "packages[0].transport.url"},
		{`"packages":[{"registryType":"oci","identifier":"example/s:1","registryBaseUrl":"https://u:` + secret + `@registry.example.com","transport":{"type":"stdio"}}]`, "packages[0].registryBaseUrl"},
		{meta(`{"repository_uri":"https://u:` + secret + `@github.com/o/r"}`), "repository_uri"},
		{`"packages":[{"registryType":"oci","identifier":"u:` + secret + `@ghcr.io/x:1","transport":{"type":"stdio"}}]`, "packages[0].identifier"},
		{`"packages":[{"registryType":"mcpb","identifier":"https://u:` + secret + `@example.com/x.mcpb","transport":{"type":"stdio"}}]`, "packages[0].identifier"},
		{`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"https://u:` + secret + `@mcp.example.com/x":{"status":"active"}}}}`, "is the key of an image or URL with user information"},
	}
	for _, r := range refused {
		s := mustServer(t, `{`+base+`,`+r.member+`}`)
		if ds := ValidateServer(s, ObjectRef{Kind: "ConfigMap"}, "x"); ds.HasErrors() {
			t.Errorf("%s: ValidateServer refuses it: %v", r.member, ds)
		}
		ok, ds := Normalize(s, ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}, "x")
		if ok {
			t.Errorf("%s: kept; want it skipped", r.member)
			continue
		}
		if len(ds) != 1 || ds[0].Reason != ReasonInvalidEntry || !strings.Contains(ds[0].Message, "user information") ||
			!strings.Contains(ds[0].Message, r.field) || strings.Contains(ds[0].String(), secret) {
			t.Errorf("%s: diagnostics %v; want one InvalidEntry naming %s, the credential masked", r.member, ds, r.field)
		}
	}
	kept := []string{
		`"websiteUrl":"mailto:team@example.com"`,
		`"websiteUrl":"https://www.npmjs.com/package/@scope/name"`,
		`"repository":{"url":"https://github.com/o/r?ref=a@b","source":"github"}`,
		pkg(`{"type":"streamable-http","url":"http://localhost:8080/@mcp"}`),
		`"packages":[{"registryType":"oci","identifier":"ghcr.io/x@sha256:` + strings.Repeat("a", 64) + `","transport":{"type":"stdio"}}]`,
		`"packages":[{"registryType":"npm","identifier":"@scope/name","transport":{"type":"stdio"}}]`,
		`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"ghcr.io/x@sha256:` + strings.Repeat("b", 64) + `":{"status":"active"}}}}`,
	}
	for _, m := range kept {
		s := mustServer(t, `{`+base+`,`+m+`}`)
		if ok, ds := Normalize(s, ObjectRef{Kind: "ConfigMap"}, "x"); !ok {
			t.Errorf("%s: skipped (%v); want it kept", m, ds)
		}
	}
}

func mustServer(t *testing.T, entry string) *Server {
	t.Helper()
	reg, ds := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{})
	if reg == nil || len(reg.Servers) != 1 {
		t.Fatalf("%s: not read: %v", entry, ds)
	}
	return reg.Servers[0]
}

// TestNormalizeRefusesEscapedUserinfo: user information spelt with JSON
// escapes ("\u0040" for "@") is found as the decoded text reads.
func TestNormalizeRefusesEscapedUserinfo(t *testing.T) {
	base := `"name":"com.example/server","description":"d","version":"1.0.0"`
	for _, member := range []string{
		`"packages":[{"registryType":"oci","identifier":"ghcr.io/x:1","transport":{"type":"streamable-http","url":"https://u:s\u0040example.com/mcp"}}]`,
		`"packages":[{"registryType":"oci","identifier":"u:s\u0040ghcr.io/x:1","transport":{"type":"stdio"}}]`,
		`"websiteUrl":"https://u:s\u0040example.com/"`,
		`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"u:s\u0040ghcr.io/x:1":{"status":"active"}}}}`,
	} {
		s := mustServer(t, `{`+base+`,`+member+`}`)
		if ok, ds := Normalize(s, ObjectRef{Kind: "ConfigMap"}, "x"); ok {
			t.Errorf("%s: kept (%v); want it skipped", member, ds)
		}
	}
}
