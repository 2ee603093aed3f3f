package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpreg/mcpreg/internal/jsonx"
	"pgregory.net/rapid"
)

// The scan reads the large members of each entry lean as it splits the
// entry (leanScan): one walk validates their JSON and checks them against
// the schema, where the scan used to validate them and leanEntry to read
// them again. These tests hold Parse with that reading to Parse without it
// (parse with lean unset, the scan as it was): the same verdict on the
// text (json.Valid's), the same servers byte for byte, the same facts of
// the scan, and the same diagnostics, validation and normalised entries
// downstream.

// leanScanDoc draws an upstream document of a few entries: compact ones
// the lean reading reads (valid or one defect away), schema-wide ones,
// with whitespace or not, and other values; then damages it now and then.
func leanScanDoc(t *rapid.T) []byte {
	n := rapid.IntRange(1, 3).Draw(t, "entries")
	var es []string
	for range n {
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0, 1:
			_, e := newLeanDraw(t).entry()
			es = append(es, e)
		case 2, 3:
			es = append(es, leanEntryGen().Draw(t, "entry"))
		case 4:
			es = append(es, entryGen().Draw(t, "spaced entry"))
		default:
			es = append(es, upstreamEntryText(t))
		}
	}
	doc := []byte(`{"data":{"servers":[` + strings.Join(es, ",") + `]}}`)
	for range rapid.IntRange(0, 2).Draw(t, "mutations") {
		doc = mutateDoc(t, doc)
	}
	return doc
}

// fragments are values, valid or not, that a mutation puts in a document:
// what the scan records facts of (escapes, text beyond ASCII, big and
// inexact numbers), what json.Valid refuses inside strings and numbers,
// repeated keys and nesting near the limit.
var fragments = []string{
	`1e400`, `-1E-400`, `123456789012345678`, `1.5`, `-0`, `0.0`, `01`, `1.`, `-`, `1e`, `2e+3`,
	`"é"`, "\"\xc3\xa9\"", "\"\xff\"", `"\ud800"`, `"\udc00x"`, `"\u00e9"`, `"a\"b"`, `"\/"`, `"\x"`, `"\u12"`,
	"\"\x01\"", "\"\x1f\"", "\"a\tb\"", `"`, `""`, `"https://x.example.com/"`,
	`{"a":1}`, `{"a":1,"a":2}`, `[1,2]`, `[]`, `{}`, `{ }`, `[1 ]`, `{"a" :1}`, `[,1]`, `[1,]`, `{"a":1,}`,
	`true`, `false`, `null`, `tru`, `nul`, `falsy`,
	strings.Repeat("[", 9990) + strings.Repeat("]", 9990),
	strings.Repeat("[", 9996) + strings.Repeat("]", 9996),
	strings.Repeat(`{"a":`, 5000) + `1` + strings.Repeat("}", 5000),
}

// mutationKeys are the keys a mutation gives a member it adds: keys the
// lean reading checks (at some level) and others.
var mutationKeys = []string{`x`, `url`, `name`, `type`, `source`, `tools`, `stars`, `proxy_port`, `custom_metadata`,
	`headers`, `inputSchema`, `status`, `allow_port`, `description`, `isRequired`, `predicate`, `\u0078`, "\xc3\xa9", `\ud800`}

