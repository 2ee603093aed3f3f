package jsonx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"unsafe"
)

// maxDepth is encoding/json's nesting limit: json.Valid rejects a text with
// more than 10,000 open objects and arrays, so Reader does too.
const maxDepth = 10000

// MaxDepth is the most objects and arrays a JSON text may have open at
// once for encoding/json (and Reader) to accept it.
const MaxDepth = maxDepth

// Depth returns the most objects and arrays open at once in the JSON text
// b, which must be valid: one pass, brackets in strings not counted.
func Depth(b []byte) int {
	depth, most := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '{', '[':
			depth++
			most = max(most, depth)
		case '}', ']':
			depth--
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		}
	}
	return most
}

// ErrSyntax is the error of a Reader that met text json.Valid rejects.
var ErrSyntax = errors.New("invalid JSON")

// Reader reads one JSON text in a single pass, validating as it goes: it
// accepts exactly the texts encoding/json.Valid accepts (invalid UTF-8
// included, nesting up to 10,000 levels). A caller descends into the
// containers it wants split (BeginObject/NextMember, BeginArray/NextElement)
// and consumes every other value whole with Skip, which validates it and
// returns its bytes. Errors are sticky: after the first, every method returns
// a zero value and Err reports ErrSyntax.
//
// Validating and splitting in one pass is what lets a large registry document
// be read at close to the speed of json.Valid alone, instead of validating it
// and then scanning it again for each level that is split.
type Reader struct {
	data []byte
	pos  int
	err  error
	// first is set when the next NextMember or NextElement is the first of
	// its container.
	first bool
	depth int
	// lastSpace is the index of the last insignificant whitespace byte read,
	// -1 if none; a value read at [start, end) is compact when lastSpace < start.
	lastSpace int
	// keyLit is the current member's key literal, quotes included.
	keyLit  []byte
	keyEsc  bool
	keyText bool
}

// NewReader returns a Reader of data. It is a value so that a Reader used in
// one function stays off the heap.
func NewReader(data []byte) Reader {
	return Reader{data: data, lastSpace: -1}
}

// Err returns ErrSyntax when the text read so far is not valid JSON.
func (r *Reader) Err() error { return r.err }

func (r *Reader) fail() {
	if r.err == nil {
		r.err = ErrSyntax
	}
	r.pos = len(r.data)
}

// Pos is the offset of the next byte to read.
func (r *Reader) Pos() int { return r.pos }

// Len is the length of the text.
func (r *Reader) Len() int { return len(r.data) }

// Bytes returns the text from start to the current position: the bytes of a
// container read with Begin/Next from start = Pos() before its Begin.
func (r *Reader) Bytes(start int) []byte {
	if r.err != nil || start > r.pos {
		return nil
	}
	return r.data[start:r.pos]
}

// LastSpace is the offset of the last insignificant whitespace byte read, or
// -1: a value read from start has no whitespace outside its strings when
// LastSpace() < start.
func (r *Reader) LastSpace() int { return r.lastSpace }

func (r *Reader) skipSpace() {
	if i := r.pos; i < len(r.data) && r.data[i] <= ' ' {
		if j := spaceEnd(r.data, i); j > i {
			r.lastSpace, r.pos = j-1, j
		}
	}
}

// Kind reports the kind of the next value, as the package-level Kind does,
// without consuming it; 0 at the end of the text or after an error.
func (r *Reader) Kind() byte {
	if r.err != nil {
		return 0
	}
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	switch c := r.data[r.pos]; c {
	case '{', '[', '"', 't', 'f', 'n':
		return c
	}
	return '0'
}

// BeginObject consumes the '{' of the next value and reports whether it was
// one; read its members with NextMember.
func (r *Reader) BeginObject() bool { return r.begin('{') }

// BeginArray consumes the '[' of the next value and reports whether it was
// one; read its elements with NextElement.
func (r *Reader) BeginArray() bool { return r.begin('[') }

func (r *Reader) begin(c byte) bool {
	if r.Kind() != c {
		return false
	}
	if r.depth >= maxDepth {
		r.fail()
		return false
	}
	r.depth++
	r.pos++
	r.first = true
	return true
}

