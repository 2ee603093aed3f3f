// Package jsonx splits JSON documents into their top-level members and elements
// without decoding the values.
//
// The registry formats carry large server entries of which the library reads a
// handful of fields; everything else must pass through unchanged. Splitting a
// document into raw sub-slices lets callers decode only what they interpret and
// write the rest back byte for byte. All functions expect input that has already
// passed json.Valid; on other input they return an error rather than panic.
package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Member is one key/value pair of a JSON object. Value aliases the input.
type Member struct {
	Key   string
	Value json.RawMessage
}

// ErrNotObject is returned by Members when the value is not a JSON object.
var ErrNotObject = errors.New("not a JSON object")

// ErrNotArray is returned by Elements when the value is not a JSON array.
var ErrNotArray = errors.New("not a JSON array")

var errMalformed = errors.New("malformed JSON")

// Kind reports the JSON kind of a raw value by its first significant byte:
// one of '{', '[', '"', 't', 'f', 'n', or '0' for numbers; 0 when empty.
func Kind(raw []byte) byte {
	i := skipSpace(raw, 0)
	if i >= len(raw) {
		return 0
	}
	switch c := raw[i]; c {
	case '{', '[', '"', 't', 'f', 'n':
		return c
	default:
		return '0'
	}
}

// Members splits a JSON object into its members, in input order. Duplicate keys
// are kept as they appear; callers decide which one counts.
func Members(data []byte) ([]Member, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, ErrNotObject
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return []Member{}, nil
	}
	// Collect on the stack and copy once: one allocation of the exact size
	// for the objects of registry entries, which rarely have more members.
	var buf [16]Member
	out := buf[:0]
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, errMalformed
		}
		end, err := skipString(data, i)
		if err != nil {
			return nil, err
		}
		key, err := keyString(data[i:end])
		if err != nil {
			return nil, err
		}
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
		vend, err := skipValue(data, i)
		if err != nil {
			return nil, err
		}
		out = append(out, Member{Key: key, Value: json.RawMessage(data[i:vend])})
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, errMalformed
		}
		if data[i] == '}' {
			return slices.Clone(out), nil
		}
		if data[i] != ',' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
	}
}

// keyString decodes a key literal, without allocating for the keys of the
// registry formats.
func keyString(lit []byte) (string, error) {
	if k, id := internKey(lit[1 : len(lit)-1]); id > 0 {
		return k, nil
	}
	return unquote(lit)
}

// Elements splits a JSON array into its elements, in input order.
func Elements(data []byte) ([]json.RawMessage, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return nil, ErrNotArray
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return []json.RawMessage{}, nil
	}
	var buf [16]json.RawMessage
	out := buf[:0]
	for {
		vend, err := skipValue(data, i)
		if err != nil {
			return nil, err
		}
		out = append(out, json.RawMessage(data[i:vend]))
		i = skipSpace(data, vend)
		if i >= len(data) {
			return nil, errMalformed
		}
		if data[i] == ']' {
			return slices.Clone(out), nil
		}
		if data[i] != ',' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
	}
}

// ForEachMember calls fn with the key and the value of each member of a JSON
// object, in order, until fn returns false; key is the raw literal between
// its quotes (see KeyIs). Unlike Members it allocates nothing.
func ForEachMember(data []byte, fn func(key, value []byte) bool) error {
	return ForEachMemberIn(data, nil, fn)
}

// ForEachMemberIn is ForEachMember that finds where each member value ends
// from x when it is a container x records, instead of scanning it; x may be
// nil.
func ForEachMemberIn(data []byte, x *SpanIndex, fn func(key, value []byte) bool) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return ErrNotObject
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return errMalformed
		}
		end, err := skipString(data, i)
		if err != nil {
			return err
		}
		key := data[i+1 : end-1]
		i = skipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return errMalformed
		}
		i = skipSpace(data, i+1)
		vend, err := x.skip(data, i)
		if err != nil {
			return err
		}
		if !fn(key, data[i:vend]) {
			return nil
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return errMalformed
		}
		if data[i] == '}' {
			return nil
		}
		if data[i] != ',' {
			return errMalformed
		}
		i = skipSpace(data, i+1)
	}
}

// ForEachElement calls fn with each element of a JSON array, in order, until
// fn returns false. Unlike Elements it allocates nothing.
func ForEachElement(data []byte, fn func(value []byte) bool) error {
	return ForEachElementIn(data, nil, fn)
}

// ForEachElementIn is ForEachElement with a SpanIndex, as ForEachMemberIn.
func ForEachElementIn(data []byte, x *SpanIndex, fn func(value []byte) bool) error {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return ErrNotArray
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil
	}
	for {
		vend, err := x.skip(data, i)
		if err != nil {
			return err
		}
		if !fn(data[i:vend]) {
			return nil
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return errMalformed
		}
		if data[i] == ']' {
			return nil
		}
		if data[i] != ',' {
			return errMalformed
		}
		i = skipSpace(data, i+1)
	}
}

