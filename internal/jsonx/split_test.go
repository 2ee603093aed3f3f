package jsonx

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// splitResult is everything a reader of one object observes: what it
// returns and the state the Reader is left in.
type splitResult struct {
	Members []Member
	Facts   KeyFacts
	Spans   []Span
	Big     bool
	Inexact bool
	Text    bool
	Pos     int
	Last    int
	Err     bool
	End     bool
}

// splitSimple reads the object at the Reader's position as SplitObject
// replaces: BeginObject, then NextMember, KeyInfo, KeyText and SkipIndexed
// (Skip without an index) for each member.
func splitSimple(r *Reader, idx *Index) ([]Member, KeyFacts, bool) {
	facts := KeyFacts{Literal: true}
	if !r.BeginObject() {
		return nil, facts, false
	}
	var ms []Member
	var keys KeySet
	for r.NextMember() {
		key, info := r.KeyInfo()
		facts.Text = facts.Text || r.KeyText()
		facts.Unnumbered = facts.Unnumbered || info.ID == 0
		facts.Literal = facts.Literal && info.Literal
		facts.MayRepeat = keys.Add(info) || facts.MayRepeat
		if info.ID < FirstKeys && facts.First[info.ID] == 0 && len(ms) < 255 {
			facts.First[info.ID] = uint8(len(ms) + 1)
		}
		var v []byte
		if idx != nil {
			v = r.SkipIndexed(idx)
		} else {
			v = r.Skip()
		}
		ms = append(ms, Member{Key: key, Value: v})
	}
	return ms, facts, true
}

// splitFast is SplitObject appending to a slice of room for two members,
// so that both its paths (room left, append) are taken.
func splitFast(r *Reader, idx *Index) ([]Member, KeyFacts, bool) {
	return r.SplitObject(make([]Member, 0, 2), idx, nil)
}

// splitSpans is SplitObjectSpans (offsets from the start of the text, into
// a slice of room for two), its spans turned back into members: each key
// the decoded literal they give, each value the bytes.
func splitSpans(r *Reader, idx *Index) ([]Member, KeyFacts, bool) {
	sp, facts, ok := r.SplitObjectSpans(make([]MemberSpan, 0, 2), 0, idx, nil)
	if r.Err() != nil {
		return nil, facts, ok
	}
	var ms []Member
	for _, p := range sp {
		ms = append(ms, Member{Key: KeyString(r.data[p.Key.Start-1 : p.Key.End+1]), Value: r.data[p.Value.Start:p.Value.End]})
	}
	return ms, facts, ok
}

// checkPlain checks that KeyFacts.Plain marks only members whose values
// are string literals of bytes from 0x20 to 0x7f without quote or
// backslash, then clears it for the comparison with the loop, which does not
// compute it. It is set for such values not too near the end of the text,
// which TestSplitObjectPlain checks.
func checkPlain(t interface{ Fatalf(string, ...any) }, res *splitResult) {
	for k := range min(len(res.Members), 64) {
		if res.Facts.Plain&(1<<k) == 0 {
			continue
		}
		if v := res.Members[k].Value; !plainLiteral(v) {
			t.Fatalf("member %d: Plain set for %q", k, v)
		}
	}
	if n := len(res.Members); n < 64 && res.Facts.Plain>>n != 0 {
		t.Fatalf("Plain %b set beyond the %d members", res.Facts.Plain, n)
	}
	res.Facts.Plain = 0
}