// NextMember moves to the next member of the object begun last and reports
// whether there is one; at the closing '}' it consumes it and returns false.
// After true, Key holds the member's key and the caller must consume the value
// (Skip, or BeginObject/BeginArray and their loops).
func (r *Reader) NextMember() bool {
	if !r.next('}') {
		return false
	}
	if r.pos >= len(r.data) || r.data[r.pos] != '"' {
		r.fail()
		return false
	}
	start := r.pos
	end, esc, text := plainEnd(r.data, start), false, false
	if end < 0 {
		end, esc, text = scanString(r.data, start)
	}
	if end < 0 {
		r.fail()
		return false
	}
	r.keyLit, r.keyEsc, r.keyText = r.data[start:end], esc, text
	r.pos = end
	r.skipSpace()
	if r.pos >= len(r.data) || r.data[r.pos] != ':' {
		r.fail()
		return false
	}
	r.pos++
	return true
}

// NextElement moves to the next element of the array begun last and reports
// whether there is one; at the closing ']' it consumes it and returns false.
// After true the caller must consume the element.
func (r *Reader) NextElement() bool {
	return r.next(']')
}

// next handles the separator before a member or element, or the closing
// bracket.
func (r *Reader) next(closing byte) bool {
	if r.err != nil {
		return false
	}
	r.skipSpace()
	if r.pos >= len(r.data) {
		r.fail()
		return false
	}
	c := r.data[r.pos]
	if c == closing {
		r.pos++
		r.depth--
		r.first = false
		return false
	}
	if !r.first {
		if c != ',' {
			r.fail()
			return false
		}
		r.pos++
		r.skipSpace()
	}
	r.first = false
	if closing == '}' {
		return true
	}
	// An element must start here; a ']' right after ',' is an error the
	// value parser reports.
	return true
}

// Key returns the raw bytes of the current member's key, between its quotes,
// and whether they hold an escape.
func (r *Reader) Key() (raw []byte, escaped bool) {
	if len(r.keyLit) < 2 {
		return nil, false
	}
	return r.keyLit[1 : len(r.keyLit)-1], r.keyEsc
}

// KeyText reports whether the current member's key literal may not be
// Unicode text, as Index.Text says of the strings of a value.
func (r *Reader) KeyText() bool { return r.keyText }

// KeyString returns the current member's key decoded. Keys of the registry
// formats are returned without allocating.
func (r *Reader) KeyString() string {
	k, _ := r.KeyInfo()
	return k
}

// KeyInfo returns the current member's key decoded, as KeyString does, and
// what a caller writing it back and checking for repeated keys needs:
// info.Literal is set when AppendQuote(key) gives back the very literal read,
// and info.ID is the key's number among the keys of the registry formats
// (see KeySet), 0 for another key.
func (r *Reader) KeyInfo() (key string, info KeyInfo) {
	if len(r.keyLit) < 2 {
		return "", KeyInfo{}
	}
	return keyInfo(r.keyLit, r.keyEsc)
}

// keyInfo decodes a valid key literal, quotes included, that holds an
// escape when esc is set, as KeyInfo says.
func keyInfo(lit []byte, esc bool) (key string, info KeyInfo) {
	raw := lit[1 : len(lit)-1]
	if !esc {
		if k, id := internKey(raw); id > 0 {
			return k, KeyInfo{ID: id, Literal: true}
		}
	}
	s, err := unquote(lit)
	if err != nil {
		return string(raw), KeyInfo{}
	}
	if esc {
		// A key of the registry formats spelled with an escape still has
		// its number, so that KeySet finds it repeated by its plain
		// spelling.
		_, id := internKey(unsafe.Slice(unsafe.StringData(s), len(s)))
		return s, KeyInfo{ID: id}
	}
	return s, KeyInfo{Literal: isPlain(s)}
}

// KeyString decodes lit, a valid string literal read as an object key, as
// SplitObject decodes the keys of the members it returns.
func KeyString(lit []byte) string {
	key, _ := keyInfo(lit, bytes.IndexByte(lit, '\\') >= 0)
	return key
}

// KeyInfo describes a key read by a Reader.
type KeyInfo struct {
	// ID numbers the keys of the registry formats from 1; 0 for others.
	ID int
	// Literal is set when the key is written back as the literal read.
	Literal bool
}

// KeySet records the keys of one object by their KeyInfo.ID, to find a
// repeated key without comparing strings. The zero value is empty.
type KeySet struct {
	bits [(numKeys + 63) / 64]uint64
	// others counts the keys without an ID.
	others int
}

// Add records a key and reports whether it may repeat an earlier one: true
// when its ID was seen before, or when two keys without ID were added (those
// must be compared by the caller).
func (ks *KeySet) Add(info KeyInfo) bool {
	if info.ID == 0 {
		ks.others++
		return ks.others > 1
	}
	w, b := info.ID/64, uint64(1)<<(info.ID%64)
	seen := ks.bits[w]&b != 0
	ks.bits[w] |= b
	return seen
}

