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
	checked := validateServer(s, obj, fieldPrefix, true)
	if checked.HasErrors() {
		// Extensions without a status get the default when nothing else
		// is wrong.
		orig, _ := s.Get(KeyMeta)
		if keys := addMissingStatus(s); len(keys) > 0 {
			if again := validateServer(s, obj, fieldPrefix, true); !again.HasErrors() {
				checked = again
				ds = append(ds, statusWarnings(s, obj, fieldPrefix, keys)...)
			} else {
				s.Set(KeyMeta, orig)
			}
		}
	}
	var problems []string
	for _, d := range checked {
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

// leanEntryGen draws entries written compactly (as Parse's lean reading
// wants them): the schema-wide drawings of entryGen with their whitespace
// removed, and the entries normalizeEntryGen draws.
func leanEntryGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		if rapid.Bool().Draw(t, "schema-wide") {
			return string(jsonx.AppendCompact(nil, []byte(entryGen().Draw(t, "entry"))))
		}
		return normalizeEntryGen().Draw(t, "entry")
	})
}

// TestLeanAgreesWithChecks holds the lean reading of validate_lean.go to
// the checks it spares: where it finds a member valid, the checks of that
// member report nothing and find the same facts; and the validator with it
// agrees with the oracle and with careful mode (which never reads lean).
func TestLeanAgreesWithChecks(t *testing.T) {
	var yes, no int
	rapid.Check(t, func(t *rapid.T) {
		entry := leanEntryGen().Draw(t, "entry")
		reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Skip("not an entry")
		}
		s := reg.Servers[0]
		checkOracle(t, s, "Parse")
		checkLeanEntry(t, s, entry)
		for _, m := range s.allMembers() {
			switch m.Key {
			case "repository", "icons", KeyRemotes, KeyPackages, KeyMeta:
			default:
				continue
			}
			lv := validator{server: s, prefix: "p"}
			if !lv.index.useEntryIndex(s, m.Value) || !lv.leanMember(m.Key, m.Value) {
				no++
				continue
			}
			yes++
			cv := validator{server: s, prefix: "p", careful: true}
			cv.index.useEntryIndex(s, m.Value)
			cv.container(m.Key, m.Value)
			if len(cv.ds) > 0 {
				t.Fatalf("%s: the lean reading finds %s valid; the checks say %v", entry, m.Key, cv.ds)
			}
			if cv.facts.remotes != lv.facts.remotes || cv.facts.packages != lv.facts.packages ||
				!same(cv.facts.block, lv.facts.block) && (cv.facts.block != nil || lv.facts.block != nil) || cv.facts.urlsNotPlain {
				t.Fatalf("%s: %s: facts %+v, the checks' %+v", entry, m.Key, lv.facts, cv.facts)
			}
		}
	})
	t.Logf("members read lean: %d, left to the checks: %d", yes, no)
	if yes == 0 || no == 0 {
		t.Errorf("members read lean: %d, left to the checks: %d; want both", yes, no)
	}
}

// TestLeanReadsFixture: every member of the fixture entries (as a merge of
// the bench module's data reads them) is read lean, so the fast path is
// the one measured.
func TestLeanReadsFixture(t *testing.T) {
	_, reg := validateFixture(t)
	for _, s := range reg.Servers {
		if _, ok := leanEntry(s); !ok {
			t.Errorf("%s: not read lean whole", s.Name())
		}
		for _, m := range s.allMembers() {
			switch m.Key {
			case "repository", KeyRemotes, KeyPackages, KeyMeta:
				v := validator{server: s}
				if !v.index.useEntryIndex(s, m.Value) || !v.leanMember(m.Key, m.Value) {
					t.Errorf("%s: %s not read lean: %s", s.Name(), m.Key, m.Value)
				}
			}
		}
	}
}