// plainLiteral reports whether v is a string literal of bytes from 0x20 to
// 0x7f without quote or backslash, a byte at a time.
func plainLiteral(v []byte) bool {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	for _, c := range v[1 : len(v)-1] {
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// TestSplitObjectPlain: KeyFacts.Plain is set for the plain string values
// of an object followed by at least eight bytes, and for no other.
func TestSplitObjectPlain(t *testing.T) {
	r := NewReader([]byte(`{"a":"x","b":1,"c":"caf\u00e9","d":"` + strings.Repeat("y", 40) + `","e":"","f":["z"],"g":"\u0000"}` + strings.Repeat(" ", 8)))
	_, facts, ok := r.SplitObject(nil, nil, nil)
	if !ok || r.End() != nil {
		t.Fatal("not read")
	}
	if want := uint64(1<<0 | 1<<3 | 1<<4); facts.Plain != want {
		t.Fatalf("Plain %07b, want %07b", facts.Plain, want)
	}
}

// splitWith reads doc as [prefix..., object, ...] down to depth levels of
// arrays, splits the object at that depth with split, and reports what
// was observed.
func splitWith(doc []byte, depth int, indexed bool, split func(*Reader, *Index) ([]Member, KeyFacts, bool)) *splitResult {
	r := NewReader(doc)
	for range depth {
		r.BeginArray()
		r.NextElement()
	}
	var idx *Index
	if indexed {
		idx = &Index{Base: 1}
	}
	var res splitResult
	ms, facts, ok := split(&r, idx)
	if !ok && r.Err() == nil {
		// Not an object: nothing was read.
		ms = []Member{{Key: "not an object"}}
	}
	res.Err = r.Err() != nil
	if !res.Err {
		if len(ms) > 0 {
			res.Members = ms
		}
		res.Facts = facts
		if idx != nil {
			res.Spans, res.Big, res.Inexact, res.Text = idx.Spans, idx.BigNumbers, idx.Inexact, idx.Text
		}
		res.Pos, res.Last = r.Pos(), r.LastSpace()
		if !ok {
			r.Skip()
		}
		for range depth {
			for r.NextElement() {
				r.Skip()
			}
		}
	}
	res.End = r.End() == nil
	return &res
}

// registryKeys are keys of the registry formats (interned, numbered) and
// others, for objects with repeated, escaped and HTML-escaped keys.
var registryKeys = []string{"name", "url", "type", "version", "_meta", "io.github.stacklok", "x", "a<b", "é", "\u2028", "\\u006eame", "\\ud800", "na\\\"me"}

// objectText generates the text of an object: members with keys of the
// registry formats and others, repeated at times, and values of any kind,
// compact or with whitespace, then perhaps damaged in one place.
func objectText(t *rapid.T) []byte {
	n := rapid.IntRange(0, 6).Draw(t, "members")
	spaces := rapid.SampledFrom([]string{"", "", " ", "\n\t", "\r", "\n" + strings.Repeat(" ", 14), strings.Repeat(" ", 7) + "\t" + strings.Repeat(" ", 9) + "\r\n  "}).Draw(t, "spaces")
	// Whitespace at each place, or none.
	space := func() string { return rapid.SampledFrom([]string{"", spaces}).Draw(t, "space") }
	b := []byte("{" + space())
	for i := range n {
		if i > 0 {
			b = append(b, space()+","+space()...)
		}
		var key string
		if rapid.Bool().Draw(t, "known") {
			key = `"` + rapid.SampledFrom(registryKeys).Draw(t, "key") + `"`
		} else {
			k, _ := json.Marshal(rapid.String().Draw(t, "key"))
			key = string(k)
		}
		v, _ := json.Marshal(jsonValue().Draw(t, "value"))
		if rapid.Bool().Draw(t, "indent") {
			v, _ = json.MarshalIndent(json.RawMessage(v), "", spaces)
		}
		if rapid.Bool().Draw(t, "literal") {
			v = []byte(rapid.SampledFrom([]string{`"\u00e9"`, `"\ud800"`, "\"\xff\"", `1e400`, `0.5`, `12345678901234567`, `"` + strings.Repeat("x", 20) + `"`, `[[],{}]`, `""`}).Draw(t, "literal"))
		}
		b = append(b, key+space()+":"+space()...)
		b = append(b, v...)
	}
	b = append(b, space()+"}"...)
	return damage(t, b)
}

// anyText draws an object (objectText) or any text (jsonText).
func anyText(t *rapid.T) []byte {
	if rapid.Bool().Draw(t, "object") {
		return objectText(t)
	}
	return jsonText(t)
}

// nestedDoc draws a depth of 0 to 2 and puts obj that deep in arrays, so
// that what is read at depth is not all of the text.
func nestedDoc(t *rapid.T, obj []byte) (doc []byte, depth int) {
	depth = rapid.IntRange(0, 2).Draw(t, "depth")
	return []byte(strings.Repeat("[", depth) + string(obj) + strings.Repeat(",1]", depth)), depth
}

// TestSplitObject: SplitObject reads every text, valid or not, as the loop
// of NextMember, KeyInfo and SkipIndexed (or Skip) it replaces does:
// the same members, key facts, index and Reader state, the same verdict.
func TestSplitObject(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		obj := anyText(t)
		doc, depth := nestedDoc(t, obj)
		indexed := rapid.Bool().Draw(t, "indexed")
		want := splitWith(doc, depth, indexed, splitSimple)
		got := splitWith(doc, depth, indexed, splitFast)
		checkPlain(t, got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SplitObject on %q (-loop +SplitObject):\n%s", doc, diff)
		}
		spans := splitWith(doc, depth, indexed, splitSpans)
		checkPlain(t, spans)
		if diff := cmp.Diff(want, spans); diff != "" {
			t.Fatalf("SplitObjectSpans on %q (-loop +SplitObjectSpans):\n%s", doc, diff)
		}
	})
}