// Skip validates and consumes the next value and returns its bytes, without
// surrounding whitespace; nil after an error.
func (r *Reader) Skip() []byte {
	if r.err != nil {
		return nil
	}
	r.skipSpace()
	start := r.pos
	end, last := validValue(r.data, start, r.depth)
	if end < 0 {
		r.fail()
		return nil
	}
	if last > r.lastSpace {
		r.lastSpace = last
	}
	r.pos = end
	r.first = false
	return r.data[start:end]
}

// Span is where an object or array lies in a text: offsets of its opening
// bracket and just past its closing one, from a base chosen by the caller.
type Span struct{ Start, End int32 }

// Index is what SkipIndexed records of the values it reads.
type Index struct {
	// Spans are the objects and arrays read, in order of their starts, as
	// offsets from Base. End is 0 for one nested more than 64 levels below
	// the value that holds it: a reader of the index must scan those.
	Spans []Span
	// Base is the offset in the text Spans are counted from.
	Base int
	// BigNumbers is set when a number read may be beyond the range of a
	// float64: one with an exponent or more than 308 characters.
	BigNumbers bool
	// Inexact is set when a number read may not be held exactly by a
	// float64: one with a fraction or an exponent, or more than 15
	// characters. An integer of at most 15 digits always is.
	Inexact bool
	// Text is set when a string read (key or value) may not be Unicode
	// text: when it holds a byte of 0x80 or more or a \u escape of the
	// UTF-16 surrogate range, the only ways JSON text json.Valid accepts
	// can hold invalid UTF-8 or a lone surrogate. It may be set for text
	// that is fine, never left unset for text that is not.
	Text bool
	// stack holds, for each open container, its index in Spans.
	stack [maxIndexDepth]int32
}

// maxIndexDepth bounds the nesting SkipIndexed records ends for.
const maxIndexDepth = 64

// SkipIndexed is Skip that also records in idx every object and array of the
// value and whether it holds a big number, in the same pass: what a later
// walk of the value needs to find the end of a nested container without
// scanning it again. Spans are counted from idx.Base, which must not be after
// the value's start.
func (r *Reader) SkipIndexed(idx *Index) []byte {
	if r.err != nil {
		return nil
	}
	r.skipSpace()
	start := r.pos
	end, last := validValueIndexed(r.data, start, r.depth, idx)
	if end < 0 {
		r.fail()
		return nil
	}
	if last > r.lastSpace {
		r.lastSpace = last
	}
	r.pos = end
	r.first = false
	return r.data[start:end]
}

// KeyFacts is what SplitObject found of the keys of an object.
type KeyFacts struct {
	// Literal is set when every key is written back as the literal read
	// (KeyInfo.Literal of each).
	Literal bool
	// MayRepeat is set when a key may occur twice (KeySet.Add of each).
	MayRepeat bool
	// Text is set when a key literal may not be Unicode text (KeyText of
	// each).
	Text bool
	// Unnumbered is set when a key is none of the registry formats' (its
	// KeyInfo.ID is 0): only such a key can spell one of them in another
	// case, which a caller may have to look for.
	Unnumbered bool
	// First holds, for each key number below FirstKeys (KeyInfo.ID: the
	// keys of an upstream document and the scalar members of server.json;
	// 0 for any other key), one more than the position of the first member
	// with a key of that number among the first 255, or 0: a caller looking
	// for those members (see FirstID) finds them without comparing keys.
	First [FirstKeys]uint8
	// Plain has bit k set when the value of member k (of the first 64) is
	// a string literal of bytes from 0x20 to 0x7f without escapes: its
	// contents, between the quotes, are the string it decodes to. It may be
	// unset for such a literal (one among the last bytes of the text).
	Plain uint64
}

// A ValueReader reads some member values of the objects SplitObject splits
// in place of its validating scan: a caller that must walk a value anyway
// (to check it against a schema) validates it on the same walk, instead of
// the scan reading it once and the caller a second time.
type ValueReader interface {
	// ReadValue reads the value of member key, an object or array starting
	// at data[i] inside depth open containers (the object split included),
	// and returns the index just past it, or -1 when it declines: then
	// SplitObject reads the value as usual, with idx as it was before the
	// call. A value it accepts must be one the scan accepts (as json.Valid
	// does), without insignificant whitespace, and ReadValue must have set
	// idx.Text, idx.Inexact and idx.BigNumbers as the scan would for it (see
	// ValidValue, ValidString, ValidNumber and Index.NoteNumber). It need not
	// record the value's spans: a reader of the index scans a container it
	// finds no span for.
	ReadValue(key string, data []byte, i, depth int, idx *Index) int
}

