package jsonx

import (
	"math/bits"
)

// indentUnit is the indentation of one level: two spaces, as the CLI and the
// output ConfigMap write documents.
const indentUnit = "  "

// spaces is a run of indentation copied in chunks.
const spaces = "                                                                "

// AppendNewline appends a newline and the indentation of depth levels.
func AppendNewline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for n := depth * len(indentUnit); n > 0; {
		k := min(n, len(spaces))
		dst = append(dst, spaces[:k]...)
		n -= k
	}
	return dst
}

// AppendIndent appends the valid JSON value raw, nested depth levels deep in
// the document being written, indented by two spaces per level. The bytes are
// exactly those json.Indent(dst, compact, "", "  ") writes for the value at
// that depth, compact being raw with insignificant whitespace removed — so a
// document written member by member with AppendIndent equals the compact
// document indented, in one pass instead of two and without a scan of the
// whole output. String literals, numbers and literals are copied verbatim.
func AppendIndent(dst, raw []byte, depth int) []byte {
	needIndent := false
	for i := 0; i < len(raw); {
		c := raw[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		if needIndent && c != ']' && c != '}' {
			needIndent = false
			depth++
			dst = AppendNewline(dst, depth)
		}
		switch c {
		case '"':
			end := stringEnd(raw, i)
			if end < 0 {
				end = len(raw) // not closed: not valid JSON, copied as it is
			}
			dst = append(dst, raw[i:end]...)
			i = end
			continue
		case '{', '[':
			needIndent = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = AppendNewline(dst, depth)
		case ':':
			dst = append(dst, ':', ' ')
		case '}', ']':
			if needIndent {
				needIndent = false // an empty object or array stays on its line
			} else {
				depth--
				dst = AppendNewline(dst, depth)
			}
			dst = append(dst, c)
		default:
			j := i + 1
			for j < len(raw) && !isDelim(raw[j]) {
				j++
			}
			dst = append(dst, raw[i:j]...)
			i = j
			continue
		}
		i++
	}
	return dst
}

// isDelim reports whether c ends a number or literal.
func isDelim(c byte) bool {
	switch c {
	case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
		return true
	}
	return false
}

// SWAR constants for stringEnd.
const (
	quoteLanes = '"' * lo7
	slashLanes = '\\' * lo7
)

// StringEnd returns the index just past the string literal starting at
// raw[i] == '"', or -1 if it is not closed, eight bytes at a time. It does
// not validate escapes: it is for text json.Valid accepted.
func StringEnd(raw []byte, i int) int { return stringEnd(raw, i) }

// stringEnd is StringEnd.
func stringEnd(raw []byte, i int) int {
	j := i + 1
	for {
		// Find the next quote or backslash, eight bytes at a time.
		for {
			if j+8 > len(raw) {
				for j < len(raw) && raw[j] != '"' && raw[j] != '\\' {
					j++
				}
				break
			}
			w := word(raw, j)
			q, b := w^quoteLanes, w^slashLanes
			if m := ((q-lo7)&^q | (b-lo7)&^b) & hi7; m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		if j >= len(raw) {
			return -1
		}
		if raw[j] == '"' {
			return j + 1
		}
		j += 2 // a backslash and the byte it escapes
	}
}
