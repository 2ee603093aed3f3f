package urlbuild

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func prefixMatch(v string) *gwv1.HTTPPathMatch {
	return &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchPathPrefix), Value: ptr(v)}
}

func exactMatch(v string) *gwv1.HTTPPathMatch {
	return &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchExact), Value: ptr(v)}
}

func replacePrefix(v string) *gwv1.HTTPURLRewriteFilter {
	return &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptr(v)}}
}

func replaceFull(v string) *gwv1.HTTPURLRewriteFilter {
	return &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.FullPathHTTPPathModifier, ReplaceFullPath: ptr(v)}}
}

func TestBasePath(t *testing.T) {
	rows := []struct {
		match   *gwv1.HTTPPathMatch
		want    string
		wantErr string
	}{
		{match: nil, want: "/"},
		{match: &gwv1.HTTPPathMatch{}, want: "/"},
		{match: &gwv1.HTTPPathMatch{Value: ptr("/a/")}, want: "/a"}, // type defaults to PathPrefix
		{match: prefixMatch("/"), want: "/"},
		{match: prefixMatch("/servers/my-mcp-server"), want: "/servers/my-mcp-server"},
		{match: prefixMatch("/github/"), want: "/github"},
		{match: exactMatch("/x/"), want: "/x/"},
		{match: exactMatch("/"), want: "/"},
		{match: &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchRegularExpression), Value: ptr("/v[0-9]+")}, wantErr: "RegularExpression"},
		{match: &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchType("Glob")), Value: ptr("/x")}, wantErr: "not one of"},
		{match: prefixMatch("relative"), wantErr: "not an absolute path"},
		{match: prefixMatch("/a//b"), wantErr: `contains "//"`},
		{match: prefixMatch("/a/../b"), wantErr: "segment"},
		{match: prefixMatch("/a/."), wantErr: "segment"},
		{match: prefixMatch("/a%2Fb"), wantErr: "encoded"},
		{match: prefixMatch("/a b"), wantErr: "cannot carry"},
		{match: prefixMatch("/a#b"), wantErr: "cannot carry"},
		{match: prefixMatch("/a%zz"), wantErr: "cannot carry"},
		{match: prefixMatch("/caf%C3%A9"), want: "/caf%C3%A9"},
	}
	for _, r := range rows {
		got, err := BasePath(r.match)
		if r.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), r.wantErr) {
				t.Errorf("BasePath(%s) = %q, %v; want error containing %q", showMatch(r.match), got, err, r.wantErr)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("BasePath(%s) = %q, %v; want %q", showMatch(r.match), got, err, r.want)
		}
	}
}