// SplitObject reads the next value when it is an object: it appends the
// object's members to ms, each key decoded as KeyInfo decodes it and each
// value as SkipIndexed returns it (Skip when idx is nil), and reports what
// it found of the keys. It is BeginObject and a loop of NextMember, KeyInfo
// and SkipIndexed in one call: the members of the objects a caller splits by
// the thousand (the entries of a registry document) then cost no call each
// beyond the values that are not strings. ok is false, and nothing read,
// when the next value is not an object; after an error (see Err) ms may hold
// some of the members.
//
// When vr is not nil (and idx is not), each value that is an object or an
// array is offered to vr first (see ValueReader).
func (r *Reader) SplitObject(ms []Member, idx *Index, vr ValueReader) (_ []Member, facts KeyFacts, ok bool) {
	out := memberSink{ms: ms}
	facts, ok = r.splitObject(&out, idx, vr)
	return out.ms, facts, ok
}

// MemberSpan is where one member of an object lies in a text: the contents
// of its key (between the quotes) and its value, as offsets from a base.
type MemberSpan struct{ Key, Value Span }

// SplitObjectSpans is SplitObject recording where each member lies, as
// offsets from base, instead of the member: no pointer for the collector to
// follow, and 16 bytes a member instead of 40. The key's contents are the key
// itself only when facts.Literal is set; otherwise a caller must decode the
// keys (KeyString, given the literal with its quotes). The text must be
// shorter than 1<<31 bytes from base.
func (r *Reader) SplitObjectSpans(ms []MemberSpan, base int, idx *Index, vr ValueReader) (_ []MemberSpan, facts KeyFacts, ok bool) {
	out := memberSink{sp: ms, base: base, spans: true}
	facts, ok = r.splitObject(&out, idx, vr)
	return out.sp, facts, ok
}

// FirstKeys bounds the key numbers KeyFacts.First records (see FirstID).
const FirstKeys = idTitle + 1

// memberSink is where splitObject puts the members it reads: in ms, or in
// sp as offsets from base when spans is set.
type memberSink struct {
	ms    []Member
	sp    []MemberSpan
	base  int
	spans bool
}

// n is the number of members put so far.
func (o *memberSink) n() int {
	if o.spans {
		return len(o.sp)
	}
	return len(o.ms)
}

// span is the member whose key literal is data[k0:k1] and whose value is
// data[v0:v1] as offsets from base (the key's without its quotes).
func (o *memberSink) span(k0, k1, v0, v1 int) MemberSpan {
	b := o.base
	return MemberSpan{Span{int32(k0 + 1 - b), int32(k1 - 1 - b)}, Span{int32(v0 - b), int32(v1 - b)}}
}

// put adds the member whose key literal is data[k0:k1] (quotes included)
// and whose value is data[v0:v1].
func (o *memberSink) put(data []byte, key string, k0, k1, v0, v1 int) {
	if o.spans {
		o.sp = append(o.sp, o.span(k0, k1, v0, v1))
		return
	}
	// Set field by field: appending a Member value copies it with a bulk
	// write barrier while the collector runs, which costs more than the two
	// pointer writes.
	if k := len(o.ms); k < cap(o.ms) {
		o.ms = o.ms[:k+1]
		o.ms[k].Key, o.ms[k].Value = key, data[v0:v1]
	} else {
		o.ms = append(o.ms, Member{Key: key, Value: data[v0:v1]})
	}
}