// leanMemberGen draws the members the lean reading reads, mostly valid in
// the common form, each field now and then missing, repeated, of another
// type or breaking a rule: single defects in otherwise valid members are
// what a fast path that says yes too easily gets wrong.
type leanDraw struct{ t *rapid.T }

func newLeanDraw(t *rapid.T) leanDraw { return leanDraw{t} }

// v draws a value: one of good mostly, else one of bad. A member drawn
// holds some 50 values: about a third of them come out with no defect
// and another third with exactly one.
func (d leanDraw) v(name string, good []string, bad ...string) string {
	if len(bad) > 0 && rapid.IntRange(0, 39).Draw(d.t, name+" bad?") == 0 {
		return rapid.SampledFrom(bad).Draw(d.t, name+" bad")
	}
	return rapid.SampledFrom(good).Draw(d.t, name)
}

// obj writes an object of the given members, each present mostly, one
// repeated now and then, with an unknown member sometimes.
func (d leanDraw) obj(members ...[2]string) string {
	var ms []string
	for _, m := range members {
		// A name starting with "?" is a member the lean reading leaves
		// to the checks: rarely drawn, so that the others are read lean.
		name, rare := strings.CutPrefix(m[0], "?")
		if rare && rapid.IntRange(0, 7).Draw(d.t, name+" rare?") == 0 || !rare && rapid.IntRange(0, 11).Draw(d.t, name+" omit?") > 0 {
			ms = append(ms, d.key(name)+`:`+m[1])
		}
	}
	if len(ms) > 0 && rapid.IntRange(0, 14).Draw(d.t, "repeat?") == 0 {
		ms = append(ms, ms[rapid.IntRange(0, len(ms)-1).Draw(d.t, "repeat")])
	}
	if rapid.IntRange(0, 9).Draw(d.t, "unknown?") == 0 {
		ms = append(ms, `"x-other":`+d.v("other", []string{`1`, `"s"`, `{"a":[1,{}]}`, `[]`, `null`, `"\u00e9\n"`}))
	}
	return "{" + strings.Join(ms, ",") + "}"
}

// key writes the key name, now and then as another spelling of it (an
// escape, which the checks decode to the same key) or as a near miss (one
// the checks take for an unknown key): the lean reading tells keys by
// their bytes and must take neither for the key.
func (d leanDraw) key(name string) string {
	if len(name) == 0 || rapid.IntRange(0, 29).Draw(d.t, name+" spelling?") > 0 {
		return `"` + name + `"`
	}
	switch rapid.IntRange(0, 4).Draw(d.t, name+" spelling") {
	case 0:
		return `"` + fmt.Sprintf(`\u%04x`, name[0]) + name[1:] + `"`
	case 1:
		return `"` + name[:len(name)-1] + fmt.Sprintf(`\u%04x`, name[len(name)-1]) + `"`
	case 2:
		return `"` + name + `s"`
	case 3:
		return `"` + name[:len(name)-1] + `"`
	}
	return `"` + strings.ToUpper(name[:1]) + name[1:] + `"`
}

func (d leanDraw) arr(name string, el func() string) string {
	n := rapid.IntRange(0, 3).Draw(d.t, name+" len")
	els := make([]string, n)
	for i := range els {
		els[i] = el()
	}
	return "[" + strings.Join(els, ",") + "]"
}

func (d leanDraw) str() string {
	return d.v("str", []string{`"x"`, `"Bearer token"`, `""`, `"\u00e9 \"q\""`}, `5`, `true`, `null`, `{}`)
}

func (d leanDraw) boolean() string {
	return d.v("bool", []string{`true`, `false`}, `"yes"`, `1`, `null`)
}

