package model

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// TestIteratorsAgreeWithSplit: on any JSON value, with and without an index,
// the fast iterators yield exactly the members and elements membersOf and
// elementsOf split, at every level, except that they stop (bail) on an
// object with a repeated or escaped key, or a key beyond ASCII, and only
// there.
func TestIteratorsAgreeWithSplit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		doc := []byte(jsonValue().Draw(t, "doc"))
		if rapid.Bool().Draw(t, "compact") {
			var b bytes.Buffer
			if err := json.Compact(&b, doc); err != nil {
				t.Fatal(err)
			}
			doc = b.Bytes()
		}
		v := validator{}
		if rapid.Bool().Draw(t, "indexed") {
			v.index.build(doc)
		}
		var check func(raw []byte)
		check = func(raw []byte) {
			switch jsonx.Kind(raw) {
			case '{':
				want, _ := membersOf(raw, nil, &v.index)
				var it members
				if !v.open(&it, raw) {
					t.Fatalf("open(%s) fails", raw)
				}
				var got []rawMember
				for v.next(&it) {
					got = append(got, it.m)
				}
				if v.bail {
					if !oddKeys(raw) {
						t.Fatalf("%s: the iterator stops on an object whose keys are plain and distinct", raw)
					}
					v.bail = false
					return
				}
				if oddKeys(raw) {
					t.Fatalf("%s: the iterator reads through repeated or escaped keys", raw)
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d members, membersOf has %d", raw, len(got), len(want))
				}
				for i := range got {
					if !bytes.Equal(got[i].key, want[i].key) || !bytes.Equal(got[i].value, want[i].value) {
						t.Fatalf("%s: member %d is %q:%s, membersOf has %q:%s", raw, i, got[i].key, got[i].value, want[i].key, want[i].value)
					}
					if s, ok := plainString(got[i].value); got[i].plain && (!ok || !bytes.Equal(s, got[i].value[1:len(got[i].value)-1])) {
						t.Fatalf("%s: member %d is marked plain but decodes to %q", raw, i, s)
					}
					check(got[i].value)
				}
			case '[':
				want, _ := elementsOf(raw, nil, &v.index)
				var it elements
				if !v.openArray(&it, raw) {
					t.Fatalf("openArray(%s) fails", raw)
				}
				n := 0
				for v.nextElement(&it) {
					if it.n != n || n >= len(want) || !bytes.Equal(it.el, want[n]) {
						t.Fatalf("%s: element %d is %s (index %d), elementsOf has %d elements", raw, n, it.el, it.n, len(want))
					}
					check(it.el)
					n++
				}
				if v.bail {
					t.Fatalf("%s: the iterator stops on an array", raw)
				}
				if n != len(want) {
					t.Fatalf("%s: %d elements, elementsOf has %d", raw, n, len(want))
				}
			}
		}
		check(doc)
	})
}

// oddKeys reports whether an object's own keys repeat (decoded) or are
// written with an escape or a byte beyond ASCII.
func oddKeys(raw []byte) bool {
	seen := map[string]bool{}
	i := skipWS(raw, 1)
	for i < len(raw) && raw[i] == '"' {
		end := skipStr(raw, i)
		lit := raw[i:end]
		key, _ := jsonx.String(lit)
		if seen[key] || bytes.IndexByte(lit, '\\') >= 0 || strings.ContainsFunc(string(lit), func(r rune) bool { return r >= 0x80 }) {
			return true
		}
		seen[key] = true
		i = skipWS(raw, skipWS(raw, end)+1)  // past ':'
		i = skipWS(raw, skipVal(raw, i)) + 1 // past ','
		i = skipWS(raw, i)
	}
	return false
}

// TestKeyHashIsPositionFree: a key gives the same hash read eight bytes at a
// time or byte by byte near the end of the text, so that the Bloom filter of
// an object's keys finds every repeat.
func TestKeyHashIsPositionFree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		key := rapid.StringOfN(rapid.RuneFrom([]rune("abcXYZ019_-./:$")), 0, 20, -1).Draw(t, "key")
		lit := `"` + key + `"`
		long := []byte(lit + `:1,"next":2}`)
		short := []byte(lit)
		endL, hL := keyEnd(long, 0)
		endS, hS := keyEnd(short, 0)
		if endL != len(lit) || endS != len(lit) || hL != hS {
			t.Fatalf("%s: ends %d and %d, hashes %x and %x", lit, endL, endS, hL, hS)
		}
	})
}

// checkASCIIEnd checks the fast paths of the iterators on the literal
// starting at raw[0]: where asciiEnd or asciiTail settles it, stringEnd ends
// it at the same byte and finds it plain ASCII; asciiEnd settles every plain
// literal whose closing quote has a word of text from it on, and the two
// together every plain literal in a text of at least eight bytes.
func checkASCIIEnd(t interface{ Fatalf(string, ...any) }, raw []byte) {
	end, ascii := stringEnd(raw, 0)
	got := asciiEnd(raw, 0)
	if got > 0 && (got != end || !ascii) {
		t.Fatalf("asciiEnd(%q) = %d; stringEnd = %d, ascii %v", raw, got, end, ascii)
	}
	if got < 0 && end > 0 && ascii && end-1+8 <= len(raw) {
		t.Fatalf("asciiEnd(%q) = -1; stringEnd = %d, ascii", raw, end)
	}
	tail := asciiTail(raw, 0)
	if tail > 0 && (tail != end || !ascii) {
		t.Fatalf("asciiTail(%q) = %d; stringEnd = %d, ascii %v", raw, tail, end, ascii)
	}
	if got < 0 && tail < 0 && end > 0 && ascii && len(raw) >= 8 {
		t.Fatalf("asciiEnd and asciiTail(%q) = -1; stringEnd = %d, ascii", raw, end)
	}
}

func TestASCIIEndAgreesWithStringEnd(t *testing.T) {
	piece := rapid.SampledFrom([]string{"a", "Z", " ", "~", "\x7f", "\"", `\`, `\"`, `\\`, `\u00e9`,
		"\x80", "\xc3\xa9", "\xff", "abcdefgh", "{", "]", ","})
	rapid.Check(t, func(t *rapid.T) {
		raw := []byte{'"'}
		for range rapid.IntRange(0, 24).Draw(t, "pieces") {
			raw = append(raw, piece.Draw(t, "piece")...)
		}
		checkASCIIEnd(t, raw)
	})
}

// FuzzASCIIEnd is checkASCIIEnd over any bytes after an opening quote. The
// iterators read text that passed json.Valid, so control characters do not
// occur there; stringEnd passes them over as any other byte, and so must
// the fast paths.
func FuzzASCIIEnd(f *testing.F) {
	for _, s := range []string{`abc"}`, `abcdefgh"]`, `abcdefghijk"`, `a\"b"}`, "caf\xc3\xa9\"]"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkASCIIEnd(t, append([]byte{'"'}, b...)) })
}
