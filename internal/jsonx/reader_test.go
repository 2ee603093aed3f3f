package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// validCases are texts at the edges of the JSON grammar; Valid must agree
// with encoding/json.Valid on each.
var validCases = []string{
	``, ` `, `{}`, `[]`, `""`, `0`, `-0`, `-`, `01`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`,
	`-1.5e3`, `123456789012345678901234567890`, `true`, `false`, `null`, `tru`, `nul`, `truex`, `True`,
	` {"a" : [1, 2, {"b": null}] } `, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`, `{"a"}`, `{"a":}`, `{1:2}`,
	`{"a":1 "b":2}`, `[1 2]`, `"\u00e9"`, `"\u00g9"`, `"\x"`, `"\/"`, `"a\"b"`, "\"tab\there\"", "\"nl\n\"",
	"\"\xff\xfe\"", "\"\xc3\xa9\"", `"unterminated`, `"\`, `[`, `]`, `{`, `}`, `[1]]`, `{"a":1}}`, `1 2`,
	"\t\n\r 1 \t\n\r", "\v1", `"` + strings.Repeat("x", 100) + `\"` + strings.Repeat("y", 50) + `"`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
	`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	"\x00", `"a` + "\x1f" + `"`, `"` + "\x7f" + `"`,
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range validCases {
		if got, want := Valid([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("Valid(%.80q) = %v, encoding/json says %v", in, got, want)
		}
	}
}

// jsonValue generates arbitrary JSON values, as Go values encoding/json
// marshals.
func jsonValue() *rapid.Generator[any] {
	leaf := rapid.OneOf(
		rapid.Map(rapid.String(), func(s string) any { return s }),
		rapid.Map(rapid.Float64(), func(f float64) any { return f }),
		rapid.Map(rapid.Int(), func(i int) any { return i }),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Just[any](nil),
	)
	var value *rapid.Generator[any]
	value = rapid.Deferred(func() *rapid.Generator[any] {
		return rapid.OneOf(
			leaf, leaf,
			rapid.Map(rapid.SliceOfN(value, 0, 4), func(s []any) any { return s }),
			rapid.Map(rapid.MapOfN(rapid.String(), value, 0, 4), func(m map[string]any) any { return m }),
		)
	})
	return value
}

// jsonText generates JSON texts, compact or indented, then perhaps damaged in
// one place, so that both valid and invalid texts near valid ones occur.
func jsonText(t *rapid.T) []byte {
	v := jsonValue().Draw(t, "value")
	var b []byte
	if rapid.Bool().Draw(t, "indent") {
		b, _ = json.MarshalIndent(v, rapid.SampledFrom([]string{"", " "}).Draw(t, "prefix"), rapid.SampledFrom([]string{"  ", "\t"}).Draw(t, "unit"))
	} else {
		b, _ = json.Marshal(v)
	}
	return damage(t, b)
}

// damage, one time in three, deletes, overwrites or inserts one byte of a
// non-empty text b, drawing bytes that matter to a JSON scanner.
func damage(t *rapid.T, b []byte) []byte {
	if len(b) > 0 && rapid.IntRange(0, 2).Draw(t, "damage") == 0 {
		i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
		switch rapid.IntRange(0, 2).Draw(t, "how") {
		case 0:
			b = append(b[:i:i], b[i+1:]...)
		case 1:
			b[i] = rapid.SampledFrom([]byte(`{}[],:"\ 0a-.eE+tfn`+"\x00\x1f\xff")).Draw(t, "byte")
		default:
			b = append(b[:i:i], append([]byte{rapid.SampledFrom([]byte(`{}[],:"\ 0e`)).Draw(t, "insert")}, b[i:]...)...)
		}
	}
	return b
}

func TestValidProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := jsonText(t)
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", b, got, want)
		}
	})
}