// TestRewriteSpecTable is the table of HTTPPathModifier.ReplacePrefixMatch,
// row by row, plus ReplaceFullPath and no rewrite.
func TestRewriteSpecTable(t *testing.T) {
	rows := []struct {
		path    string
		match   *gwv1.HTTPPathMatch
		filter  *gwv1.HTTPURLRewriteFilter
		want    string
		wantErr string
	}{
		// Request Path | Prefix Match | Replace Prefix | Modified Path
		{path: "/foo/bar", match: prefixMatch("/foo"), filter: replacePrefix("/xyz"), want: "/xyz/bar"},
		{path: "/foo/bar", match: prefixMatch("/foo"), filter: replacePrefix("/xyz/"), want: "/xyz/bar"},
		{path: "/foo/bar", match: prefixMatch("/foo/"), filter: replacePrefix("/xyz"), want: "/xyz/bar"},
		{path: "/foo/bar", match: prefixMatch("/foo/"), filter: replacePrefix("/xyz/"), want: "/xyz/bar"},
		{path: "/foo", match: prefixMatch("/foo"), filter: replacePrefix("/xyz"), want: "/xyz"},
		{path: "/foo/", match: prefixMatch("/foo"), filter: replacePrefix("/xyz"), want: "/xyz/"},
		{path: "/foo/bar", match: prefixMatch("/foo"), filter: replacePrefix(""), want: "/bar"},
		{path: "/foo/", match: prefixMatch("/foo"), filter: replacePrefix(""), want: "/"},
		{path: "/foo", match: prefixMatch("/foo"), filter: replacePrefix(""), want: "/"},
		{path: "/foo/", match: prefixMatch("/foo"), filter: replacePrefix("/"), want: "/"},
		{path: "/foo", match: prefixMatch("/foo"), filter: replacePrefix("/"), want: "/"},
		// Element-wise prefix matching (PathMatchPathPrefix).
		{path: "/foobar", match: prefixMatch("/foo"), filter: replacePrefix("/xyz"), wantErr: "does not match PathPrefix"},
		{path: "/abc/def", match: prefixMatch("/abc/"), want: "/abc/def"},
		// The root prefix.
		{path: "/mcp", match: prefixMatch("/"), filter: replacePrefix("/api"), want: "/api/mcp"},
		{path: "/", match: prefixMatch("/"), filter: replacePrefix("/api"), want: "/api/"},
		{path: "/mcp", match: nil, want: "/mcp"},
		// ReplaceFullPath.
		{path: "/foo/bar", match: prefixMatch("/foo"), filter: replaceFull("/mcp"), want: "/mcp"},
		{path: "/x", match: exactMatch("/x"), filter: replaceFull("/mcp"), want: "/mcp"},
		{path: "/x/", match: exactMatch("/x"), filter: replaceFull("/mcp"), wantErr: "does not match Exact"},
		// No rewrite, or a Host-only rewrite.
		{path: "/github/mcp", match: prefixMatch("/github"), want: "/github/mcp"},
		{path: "/github/mcp", match: prefixMatch("/github"), filter: &gwv1.HTTPURLRewriteFilter{Hostname: ptr(gwv1.PreciseHostname("in.example"))}, want: "/github/mcp"},
		// Invalid combinations.
		{path: "/x", match: exactMatch("/x"), filter: replacePrefix("/y"), wantErr: "only compatible with a PathPrefix"},
		{path: "/x", match: prefixMatch("/x"), filter: &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.FullPathHTTPPathModifier}}, wantErr: "without replaceFullPath"},
		{path: "/x", match: prefixMatch("/x"), filter: &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier}}, wantErr: "without replacePrefixMatch"},
		{path: "/x", match: prefixMatch("/x"), filter: &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: "Regex"}}, wantErr: "not one of"},
		{path: "/x", match: prefixMatch("/x"), filter: replaceFull("mcp"), wantErr: "not an absolute path"},
		{path: "/x", match: prefixMatch("/x"), filter: replacePrefix("mcp"), wantErr: "not an absolute path"},
		{path: "x", match: prefixMatch("/"), wantErr: "not absolute"},
	}
	for _, r := range rows {
		got, err := Rewrite(r.path, r.match, r.filter)
		if r.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), r.wantErr) {
				t.Errorf("Rewrite(%q, %s, %s) = %q, %v; want error containing %q", r.path, showMatch(r.match), showFilter(r.filter), got, err, r.wantErr)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("Rewrite(%q, %s, %s) = %q, %v; want %q", r.path, showMatch(r.match), showFilter(r.filter), got, err, r.want)
		}
	}
}

