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
	var out []Member
	for {
		if i >= len(data) || data[i] != '"' {
			return nil, errMalformed
		}
		end, err := skipString(data, i)
		if err != nil {
			return nil, err
		}
		key, err := unquote(data[i:end])
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
			return out, nil
		}
		if data[i] != ',' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
	}
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
	var out []json.RawMessage
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
			return out, nil
		}
		if data[i] != ',' {
			return nil, errMalformed
		}
		i = skipSpace(data, i+1)
	}
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

// isPlain reports whether s needs no escaping at all.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// AppendCompact appends raw to dst with insignificant whitespace removed.
// Values already compact are copied without a second scan of their structure.
func AppendCompact(dst []byte, raw []byte) []byte {
	if !hasSpaceOutsideStrings(raw) {
		return append(dst, raw...)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return append(dst, raw...)
	}
	return append(dst, buf.Bytes()...)
}

func hasSpaceOutsideStrings(raw []byte) bool {
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
			return true
		}
	}
	return false
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
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, nil
		}
	}
	return 0, errMalformed
}

// skipValue returns the index just past the value starting at i.
func skipValue(data []byte, i int) (int, error) {
	if i >= len(data) {
		return 0, errMalformed
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, err := skipString(data, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errMalformed
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