// TestReaderSplits: a Reader descending into every container finds the
// members and elements Members and Elements find, and reports compactness.
func TestReaderSplits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := jsonText(t)
		r := NewReader(b)
		got, ok := readTree(&r, 0)
		if err := r.End(); (err == nil) != json.Valid(b) {
			t.Fatalf("Reader on %q: error %v, encoding/json.Valid %v", b, err, json.Valid(b))
		}
		if !json.Valid(b) || !ok {
			return
		}
		want := splitTree(t, bytes.TrimSpace(b))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Reader on %q (-split +reader):\n%s", b, diff)
		}
	})
}

// tree is a value split to its leaves: an object's members, an array's
// elements, or a leaf's bytes.
type tree struct {
	Keys  []string
	Kids  []tree
	Leaf  string
	Array bool
}

// readTree reads the next value with r, descending into containers down to
// depth 3 and skipping deeper ones whole.
func readTree(r *Reader, depth int) (tree, bool) {
	if depth >= 3 {
		raw := r.Skip()
		return tree{Leaf: string(raw)}, raw != nil
	}
	switch r.Kind() {
	case '{':
		r.BeginObject()
		out := tree{Keys: []string{}, Kids: []tree{}}
		for r.NextMember() {
			out.Keys = append(out.Keys, r.KeyString())
			kid, ok := readTree(r, depth+1)
			if !ok {
				return out, false
			}
			out.Kids = append(out.Kids, kid)
		}
		return out, r.Err() == nil
	case '[':
		r.BeginArray()
		out := tree{Kids: []tree{}, Array: true}
		for r.NextElement() {
			kid, ok := readTree(r, depth+1)
			if !ok {
				return out, false
			}
			out.Kids = append(out.Kids, kid)
		}
		return out, r.Err() == nil
	}
	raw := r.Skip()
	return tree{Leaf: string(raw)}, raw != nil
}

func splitTree(t *rapid.T, raw []byte) tree {
	return splitTreeAt(t, raw, 0)
}

func splitTreeAt(t *rapid.T, raw []byte, depth int) tree {
	if depth >= 3 {
		return tree{Leaf: string(raw)}
	}
	switch Kind(raw) {
	case '{':
		ms, err := Members(raw)
		if err != nil {
			t.Fatalf("Members(%q): %v", raw, err)
		}
		out := tree{Keys: []string{}, Kids: []tree{}}
		for _, m := range ms {
			out.Keys = append(out.Keys, m.Key)
			out.Kids = append(out.Kids, splitTreeAt(t, m.Value, depth+1))
		}
		return out
	case '[':
		els, err := Elements(raw)
		if err != nil {
			t.Fatalf("Elements(%q): %v", raw, err)
		}
		out := tree{Kids: []tree{}, Array: true}
		for _, el := range els {
			out.Kids = append(out.Kids, splitTreeAt(t, el, depth+1))
		}
		return out
	}
	return tree{Leaf: string(raw)}
}

func TestReaderCompactness(t *testing.T) {
	for _, tt := range []struct {
		in      string
		compact bool
	}{
		{`{"a":[1,2],"b":"x y"}`, true},
		{`{"a":[1, 2],"b":"x"}`, false},
		{`{"a":{"b":"c"} }`, true}, // the space follows the value of "a"
		{`{"a":{"b" :"c"}}`, false},
	} {
		r := NewReader([]byte(tt.in))
		r.BeginObject()
		r.NextMember()
		start := r.Pos()
		r.Skip()
		if got := r.LastSpace() < start; got != tt.compact {
			t.Errorf("%s: compact = %v, want %v", tt.in, got, tt.compact)
		}
	}
}