// TestExternalPath is the inversion: the request path that reaches the
// backend endpoint, or why none does.
func TestExternalPath(t *testing.T) {
	rows := []struct {
		endpoint string
		match    *gwv1.HTTPPathMatch
		filter   *gwv1.HTTPURLRewriteFilter
		want     string
		wantErr  string
	}{
		// The example route's rule: /servers/my-mcp-server, ReplacePrefixMatch "/".
		{endpoint: "/mcp", match: prefixMatch("/servers/my-mcp-server"), filter: replacePrefix("/"), want: "/servers/my-mcp-server/mcp"},
		{endpoint: "/", match: prefixMatch("/servers/my-mcp-server"), filter: replacePrefix("/"), want: "/servers/my-mcp-server"},
		{endpoint: "/mcp", match: prefixMatch("/github"), filter: replacePrefix("/"), want: "/github/mcp"},
		{endpoint: "/mcp", match: prefixMatch("/github/"), filter: replacePrefix(""), want: "/github/mcp"},
		{endpoint: "/sse", match: prefixMatch("/github"), filter: replacePrefix("/"), want: "/github/sse"},
		// Replacement with a path of its own.
		{endpoint: "/api/mcp", match: prefixMatch("/github"), filter: replacePrefix("/api"), want: "/github/mcp"},
		{endpoint: "/api", match: prefixMatch("/github"), filter: replacePrefix("/api/"), want: "/github"},
		{endpoint: "/mcp", match: prefixMatch("/github"), filter: replacePrefix("/api"), wantErr: `paths under "/api"`},
		{endpoint: "/apimcp", match: prefixMatch("/github"), filter: replacePrefix("/api"), wantErr: `paths under "/api"`},
		// The github-mcp-external route's rule: PathPrefix /github, no
		// rewrite: the backend sees /github/...
		{endpoint: "/mcp", match: prefixMatch("/github"), wantErr: `under PathPrefix "/github", and the endpoint path "/mcp" is not`},
		{endpoint: "/github/mcp", match: prefixMatch("/github"), want: "/github/mcp"},
		{endpoint: "/mcp", match: prefixMatch("/"), want: "/mcp"},
		{endpoint: "/mcp", match: nil, want: "/mcp"},
		{endpoint: "/mcp", match: prefixMatch("/mcp"), want: "/mcp"},
		{endpoint: "/mcp", match: prefixMatch("/mc"), wantErr: `under PathPrefix "/mc", and the endpoint path "/mcp" is not`},
		// Exact.
		{endpoint: "/mcp", match: exactMatch("/mcp"), want: "/mcp"},
		{endpoint: "/mcp", match: exactMatch("/x"), wantErr: `Exact "/x" only matches`},
		{endpoint: "/mcp", match: exactMatch("/x"), filter: replaceFull("/mcp"), want: "/x"},
		{endpoint: "/mcp", match: exactMatch("/x"), filter: replaceFull("/other"), wantErr: `every request to "/other"`},
		{endpoint: "/mcp", match: exactMatch("/x"), filter: replacePrefix("/"), wantErr: "only compatible with a PathPrefix"},
		// ReplaceFullPath under a prefix: the base path is the canonical one.
		{endpoint: "/mcp", match: prefixMatch("/x/"), filter: replaceFull("/mcp"), want: "/x"},
		{endpoint: "/mcp", match: prefixMatch("/"), filter: replaceFull("/mcp"), want: "/"},
		{endpoint: "/mcp/", match: prefixMatch("/x"), filter: replaceFull("/mcp"), wantErr: "every request"},
		// The root prefix with a replacement: "/" reaches "/api/", so "/api" is unreachable.
		{endpoint: "/api", match: prefixMatch("/"), filter: replacePrefix("/api"), wantErr: `reaches "/api/" instead`},
		{endpoint: "/api/", match: prefixMatch("/"), filter: replacePrefix("/api"), want: "/"},
		{endpoint: "/api/mcp", match: prefixMatch("/"), filter: replacePrefix("/api"), want: "/mcp"},
		{endpoint: "/", match: prefixMatch("/"), filter: replacePrefix("/"), want: "/"},
		// Unusable endpoints and matches.
		{endpoint: "mcp", match: prefixMatch("/"), wantErr: "endpoint path"},
		{endpoint: "/m cp", match: prefixMatch("/"), wantErr: "endpoint path"},
		{endpoint: "/mcp", match: &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchRegularExpression), Value: ptr("/.*")}, wantErr: "RegularExpression"},
	}
	for _, r := range rows {
		got, err := ExternalPath(r.endpoint, r.match, r.filter)
		if r.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), r.wantErr) {
				t.Errorf("ExternalPath(%q, %s, %s) = %q, %v; want error containing %q", r.endpoint, showMatch(r.match), showFilter(r.filter), got, err, r.wantErr)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("ExternalPath(%q, %s, %s) = %q, %v; want %q", r.endpoint, showMatch(r.match), showFilter(r.filter), got, err, r.want)
			continue
		}
		if back, err := Rewrite(got, r.match, r.filter); err != nil || back != r.endpoint {
			t.Errorf("Rewrite(ExternalPath(%q)) = %q, %v", r.endpoint, back, err)
		}
	}
}

func showMatch(m *gwv1.HTTPPathMatch) string {
	if m == nil {
		return "<nil>"
	}
	typ, value := DefaultPathMatch(gwv1.HTTPRouteMatch{Path: m})
	return string(typ) + " " + value
}

