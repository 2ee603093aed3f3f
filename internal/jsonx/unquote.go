package jsonx

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Unquote decodes a valid JSON string literal, quotes included, to exactly
// the string encoding/json's Unmarshal gives for it: escapes decoded, a lone
// or mismatched UTF-16 surrogate escape and every byte of invalid UTF-8
// replaced by U+FFFD. It makes one allocation of the literal's size, where
// Unmarshal validates the literal, then scans it and copies it twice; on a
// literal that is not valid JSON it returns ErrSyntax.
//
// It is what reads a ConfigMap's data, a megabyte of escaped JSON per value,
// at close to the speed of a copy.
func Unquote(lit []byte) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", ErrSyntax
	}
	inner := lit[1 : len(lit)-1]
	if !utf8.Valid(inner) {
		// Rare: leave the replacement of invalid bytes to encoding/json.
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			return "", ErrSyntax
		}
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(inner))
	for len(inner) > 0 {
		i := bytes.IndexByte(inner, '\\')
		if i < 0 {
			if !plainRun(inner) {
				return "", ErrSyntax
			}
			b.Write(inner)
			break
		}
		if !plainRun(inner[:i]) {
			return "", ErrSyntax
		}
		b.Write(inner[:i])
		inner = inner[i:]
		if len(inner) < 2 {
			return "", ErrSyntax
		}
		switch c := inner[1]; c {
		case '"', '\\', '/':
			b.WriteByte(c)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(inner[2:])
			if !ok {
				return "", ErrSyntax
			}
			n := 6
			if utf16Surrogate(r) {
				// A high surrogate followed by an escaped low one is one
				// character; anything else is U+FFFD, and what follows is
				// read on its own, as encoding/json does.
				r2, ok := rune(-1), false
				if len(inner) >= 12 && inner[6] == '\\' && inner[7] == 'u' {
					r2, ok = hex4(inner[8:])
				}
				if dec := decodeSurrogates(r, r2); ok && dec != utf8.RuneError {
					r, n = dec, 12
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
			inner = inner[n:]
			continue
		default:
			return "", ErrSyntax
		}
		inner = inner[2:]
	}
	return b.String(), nil
}

// plainRun reports whether s, which holds no backslash, holds no byte a
// JSON string must escape: a quote or a control character.
func plainRun(s []byte) bool {
	for len(s) >= 8 {
		// The lowest lane stringSpecials marks is a special byte, and
		// without backslashes any is an error.
		if stringSpecials(binary.LittleEndian.Uint64(s)) != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c < 0x20 || c == '"' {
			return false
		}
	}
	return true
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