// splitObject is SplitObject and SplitObjectSpans, putting the members in
// out.
func (r *Reader) splitObject(out *memberSink, idx *Index, vr ValueReader) (facts KeyFacts, ok bool) {
	if idx == nil {
		vr = nil
	}
	facts.Literal = true
	if !r.BeginObject() {
		return facts, false
	}
	data := r.data
	n := len(data)
	i, last, depth := r.pos, r.lastSpace, r.depth
	var keys KeySet
	if i < n && data[i] <= ' ' {
		if j := spaceEnd(data, i); j > i {
			last, i = j-1, j
		}
	}
	if i < n && data[i] == '}' {
		i++
		goto done
	}
	for {
		// The key.
		if i >= n || data[i] != '"' {
			goto fail
		}
		{
			keyStart := i
			end, esc, text := plainEnd(data, i), false, false
			if end < 0 {
				if end, esc, text = scanString(data, i); end < 0 {
					goto fail
				}
			}
			keyEnd := end
			key, info := keyInfo(data[keyStart:end], esc)
			if k := out.n(); info.ID < FirstKeys && facts.First[info.ID] == 0 && k < 255 {
				facts.First[info.ID] = uint8(k + 1)
			}
			facts.Text = facts.Text || text
			facts.Unnumbered = facts.Unnumbered || info.ID == 0
			facts.Literal = facts.Literal && info.Literal
			facts.MayRepeat = keys.Add(info) || facts.MayRepeat
			i = end
			for i < n && isSpace(data[i]) {
				last = i
				i++
			}
			if i >= n || data[i] != ':' {
				goto fail
			}
			i++
			for i < n && isSpace(data[i]) {
				last = i
				i++
			}
			// The value: a string here, without a call when it is plain,
			// anything else by the value scanners.
			start := i
			if i < n && data[i] == '"' {
				if end := plainEnd(data, i); end > 0 {
					i = end
					if k := out.n(); k < 64 {
						facts.Plain |= 1 << k
					}
				} else {
					if i, _, text = scanString(data, i); i < 0 {
						goto fail
					}
					if idx != nil {
						idx.Text = idx.Text || text
					}
				}
			} else {
				read := false
				if vr != nil && i < n && (data[i] == '{' || data[i] == '[') {
					// What the scan records is put back when vr declines.
					spans, text, inexact, big := len(idx.Spans), idx.Text, idx.Inexact, idx.BigNumbers
					if end := vr.ReadValue(key, data, i, depth, idx); end > i && end <= n {
						i, read = end, true
					} else {
						idx.Spans, idx.Text, idx.Inexact, idx.BigNumbers = idx.Spans[:spans], text, inexact, big
					}
				}
				if !read {
					var vlast int
					if idx != nil {
						i, vlast = validValueIndexed(data, i, depth, idx)
					} else {
						i, vlast = validValue(data, i, depth)
					}
					if i < 0 {
						goto fail
					}
					last = max(last, vlast)
				}
			}
			if out.spans && len(out.sp) < cap(out.sp) {
				// put, written out for the scan's spans: a member of a
				// large document costs no call.
				k := len(out.sp)
				out.sp = out.sp[:k+1]
				out.sp[k] = out.span(keyStart, keyEnd, start, i)
			} else {
				out.put(data, key, keyStart, keyEnd, start, i)
			}
		}
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				last, i = j-1, j
			}
		}
		if i >= n {
			goto fail
		}
		if data[i] == '}' {
			i++
			break
		}
		if data[i] != ',' {
			goto fail
		}
		i++
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				last, i = j-1, j
			}
		}
	}
done:
	r.pos, r.lastSpace = i, last
	r.depth--
	r.first = false
	return facts, true
fail:
	r.fail()
	return facts, true
}

// isSpace reports whether c is insignificant whitespace: the test is one
// comparison for the bytes that are not.
func isSpace(c byte) bool {
	return c <= ' ' && (c == ' ' || c == '\n' || c == '\t' || c == '\r')
}

// End checks that only whitespace follows the value read and returns Err.
func (r *Reader) End() error {
	if r.err != nil {
		return r.err
	}
	r.skipSpace()
	if r.pos != len(r.data) || r.depth != 0 {
		r.fail()
	}
	return r.err
}

// Valid reports whether data is one valid JSON text, exactly as
// encoding/json.Valid does, in a single faster pass.
func Valid(data []byte) bool {
	r := NewReader(data)
	if r.Kind() == 0 {
		return false
	}
	r.Skip()
	return r.End() == nil
}

// SWAR constants: a byte repeated in every lane of a 64-bit word.
const (
	lo7  = 0x0101010101010101
	hi7  = 0x8080808080808080
	wsQ  = '"' * lo7
	wsBS = '\\' * lo7
	wsCC = 0x20 * lo7
)

// stringSpecials returns a word with the high bit set in the lane of each
// '"', '\\' or control character (< 0x20) of a little-endian word of 8
// string bytes — the bytes a string scanner must look at. Each test is the
// "has zero byte" / "has byte less than n" identity, whose lowest set bit is
// exact (higher ones may be false), so the first special byte is at
// TrailingZeros64/8.
func stringSpecials(w uint64) uint64 {
	q := w ^ wsQ
	b := w ^ wsBS
	return ((q-lo7)&^q | (b-lo7)&^b | (w-wsCC)&^w) & hi7
}