// TestSplitObjectCases: texts at the edges: nesting at the limit, the end
// of the text inside a member, whitespace everywhere, and the entries of a
// registry document.
func TestSplitObjectCases(t *testing.T) {
	entries, err := os.ReadFile("../../model/testdata/validate/entries.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		doc   string
		depth int
	}{
		{string(entries), 0},
		{`{}`, 0}, {` { } `, 0}, {`{`, 0}, {`{"a"`, 0}, {`{"a":`, 0}, {`{"a":1`, 0}, {`{"a":1,`, 0}, {`{"a":1,}`, 0},
		{`{"a":"x`, 0}, {`{"a":"x"`, 0}, {`{"a" 1}`, 0}, {`{"a":1 "b":2}`, 0}, {`{1:2}`, 0}, {`{"a":1}}`, 0},
		{"{\n\t\"a\" :\r\n\"b\" , \"c\":[ 1 ,{ } ] }\n", 0}, {`{"a":[1, 2]}`, 0}, {`[{"a":{"b": 1},"c":2}]`, 1}, {`[]`, 0}, {`"s"`, 0}, {``, 0},
		{strings.Repeat("[", 9999) + `{"a":1}` + strings.Repeat("]", 9999), 9999},
		{strings.Repeat("[", 9999) + `{"a":[]}` + strings.Repeat("]", 9999), 9999},
		{strings.Repeat("[", 9999) + `{"a":"s"}` + strings.Repeat("]", 9999), 9999},
		{strings.Repeat("[", 10000) + `{}` + strings.Repeat("]", 10000), 10000},
		{`{"name":"` + strings.Repeat("x", 30) + `","name":1,"\u006eame":2,"a<b":3}`, 0},
	}
	for _, tc := range cases {
		for _, indexed := range []bool{false, true} {
			want := splitWith([]byte(tc.doc), tc.depth, indexed, splitSimple)
			for name, split := range map[string]func(*Reader, *Index) ([]Member, KeyFacts, bool){"SplitObject": splitFast, "SplitObjectSpans": splitSpans} {
				got := splitWith([]byte(tc.doc), tc.depth, indexed, split)
				checkPlain(t, got)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s on %.80q (-loop +%s):\n%s", name, tc.doc, name, diff)
				}
			}
		}
	}
}

// TestKeyInfoEscapedKey: a key of the registry formats spelled with an
// escape has the number of its plain spelling, so that KeySet finds the two
// repeated; it is not written back as read.
func TestKeyInfoEscapedKey(t *testing.T) {
	r := NewReader([]byte(`{"name":1,"\u006eame":2,"n\u0061me":3}`))
	r.BeginObject()
	var keys KeySet
	for i := 0; r.NextMember(); i++ {
		key, info := r.KeyInfo()
		_, id := internKey([]byte("name"))
		if key != "name" || info.ID != id || info.Literal != (i == 0) {
			t.Fatalf("member %d: KeyInfo %q %+v, want name, ID %d, literal %v", i, key, info, id, i == 0)
		}
		if repeat := keys.Add(info); repeat != (i > 0) {
			t.Fatalf("member %d: KeySet.Add %v", i, repeat)
		}
		r.Skip()
	}
	if err := r.End(); err != nil {
		t.Fatal(err)
	}
}

// spaceEndSimple is spaceEnd a byte at a time.
func spaceEndSimple(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	return i
}

// TestSpaceEnd: spaceEnd, eight bytes at a time over spaces, finds the end
// of every run of whitespace the byte-by-byte loop finds, near the end of
// the text and far from it.
func TestSpaceEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := rapid.SliceOfN(rapid.SampledFrom([]byte{' ', ' ', ' ', ' ', '\n', '\t', '\r', 'x', '"', 0, 0x1f, 0x21, 0xa0}), 0, 40).Draw(t, "data")
		i := rapid.IntRange(0, len(data)).Draw(t, "from")
		if got, want := spaceEnd(data, i), spaceEndSimple(data, i); got != want {
			t.Fatalf("spaceEnd(%q, %d) = %d, want %d", data, i, got, want)
		}
	})
}