func TestReaderKeyString(t *testing.T) {
	r := NewReader([]byte(`{"name":1,"x\u0041":2,"caf` + "\xff" + `":3}`))
	r.BeginObject()
	var keys []string
	for r.NextMember() {
		keys = append(keys, r.KeyString())
		r.Skip()
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"name", "xA", "caf\uFFFD"}; !cmp.Equal(keys, want) {
		t.Errorf("keys = %q, want %q (as encoding/json decodes them)", keys, want)
	}
	doc := []byte(`{"name":1,"description":2}`)
	n := testing.AllocsPerRun(100, func() {
		r := NewReader(doc)
		r.BeginObject()
		for r.NextMember() {
			_ = r.KeyString()
			r.Skip()
		}
	})
	if n != 0 {
		t.Errorf("reading an object of known keys allocates %v times", n)
	}
}

func TestAppendIndentMatchesJSONIndent(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue().Draw(t, "value")
		var raw []byte
		if rapid.Bool().Draw(t, "indented input") {
			raw, _ = json.MarshalIndent(v, "", "\t ")
		} else {
			raw, _ = json.Marshal(v)
		}
		depth := rapid.IntRange(0, 40).Draw(t, "depth")
		assertIndent(t, raw, depth)
	})
}

func assertIndent(t interface{ Fatalf(string, ...any) }, raw []byte, depth int) {
	var compact, want bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		t.Fatalf("compact %q: %v", raw, err)
	}
	if err := json.Indent(&want, compact.Bytes(), strings.Repeat("  ", depth), "  "); err != nil {
		t.Fatalf("indent: %v", err)
	}
	if got := AppendIndent([]byte("prefix"), raw, depth); string(got[6:]) != want.String() {
		t.Fatalf("AppendIndent(%q, %d) =\n%s\nwant\n%s", raw, depth, got[6:], want.String())
	}
}

// FuzzValid: Valid agrees with encoding/json on any input, the Reader never
// panics, and AppendIndent of a valid text equals json.Indent of it.
func FuzzValid(f *testing.F) {
	for _, s := range validCases {
		if len(s) < 1000 { // the deep nests would slow every run down
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		valid := json.Valid(data)
		if got := Valid(data); got != valid {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, valid)
		}
		if !valid {
			return
		}
		assertIndent(t, bytes.TrimSpace(data), 2)
	})
}

// sampleEntry is an upstream registry entry of the shape the merge reads at
// scale, with escapes, numbers and nesting.
const sampleEntry = `{"$schema":"https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",` +
	`"name":"io.github.acme/fetch-mcp-1","description":"Fetch \"web\" pages\\u00e9 \u00e9","title":"Fetch","version":"1.2.3",` +
	`"repository":{"url":"https://github.com/acme/fetch","source":"github"},` +
	`"packages":[{"registryType":"oci","identifier":"ghcr.io/acme/fetch:1.2.3","transport":{"type":"stdio"},` +
	`"environmentVariables":[{"name":"API_KEY","isRequired":true,"isSecret":false,"default":null}]}],` +
	`"remotes":[{"type":"sse","url":"https://mcp.acme.dev/sse","headers":[]}],` +
	`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{"x":{"status":"active",` +
	`"tools":["a","b"],"metadata":{"stars":-12.5e+3,"n":0}}}}}}`

// TestValidEveryMutation: Valid agrees with encoding/json on every text one
// byte away from a realistic entry (each byte deleted, or replaced by each
// byte the grammar cares about), compact and indented.
func TestValidEveryMutation(t *testing.T) {
	var indented bytes.Buffer
	if err := json.Indent(&indented, []byte(sampleEntry), "", "  "); err != nil {
		t.Fatal(err)
	}
	for _, doc := range [][]byte{[]byte(sampleEntry), indented.Bytes()} {
		for i := range doc {
			variants := [][]byte{append(doc[:i:i], doc[i+1:]...)}
			for _, c := range []byte("{}[],:\"\\ \n0-.eEtfnu\x00\x1f\xff") {
				v := bytes.Clone(doc)
				v[i] = c
				variants = append(variants, v)
			}
			for _, v := range variants {
				if got, want := Valid(v), json.Valid(v); got != want {
					t.Fatalf("Valid(%q) = %v, encoding/json says %v", v, got, want)
				}
				r := NewReader(v)
				_, ok := readTree(&r, 0)
				if accepted := ok && r.End() == nil; accepted != json.Valid(v) {
					t.Fatalf("the Reader splitting %q accepts it: %v; encoding/json says %v", v, accepted, !accepted)
				}
			}
		}
	}
}