func (d leanDraw) keyValue() string {
	return d.obj([2]string{"name", d.v("name", []string{`"API_KEY"`, `"Authorization"`}, `5`, `null`)},
		[2]string{"description", d.str()}, [2]string{"default", d.str()}, [2]string{"value", d.str()}, [2]string{"placeholder", d.str()},
		[2]string{"isRequired", d.boolean()}, [2]string{"isSecret", d.boolean()},
		[2]string{"format", d.v("format", []string{`"string"`, `"filepath"`}, `"json"`, `5`, `"str\u0069ng"`)},
		[2]string{"?choices", d.v("choices", []string{`["a","b"]`}, `[5]`, `5`)},
		[2]string{"?variables", d.v("variables", []string{`{}`}, `{"a":{"format":"json"}}`, `5`)})
}

func (d leanDraw) transport(remote bool) string {
	types := []string{`"streamable-http"`, `"sse"`}
	if !remote {
		types = append(types, `"stdio"`, `"stdio"`, `"stdio"`)
	}
	return d.obj([2]string{"type", d.v("type", types, `"stdio"`, `"grpc"`, `5`, `"s\u0073e"`, `""`)},
		[2]string{"url", d.v("url", []string{`"https://api.example.com/mcp"`, `"https://x.example.com:8443/sse"`},
			`"https://u:p@h.example.com/"`, `""`, `"ftp://x.example.com/"`, `5`, `"https://x y"`, `"https://10.0.0.1/"`, `"HTTPS://A.example.com/"`, `"https:\/\/x.example.com/"`)},
		[2]string{"headers", d.v("headers", []string{d.arr("headers", d.keyValue)}, `5`, `[5]`, `{}`)},
		[2]string{"?variables", d.v("vars", []string{`{}`}, `{"a":{"isSecret":1}}`, `5`)})
}

func (d leanDraw) pkg() string {
	return d.obj([2]string{"registryType", d.v("registryType", []string{`"oci"`, `"npm"`}, `5`)},
		[2]string{"identifier", d.v("identifier", []string{`"ghcr.io/a/b:1"`, `"@a/b"`}, `5`, `null`)},
		[2]string{"version", d.v("version", []string{`"1.2.3"`}, `""`, `"latest"`, `"l\u0061test"`, `5`)},
		[2]string{"fileSha256", d.v("sha", []string{`"` + strings.Repeat("ab", 32) + `"`}, `"ABC"`, `5`)},
		[2]string{"registryBaseUrl", d.v("base", []string{`"https://registry.npmjs.org"`}, `"not a uri"`, `"a\\b:c"`, `5`)},
		[2]string{"runtimeHint", d.v("hint", []string{`"npx"`}, `5`)},
		[2]string{"transport", d.v("transport", []string{d.transport(false)}, `5`, `null`)},
		[2]string{"environmentVariables", d.v("envs", []string{d.arr("envs", d.keyValue)}, `5`, `[5]`)},
		[2]string{"?packageArguments", d.v("args", []string{`[]`}, `[{"type":"positional"}]`)})
}

func (d leanDraw) strList(name string, good []string, bad ...string) string {
	return d.v(name, []string{d.arr(name, func() string { return d.v(name+" el", good, bad...) })}, `5`, `{}`)
}