// mutateDoc damages doc once: cut short, a byte or piece of text put
// anywhere, or a member or element put at the start of an object or array.
func mutateDoc(t *rapid.T, doc []byte) []byte {
	at := func(label string) int { return rapid.IntRange(0, len(doc)).Draw(t, label) }
	insert := func(i int, s string) []byte {
		return slices.Concat(doc[:i:i], []byte(s), doc[i:])
	}
	// after returns the offset just past a random occurrence of c, or -1.
	after := func(c byte) int {
		var is []int
		for i, b := range doc {
			if b == c {
				is = append(is, i+1)
			}
		}
		if len(is) == 0 {
			return -1
		}
		return rapid.SampledFrom(is).Draw(t, "after")
	}
	switch rapid.IntRange(0, 5).Draw(t, "mutation") {
	case 0:
		return doc[:at("cut")]
	case 1:
		return insert(at("at"), rapid.SampledFrom([]string{"\x00", "\x01", "\xff", "\xc3\xa9", `"`, `\`, `\u00e9`, `\ud800`, `\"`, ` `, "\n", `,`, `:`, `{`, `}`, `[`, `]`, `1`, `e`, `.`}).Draw(t, "piece"))
	case 2, 3:
		if i := after('{'); i >= 0 {
			m := `"` + rapid.SampledFrom(mutationKeys).Draw(t, "key") + `":` + rapid.SampledFrom(fragments).Draw(t, "value")
			if i < len(doc) && doc[i] != '}' {
				m += ","
			}
			return insert(i, m)
		}
	default:
		if i := after('['); i >= 0 {
			m := rapid.SampledFrom(fragments).Draw(t, "element")
			if i < len(doc) && doc[i] != ']' {
				m += ","
			}
			return insert(i, m)
		}
	}
	return doc
}

// serverState is what a Server read by Parse holds, but for the index of
// its containers (see sameSpans) and the facts of the scan's lean reading:
// the two ways of reading must agree on all of it.
func serverState(s *Server) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name %q origin %q %d raw %q text %q\n", s.name, s.origin, s.originIndex, s.raw, s.text())
	fmt.Fprintf(&b, "indexed %v bigNumbers %v inexact %v textOK %v compact %v\n",
		s.indexed, s.bigNumbers, s.inexact, s.textOK, s.compact)
	for _, m := range s.allMembers() {
		fmt.Fprintf(&b, "%q: %q\n", m.Key, m.Value)
	}
	return b.String()
}

// sameSpans reports whether the spans the lean reading recorded are those
// the scan records. An end may be known to one and not to the other (0):
// each records ends only 64 levels below the value it read, and a skip of
// the lean reading reads a value nested in the member the scan reads.
func sameSpans(lean, scan []jsonx.Span) bool {
	if len(lean) != len(scan) {
		return false
	}
	for k, sp := range lean {
		if sp.Start != scan[k].Start || sp.End != scan[k].End && scan[k].End != 0 {
			return false
		}
	}
	return true
}

// checkScanReads checks the scan on a document of one entry holding key:
// value: it agrees with the careful reading (checkLeanScan), on the
// document and, with cuts, on the document cut short inside the member; and
// it reads the member lean exactly when fused says so.
func checkScanReads(t *testing.T, key, value string, fused, cuts bool) {
	t.Helper()
	entry := `{"name":"io.example/xy","description":"d","version":"1.0.0","` + key + `":` + value + `}`
	doc := []byte(`{"data":{"servers":[` + entry + `]}}`)
	checkLeanScan(t, doc)
	if cuts {
		for cut := len(doc) - len(value) - 4; cut < len(doc)-4; cut += 7 {
			checkLeanScan(t, doc[:cut])
		}
	}
	reg, _ := Parse(doc, ParseOptions{Format: FormatUpstream})
	if reg == nil {
		if fused {
			t.Errorf("%.200q: not read", entry)
		}
		return
	}
	if got := reg.Servers[0].fused; got != fused {
		t.Errorf("%.200q: read lean by the scan %v, want %v", entry, got, fused)
	}
}

// checkLeanScan fails unless Parse reads doc, with the scan's lean reading,
// as it does without it, and as json.Valid decides. It returns how many
// entries the lean reading read whole and how many it did not.
func checkLeanScan(t interface {
	Helper()
	Fatalf(string, ...any)
}, doc []byte) (fused, not int) {
	t.Helper()
	opts := ParseOptions{Format: FormatUpstream, Source: ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}}
	want, wantDS := parse(doc, opts, false)
	got, gotDS := parse(doc, opts, true)
	if diff := cmp.Diff(wantDS, gotDS); diff != "" {
		t.Fatalf("%.300q: diagnostics differ (-scan +lean scan):\n%s", doc, diff)
	}
	_, valid := scanWith(doc, true)
	if _, ref := scanWith(doc, false); valid != json.Valid(doc) || ref != valid {
		t.Fatalf("%.300q: the lean scan says valid %v, the scan %v, json.Valid %v", doc, valid, ref, json.Valid(doc))
	}
	if (want == nil) != (got == nil) {
		t.Fatalf("%.300q: registry %v, want %v", doc, got != nil, want != nil)
	}
	if want == nil {
		return 0, 0
	}
	if len(got.Servers) != len(want.Servers) {
		t.Fatalf("%.300q: %d servers, want %d", doc, len(got.Servers), len(want.Servers))
	}
	for i, w := range want.Servers {
		g := got.Servers[i]
		if w.fused {
			t.Fatalf("%.300q: server %d read lean by the scan without the lean reading", doc, i)
		}
		if g.fused {
			fused++
		} else {
			not++
		}
		if diff := cmp.Diff(serverState(w), serverState(g)); diff != "" {
			t.Fatalf("%.300q: server %d differs (-scan +lean scan):\n%s", doc, i, diff)
		}
		if !sameSpans(g.index, w.index) {
			t.Fatalf("%.300q: server %d: spans %v, the scan's %v", doc, i, g.index, w.index)
		}
		if !bytes.Equal(g.AppendJSON(nil), w.AppendJSON(nil)) {
			t.Fatalf("%.300q: server %d writes %s, want %s", doc, i, g.AppendJSON(nil), w.AppendJSON(nil))
		}
		wf, wok := leanEntry(w)
		gf, gok := leanEntry(g)
		if wok != gok || wok && (wf.remotes != gf.remotes || wf.packages != gf.packages || wf.urlsNotPlain != gf.urlsNotPlain ||
			!same(wf.block, gf.block) && (wf.block != nil || gf.block != nil) || cap(wf.block) != cap(gf.block)) {
			t.Fatalf("%.300q: server %d: leanEntry %v %+v, want %v %+v", doc, i, gok, gf, wok, wf)
		}
		obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}
		if diff := cmp.Diff(ValidateServer(w, obj, "p"), ValidateServer(g, obj, "p")); diff != "" {
			t.Fatalf("%.300q: server %d: validation differs (-scan +lean scan):\n%s", doc, i, diff)
		}
		for _, nopts := range []NormalizeOptions{{}, {MaxMetaSize: 60}} {
			wc, gc := w.Clone(), g.Clone()
			wok, wds := NormalizeWith(wc, obj, "p", nopts)
			gok, gds := NormalizeWith(gc, obj, "p", nopts)
			if diff := cmp.Diff(wds, gds); wok != gok || diff != "" {
				t.Fatalf("%.300q: server %d: NormalizeWith %v, want %v; diagnostics (-scan +lean scan):\n%s", doc, i, gok, wok, diff)
			}
			if !bytes.Equal(gc.AppendJSON(nil), wc.AppendJSON(nil)) {
				t.Fatalf("%.300q: server %d normalised writes %s, want %s", doc, i, gc.AppendJSON(nil), wc.AppendJSON(nil))
			}
		}
	}
	return fused, not
}