// lastSpaceSimple is the index of the last whitespace byte outside the
// strings of a valid text, -1 if none: what LastSpace reports after the
// text is read whole.
func lastSpaceSimple(data []byte) int {
	last, inString := -1, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			last = i
		}
	}
	return last
}

// TestLastSpace: every way of reading a text (Skip, SkipIndexed,
// SplitObject, the loop of NextMember) leaves LastSpace at the last
// whitespace byte outside strings, as a byte-by-byte walk finds it.
func TestLastSpace(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := anyText(t)
		if !json.Valid(text) {
			return
		}
		want := lastSpaceSimple(text)
		for name, read := range map[string]func(r *Reader){
			"Skip":        func(r *Reader) { r.Skip() },
			"SkipIndexed": func(r *Reader) { r.SkipIndexed(&Index{}) },
			"SplitObject": func(r *Reader) {
				if _, _, ok := r.SplitObject(nil, &Index{}, nil); !ok {
					r.Skip()
				}
			},
			"NextMember": func(r *Reader) {
				if _, _, ok := splitSimple(r, nil); !ok {
					r.Skip()
				}
			},
		} {
			r := NewReader(text)
			read(&r)
			if err := r.End(); err != nil {
				t.Fatalf("%s on %q: %v", name, text, err)
			}
			if got := r.LastSpace(); got != want {
				t.Fatalf("%s on %q: LastSpace %d, want %d", name, text, got, want)
			}
		}
	})
}

// testValueReader is a ValueReader that reads a value with ValidValue,
// recording no spans, when it is compact and accept says so, and that
// otherwise declines after scribbling on the index, which SplitObject must
// put back.
type testValueReader struct {
	accept func() bool
}

func (vr testValueReader) ReadValue(key string, data []byte, i, depth int, idx *Index) int {
	var scratch Index
	end, last := ValidValue(data, i, depth, &scratch)
	if end < 0 || last >= 0 || !vr.accept() {
		idx.Spans = append(idx.Spans, Span{Start: -1})
		idx.Text, idx.Inexact, idx.BigNumbers = true, true, true
		return -1
	}
	idx.Text = idx.Text || scratch.Text
	idx.Inexact = idx.Inexact || scratch.Inexact
	idx.BigNumbers = idx.BigNumbers || scratch.BigNumbers
	return end
}

// TestSplitObjectValueReader: SplitObject with a ValueReader reads every
// text as without one, but for the spans of the values the reader read,
// which are left out; a declined value leaves no trace.
func TestSplitObjectValueReader(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		obj := anyText(t)
		doc, depth := nestedDoc(t, obj)
		want := splitWith(doc, depth, true, splitSimple)
		read := 0
		vr := testValueReader{accept: func() bool {
			ok := rapid.Bool().Draw(t, "accept")
			if ok {
				read++
			}
			return ok
		}}
		got := splitWith(doc, depth, true, func(r *Reader, idx *Index) ([]Member, KeyFacts, bool) {
			return r.SplitObject(make([]Member, 0, 2), idx, vr)
		})
		checkPlain(t, got)
		for _, sp := range got.Spans {
			if !slices.Contains(want.Spans, sp) {
				t.Fatalf("SplitObject on %q: span %v not the scan's %v", doc, sp, want.Spans)
			}
		}
		if read == 0 && len(got.Spans) != len(want.Spans) {
			t.Fatalf("SplitObject on %q: spans %v, want %v", doc, got.Spans, want.Spans)
		}
		got.Spans, want.Spans = nil, nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("SplitObject on %q (-loop +SplitObject with a ValueReader):\n%s", doc, diff)
		}
	})
}

// TestFirstID: FirstID numbers "$schema", "version", "name", "description"
// and "title" as the reader numbers them, below FirstKeys, and no other key.
func TestFirstID(t *testing.T) {
	looked := map[string]bool{"$schema": true, "version": true, "name": true, "description": true, "title": true}
	for _, key := range []string{"$schema", "version", "name", "description", "title", "meta", "data", "remotes", "x", "", "Name"} {
		want := 0
		if looked[key] {
			_, want = internKey([]byte(key))
			if want == 0 || want >= FirstKeys {
				t.Fatalf("%q is numbered %d, not below FirstKeys", key, want)
			}
		}
		if got := FirstID(key); got != want {
			t.Errorf("FirstID(%q) = %d, want %d", key, got, want)
		}
	}
}