func (d leanDraw) ext() string {
	return d.obj([2]string{"status", d.v("status", []string{`"active"`, `"Deprecated"`}, `"gone"`, `5`, `"\u0061ctive"`)},
		[2]string{"tier", d.v("tier", []string{`"Official"`, `"Community"`}, `"official"`, `5`)},
		[2]string{"overview", d.str()},
		[2]string{"tools", d.strList("tools", []string{`"get_issue"`, `"list-repos"`, `"x"`}, `"bad tool"`, `""`, `5`, `"get\u005fissue"`)},
		[2]string{"tags", d.strList("tags", []string{`"git"`, `"ci-cd"`, `"a1"`}, `"Git"`, `"a"`, `"x-"`, `5`)},
		[2]string{"metadata", d.v("metadata", []string{d.obj(
			[2]string{"stars", d.v("stars", []string{`0`, `26`, `954`}, `-1`, `"3"`, `1.5`, `-0`, `1e400`)},
			[2]string{"last_updated", d.v("updated", []string{`"2025-08-29T01:31:29Z"`}, `"2025-02-30T00:00:00Z"`, `"yesterday"`, `5`)},
			[2]string{"kubernetes", d.v("k8s", []string{d.obj([2]string{"kind", d.str()}, [2]string{"image", d.str()},
				[2]string{"namespace", d.v("ns", []string{`"default"`, `"a-b"`}, `"A"`, `"-a"`, `""`, `5`)},
				[2]string{"name", d.v("k8s name", []string{`"srv"`}, `"a-"`, `5`)},
				[2]string{"uid", d.v("uid", []string{`"123e4567-e89b-12d3-a456-426614174000"`}, `"123E4567-e89b-12d3-a456-426614174000"`, `"x"`)},
				[2]string{"transport", d.v("k8s transport", []string{`"stdio"`, `"http"`}, `"grpc"`, `5`)})}, `5`)})}, `5`, `[]`)},
		[2]string{"stateless", d.boolean()},
		[2]string{"custom_metadata", d.v("custom", []string{`{}`, `{"a":[1]}`}, `5`, `[]`)},
		[2]string{"proxy_port", d.v("port", []string{`8080`, `1`, `65535`}, `0`, `65536`, `1.5`, `"80"`, `8080.0`)},
		[2]string{"docker_tags", d.strList("docker", []string{`"1.0"`, `"latest"`}, `5`, `"\u0031"`)},
		[2]string{"args", d.strList("args", []string{`"--flag"`, `"--flag"`, `"-v"`}, `5`, `null`)},
		[2]string{"env_vars", d.v("env_vars", []string{d.arr("env_vars", func() string {
			return d.obj([2]string{"name", d.v("env name", []string{`"GITHUB_TOKEN"`, `"_X"`}, `"1BAD"`, `"a-b"`, `5`)},
				[2]string{"description", d.str()}, [2]string{"default", d.str()},
				[2]string{"required", d.boolean()}, [2]string{"secret", d.boolean()})
		})}, `5`, `[5]`)},
		[2]string{"tool_definitions", d.v("tool_definitions", []string{d.arr("tool_definitions", func() string {
			return d.obj([2]string{"name", d.str()}, [2]string{"description", d.str()},
				[2]string{"inputSchema", d.v("inputSchema", []string{`{}`, `{"type":"object"}`}, `5`, `[]`)},
				[2]string{"annotations", d.v("annotations", []string{`{"readOnlyHint":true}`}, `5`)})
		})}, `5`)},
		[2]string{"permissions", d.v("permissions", []string{d.obj([2]string{"name", d.str()},
			[2]string{"read", d.strList("read", []string{`"/a"`, `"/tmp/"`, `"/b/c"`}, `"a"`, `"//a"`, `"/a//b"`, `5`)},
			[2]string{"write", d.strList("write", []string{`"/tmp"`, `"/x"`}, `"tmp"`, `5`)},
			[2]string{"privileged", d.boolean()},
			[2]string{"network", d.v("network", []string{d.obj([2]string{"outbound", d.v("outbound", []string{d.obj(
				[2]string{"allow_host", d.strList("hosts", []string{`"api.example.com"`, `".example.com"`, `"x.io"`}, `"-bad"`, `"a b"`, `5`)},
				[2]string{"allow_port", d.strList("ports", []string{`443`, `8080`, `443.0`, `1`}, `0`, `65536`, `1.5`, `"80"`, `1e400`)},
				[2]string{"insecure_allow_all", d.boolean()})}, `5`)})}, `5`)})}, `5`)},
		[2]string{"provenance", d.v("provenance", []string{d.obj(
			[2]string{"sigstore_url", d.v("sigstore", []string{`"tuf-repo-cdn.sigstore.dev"`}, `"not a host"`, `5`)},
			[2]string{"repository_uri", d.v("repo uri", []string{`"https://github.com/a/b"`}, `"not a uri"`, `5`)},
			[2]string{"cert_issuer", d.v("issuer", []string{`"https://token.actions.githubusercontent.com"`}, `"x y"`)},
			[2]string{"repository_ref", d.str()}, [2]string{"signer_identity", d.str()}, [2]string{"runner_environment", d.str()},
			[2]string{"attestation", d.v("attestation", []string{d.obj([2]string{"predicate_type", d.v("predicate", []string{`"https://slsa.dev/provenance/v1"`}, `"v1"`, `5`)},
				[2]string{"predicate", `{"a":{"b":[1]}}`})}, `5`)})}, `5`)},
		[2]string{"?oauth_config", `{"issuer":"https://x.example.com"}`})
}