// TestLeanScanAgrees: Parse with the scan's lean reading agrees with Parse
// without it on documents drawn and damaged by leanScanDoc.
func TestLeanScanAgrees(t *testing.T) {
	var fused, not int
	rapid.Check(t, func(t *rapid.T) {
		f, n := checkLeanScan(t, leanScanDoc(t))
		fused += f
		not += n
	})
	t.Logf("entries read lean by the scan: %d, not: %d", fused, not)
	if fused == 0 || not == 0 {
		t.Errorf("entries read lean by the scan: %d, not: %d; want both", fused, not)
	}
}

// TestLeanScanCases: texts the lean reading must refuse to accept itself
// (invalid JSON in a member it reads, whitespace, nesting near the limit)
// and valid ones it must read; and the fixture entries, each read whole.
func TestLeanScanCases(t *testing.T) {
	ext := func(members string) string {
		return `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active"` + members + `}}}}`
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, c := range []struct {
		key, value string
		fused      bool
	}{
		{"repository", `{"url":"https://github.com/a/b","source":"github"}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"git` + "\x01" + `hub"}`, false},
		{"repository", `{"url":"https://github.com/` + "\x01" + `","source":"github"}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":"` + "\x1f" + `"}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"g\x"}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"\u00e9"}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"\ud800"}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"` + "\xff" + `"}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":1e400}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":01}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":[1,]}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":[1, 2]}`, false},
		{"repository", `{"url":"https://github.com/a/b", "source":"github"}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":` + deep(9900) + `}`, true},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":` + deep(9994) + `}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":` + deep(9995) + `}`, false},
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":` + deep(9996) + `}`, false},   // too deep
		{"repository", `{"url":"https://github.com/a/b","source":"github","x":[` + deep(9995) + `]}`, false}, // too deep
		{KeyMeta, ext(`,"proxy_port":8080`), true},
		{KeyMeta, ext(`,"proxy_port":08080`), false},
		{KeyMeta, ext(`,"proxy_port":80.`), false},
		{KeyMeta, ext(`,"proxy_port":8e3`), true}, // read, but leanEntry declines the exponent (bigNumbers)
		{KeyMeta, ext(`,"metadata":{"stars":1.5}`), true},
		{KeyMeta, ext(`,"metadata":{"stars":1--5}`), false},
		{KeyMeta, ext(`,"stateless":tru}`), false},
		{KeyMeta, ext(`,"custom_metadata":{"a":"` + "\x00" + `"}`), false},
		{KeyMeta, ext(`,"tool_definitions":[{"name":"t","inputSchema":{"type":"obj` + "\n" + `ect"}}]`), false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","headers":[{"name":"K","description":"` + "\x02" + `"}]}]`, false},
		{KeyRemotes, `[{"type":"sse","url":"https://a.example.com/sse","headers":[{"name":"K","description":"caf` + "\xc3\xa9" + `"}]}]`, true},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}}]`, true},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}},]`, false},
		{KeyPackages, `[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}}`, false},
		{"icons", `[{"src":"https://x.example.com/i.png","sizes":["48x48","any"]}]`, true},
		{"icons", `[{"src":"https://x.example.com/i.png","sizes":["48x48",]}]`, false},
	} {
		checkScanReads(t, c.key, c.value, c.fused, false)
	}
	data, reg := validateFixture(t)
	checkLeanScan(t, data)
	for _, s := range reg.Servers {
		if !s.fused {
			t.Errorf("%s: not read lean by the scan", s.Name())
		}
	}
}

