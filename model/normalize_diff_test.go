package model

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpreg/mcpreg/internal/jsonx"
	"pgregory.net/rapid"
)

// NormalizeWith folds checks that used to be walks of their own (are the
// remote URLs plain, which is the publisher-provided block, are there two
// packages or remotes to compare) into the validator's walk of the entry.
// These tests hold it to the plain composition of those checks it replaced,
// normalizeSimple: the same verdict, the same diagnostics in the same order
// and the same entry afterwards, byte for byte.

// normalizeSimple is NormalizeWith as a sequence of separate passes, each
// reading the entry afresh: the reference for the fast path.
func normalizeSimple(s *Server, obj ObjectRef, fieldPrefix string, opts NormalizeOptions) (ok bool, ds Diagnostics) {
	if s == nil {
		return false, Diagnostics{Warningf(ReasonInvalidEntry, obj, fieldPrefix, "entry skipped: no server (nil)")}
	}
	f := func(name string) string { return joinField(fieldPrefix, name) }
	if raw, ok := s.Get(KeyDescription); ok && len(raw) > DescriptionMaxLen+2 {
		if d := s.Description(); utf8.RuneCountInString(d) > DescriptionMaxLen {
			short := ShortenDescription(d)
			ds = append(ds, Warningf(ReasonDescriptionTooLong, obj, f(KeyDescription),
				"server %q: description of %d characters shortened to %d", s.Name(), utf8.RuneCountInString(d), utf8.RuneCountInString(short)))
			s.SetDescription(short)
		}
	}
	if raw, ok := s.Get(KeyTitle); ok && len(raw) > TitleMaxLen+2 {
		if t := s.Title(); utf8.RuneCountInString(t) > TitleMaxLen {
			short := shorten(t, TitleMaxLen)
			ds = append(ds, Warningf(ReasonDescriptionTooLong, obj, f(KeyTitle),
				"server %q: title of %d characters shortened to %d", s.Name(), utf8.RuneCountInString(t), utf8.RuneCountInString(short)))
			s.Set(KeyTitle, jsonx.Quote(short))
		}
	}
	if key, why := badText(s); why != "" {
		ds = append(ds, Warningf(ReasonInvalidEntry, obj, f(key), "server %q skipped: %s", s.Name(), Text(why)))
		return false, ds
	}
	if !remoteURLsPlain(s) {
		ds = append(ds, dropInvalidRemoteURLs(s, obj, f(KeyRemotes))...)
	}
	var problems []string
	for _, d := range ValidateServer(s, obj, fieldPrefix) {
		switch d.Severity {
		case SeverityError:
			problems = append(problems, strings.TrimPrefix(d.Message, string(Sprintf("server %q: ", s.Name()))))
		default:
			ds = append(ds, d)
		}
	}
	if len(problems) > 0 {
		ds = append(ds, Warningf(ReasonInvalidEntry, obj, fieldPrefix,
			"server %q skipped: %s", s.Name(), Text(strings.Join(problems, "; "))))
		return false, ds
	}
	ok, cds := Canonicalize(s, obj, fieldPrefix, opts)
	return ok, append(ds, cds...)
}

// remoteValues are remote URLs as JSON values: plain ones, ones CheckURL
// refuses or rewrites, escaped ones and values that are not strings.
var remoteValues = []string{
	`"https://api.example.com/mcp"`, `"https://b.example.com/sse"`, `"http://c.internal:8080/"`, `""`,
	`"https://u:p@h.example.com/"`, `"https:\/\/api.example.com\/mcp"`, `"https://10.0.0.1/"`,
	`"HTTPS://A.example.com/"`, `"https://x.example.com:443/"`, `"https://x.example.com/a%20b"`,
	`"https://0x7f.1/"`, `"ftp://x.example.com/"`, `"https://x.example.com/#f"`, `7`, `null`,
}