// scanString validates the string literal starting at data[i] == '"' and
// returns the index just past its closing quote (-1 if invalid) and whether
// it holds an escape. text is set when the literal may not be Unicode text:
// when it holds a byte of 0x80 or more (possibly invalid UTF-8) or a \u
// escape starting with d or D (possibly a lone UTF-16 surrogate). It may be
// set for a literal that is fine (a byte after the closing quote can be
// looked at), never left unset for one that is not.
func scanString(data []byte, i int) (end int, escaped, text bool) {
	j := i + 1
	// high collects every byte looked at, eight at a time: its high bits
	// say whether any was 0x80 or more.
	var high uint64
	for {
		// Find the next special byte, eight bytes at a time.
		for {
			if j+8 > len(data) {
				for j < len(data) && data[j] >= 0x20 && data[j] != '"' && data[j] != '\\' {
					high |= uint64(data[j])
					j++
				}
				break
			}
			w := word(data, j)
			high |= w
			if m := stringSpecials(w); m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		if j >= len(data) {
			return -1, false, false
		}
		switch data[j] {
		case '"':
			return j + 1, escaped, text || high&hi7 != 0
		case '\\':
			escaped = true
			j++
			if j >= len(data) {
				return -1, false, false
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j++
			case 'u':
				if j+5 > len(data) || !isHex(data[j+1]) || !isHex(data[j+2]) || !isHex(data[j+3]) || !isHex(data[j+4]) {
					return -1, false, false
				}
				if data[j+1]|0x20 == 'd' {
					text = true
				}
				j += 5
			default:
				return -1, false, false
			}
		default: // a control character
			return -1, false, false
		}
	}
}

// word returns the eight bytes of b from j as a little-endian word. Read
// through an array of eight, the bytes cost one bounds check, where
// binary.LittleEndian.Uint64(b[j:]) costs two, and the scanners' loops,
// through which every byte of a document passes, measured about a fifth
// faster for it.
func word(b []byte, j int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(b[j : j+8])[:])
}

// plainEnd returns the index just past the string literal starting at
// data[i] == '"' when its contents are printable ASCII without escapes, as
// nearly every key and value of registry data is. It returns -1 for any
// other literal, which scanString then reads: one with an escape, a byte of
// 0x80 or more or a control character, or one too near the end of the text
// for a word to hold its closing quote. Small enough to be inlined into the
// scanners' loops, it spares the common string a call.
// One word test finds the first quote, backslash, control character or
// byte beyond ASCII: the "has zero byte" identity (whose lowest set bit is
// exact) for the first three, the high bit itself for the last.
func plainEnd(data []byte, i int) int {
	for j := i + 1; j+8 <= len(data); j += 8 {
		// word(data, j), written out to keep plainEnd small enough to be
		// inlined.
		w := binary.LittleEndian.Uint64((*[8]byte)(data[j : j+8])[:])
		if m := (((w ^ wsQ) - lo7) | ((w ^ wsBS) - lo7) | (w - wsCC) | w) & hi7; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			if data[j] != '"' {
				return -1
			}
			return j + 1
		}
	}
	return -1
}

// notInteger reports whether a number literal has a fraction or an
// exponent: bytes.ContainsAny(num, ".eE") without its call and set.
func notInteger(num []byte) bool {
	for _, c := range num {
		if c == '.' || c|0x20 == 'e' {
			return true
		}
	}
	return false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber validates the number starting at data[i] and returns the index
// just past it, or -1.
func scanNumber(data []byte, i int) int {
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '0':
		i++
	case c >= '1' && c <= '9':
		i++
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	default:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) || !isDigit(data[i]) {
			return -1
		}
		for i < len(data) && isDigit(data[i]) {
			i++
		}
	}
	return i
}

