package discovery

import (
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestParseImage is the truth table of image normalisation.
func TestParseImage(t *testing.T) {
	tests := []struct {
		in, want, repo string
	}{
		{"nginx", "docker.io/library/nginx:latest", "docker.io/library/nginx"},
		{"nginx:1.27", "docker.io/library/nginx:1.27", "docker.io/library/nginx"},
		{"library/nginx", "docker.io/library/nginx:latest", "docker.io/library/nginx"},
		{"docker.io/nginx", "docker.io/library/nginx:latest", "docker.io/library/nginx"},
		{"index.docker.io/library/nginx:latest", "docker.io/library/nginx:latest", "docker.io/library/nginx"},
		{"stacklok/mcp-github", "docker.io/stacklok/mcp-github:latest", "docker.io/stacklok/mcp-github"},
		{"ghcr.io/stacklok/mcp-github:v1.0.0", "ghcr.io/stacklok/mcp-github:v1.0.0", "ghcr.io/stacklok/mcp-github"},
		{"GHCR.IO/stacklok/mcp-github", "ghcr.io/stacklok/mcp-github:latest", "ghcr.io/stacklok/mcp-github"},
		{"localhost/x", "localhost/x:latest", "localhost/x"},
		{"localhost:5000/x:1", "localhost:5000/x:1", "localhost:5000/x"},
		{"registry.company.com:5000/mcp/analytics:v2.1.0", "registry.company.com:5000/mcp/analytics:v2.1.0", "registry.company.com:5000/mcp/analytics"},
		{"ghcr.io/a/b@sha256:abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabca", "ghcr.io/a/b@sha256:abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabca", "ghcr.io/a/b"},
		{"ghcr.io/a/b:1.0@sha256:abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabca", "ghcr.io/a/b:1.0@sha256:abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabca", "ghcr.io/a/b"},
		{"", "", ""},
		{"a b", "", ""},
		{"ghcr.io/a/b:", "", ""},
		{"ghcr.io/a/b@", "", ""},
		{"ghcr.io/", "", ""},
		{"ghcr.io//b", "", ""},
		{":tag", "", ""},
		// What distribution/reference refuses.
		{"ghcr.io/a/b:-bad", "", ""},
		{"ghcr.io/a/b:" + strings.Repeat("t", 129), "", ""},
		{"ghcr.io/a/b:" + strings.Repeat("t", 128), "ghcr.io/a/b:" + strings.Repeat("t", 128), "ghcr.io/a/b"},
		{"ghcr.io/a/b@sha256:abc", "", ""},
		{"ghcr.io/a/b@sha256:" + strings.Repeat("A", 64), "", ""},
		{"ghcr.io/a/b@md5:" + strings.Repeat("a", 32), "", ""},
		{"ghcr.io/a/b:1.0@sha256:", "", ""},
		{"ghcr.io/a/b@sha512:" + strings.Repeat("f", 128), "ghcr.io/a/b@sha512:" + strings.Repeat("f", 128), "ghcr.io/a/b"},
		{"ghcr.io/Org/Tool:1.0", "", ""},
		{"Org/tool", "org/tool:latest", "org/tool"}, // an upper-case first part is a registry host
		{"ghcr.io/a--b/c__d/e.f-g", "ghcr.io/a--b/c__d/e.f-g:latest", "ghcr.io/a--b/c__d/e.f-g"},
		{"ghcr.io/a___b", "", ""},
		{"ghcr.io/a..b", "", ""},
		{"ghcr.io/-a", "", ""},
		{"ghcr.io/a-", "", ""},
		{"gh-.io/a", "", ""},
		{"host:port/a", "", ""},
		{"host:/a", "", ""},
		{"[::1]:5000/a:1", "[::1]:5000/a:1", "[::1]:5000/a"},
		{"[::1]/a", "[::1]/a:latest", "[::1]/a"},
		{"[zz]/a", "", ""},
		{strings.Repeat("a", 64), "", ""},               // an image ID, not a name
		{"ghcr.io/" + strings.Repeat("a", 248), "", ""}, // a name of 256 characters
		{"ghcr.io/" + strings.Repeat("a", 247), "ghcr.io/" + strings.Repeat("a", 247) + ":latest", "ghcr.io/" + strings.Repeat("a", 247)},
		{"ghcr.io/" + strings.Repeat("a", 246) + ":1", "ghcr.io/" + strings.Repeat("a", 246) + ":1", "ghcr.io/" + strings.Repeat("a", 246)},
	}
	for _, tt := range tests {
		ref, ok := ParseImage(tt.in)
		if ok != (tt.want != "") || (ok && (ref.String() != tt.want || ref.Repository != tt.repo)) {
			t.Errorf("ParseImage(%q) = %q (repository %q), %v; want %q (repository %q)", tt.in, ref, ref.Repository, ok, tt.want, tt.repo)
		}
	}
}

// TestSourceMatch checks the source-registry look-up order (docs/decisions.md):
// the exact normalised image first, then the repository; for proxies the
// remote URL; and among equal matches the first by name.
func TestSourceMatch(t *testing.T) {
	src := []byte(`{"servers": [
		{"name": "z.example/latest", "image": "ghcr.io/a/server:latest", "description": "d"},
		{"name": "b.example/v2", "image": "ghcr.io/a/server:v2", "description": "d"},
		{"name": "a.example/v2-too", "image": "ghcr.io/a/server:v2", "description": "d"},
		{"name": "c.example/remote", "url": "https://Remote.Example/mcp", "transport": "sse", "description": "d"},
		{"name": "y.example/pinned", "image": "ghcr.io/a/server@sha256:1111111111111111111111111111111111111111111111111111111111111111", "description": "d"},
		{"name": "x.example/pinned-tagged", "image": "ghcr.io/a/server:v1@sha256:2222222222222222222222222222222222222222222222222222222222222222", "description": "d"}
	]}`)
	reg, ds := model.Parse(src, model.ParseOptions{})
	if reg == nil || len(ds) > 0 {
		t.Fatal(ds)
	}
	ix := newSourceIndex(reg)
	tests := []struct {
		kind, image, remoteURL string
		want, how              string
	}{
		{model.KindMCPServer, "ghcr.io/a/server", "", "z.example/latest", "image"},
		{model.KindMCPServer, "ghcr.io/a/server:v2", "", "a.example/v2-too", "image"},
		{model.KindMCPServer, "ghcr.io/a/server:v3", "", "a.example/v2-too", "repository"},
		{model.KindMCPServer, "ghcr.io/a/server@sha256:0000000000000000000000000000000000000000000000000000000000000000", "", "a.example/v2-too", "repository"},
		// A digest names the image whatever the tag beside it says.
		{model.KindMCPServer, "ghcr.io/a/server@sha256:1111111111111111111111111111111111111111111111111111111111111111", "", "y.example/pinned", "image"},
		{model.KindMCPServer, "ghcr.io/a/server:v2@sha256:1111111111111111111111111111111111111111111111111111111111111111", "", "y.example/pinned", "image"},
		{model.KindMCPServer, "ghcr.io/a/server@sha256:2222222222222222222222222222222222222222222222222222222222222222", "", "x.example/pinned-tagged", "image"},
		{model.KindMCPServer, "ghcr.io/a/server:v9@sha256:2222222222222222222222222222222222222222222222222222222222222222", "", "x.example/pinned-tagged", "image"},
		{model.KindMCPServer, "ghcr.io/a/server:v1", "", "a.example/v2-too", "repository"},
		{model.KindMCPServer, "ghcr.io/a/server:v2@sha256:3333333333333333333333333333333333333333333333333333333333333333", "", "a.example/v2-too", "repository"},
		{model.KindMCPServer, "ghcr.io/a/other:v2", "", "", ""},
		{model.KindMCPServer, "", "", "", ""},
		{model.KindMCPRemoteProxy, "", "https://remote.example/mcp", "c.example/remote", "remote URL"},
		{model.KindMCPRemoteProxy, "", "https://remote.example/mcp/", "", ""},
		{model.KindMCPRemoteProxy, "ghcr.io/a/server", "", "", ""},
		{model.KindVirtualMCPServer, "ghcr.io/a/server", "https://remote.example/mcp", "", ""},
	}
	for _, tt := range tests {
		r := &resource{ref: model.ObjectRef{Kind: tt.kind}, image: tt.image, remoteURL: tt.remoteURL}
		s, how, _ := ix.match(r)
		got := ""
		if s != nil {
			got = s.Name()
		}
		if got != tt.want || how != tt.how {
			t.Errorf("%s image %q remoteURL %q: matched %q by %q; want %q by %q", tt.kind, tt.image, tt.remoteURL, got, how, tt.want, tt.how)
		}
	}
	if s, _, _ := newSourceIndex(nil).match(&resource{ref: model.ObjectRef{Kind: model.KindMCPServer}, image: "x"}); s != nil {
		t.Errorf("no source registry matched %q", s.Name())
	}
}