// normalizeEntryGen draws entries meant to pass validation (so that the
// canonical form is reached) with what the fast path must get right:
// several, repeated and unsorted remotes and packages, URLs to drop, an
// absent $schema, long descriptions, several or no publisher blocks,
// inexact numbers, repeated and escaped keys.
func normalizeEntryGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		odd := rapid.IntRange(0, 4).Draw(t, "odd") == 0
		key := func(k string) string {
			if odd && rapid.IntRange(0, 9).Draw(t, "escape key") == 0 {
				return `"\u00` + fmt.Sprintf("%02x", k[0]) + k[1:] + `"`
			}
			return `"` + k + `"`
		}
		var ms []string
		add := func(k, v string) { ms = append(ms, key(k)+":"+v) }
		if rapid.IntRange(0, 3).Draw(t, "schema") > 0 {
			add(KeySchema, `"`+ServerSchemaURL+`"`)
		}
		add(KeyName, rapid.SampledFrom([]string{`"io.example/srv"`, `"com.acme.team/tool-mcp"`, `"ab/x"`}).Draw(t, "name"))
		add(KeyDescription, rapid.SampledFrom([]string{`"A server"`, `"\u0041"`, `""`, `"\"` + strings.Repeat("x", 99) + `"`, `"` + strings.Repeat("word ", 30) + `"`, `"` + strings.Repeat("é", 101) + `"`}).Draw(t, "description"))
		if rapid.Bool().Draw(t, "has title") {
			add(KeyTitle, rapid.SampledFrom([]string{`"T"`, `""`, `"\u0054"`, `"\t` + strings.Repeat("t", 99) + `"`, `"` + strings.Repeat("t", 120) + `"`}).Draw(t, "title"))
		}
		add(KeyVersion, rapid.SampledFrom([]string{`"1.0.0"`, `"latest"`, `"l\u0061test"`, `""`, `"\u0031.0"`, `"` + strings.Repeat("9", 256) + `"`}).Draw(t, "version"))
		if rapid.Bool().Draw(t, "has repository") {
			add("repository", `{"url":"https://github.com/a/b","source":"github"}`)
		}
		if n := rapid.IntRange(0, 4).Draw(t, "remotes"); n > 0 || rapid.Bool().Draw(t, "empty remotes") {
			els := make([]string, n)
			for i := range els {
				typ := rapid.SampledFrom([]string{TransportStreamableHTTP, TransportSSE}).Draw(t, "type")
				url := rapid.SampledFrom(remoteValues[:5]).Draw(t, "url")
				if rapid.IntRange(0, 3).Draw(t, "odd url") == 0 {
					url = rapid.SampledFrom(remoteValues).Draw(t, "any url")
				}
				el := `{"type":"` + typ + `","url":` + url
				if odd && rapid.IntRange(0, 3).Draw(t, "repeat url") == 0 {
					el = `{"url":"https://first.example.com/","type":"` + typ + `","url":` + url
				}
				if rapid.Bool().Draw(t, "headers") {
					el += `,"headers":[{"name":"Authorization","isSecret":true}]`
				}
				els[i] = el + "}"
			}
			add(KeyRemotes, "["+strings.Join(els, ",")+"]")
		}
		if n := rapid.IntRange(0, 3).Draw(t, "packages"); n > 0 || rapid.Bool().Draw(t, "empty packages") {
			els := make([]string, n)
			for i := range els {
				els[i] = `{"registryType":"oci","identifier":` +
					rapid.SampledFrom([]string{`"ghcr.io/a/b:1"`, `"ghcr.io/a/c:1"`}).Draw(t, "identifier") +
					`,"transport":{"type":"stdio"}` +
					rapid.SampledFrom([]string{``, `,"runtimeHint":"docker"`}).Draw(t, "extra") + `}`
			}
			add(KeyPackages, "["+strings.Join(els, ",")+"]")
		}
		if rapid.Bool().Draw(t, "has meta") {
			ext := `{"status":"active","tools":["a","b"],"metadata":{"stars":` +
				rapid.SampledFrom([]string{"3", "0.1", "12345678901234567890"}).Draw(t, "stars") + `}}`
			var pubs []string
			for range rapid.IntRange(0, 2).Draw(t, "blocks") {
				pubs = append(pubs, key(PublisherProvidedKey)+`:{"io.github.stacklok":{"ghcr.io/a/b:1":`+ext+`}}`)
			}
			if rapid.Bool().Draw(t, "other meta") {
				pubs = append(pubs, `"io.example/other":{"x":1}`)
			}
			add(KeyMeta, "{"+strings.Join(pubs, ",")+"}")
		}
		if odd && rapid.IntRange(0, 3).Draw(t, "repeat member") == 0 {
			ms = append(ms, ms[rapid.IntRange(0, len(ms)-1).Draw(t, "repeated")])
		}
		return "{" + strings.Join(ms, ",") + "}"
	})
}