func scanLiteral(data []byte, i int, lit string) int {
	if len(data)-i < len(lit) || string(data[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// validValue validates the value starting at data[i] (no leading space)
// inside depth open containers and returns the index just past it, or -1,
// and the index of the last insignificant whitespace byte inside it (-1 if
// none). It is iterative, so deep nesting cannot exhaust the stack, and
// written as one loop without calls on its common paths, since every byte of
// a large document passes through it.
func validValue(data []byte, i, depth int) (end, lastSpace int) {
	// inObject has one bit per open container of this value: set for an
	// object, clear for an array.
	var small [4]uint64
	inObject := small[:]
	open := 0
	lastSpace = -1
	n := len(data)
value:
	if i >= n {
		return -1, -1
	}
	switch c := data[i]; c {
	case '{', '[':
		if depth+open >= maxDepth {
			return -1, -1
		}
		w := open >> 6
		if w >= len(inObject) {
			inObject = append(inObject, 0)
		}
		if c == '{' {
			inObject[w] |= 1 << (open & 63)
		} else {
			inObject[w] &^= 1 << (open & 63)
		}
		open++
		i++
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				lastSpace, i = j-1, j
			}
		}
		if i < n && data[i] == c+2 { // '}' is '{'+2 and ']' is '['+2
			i++
			open--
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		if end := plainEnd(data, i); end > 0 {
			i = end
		} else {
			i, _, _ = scanString(data, i)
		}
	case 't':
		i = scanLiteral(data, i, "true")
	case 'f':
		i = scanLiteral(data, i, "false")
	case 'n':
		i = scanLiteral(data, i, "null")
	default:
		i = scanNumber(data, i)
	}
	if i < 0 {
		return -1, -1
	}
after:
	if open == 0 {
		return i, lastSpace
	}
	if i < n && data[i] <= ' ' {
		if j := spaceEnd(data, i); j > i {
			lastSpace, i = j-1, j
		}
	}
	if i >= n {
		return -1, -1
	}
	if inObject[(open-1)>>6]&(1<<((open-1)&63)) != 0 {
		switch data[i] {
		case ',':
			i++
			goto key
		case '}':
			i++
			open--
			goto after
		}
		return -1, -1
	}
	switch data[i] {
	case ',':
		i++
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				lastSpace, i = j-1, j
			}
		}
		goto value
	case ']':
		i++
		open--
		goto after
	}
	return -1, -1
key:
	if i < n && data[i] <= ' ' {
		if j := spaceEnd(data, i); j > i {
			lastSpace, i = j-1, j
		}
	}
	if i >= n || data[i] != '"' {
		return -1, -1
	}
	if end := plainEnd(data, i); end > 0 {
		i = end
	} else if i, _, _ = scanString(data, i); i < 0 {
		return -1, -1
	}
	for i < n && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		lastSpace = i
		i++
	}
	if i >= n || data[i] != ':' {
		return -1, -1
	}
	i++
	for i < n && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		lastSpace = i
		i++
	}
	goto value
}

// ValidValue validates the value starting at data[i] (no leading space)
// inside depth open containers, recording in idx as SkipIndexed does, and
// returns the index just past it, or -1, and the index of the last
// insignificant whitespace byte inside it (-1 if none): the scan of
// SplitObject, for a ValueReader that reads part of a value itself.
func ValidValue(data []byte, i, depth int, idx *Index) (end, lastSpace int) {
	return validValueIndexed(data, i, depth, idx)
}

// OpenSpan records in idx an object or array starting at offset at of the
// text, as the scan records one it reads, and returns its number for
// CloseSpan: a ValueReader that reads containers itself records them as
// the scan would, so that the index is the same.
func (idx *Index) OpenSpan(at int) int {
	idx.Spans = append(idx.Spans, Span{Start: int32(at - idx.Base)})
	return len(idx.Spans) - 1
}

// CloseSpan records that the container OpenSpan numbered k ends just
// before offset end of the text.
func (idx *Index) CloseSpan(k, end int) {
	idx.Spans[k].End = int32(end - idx.Base)
}

// ValidString validates the string literal starting at data[i] == '"' and
// returns the index just past it, or -1, and whether it may not be Unicode
// text, exactly as the scan decides it for Index.Text.
func ValidString(data []byte, i int) (end int, text bool) {
	if end := plainEnd(data, i); end > 0 {
		return end, false
	}
	end, _, text = scanString(data, i)
	return end, text
}

// ValidNumber validates the number literal starting at data[i] and returns
// the index just past it, or -1. The literal is the longest valid one: the
// scan then expects a separator after it, not a number byte.
func ValidNumber(data []byte, i int) int { return scanNumber(data, i) }

// NoteNumber records in idx what the number literal num (a valid one) says
// of the numbers read, as the scan does: Inexact and BigNumbers.
func (idx *Index) NoteNumber(num []byte) {
	if len(num) > 15 || notInteger(num) {
		idx.Inexact = true
		if len(num) > 308 || bytes.ContainsAny(num, "eE") {
			idx.BigNumbers = true
		}
	}
}