func showFilter(f *gwv1.HTTPURLRewriteFilter) string {
	if f == nil || f.Path == nil {
		return "<none>"
	}
	switch {
	case f.Path.ReplaceFullPath != nil:
		return string(f.Path.Type) + " " + *f.Path.ReplaceFullPath
	case f.Path.ReplacePrefixMatch != nil:
		return string(f.Path.Type) + " " + *f.Path.ReplacePrefixMatch
	}
	return string(f.Path.Type)
}

// TestCheckPathOnePass: checkPath's one pass accepts exactly the paths
// checkPathFull accepts, and where it refuses, the error is checkPathFull's.
func TestCheckPathOnePass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.StringMatching(`/?([a-zA-Z0-9._~!$&'()*+,;=:@%# \x00\xff-]{0,4}/?){0,5}(\.|\.\.|%2[fF]|%4)?`).Draw(t, "path")
		if rapid.Bool().Draw(t, "long") {
			p = "/" + strings.Repeat("a", 1020) + p
		}
		got, want := checkPath(p), checkPathFull(p)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Fatalf("checkPath(%q) = %v, checkPathFull %v", p, got, want)
		}
	})
}

// TestBackendPath checks the backend path of a request a RegularExpression
// match takes: the request path, or ReplaceFullPath's; ReplacePrefixMatch
// cannot go with it. Other matches rewrite as Rewrite does.
func TestBackendPath(t *testing.T) {
	regex := &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchRegularExpression), Value: ptr("/docs.*")}
	rows := []struct {
		path   string
		match  *gwv1.HTTPPathMatch
		filter *gwv1.HTTPURLRewriteFilter
		want   string // "" for an error
	}{
		{"/docs", regex, nil, "/docs"},
		{"/docs/mcp", regex, nil, "/docs/mcp"},
		{"/docs", regex, replaceFull("/mcp"), "/mcp"},
		{"/docs", regex, replacePrefix("/"), ""},
		{"docs", regex, nil, ""},
		{"/docs/x", prefixMatch("/docs"), replacePrefix("/"), "/x"},
		{"/other", prefixMatch("/docs"), nil, ""},
	}
	for _, r := range rows {
		got, err := backendPath(r.path, r.match, r.filter)
		if r.want == "" {
			if err == nil {
				t.Errorf("backendPath(%q, %v): %q, want an error", r.path, *r.match.Value, got)
			}
			continue
		}
		if err != nil || got != r.want {
			t.Errorf("backendPath(%q, %v) = %q, %v; want %q", r.path, *r.match.Value, got, err, r.want)
		}
	}
}

// TestIsWellKnownParts: head+tail is /.well-known or under it, however the
// path is split.
func TestIsWellKnownParts(t *testing.T) {
	for _, p := range []string{"/.well-known", "/.well-known/", "/.well-known/oauth-protected-resource/mcp", "/", "/mcp", "/.well-knownx", "/.well", "/x/.well-known/a", ""} {
		want := p == "/.well-known" || strings.HasPrefix(p, "/.well-known/")
		for i := 0; i <= len(p); i++ {
			if got := isWellKnownParts(p[:i], p[i:]); got != want {
				t.Errorf("isWellKnownParts(%q, %q) = %v, want %v", p[:i], p[i:], got, want)
			}
		}
	}
}

// TestIsWellKnownEncoded: percent-encoded unreserved characters are the
// characters themselves (RFC 3986 6.2.2.2), so they do not hide the prefix.
func TestIsWellKnownEncoded(t *testing.T) {
	for p, want := range map[string]bool{
		"/%2ewell-known/oauth-protected-resource": true,
		"/%2Ewell-known":    true,
		"/.well-%6Bnown/x":  true,
		"/%2e%77ell-known/": true,
		"/%2fwell-known":    false, // an encoded slash is not a dot
		"/.well-known%2fx":  false, // nor a path separator
		"/mcp%2":            false,
		"/%zz":              false,
	} {
		if got := isWellKnown(p); got != want {
			t.Errorf("isWellKnown(%q) = %v, want %v", p, got, want)
		}
	}
}