// TestSkipIndexed: the spans SkipIndexed records are every object and array
// of the value, in order of their starts, with the ends a scan finds; the
// BigNumbers flag is set exactly when a number has an exponent or more than
// 308 characters. The value is read after a prefix, so offsets count from
// Base, not from the start of the value.
func TestSkipIndexed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue().Draw(t, "value")
		raw, _ := json.Marshal(v)
		if rapid.Bool().Draw(t, "big") {
			raw, _ = json.Marshal([]any{v, json.RawMessage(rapid.SampledFrom([]string{"1e400", "-2E-3", "1.5e2", strings.Repeat("9", 309), "0.5", "1234567890123456", "-12345678901234", `"\ud800"`}).Draw(t, "number"))})
		}
		if rapid.Bool().Draw(t, "indent") {
			raw, _ = json.MarshalIndent(json.RawMessage(raw), "", " ")
		}
		prefix := []byte(`{"k": `)
		doc := append(append(append([]byte{}, prefix...), raw...), '}')
		r := NewReader(doc)
		r.BeginObject()
		r.NextMember()
		idx := Index{Base: 2}
		got := r.SkipIndexed(&idx)
		if r.NextMember() {
			t.Fatal("a second member")
		}
		if err := r.End(); err != nil || !bytes.Equal(got, raw) {
			t.Fatalf("SkipIndexed read %q (%v), want %q", got, err, raw)
		}
		var want []Span
		containerSpans(raw, len(prefix)-2, &want)
		if diff := cmp.Diff(want, idx.Spans); diff != "" {
			t.Fatalf("spans of %s (-want +got):\n%s", raw, diff)
		}
		if big := bigNumbers(raw); idx.BigNumbers != big {
			t.Fatalf("BigNumbers = %v for %s", idx.BigNumbers, raw)
		}
		if inexact := inexactNumbers(raw); idx.Inexact != inexact {
			t.Fatalf("Inexact = %v for %s", idx.Inexact, raw)
		}
		// Every byte of 0x80 or more of valid JSON is in a string; Text
		// may be set without one, never unset with one.
		if nonASCII := bytes.ContainsFunc(raw, func(r rune) bool { return r >= 0x80 }); nonASCII && !idx.Text {
			t.Fatalf("Text unset for %q", raw)
		}
		// Walking with the index finds what walking without it finds.
		x := SpanIndex{Text: doc[idx.Base:], Spans: idx.Spans}
		walkBoth(t, raw, &x)
	})
}

// walkBoth checks that ForEachMemberIn and ForEachElementIn with x split
// every container of raw as ForEachMember and ForEachElement do.
func walkBoth(t *rapid.T, raw []byte, x *SpanIndex) {
	var with, without [][]byte
	switch Kind(raw) {
	case '{':
		collect := func(out *[][]byte) func(k, v []byte) bool {
			return func(k, v []byte) bool { *out = append(*out, k, v); return true }
		}
		e1, e2 := ForEachMemberIn(raw, x, collect(&with)), ForEachMember(raw, collect(&without))
		if e1 != e2 {
			t.Fatalf("%s: error %v with the index, %v without", raw, e1, e2)
		}
	case '[':
		collect := func(out *[][]byte) func(v []byte) bool {
			return func(v []byte) bool { *out = append(*out, v); return true }
		}
		e1, e2 := ForEachElementIn(raw, x, collect(&with)), ForEachElement(raw, collect(&without))
		if e1 != e2 {
			t.Fatalf("%s: error %v with the index, %v without", raw, e1, e2)
		}
	default:
		return
	}
	if diff := cmp.Diff(without, with); diff != "" {
		t.Fatalf("%s: split with the index differs (-without +with):\n%s", raw, diff)
	}
	for _, v := range with {
		walkBoth(t, v, x)
	}
}