func (d leanDraw) meta() string {
	ext := func() string {
		return d.v("image", []string{`"ghcr.io/a/b:1"`, `"https://x.example.com/mcp"`}) + ":" + d.ext()
	}
	images := func() string {
		n := rapid.IntRange(0, 2).Draw(d.t, "images")
		var es []string
		for range n {
			es = append(es, ext())
		}
		return "{" + strings.Join(es, ",") + "}"
	}
	pubs := d.obj([2]string{ToolHivePublisher, d.v("toolhive", []string{images()}, `5`, `[]`)},
		[2]string{"com.example.ci", d.v("ci", []string{`{"build":{"commit":"abc"}}`, `{}`}, `5`, `{"a":1,"a":2}`)})
	return d.obj([2]string{PublisherProvidedKey, d.v("pp", []string{pubs}, `5`, `[]`)},
		[2]string{"io.example/other", d.v("other meta", []string{`{"x":1}`}, `5`)})
}

// entry draws an entry that holds one of the members the lean reading
// reads, key, drawn by leanDraw, the others valid mostly.
func (d leanDraw) entry() (key, entry string) {
	t := d.t
	var value string
	key = rapid.SampledFrom([]string{"repository", "icons", KeyRemotes, KeyPackages, KeyMeta}).Draw(t, "member")
	switch key {
	case "icons":
		value = d.arr("icons", func() string {
			return d.obj([2]string{"src", d.v("src", []string{`"https://x.example.com/i.png"`}, `"icon.png"`, `"https://x.example.com/`+strings.Repeat("a", 240)+`"`, `5`)},
				[2]string{"mimeType", d.v("mime", []string{`"image/png"`, `"image/svg+xml"`}, `"image/gif"`, `5`)},
				[2]string{"theme", d.v("theme", []string{`"light"`, `"dark"`}, `"blue"`)},
				[2]string{"sizes", d.strList("sizes", []string{`"48x48"`, `"any"`, `"48x48"`}, `"48"`, `""`, `5`)})
		})
	case "repository":
		value = d.obj([2]string{"url", d.v("url", []string{`"https://github.com/a/b"`}, `"not a uri"`, `5`, `"https:\/\/github.com"`)},
			[2]string{"source", d.v("source", []string{`"github"`}, `5`)},
			[2]string{"id", d.str()}, [2]string{"subfolder", d.str()})
	case KeyRemotes:
		value = d.arr("remotes", func() string { return d.transport(true) })
	case KeyPackages:
		value = d.arr("packages", d.pkg)
	case KeyMeta:
		value = d.meta()
	}
	top := d.obj([2]string{"$schema", d.v("schema", []string{`"` + ServerSchemaURL + `"`, `"https://example.com/s.json"`}, `"not a uri"`, `5`)},
		[2]string{"websiteUrl", d.v("website", []string{`"https://x.example.com/mcp"`}, `"not a uri"`, `"https:\/\/x.example.com"`, `5`)},
		[2]string{"title", d.v("title", []string{`"T"`, `"A title"`}, `""`, `"`+strings.Repeat("t", 101)+`"`, `5`)},
		[2]string{"x-number", d.v("number", []string{`1`}, `1e400`, `-1e999`)})
	name := d.v("name", []string{`"io.example/xy"`}, `"io.example/x"`, `"ab"`, `5`)
	description := d.v("description", []string{`"d"`}, `""`, `"`+strings.Repeat("é", 101)+`"`, `5`)
	version := d.v("version", []string{`"1.0.0"`}, `"latest"`, `""`, `5`)
	entry = `{"name":` + name + `,"description":` + description + `,"version":` + version + `,"` + key + `":` + value
	if top != "{}" {
		entry += "," + top[1:]
	} else {
		entry += "}"
	}
	return key, entry
}