// KeyIs reports whether a raw key literal (between its quotes, as
// ForEachMember passes it) decodes to key.
func KeyIs(raw []byte, key string) bool {
	if string(raw) == key {
		return true
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return false
	}
	lit := make([]byte, 0, len(raw)+2)
	lit = append(append(append(lit, '"'), raw...), '"')
	s, err := unquote(lit)
	return err == nil && s == key
}

// String decodes a raw JSON string value. ok is false when raw is not a string.
func String(raw []byte) (s string, ok bool) {
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '"' {
		return "", false
	}
	end, err := skipString(raw, i)
	if err != nil {
		return "", false
	}
	s, err = unquote(raw[i:end])
	return s, err == nil
}

// Quote returns s as a JSON string literal, escaped the way encoding/json
// escapes it (HTML-safe), so output stays stable whichever path wrote it.
func Quote(s string) json.RawMessage {
	if isPlain(s) {
		b := make([]byte, 0, len(s)+2)
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	b, _ := json.Marshal(s) // a string always marshals
	return b
}

// AppendQuote appends s as a JSON string literal to dst.
func AppendQuote(dst []byte, s string) []byte {
	if isPlain(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	return append(dst, Quote(s)...)
}

// PlainQuotedLen returns len(AppendQuote(nil, s)) when s needs no escaping.
func PlainQuotedLen(s string) (int, bool) {
	if isPlain(s) {
		return len(s) + 2, true
	}
	return 0, false
}

// isPlain reports whether s needs no escaping at all. Discovery quotes
// every name, description and URL it writes, so it tests eight bytes at a
// time: '"' and '&' differ only in bit 2, '<' and '>' only in bit 1, so
// setting that bit folds each pair into one lane comparison. A lane that
// borrows in a subtraction only flags lanes above a real hit, so any flag
// is a real one.
func isPlain(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if hasUnplain(w) {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// Lanes of isPlain's word test.
const (
	quoteAmpLanes = '&' * lo7 // '"' | 0x04 == '&'
	angleLanes    = '>' * lo7 // '<' | 0x02 == '>'
	bitTwoLanes   = 0x04 * lo7
	bitOneLanes   = 0x02 * lo7
)

// hasUnplain reports whether a word of eight bytes holds one isPlain
// refuses: a control byte, '"', '\\', '<', '>', '&' or a byte of 0x80 or more.
func hasUnplain(w uint64) bool {
	qa := (w | bitTwoLanes) ^ quoteAmpLanes
	an := (w | bitOneLanes) ^ angleLanes
	bs := w ^ wsBS
	return ((qa-lo7)|(an-lo7)|(bs-lo7)|(w-wsCC)|w)&hi7 != 0
}

// AppendCompact appends raw to dst with insignificant whitespace removed,
// as json.Compact does; raw that is not valid JSON is appended unchanged.
// Values already compact are copied without a second scan of their structure.
func AppendCompact(dst []byte, raw []byte) []byte {
	if !hasSpaceOutsideStrings(raw) || !Valid(raw) {
		return append(dst, raw...)
	}
	return appendCompact(dst, raw)
}

// AppendCompactValid is AppendCompact for raw already known to be valid
// JSON (read by a Reader, say): it does not check it again.
func AppendCompactValid(dst []byte, raw []byte) []byte {
	if !hasSpaceOutsideStrings(raw) {
		return append(dst, raw...)
	}
	return appendCompact(dst, raw)
}

func appendCompact(dst []byte, raw []byte) []byte {
	for i := 0; i < len(raw); {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
			i++
		case '"':
			end := stringEnd(raw, i)
			if end < 0 {
				end = len(raw) // not valid JSON after all: copied as it is
			}
			dst = append(dst, raw[i:end]...)
			i = end
		default:
			j := i + 1
			for j < len(raw) && raw[j] != '"' && raw[j] != ' ' && raw[j] != '\t' && raw[j] != '\n' && raw[j] != '\r' {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
		}
	}
	return dst
}

// CompactLen returns len(AppendCompact(nil, raw)) without writing it.
func CompactLen(raw []byte) int {
	if !Valid(raw) {
		return len(raw)
	}
	return CompactLenValid(raw)
}

// CompactLenValid returns len(AppendCompactValid(nil, raw)) without writing
// it: the bytes of raw less its whitespace outside string literals.
func CompactLenValid(raw []byte) int { return len(raw) - spaceOutsideStrings(raw, true) }

// HasSpace reports whether raw has insignificant whitespace: whitespace
// outside its string literals.
func HasSpace(raw []byte) bool { return hasSpaceOutsideStrings(raw) }

func hasSpaceOutsideStrings(raw []byte) bool { return spaceOutsideStrings(raw, false) > 0 }

// spaceOutsideStrings counts the whitespace bytes of valid JSON text raw
// outside its string literals; without all it stops at the first.
func spaceOutsideStrings(raw []byte, all bool) int {
	n := 0
	inStr := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if inStr {
			switch c {
			case '\\':
				i++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case ' ', '\t', '\n', '\r':
			if n++; !all {
				return n
			}
		}
	}
	return n
}

func skipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string literal starting at i.
func skipString(data []byte, i int) (int, error) {
	if end := stringEnd(data, i); end > 0 {
		return end, nil
	}
	return 0, errMalformed
}

// SWAR constants for skipValue: after OR-ing 0x20 into every byte, '[' and
// '{' both read 0x7B and ']' and '}' both read 0x7D; no other byte does.
const (
	caseLanes  = 0x20 * lo7
	openLanes  = 0x7B * lo7
	closeLanes = 0x7D * lo7
)

// structural returns a word with the high bit set in the lane of each quote
// or bracket of a little-endian word of 8 bytes; the lowest set bit is exact
// (see stringSpecials).
func structural(w uint64) uint64 {
	y := w | caseLanes
	o, c, q := y^openLanes, y^closeLanes, w^quoteLanes
	return ((o-lo7)&^o | (c-lo7)&^c | (q-lo7)&^q) & hi7
}

// skipValue returns the index just past the value starting at i, in text
// already validated: it looks only at quotes and brackets.
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errMalformed
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		j := i
		for {
			// Find the next quote or bracket, eight bytes at a time.
			for {
				if j+8 > len(data) {
					for j < len(data) {
						switch data[j] {
						case '"', '{', '}', '[', ']':
						default:
							j++
							continue
						}
						break
					}
					break
				}
				if m := structural(word(data, j)); m != 0 {
					j += bits.TrailingZeros64(m) >> 3
					break
				}
				j += 8
			}
			if j >= len(data) {
				return 0, errMalformed
			}
			switch data[j] {
			case '"':
				end := stringEnd(data, j)
				if end < 0 {
					return 0, errMalformed
				}
				j = end
				continue
			case '{', '[':
				depth++
			default: // '}' or ']'
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
			j++
		}
	default:
		j := i
		for j < len(data) {
			switch data[j] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				if j == i {
					return 0, errMalformed
				}
				return j, nil
			}
			j++
		}
		if j == i {
			return 0, errMalformed
		}
		return j, nil
	}
}

// unquote decodes a JSON string literal including its quotes.
func unquote(lit []byte) (string, error) {
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), nil
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		// strconv handles the subset json does not accept only in error cases.
		if u, uerr := strconv.Unquote(string(lit)); uerr == nil {
			return u, nil
		}
		return "", err
	}
	return s, nil
}

