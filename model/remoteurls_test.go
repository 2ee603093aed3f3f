package model_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// TestRemoteURLsIsRemotes: RemoteURLs, which walks the remotes without
// building them and decodes a key only when it has escapes, yields the
// non-empty URLs of Remotes in order — for keys spelled with escapes ("url"
// as "\u0075rl"), keys near "url", repeated "url" members (the last
// counts), URLs that are not strings or are empty, and elements that are
// not objects.
func TestRemoteURLsIsRemotes(t *testing.T) {
	key := rapid.SampledFrom([]string{`"url"`, `"\u0075rl"`, `"ur\u006c"`, `"URL"`, `"urls"`, `"ur"`, `"type"`, `"u\\rl"`, `"headers"`})
	value := rapid.SampledFrom([]string{`"https://a.example.com/mcp"`, `""`, `"https://b.example.com/\u00e9"`, `1`, `null`, `["x"]`, `{"url":"https://c.example.com"}`})
	rapid.Check(t, func(t *rapid.T) {
		var els []string
		for i := range rapid.IntRange(0, 4).Draw(t, "remotes") {
			if rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("shape%d", i)) == 0 {
				els = append(els, `"not an object"`)
				continue
			}
			var ms []string
			for j := range rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("members%d", i)) {
				ms = append(ms, key.Draw(t, fmt.Sprintf("key%d_%d", i, j))+":"+value.Draw(t, fmt.Sprintf("value%d_%d", i, j)))
			}
			els = append(els, "{"+strings.Join(ms, ",")+"}")
		}
		doc := `{"data":{"servers":[{"name":"com.example/s","remotes":[` + strings.Join(els, ",") + `]}]}}`
		reg, ds := model.Parse([]byte(doc), model.ParseOptions{})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: not read: %v", doc, ds)
		}
		s := reg.Servers[0]
		var want []string
		for _, r := range s.Remotes() {
			if r.URL != "" {
				want = append(want, r.URL)
			}
		}
		if got := slices.Collect(s.RemoteURLs()); !slices.Equal(got, want) {
			t.Fatalf("%s: RemoteURLs = %q, Remotes' URLs = %q", doc, got, want)
		}
	})
}

// TestRemoteURLsOfLeanRemotes: for remotes the scan's lean reading accepts
// (typed, with plain URLs) and ones it declines, alone or mixed, RemoteURLs
// yields the URLs of Remotes, and still does once "remotes" is replaced.
func TestRemoteURLsOfLeanRemotes(t *testing.T) {
	remote := rapid.SampledFrom([]string{
		`{"type":"sse","url":"https://a.example.com/sse"}`,
		`{"type":"streamable-http","url":"https://b.example.com:8443/mcp?x=1"}`,
		`{"url":"https://c.example.com/mcp","type":"streamable-http","headers":[{"name":"X-Team","value":"a"}]}`,
		`{"type":"sse","url":"http://d.example.com/sse"}`,
		`{"type":"sse","url":"https://e.example.com/\u00e9"}`,
		`{"type":"sse","url":""}`,
		`{"type":"stdio"}`,
		`{"type":"sse"}`,
		`{"type":"sse","url":"https://f.example.com","url":"https://g.example.com"}`,
		`{"type" : "sse", "url" : "https://h.example.com"}`,
	})
	rapid.Check(t, func(t *rapid.T) {
		els := rapid.SliceOfN(remote, 0, 3).Draw(t, "remotes")
		doc := `{"data":{"servers":[{"name":"com.example/s","description":"d","version":"1.0.0","remotes":[` + strings.Join(els, ",") + `]}]}}`
		reg, ds := model.Parse([]byte(doc), model.ParseOptions{})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: not read: %v", doc, ds)
		}
		s := reg.Servers[0]
		check := func(when string) {
			var want []string
			for _, r := range s.Remotes() {
				if r.URL != "" {
					want = append(want, r.URL)
				}
			}
			if got := slices.Collect(s.RemoteURLs()); !slices.Equal(got, want) {
				t.Fatalf("%s, %s: RemoteURLs = %q, Remotes' URLs = %q", doc, when, got, want)
			}
		}
		check("as read")
		if rapid.Bool().Draw(t, "replace") {
			s.SetRemotes([]model.Remote{{Type: "sse", URL: "https://z.example.com/sse"}})
			check("after SetRemotes")
		}
	})
}