// TestLeanScanForgets: an entry whose large member is set or deleted after
// Parse is validated and normalised as one read without the scan's lean
// reading: what that reading found is of the members it read.
func TestLeanScanForgets(t *testing.T) {
	entry := `{"name":"io.example/xy","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://a.example.com/sse"},` +
		`{"type":"sse","url":"https://b.example.com/sse"}],"packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"}}],` +
		`"_meta":{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active","metadata":{"stars":12345678901234567890}}}}}}`
	doc := []byte(`{"data":{"servers":[` + entry + `]}}`)
	obj := ObjectRef{Kind: "ConfigMap", Namespace: "ns", Name: "cm"}
	for _, change := range []func(s *Server){
		func(s *Server) { s.Set(KeyRemotes, json.RawMessage(`[{"type":"stdio"}]`)) },
		func(s *Server) {
			s.Set(KeyRemotes, json.RawMessage(`[{"type":"sse","url":"https://a.example.com/sse"}]`))
		},
		func(s *Server) { s.Delete(KeyRemotes) },
		func(s *Server) { s.Set(KeyPackages, json.RawMessage(`[{"registryType":"oci"}]`)) },
		func(s *Server) { s.Delete(KeyMeta) },
		func(s *Server) { v, _ := s.Get(KeyPackages); s.Set(KeyRemotes, v) },
		func(s *Server) { v, _ := s.Get(KeyRemotes); s.Set(KeyPackages, v) },
		func(s *Server) { s.Set(KeyMeta, json.RawMessage(`{"`+PublisherProvidedKey+`":{"p":{"k":{"a":0.1}}}}`)) },
		func(s *Server) { s.Set("repository", json.RawMessage(`{"url":"not a uri","source":"github"}`)) },
	} {
		want, _ := parse(doc, ParseOptions{Format: FormatUpstream}, false)
		got, _ := parse(doc, ParseOptions{Format: FormatUpstream}, true)
		w, g := want.Servers[0], got.Servers[0]
		if !g.fused {
			t.Fatal("the entry is not read lean by the scan")
		}
		change(w)
		change(g)
		if diff := cmp.Diff(ValidateServer(w, obj, "p"), ValidateServer(g, obj, "p")); diff != "" {
			t.Errorf("%s: validation differs (-scan +lean scan):\n%s", w.AppendJSON(nil), diff)
		}
		wok, wds := NormalizeWith(w, obj, "p", NormalizeOptions{})
		gok, gds := NormalizeWith(g, obj, "p", NormalizeOptions{})
		if diff := cmp.Diff(wds, gds); wok != gok || diff != "" {
			t.Errorf("%s: NormalizeWith %v, want %v; diagnostics (-scan +lean scan):\n%s", w.AppendJSON(nil), gok, wok, diff)
		}
		if !bytes.Equal(g.AppendJSON(nil), w.AppendJSON(nil)) {
			t.Errorf("normalised writes %s, want %s", g.AppendJSON(nil), w.AppendJSON(nil))
		}
	}
}