// inexactNumbers reports whether a valid value has a number a float64 may
// not hold exactly by the rule of Index.Inexact, found with json.Number.
func inexactNumbers(raw []byte) bool {
	found := false
	walkNumbers(raw, func(n json.Number) {
		if len(n) > 15 || strings.ContainsAny(string(n), ".eE") {
			found = true
		}
	})
	return found
}

// walkNumbers calls fn with every number of a valid value.
func walkNumbers(raw []byte, fn func(json.Number)) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case json.Number:
			fn(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

// TestIndexText: the strings Index.Text and Reader.KeyText must flag, and
// some they need not.
func TestIndexText(t *testing.T) {
	for _, tc := range []struct {
		value string
		text  bool
	}{
		{`["plain", "\\ud800", "\u00e9", "\n"]`, false},
		{`{"a": {"\\uD800": 1}}`, false},
		{`["\ud800"]`, true},
		{`["\uDC00"]`, true},
		{`["\ud83d\ude00"]`, true}, // a valid pair is still looked at
		{`{"k": {"\udfff": 1}}`, true},
		{"[\"\xff\"]", true},
		{"{\"\xc3\xa9\": 1}", true},
		{"[\"0123456789\", \"\xc3\xa9\"]", true},
	} {
		r := NewReader([]byte(tc.value))
		var idx Index
		r.SkipIndexed(&idx)
		if err := r.End(); err != nil {
			t.Fatalf("%s: %v", tc.value, err)
		}
		if idx.Text != tc.text {
			t.Errorf("%s: Text = %v, want %v", tc.value, idx.Text, tc.text)
		}
	}
	for key, want := range map[string]bool{`"plain"`: false, `"\\udc00"`: false, `"\udc00"`: true, "\"\xe9\"": true} {
		r := NewReader([]byte(`{` + key + `: 1}`))
		r.BeginObject()
		if !r.NextMember() || r.KeyText() != want {
			t.Errorf("key %s: KeyText = %v, want %v", key, r.KeyText(), want)
		}
	}
}

// containerSpans appends the spans of the containers of a valid value at
// offset off, in pre-order, found with Members and Elements.
func containerSpans(raw []byte, off int, out *[]Span) {
	switch Kind(raw) {
	case '{':
		*out = append(*out, Span{int32(off), int32(off + len(raw))})
		ms, _ := Members(raw)
		for _, m := range ms {
			containerSpans(m.Value, off+offsetIn(raw, m.Value), out)
		}
	case '[':
		*out = append(*out, Span{int32(off), int32(off + len(raw))})
		els, _ := Elements(raw)
		for _, el := range els {
			containerSpans(el, off+offsetIn(raw, el), out)
		}
	}
}

// offsetIn is the offset of sub within raw, which it aliases.
func offsetIn(raw, sub []byte) int { return cap(raw) - cap(sub) }

// bigNumbers reports whether a valid value has a number with an exponent or
// of more than 308 characters, by decoding it with json.Number.
func bigNumbers(raw []byte) bool {
	found := false
	walkNumbers(raw, func(n json.Number) {
		if len(n) > 308 || strings.ContainsAny(string(n), "eE") {
			found = true
		}
	})
	return found
}

// TestSkipIndexedDeep: containers nested deeper than it records ends for
// are listed with End 0, so that a reader of the index scans them.
func TestSkipIndexedDeep(t *testing.T) {
	raw := []byte(strings.Repeat("[", 70) + strings.Repeat("]", 70))
	r := NewReader(raw)
	var idx Index
	if got := r.SkipIndexed(&idx); !bytes.Equal(got, raw) || r.End() != nil {
		t.Fatalf("SkipIndexed read %q", got)
	}
	if len(idx.Spans) != 70 {
		t.Fatalf("%d spans, want 70", len(idx.Spans))
	}
	for i, sp := range idx.Spans {
		want := Span{int32(i), int32(140 - i)}
		if i >= maxIndexDepth {
			want.End = 0
		}
		if sp != want {
			t.Errorf("span %d = %v, want %v", i, sp, want)
		}
	}
}

// TestAppendCompactMatchesJSONCompact: AppendCompact writes what json.Compact
// writes for valid JSON, and the input unchanged for anything else;
// CompactLen (and CompactLenValid, for valid JSON) is the length of it.
func TestAppendCompactMatchesJSONCompact(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := jsonText(t)
		if rapid.Bool().Draw(t, "surrounded") {
			b = append(append([]byte("\n "), b...), " \t"...)
		}
		var want bytes.Buffer
		if err := json.Compact(&want, b); err != nil {
			want.Reset()
			want.Write(b)
		}
		if got := AppendCompact([]byte("x"), b); string(got[1:]) != want.String() {
			t.Fatalf("AppendCompact(%q) = %q, want %q", b, got[1:], want.Bytes())
		}
		if got := CompactLen(b); got != want.Len() {
			t.Fatalf("CompactLen(%q) = %d, want %d", b, got, want.Len())
		}
		if json.Valid(b) {
			if got := CompactLenValid(b); got != want.Len() {
				t.Fatalf("CompactLenValid(%q) = %d, want %d", b, got, want.Len())
			}
		}
	})
}