// TestLeanAgreesOnMembers is TestLeanAgreesWithChecks for members drawn by
// leanDraw, in an entry that is otherwise valid.
func TestLeanAgreesOnMembers(t *testing.T) {
	var yes, no, whole int
	rapid.Check(t, func(t *rapid.T) {
		key, entry := newLeanDraw(t).entry()
		reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Skip("not read as an entry") // a name that is not a string
		}
		s := reg.Servers[0]
		raw, _ := s.Get(key)
		lv := validator{server: s, prefix: "p"}
		if !lv.index.useEntryIndex(s, raw) || !lv.leanMember(key, raw) {
			no++
		} else {
			yes++
			cv := validator{server: s, prefix: "p", careful: true}
			cv.index.useEntryIndex(s, raw)
			cv.container(key, raw)
			if len(cv.ds) > 0 {
				t.Fatalf("%s: the lean reading finds %s valid; the checks say %v", entry, key, cv.ds)
			}
			if cv.facts.remotes != lv.facts.remotes || cv.facts.packages != lv.facts.packages || cv.facts.urlsNotPlain ||
				!same(cv.facts.block, lv.facts.block) && (cv.facts.block != nil || lv.facts.block != nil) {
				t.Fatalf("%s: %s: facts %+v, the checks' %+v", entry, key, lv.facts, cv.facts)
			}
		}
		checkOracle(t, s, "Parse")
		checkNormalizeAgrees(t, s, entry, NormalizeOptions{})
		if checkLeanEntry(t, s, entry) {
			whole++
		}
	})
	t.Logf("entries read lean whole: %d", whole)
	t.Logf("members read lean: %d, left to the checks: %d", yes, no)
	if yes == 0 || no == 0 {
		t.Errorf("members read lean: %d, left to the checks: %d; want both", yes, no)
	}
}

