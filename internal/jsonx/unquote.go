package jsonx

import (
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"unicode/utf8"
	"unsafe"
)

// Unquote decodes a valid JSON string literal, quotes included, to exactly
// the string encoding/json's Unmarshal gives for it: escapes decoded, a lone
// or mismatched UTF-16 surrogate escape and every byte of invalid UTF-8
// replaced by U+FFFD. It reads the literal once, eight bytes at a time, into
// one allocation of its size, where Unmarshal validates the literal, then
// scans it and copies it twice; on a literal that is not valid JSON it
// returns ErrSyntax.
//
// It is what reads a ConfigMap's data, a megabyte of escaped JSON per value,
// at close to the speed of a copy.
func Unquote(lit []byte) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", ErrSyntax
	}
	in := lit[1 : len(lit)-1]
	// Decoding never lengthens the text (an escape is longer than what it
	// stands for), so out is written in step with in, a word at a time:
	// each word is stored whole and the write position advanced past its
	// plain bytes.
	out := make([]byte, len(in)+8)
	i, j := 0, 0
	for i < len(in) {
		if i+8 <= len(in) {
			w := word(in, i)
			binary.LittleEndian.PutUint64(out[j:], w)
			m := stringSpecials(w) | w&hi7
			if m == 0 {
				i, j = i+8, j+8
				continue
			}
			k := bits.TrailingZeros64(m) >> 3
			i, j = i+k, j+k
		}
		c := in[i]
		switch {
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				// Invalid UTF-8, each byte replaced by the longer U+FFFD:
				// rare, and left to encoding/json.
				var s string
				if err := json.Unmarshal(lit, &s); err != nil {
					return "", ErrSyntax
				}
				return s, nil
			}
			copy(out[j:], in[i:i+size])
			i, j = i+size, j+size
			continue
		case c < 0x20 || c == '"':
			return "", ErrSyntax
		case c != '\\':
			out[j] = c
			i, j = i+1, j+1
			continue
		}
		if i+1 >= len(in) {
			return "", ErrSyntax
		}
		switch e := in[i+1]; e {
		case '"', '\\', '/':
			out[j] = e
		case 'b':
			out[j] = '\b'
		case 'f':
			out[j] = '\f'
		case 'n':
			out[j] = '\n'
		case 'r':
			out[j] = '\r'
		case 't':
			out[j] = '\t'
		case 'u':
			r, ok := hex4(in[i+2:])
			if !ok {
				return "", ErrSyntax
			}
			n := 6
			if utf16Surrogate(r) {
				// A high surrogate followed by an escaped low one is one
				// character; anything else is U+FFFD, and what follows is
				// read on its own, as encoding/json does.
				r2, ok := rune(-1), false
				if i+12 <= len(in) && in[i+6] == '\\' && in[i+7] == 'u' {
					r2, ok = hex4(in[i+8:])
				}
				if dec := decodeSurrogates(r, r2); ok && dec != utf8.RuneError {
					r, n = dec, 12
				} else {
					r = utf8.RuneError
				}
			}
			// At most 4 bytes written for the 6 or 12 read.
			j += utf8.EncodeRune(out[j:], r)
			i += n
			continue
		default:
			return "", ErrSyntax
		}
		i, j = i+2, j+1
	}
	if j == 0 {
		return "", nil
	}
	// out is not written again: the string may share it.
	return unsafe.String(&out[0], j), nil
}

// hex4 reads the four hex digits of a \u escape.
func hex4(s []byte) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func utf16Surrogate(r rune) bool { return 0xd800 <= r && r < 0xe000 }

// decodeSurrogates is utf16.DecodeRune: U+FFFD unless r1 is a high and r2 a
// low surrogate.
func decodeSurrogates(r1, r2 rune) rune {
	if 0xd800 <= r1 && r1 < 0xdc00 && 0xdc00 <= r2 && r2 < 0xe000 {
		return (r1-0xd800)<<10 | (r2 - 0xdc00) + 0x10000
	}
	return utf8.RuneError
}