// SpanIndex locates the objects and arrays of a text by the spans
// Reader.SkipIndexed recorded of it, so that walking a value of the text
// again skips a nested container in one step instead of scanning it.
type SpanIndex struct {
	// Text is the text the spans are offsets into (Index.Base is the
	// offset of Text's first byte).
	Text  []byte
	Spans []Span
	// hint is where the next lookup starts: containers are mostly looked
	// up in the order they start.
	hint int
}

// skip returns the index just past the value starting at data[i], from the
// index when data lies in x.Text and the value is a container x records,
// else by scanning. data's place in x.Text comes from the capacities of the
// two slices (subslicing keeps the end of the backing array) and is
// confirmed by identity.
func (x *SpanIndex) skip(data []byte, i int) (int, error) {
	if x == nil || len(x.Spans) == 0 || i >= len(data) || data[i] != '{' && data[i] != '[' {
		return skipValue(data, i)
	}
	off := cap(x.Text) - cap(data)
	if off < 0 || off >= len(x.Text) || &x.Text[off] != &data[0] {
		return skipValue(data, i)
	}
	at := off + i
	k := x.find(at)
	if k < len(x.Spans) && int(x.Spans[k].Start) == at && x.Spans[k].End > 0 {
		x.hint = k + 1
		if end := int(x.Spans[k].End) - off; end <= len(data) {
			return end, nil
		}
	}
	return skipValue(data, i)
}

// find returns the first span that does not start before at.
func (x *SpanIndex) find(at int) int { return FindSpan(x.Spans, x.hint, at) }

// FindSpan returns the index of the first of spans (sorted by Start) that
// does not start before at. Containers are mostly looked up in the order
// they start, each just after the one before, so it looks at the few from
// hint on first, then searches.
func FindSpan(spans []Span, hint, at int) int {
	lo := 0
	if hint < len(spans) && int(spans[hint].Start) <= at {
		for lo = hint; lo < len(spans) && lo < hint+4; lo++ {
			if int(spans[lo].Start) >= at {
				return lo
			}
		}
	}
	hi := len(spans)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(spans[m].Start) < at {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