// validValueIndexed is validValue that records in idx, as SkipIndexed says.
// It is a copy rather than validValue with a nil idx, so that the plain scan
// pays nothing for the recording.
func validValueIndexed(data []byte, i, depth int, idx *Index) (end, lastSpace int) {
	// inObject has one bit per open container of this value: set for an
	// object, clear for an array.
	var small [4]uint64
	inObject := small[:]
	open := 0
	lastSpace = -1
	n := len(data)
value:
	if i >= n {
		return -1, -1
	}
	switch c := data[i]; c {
	case '{', '[':
		if depth+open >= maxDepth {
			return -1, -1
		}
		w := open >> 6
		if w >= len(inObject) {
			inObject = append(inObject, 0)
		}
		if c == '{' {
			inObject[w] |= 1 << (open & 63)
		} else {
			inObject[w] &^= 1 << (open & 63)
		}
		if open < maxIndexDepth {
			idx.stack[open] = int32(len(idx.Spans))
		}
		idx.Spans = append(idx.Spans, Span{Start: int32(i - idx.Base)})
		open++
		i++
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				lastSpace, i = j-1, j
			}
		}
		if i < n && data[i] == c+2 { // '}' is '{'+2 and ']' is '['+2
			i++
			open--
			if open < maxIndexDepth {
				idx.Spans[idx.stack[open]].End = int32(i - idx.Base)
			}
			goto after
		}
		if c == '{' {
			goto key
		}
		goto value
	case '"':
		if end := plainEnd(data, i); end > 0 {
			i = end
		} else {
			var text bool
			i, _, text = scanString(data, i)
			idx.Text = idx.Text || text
		}
	case 't':
		i = scanLiteral(data, i, "true")
	case 'f':
		i = scanLiteral(data, i, "false")
	case 'n':
		i = scanLiteral(data, i, "null")
	default:
		start := i
		i = scanNumber(data, i)
		if i-start > 15 || i > start && notInteger(data[start:i]) {
			idx.Inexact = true
			if i-start > 308 || bytes.ContainsAny(data[start:i], "eE") {
				idx.BigNumbers = true
			}
		}
	}
	if i < 0 {
		return -1, -1
	}
after:
	if open == 0 {
		return i, lastSpace
	}
	if i < n && data[i] <= ' ' {
		if j := spaceEnd(data, i); j > i {
			lastSpace, i = j-1, j
		}
	}
	if i >= n {
		return -1, -1
	}
	if inObject[(open-1)>>6]&(1<<((open-1)&63)) != 0 {
		switch data[i] {
		case ',':
			i++
			goto key
		case '}':
			i++
			open--
			if open < maxIndexDepth {
				idx.Spans[idx.stack[open]].End = int32(i - idx.Base)
			}
			goto after
		}
		return -1, -1
	}
	switch data[i] {
	case ',':
		i++
		if i < n && data[i] <= ' ' {
			if j := spaceEnd(data, i); j > i {
				lastSpace, i = j-1, j
			}
		}
		goto value
	case ']':
		i++
		open--
		if open < maxIndexDepth {
			idx.Spans[idx.stack[open]].End = int32(i - idx.Base)
		}
		goto after
	}
	return -1, -1
key:
	if i < n && data[i] <= ' ' {
		if j := spaceEnd(data, i); j > i {
			lastSpace, i = j-1, j
		}
	}
	if i >= n || data[i] != '"' {
		return -1, -1
	}
	if end := plainEnd(data, i); end > 0 {
		i = end
	} else {
		var text bool
		if i, _, text = scanString(data, i); i < 0 {
			return -1, -1
		}
		idx.Text = idx.Text || text
	}
	for i < n && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		lastSpace = i
		i++
	}
	if i >= n || data[i] != ':' {
		return -1, -1
	}
	i++
	for i < n && data[i] <= ' ' && (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r') {
		lastSpace = i
		i++
	}
	goto value
}

// spaceEnd returns the index of the first byte from i on that is not
// insignificant whitespace (len(data) if none): eight bytes at a time over
// the spaces that indent a line.
func spaceEnd(data []byte, i int) int {
	for {
		for i+8 <= len(data) {
			x := word(data, i) ^ (' ' * lo7)
			if x != 0 {
				i += bits.TrailingZeros64(x) >> 3
				break
			}
			i += 8
		}
		if i >= len(data) {
			return i
		}
		switch data[i] {
		case ' ', '\n', '\t', '\r':
			i++
			continue
		}
		return i
	}
}