// FuzzLeanScan: Parse with the scan's lean reading agrees with Parse
// without it (checkLeanScan) on any text.
func FuzzLeanScan(f *testing.F) {
	ext := `{"` + PublisherProvidedKey + `":{"` + ToolHivePublisher + `":{"img":{"status":"active","tools":["a"],"metadata":{"stars":3},"custom_metadata":{"a":[1,{"b":null}]}}}}}`
	for _, entry := range []string{
		`{"name":"io.example/xy","description":"d","version":"1.0.0","repository":{"url":"https://github.com/a/b","source":"github"}}`,
		`{"name":"io.example/xy","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://a.example.com/sse","headers":[{"name":"K","description":"caf\u00e9"}]}]}`,
		`{"name":"io.example/xy","description":"d","version":"1.0.0","packages":[{"registryType":"oci","identifier":"x","transport":{"type":"stdio"},"environmentVariables":[{"name":"K","isSecret":true}]}]}`,
		`{"name":"io.example/xy","description":"d","version":"1.0.0","_meta":` + ext + `}`,
		`{"name":"io.example/xy","description":"d","version":"1.0.0","icons":[{"src":"https://x.example.com/i.png","sizes":["48x48"]}],"_meta":{"x":1e400}}`,
		`{"name":"io.example/xy","remotes":[{"type":"sse","url":"https://a.example.com/` + "\x01" + `"}]}`,
	} {
		f.Add([]byte(`{"data":{"servers":[` + entry + `]}}`))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkLeanScan(t, doc)
	})
}

// TestFusedRemoteURL: the scan records where the URL of an entry's only
// remote lies, when its lean reading accepts the remotes, and RemoteURLs
// yields it from there; with two remotes, or remotes it declines, it
// records none and RemoteURLs reads the remotes.
func TestFusedRemoteURL(t *testing.T) {
	for _, tc := range []struct {
		remotes string
		fast    bool
		want    []string
	}{
		{`[{"type":"sse","url":"https://a.example.com/sse"}]`, true, []string{"https://a.example.com/sse"}},
		{`[{"type":"sse","url":"https://a.example.com/sse"},{"type":"streamable-http","url":"https://b.example.com/mcp"}]`, false, []string{"https://a.example.com/sse", "https://b.example.com/mcp"}},
		{`[{"type":"sse","url":"https://a.example.com/\u00e9"}]`, false, []string{"https://a.example.com/é"}},
		{`[]`, false, nil},
	} {
		doc := `{"data":{"servers":[{"name":"com.example/s","description":"d","version":"1.0.0","remotes":` + tc.remotes + `}]}}`
		reg, ds := Parse([]byte(doc), ParseOptions{})
		if reg == nil || len(reg.Servers) != 1 {
			t.Fatalf("%s: not read: %v", doc, ds)
		}
		s := reg.Servers[0]
		if fast := s.fused && s.fusedURL[1] > 0; fast != tc.fast {
			t.Errorf("%s: URL recorded by the scan = %v, want %v", tc.remotes, fast, tc.fast)
		}
		if got := slices.Collect(s.RemoteURLs()); !slices.Equal(got, tc.want) {
			t.Errorf("%s: RemoteURLs = %q, want %q", tc.remotes, got, tc.want)
		}
	}
}