// TestLeanDeclines lists members, each one defect away from valid, that the
// lean reading must leave to the checks (which find the defect), and valid
// ones it must read.
func TestLeanDeclines(t *testing.T) {
	kv := `{"name":"K","description":"d","isRequired":true}`
	ext := func(members string) string {
		return `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active"` + members + `}}}}`
	}
	for _, c := range []struct {
		key, value string
		lean       bool
	}{
		{"repository", `{"url":"https://github.com/a/b","source":"github"}`, true},
		{"repository", `{"url":"not a uri","source":"github"}`, false},
		{"repository", `{"url":"https://github.com/a/b"}`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","headers":[` + kv + `]}]`, true},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","headers":[{"name":"K","variables":5}]}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","variables":{"a":{"format":"json"}}}]`, false},
		{KeyRemotes, `[{"type":"stdio"}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://u:p@a.example.com/"}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[` + kv + `]}]`, true},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","choices":[5]}]}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"version":"latest"}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"runtimeArguments":[{"type":"flag"}]}]`, false},
		{KeyMeta, ext(`,"tier":"Official","tools":["a"],"tags":["ab"],"metadata":{"stars":1,"last_updated":"2025-01-02T03:04:05Z"}`), true},
		{KeyMeta, ext(`,"tier":"official"`), false},
		{KeyMeta, ext(`,"tags":["ab","ab"]`), false},
		{KeyMeta, ext(`,"metadata":{"stars":-1}`), false},
		{KeyMeta, ext(`,"proxy_port":0`), false},
		{KeyMeta, ext(`,"docker_tags":["1","1"]`), false},
		{KeyMeta, ext(`,"metadata":{"kubernetes":{"uid":"x"}}`), false},
		{KeyMeta, ext(`,"docker_tags":["1","latest"],"args":["--a","--a"],"env_vars":[{"name":"GITHUB_TOKEN","required":true}],` +
			`"tool_definitions":[{"name":"t","inputSchema":{"type":"object"}}],"metadata":{"kubernetes":{"kind":"Deployment","namespace":"default","name":"srv",` +
			`"uid":"123e4567-e89b-12d3-a456-426614174000","transport":"stdio"}},"permissions":{"name":"network","read":["/a"],"write":["/tmp/"],` +
			`"network":{"outbound":{"allow_host":["api.example.com",".example.com"],"allow_port":[443,8080],"insecure_allow_all":false}}},` +
			`"provenance":{"sigstore_url":"tuf-repo-cdn.sigstore.dev","repository_uri":"https://github.com/a/b","cert_issuer":"https://t.example.com",` +
			`"attestation":{"predicate_type":"https://slsa.dev/provenance/v1","predicate":{"a":1}}}`), true},
		{KeyMeta, ext(`,"env_vars":[{"name":"1BAD"}]`), false},
		{KeyMeta, ext(`,"tool_definitions":[{"name":"t","inputSchema":[]}]`), false},
		{KeyMeta, ext(`,"tool_definitions":[{"description":"no name"}]`), false},
		{KeyMeta, ext(`,"metadata":{"kubernetes":{"namespace":"A"}}`), false},
		{KeyMeta, ext(`,"metadata":{"kubernetes":{"transport":"grpc"}}`), false},
		{KeyMeta, ext(`,"permissions":{"read":["a"]}`), false},
		{KeyMeta, ext(`,"permissions":{"write":["/a","/a"]}`), false},
		{KeyMeta, ext(`,"permissions":{"network":{"outbound":{"allow_host":["-bad"]}}}`), false},
		{KeyMeta, ext(`,"permissions":{"network":{"outbound":{"allow_port":[443,443.0]}}}`), false},
		{KeyMeta, ext(`,"permissions":{"network":{"outbound":{"allow_port":[0]}}}`), false},
		{KeyMeta, ext(`,"permissions":{"network":{"outbound":{"allow_port":[1.5]}}}`), false},
		{KeyMeta, ext(`,"provenance":{"sigstore_url":"not a host"}`), false},
		{KeyMeta, ext(`,"provenance":{"cert_issuer":"x y"}`), false},
		{KeyMeta, ext(`,"provenance":{"attestation":{"predicate_type":"v1"}}`), false},
		{KeyMeta, ext(`,"docker_tags":["1","1"]`), false},
		{KeyMeta, ext(`,"args":["a",5]`), false},
		{KeyMeta, ext(`,"oauth_config":{"issuer":"not a uri"}`), false},
		{KeyMeta, ext(`,"custom_metadata":5`), false},
		{KeyMeta, ext(`,"proxy_port":8080.5`), false},
		{KeyMeta, ext(`,"stateless":"yes"`), false},
		{KeyMeta, ext(`,"tools":["bad tool"]`), false},
		{KeyMeta, ext(`,"status":"gone"`), false},
		{KeyMeta, `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"gone"}}}}`, false},
		{KeyMeta, `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"tier":"Official"}}}}`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","mimeType":"image/png","theme":"dark","sizes":["48x48","any"]}]`, true},
		{"icons", `[{"src":"icon.png"}]`, false},
		{"icons", `[{"src":"https://x.example.com/` + strings.Repeat("a", 240) + `"}]`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","mimeType":"image/gif"}]`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","theme":"blue"}]`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","sizes":["48"]}]`, false},
		{"icons", `[{"mimeType":"image/png"}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"fileSha256":"ABC"}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"registryBaseUrl":"not a uri"}]`, false},
		{KeyPackages, `[{"registryType":"oci","transport":{"type":"stdio"}}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"grpc"}}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","format":"json"}]}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","isSecret":"yes"}]}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"description":"no name"}]}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"ftp://x.example.com/"}]`, false},
		{KeyRemotes, `[{"type":"sse"}]`, false},
		{"repository", `{"url":"https://github.com/a/b","source":5}`, false},
		// Keys are told by their bytes: a checked key written with an
		// escape is not read as an unknown one (the checks decode it), and
		// a near miss of a checked key is an unknown one, whatever it holds.
		{KeyMeta, ext(`,"t\u0061gs":["Bad"]`), false},
		{KeyMeta, ext(`,"tag":["Bad"],"tagss":[5],"status2":"gone","metadata_":5`), true},
		// Another spelling of a member (keycase.go): the checks refuse it.
		{KeyMeta, ext(`,"Tags":5`), false},
		{KeyMeta, ext(`,"tIeR":"Official"`), false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"versio\u006e":"latest"}]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"registryTypes":5,"environmentVariablesX":5,"registryBaseUrl2":"not a uri"}]`, true},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","isRequiredX":"no","isSecre":5,"formats":"json"}]}]`, true},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","\u0069sSecret":"yes"}]}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","h\u0065aders":5}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","header":5,"urls":5}]`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"github","i\u0064":5}`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","them\u0065":"blue"}]`, false},
		{KeyMeta, ext(`,"permissions":{"network":{"outbound":{"allow_hos\u0074":["-bad"]}}}`), false},
		{KeyMeta, ext(`,"provenance":{"attestation":{"predicate_typ\u0065":"v1"}}`), false},
		{KeyMeta, ext(`,"provenance":{"attestation":{"predicate_types":"v1"}}`), true},
	} {
		entry := `{"name":"io.example/xy","description":"d","version":"1.0.0","` + c.key + `":` + c.value + `}`
		reg, _ := Parse([]byte(`{"data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		s := reg.Servers[0]
		raw, _ := s.Get(c.key)
		v := validator{server: s}
		if got := v.index.useEntryIndex(s, raw) && v.leanMember(c.key, raw); got != c.lean {
			t.Errorf("%s: read lean %v, want %v", entry, got, c.lean)
		}
		// A URL with user information is valid, but is dropped before the
		// entry is validated: it is not read lean either.
		if ds := ValidateServer(s, ObjectRef{}, ""); (len(ds) == 0) != (c.lean || strings.Contains(c.value, "u:p@")) {
			t.Errorf("%s: the checks say %v", entry, ds)
		}
	}
}

// checkLeanEntry fails when leanEntry finds s valid but the checks, in
// careful mode (which never reads lean), report something or find other
// facts. It reports whether leanEntry found s valid.
func checkLeanEntry(t interface {
	Helper()
	Fatalf(string, ...any)
}, s *Server, what string) bool {
	t.Helper()
	facts, ok := leanEntry(s)
	if !ok {
		return false
	}
	cv := validator{server: s, prefix: "p", careful: true}
	cv.entry()
	if len(cv.ds) > 0 {
		t.Fatalf("%s: leanEntry finds the entry valid; the checks say %v", what, cv.ds)
	}
	if cv.facts.remotes != facts.remotes || cv.facts.packages != facts.packages || cv.facts.urlsNotPlain ||
		!same(cv.facts.block, facts.block) && (cv.facts.block != nil || facts.block != nil) {
		t.Fatalf("%s: leanEntry's facts %+v, the checks' %+v", what, facts, cv.facts)
	}
	return true
}