// checkNormalizeAgrees fails unless NormalizeWith and normalizeSimple agree
// on a copy of s each.
func checkNormalizeAgrees(t interface {
	Helper()
	Fatalf(string, ...any)
}, s *Server, what string, opts NormalizeOptions) {
	t.Helper()
	obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}
	a, b := s.Clone(), s.Clone()
	okA, dsA := NormalizeWith(a, obj, "data.servers[3]", opts)
	okB, dsB := normalizeSimple(b, obj, "data.servers[3]", opts)
	if okA != okB {
		t.Fatalf("%s: NormalizeWith says %v, the simple path %v", what, okA, okB)
	}
	if diff := cmp.Diff(dsB, dsA); diff != "" {
		t.Fatalf("%s: diagnostics differ (-simple +now):\n%s", what, diff)
	}
	if ja, jb := a.AppendJSON(nil), b.AppendJSON(nil); string(ja) != string(jb) {
		t.Fatalf("%s: entries differ:\nnow    %s\nsimple %s", what, ja, jb)
	}
}

func TestNormalizeAgreesWithSimplePath(t *testing.T) {
	var kept, canonical int
	rapid.Check(t, func(t *rapid.T) {
		var entry string
		if rapid.IntRange(0, 3).Draw(t, "schema-wide") == 0 {
			entry = entryGen().Draw(t, "entry")
		} else {
			entry = normalizeEntryGen().Draw(t, "entry")
		}
		opts := NormalizeOptions{MaxMetaSize: rapid.SampledFrom([]int{0, -1, 60, 200}).Draw(t, "max meta")}
		var servers []*Server
		if s, err := ParseServer([]byte(entry)); err == nil {
			servers = append(servers, s)
		}
		if reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream}); reg != nil && len(reg.Servers) == 1 {
			servers = append(servers, reg.Servers[0])
		}
		for _, s := range servers {
			checkNormalizeAgrees(t, s, entry, opts)
			if ok, ds := NormalizeWith(s.Clone(), ObjectRef{}, "", opts); ok {
				kept++
				if len(ds) > 0 {
					canonical++
				}
			}
		}
	})
	t.Logf("entries kept: %d, with a diagnostic: %d", kept, canonical)
	if kept == 0 || canonical == 0 {
		t.Errorf("entries kept: %d, with a diagnostic: %d; want both", kept, canonical)
	}
}

// TestContentsAgreesWithPlainString holds validator.contents, which trusts
// an entry known to be Unicode text, to plainString, which checks every
// byte, on string literals with and without escapes and on values that are
// not strings.
func TestContentsAgreesWithPlainString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "latest", " ", "é", `\"`, `\\`, `\n`, `\u0041`, `\ud83d\ude00`, `\/`}), 0, 8).Draw(t, "pieces")
		lit := `"` + strings.Join(pieces, "") + `"`
		if rapid.IntRange(0, 5).Draw(t, "not a string") == 0 {
			lit = rapid.SampledFrom([]string{`5`, `null`, `{"a":"b"}`, `["x"]`}).Draw(t, "other")
		}
		entry := `{"name":"io.example/x","description":` + lit + `}`
		reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: not read", entry)
		}
		s := reg.Servers[0]
		raw, _ := s.Get(KeyDescription)
		v := validator{server: s}
		got, gotOK := v.contents(raw)
		want, wantOK := plainString(raw)
		if gotOK != wantOK || string(got) != string(want) {
			t.Fatalf("%s (textOK %v): contents %q, %v; plainString %q, %v", raw, s.textOK, got, gotOK, want, wantOK)
		}
	})
}