// stringBodies draws string literals (opening quote first) with the bytes a
// string scanner must tell apart, around the eight-byte words it reads,
// with or without more text after them.
func stringBodies() *rapid.Generator[[]byte] {
	piece := rapid.SampledFrom([]string{"a", "Z", "0", " ", "~", "\x7f", "\"", `\`, `\"`, `\u00e9`, `\ud800`,
		"\x00", "\x1f", "\x80", "\xc3\xa9", "\xff", "abcdefgh", "{", "]"})
	return rapid.Custom(func(t *rapid.T) []byte {
		b := []byte{'"'}
		for range rapid.IntRange(0, 24).Draw(t, "pieces") {
			b = append(b, piece.Draw(t, "piece")...)
		}
		return b
	})
}

// checkPlainEnd checks the fast path of the string scanners on the literal
// starting at data[0]: where plainEnd settles it, scanString ends it at the
// same byte with no escape, and its contents are printable ASCII (so that
// Index.Text may stay unset); and plainEnd settles every such literal whose
// closing quote has a word of text from it on.
func checkPlainEnd(t interface{ Fatalf(string, ...any) }, data []byte) {
	printable := func(b []byte) bool {
		for _, c := range b {
			if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
				return false
			}
		}
		return true
	}
	end, esc, _ := scanString(data, 0)
	got := plainEnd(data, 0)
	if got > 0 && (got != end || esc || !printable(data[1:got-1])) {
		t.Fatalf("plainEnd(%q) = %d; scanString = %d, escaped %v", data, got, end, esc)
	}
	if got < 0 && end > 0 && printable(data[1:end-1]) && end-1+8 <= len(data) {
		t.Fatalf("plainEnd(%q) = -1; scanString = %d, printable", data, end)
	}
}

func TestPlainEndAgreesWithScanString(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkPlainEnd(t, stringBodies().Draw(t, "data")) })
}

// FuzzPlainEnd is checkPlainEnd over any bytes after an opening quote.
func FuzzPlainEnd(f *testing.F) {
	for _, s := range []string{`abc"`, `abcdefgh"ijklmnop`, `a\"b"        `, "caf\xc3\xa9\"        ", "tab\t\"        "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkPlainEnd(t, append([]byte{'"'}, b...)) })
}
