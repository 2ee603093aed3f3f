package manifest

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The fast path for YAML. The general path converts a YAML document to JSON
// with a YAML parser that reads a megabyte of quoted registry data a
// character at a time, then decodes the JSON. This reader takes the YAML a
// ConfigMap manifest is written in — block mappings whose keys are plain
// words, and values that are single-quoted (also folded over lines, as
// "kubectl get -o yaml" writes a long string), double-quoted without
// escapes, literal blocks ("|", "|-"), plain words, null or {} — and builds
// the ConfigMap directly, decoding each data value once. On anything else it
// declines (a sequence, an anchor, a tag, a flow collection, an escape, a
// comment after a value, a tab, a key that YAML 1.1 would read as a boolean
// or null, a character the YAML parser treats specially), and the general
// path reads the document. A differential test and a fuzz target hold the two
// to the same objects.

// maxYAMLDepth bounds the nesting of mappings the reader follows.
const maxYAMLDepth = 32

// ynode is a value of the YAML subset: a string, null, or a mapping.
type ynode struct {
	kind byte // 's' string, 'n' null, 'm' mapping
	str  string
	keys []string
	vals []*ynode
}

type yreader struct {
	data []byte
	pos  int
}

// decodeFastYAML reads a YAML document that is one ConfigMap, as the general
// path would; ok is false when it declines.
func decodeFastYAML(doc []byte) (o *Objects, ok bool) {
	if len(doc) == 0 || doc[len(doc)-1] != '\n' || !yamlPlainText(doc) {
		return nil, false
	}
	r := &yreader{data: doc}
	if r.skipBlank(); r.pos >= len(doc) || r.indentAt() != 0 {
		return nil, false
	}
	top, ok := r.mapping(0, 0)
	if !ok || r.pos < len(doc) {
		return nil, false
	}
	// What the general path reads with typeMeta, as JSON: everything but a
	// data mapping, which is read directly.
	residual := []byte{'{'}
	var data *ynode
	for i, k := range top.keys {
		v := top.vals[i]
		if k == "data" && v.kind == 'm' {
			data = v
			continue
		}
		if len(residual) > 1 {
			residual = append(residual, ',')
		}
		residual = jsonx.AppendQuote(residual, k)
		residual = append(residual, ':')
		residual = v.appendJSON(residual)
	}
	residual = append(residual, '}')
	var tm typeMeta
	if err := json.Unmarshal(residual, &tm); err != nil || tm.APIVersion != "v1" || tm.Kind != "ConfigMap" {
		return nil, false
	}
	cm := new(corev1.ConfigMap)
	if err := json.Unmarshal(residual, cm); err != nil {
		return nil, false
	}
	if data != nil {
		cm.Data = make(map[string]string, len(data.keys))
		for i, k := range data.keys {
			if data.vals[i].kind != 's' {
				return nil, false
			}
			cm.Data[k] = data.vals[i].str
		}
	}
	return &Objects{ConfigMaps: []*corev1.ConfigMap{cm}}, true
}

// appendJSON appends the value as the general path's conversion writes it.
func (n *ynode) appendJSON(dst []byte) []byte {
	switch n.kind {
	case 's':
		return jsonx.AppendQuote(dst, n.str)
	case 'm':
		dst = append(dst, '{')
		for i, k := range n.keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendQuote(dst, k)
			dst = append(dst, ':')
			dst = n.vals[i].appendJSON(dst)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// yamlPlainText reports whether doc is valid UTF-8 without a tab, carriage
// return or other control character, and without the characters a YAML 1.1
// parser reads as line breaks or a byte order mark (U+0085, U+2028, U+2029,
// U+FEFF) or refuses (U+FFFE, U+FFFF, C1 controls).
func yamlPlainText(doc []byte) bool {
	for i := 0; i < len(doc); {
		c := doc[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff, r == 0xfffe, r == 0xffff:
			return false
		}
		i += size
	}
	return true
}

// indentAt is the number of spaces at the start of the line at r.pos.
func (r *yreader) indentAt() int {
	n := 0
	for r.pos+n < len(r.data) && r.data[r.pos+n] == ' ' {
		n++
	}
	return n
}

// lineEnd is the index of the '\n' ending the line holding i.
func (r *yreader) lineEnd(i int) int {
	if j := bytes.IndexByte(r.data[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(r.data)
}

// skipBlank moves r.pos past blank lines and full-line comments.
func (r *yreader) skipBlank() {
	for r.pos < len(r.data) {
		n := r.indentAt()
		if c := r.data[r.pos+n]; c != '\n' && c != '#' {
			return
		}
		r.pos = r.lineEnd(r.pos) + 1
	}
}

// mapping reads a block mapping whose keys are at indent, up to the first
// line indented less (left unread) or the end.
func (r *yreader) mapping(indent, depth int) (*ynode, bool) {
	if depth > maxYAMLDepth {
		return nil, false
	}
	m := &ynode{kind: 'm'}
	seen := map[string]bool{}
	for {
		r.skipBlank()
		if r.pos >= len(r.data) {
			return m, true
		}
		ind := r.indentAt()
		if ind < indent {
			return m, true
		}
		if ind > indent {
			return nil, false
		}
		r.pos += ind
		key, ok := r.plainWord()
		if !ok || r.pos+1 >= len(r.data) || r.data[r.pos] != ':' || r.data[r.pos+1] != ' ' && r.data[r.pos+1] != '\n' {
			return nil, false
		}
		// Keys that differ only in case would be one field to encoding/json.
		if lk := strings.ToLower(key); seen[lk] || yamlSpecialWord(lk) {
			return nil, false
		} else {
			seen[lk] = true
		}
		r.pos++
		v, ok := r.value(indent, depth)
		if !ok {
			return nil, false
		}
		m.keys = append(m.keys, key)
		m.vals = append(m.vals, v)
	}
}

// value reads the value after "key:" of a mapping at indent.
func (r *yreader) value(indent, depth int) (*ynode, bool) {
	for r.pos < len(r.data) && r.data[r.pos] == ' ' {
		r.pos++
	}
	if r.pos >= len(r.data) {
		return nil, false
	}
	switch c := r.data[r.pos]; {
	case c == '\n':
		// A nested mapping, or null.
		r.pos++
		r.skipBlank()
		if r.pos >= len(r.data) || r.indentAt() <= indent {
			return &ynode{kind: 'n'}, true
		}
		return r.mapping(r.indentAt(), depth+1)
	case c == '\'':
		s, ok := r.singleQuoted(indent)
		if !ok || !r.endOfLine() {
			return nil, false
		}
		return &ynode{kind: 's', str: s}, true
	case c == '"':
		end := r.lineEnd(r.pos)
		line := r.data[r.pos+1 : end]
		q := bytes.IndexByte(line, '"')
		if q < 0 || bytes.IndexByte(line[:q], '\\') >= 0 {
			return nil, false
		}
		s := string(line[:q])
		r.pos += q + 2
		if !r.endOfLine() {
			return nil, false
		}
		return &ynode{kind: 's', str: s}, true
	case c == '|':
		return r.literal(indent)
	case c == '{':
		if !bytes.HasPrefix(r.data[r.pos:], []byte("{}")) {
			return nil, false
		}
		r.pos += 2
		if !r.endOfLine() {
			return nil, false
		}
		return &ynode{kind: 'm'}, true
	}
	w, ok := r.plainWord()
	if !ok || !r.endOfLine() {
		return nil, false
	}
	switch strings.ToLower(w) {
	case "null":
		if w == "null" || w == "Null" || w == "NULL" {
			return &ynode{kind: 'n'}, true
		}
		return nil, false
	}
	if yamlSpecialWord(strings.ToLower(w)) {
		return nil, false
	}
	return &ynode{kind: 's', str: w}, true
}

// endOfLine consumes trailing spaces and the line break; false when
// anything else (a comment, more text) follows.
func (r *yreader) endOfLine() bool {
	for r.pos < len(r.data) && r.data[r.pos] == ' ' {
		r.pos++
	}
	if r.pos >= len(r.data) || r.data[r.pos] != '\n' {
		return false
	}
	r.pos++
	return true
}

// plainWord reads a word YAML reads as a plain string: a letter, then
// letters, digits and ._/- (a key's ':' ends it).
func (r *yreader) plainWord() (string, bool) {
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			r.pos > start && (c >= '0' && c <= '9' || c == '.' || c == '_' || c == '/' || c == '-') {
			r.pos++
			continue
		}
		break
	}
	if r.pos == start {
		return "", false
	}
	return string(r.data[start:r.pos]), true
}

// yamlSpecialWord reports whether a lower-cased plain word is one YAML 1.1
// reads as a boolean or null (in some of its cases).
func yamlSpecialWord(w string) bool {
	switch w {
	case "y", "yes", "n", "no", "true", "false", "on", "off", "null":
		return true
	}
	return false
}

// singleQuoted reads a single-quoted scalar at r.pos, folded as YAML folds
// one over lines: the spaces around a line break dropped, one break read as
// a space, n > 1 as n-1 newlines. Continuation lines must be indented past
// the mapping's keys.
func (r *yreader) singleQuoted(indent int) (string, bool) {
	r.pos++ // the opening quote
	// The scalar's end, first, to hold what it decodes to (never longer) in
	// one allocation.
	stop := r.pos
	for {
		q := bytes.IndexByte(r.data[stop:], '\'')
		if q < 0 {
			return "", false
		}
		stop += q + 1
		if stop < len(r.data) && r.data[stop] == '\'' {
			stop++
			continue
		}
		break
	}
	var out strings.Builder
	out.Grow(stop - r.pos)
	for {
		end := r.lineEnd(r.pos)
		if end >= len(r.data) {
			return "", false
		}
		line := r.data[r.pos:end]
		if q := bytes.IndexByte(line, '\''); q >= 0 {
			// Copy up to the quote; '' is a quote, a lone one ends.
			out.Write(line[:q])
			r.pos += q
			if r.pos+1 < len(r.data) && r.data[r.pos+1] == '\'' {
				out.WriteByte('\'')
				r.pos += 2
				continue
			}
			r.pos++
			return out.String(), true
		}
		// The line ends inside the scalar: drop its trailing spaces, then
		// fold the break and any blank lines after it.
		out.Write(bytes.TrimRight(line, " "))
		r.pos = end + 1
		breaks := 0
		for {
			n := r.indentAt()
			if r.pos+n >= len(r.data) {
				return "", false
			}
			if r.data[r.pos+n] != '\n' {
				if n <= indent {
					return "", false
				}
				r.pos += n
				break
			}
			breaks++
			r.pos += n + 1
		}
		if breaks == 0 {
			out.WriteByte(' ')
		}
		for range breaks {
			out.WriteByte('\n')
		}
	}
}

// literal reads a literal block scalar ("|" or "|-", the indentation found
// from its first line) of a key at indent.
func (r *yreader) literal(indent int) (*ynode, bool) {
	r.pos++ // '|'
	strip := false
	if r.pos < len(r.data) && r.data[r.pos] == '-' {
		strip = true
		r.pos++
	}
	if !r.endOfLine() {
		return nil, false
	}
	block := r.indentAt()
	if r.pos+block >= len(r.data) || r.data[r.pos+block] == '\n' {
		return nil, false // a leading blank line: left to the general path
	}
	if block <= indent {
		return &ynode{kind: 's'}, true // empty
	}
	var out []byte
	pending := 0 // blank lines not yet written
	for r.pos < len(r.data) {
		n := r.indentAt()
		if r.pos+n < len(r.data) && r.data[r.pos+n] == '\n' {
			if n > block {
				return nil, false // spaces that might be content
			}
			pending++
			r.pos += n + 1
			continue
		}
		if n < block {
			break
		}
		end := r.lineEnd(r.pos)
		for range pending {
			out = append(out, '\n')
		}
		pending = 0
		out = append(out, r.data[r.pos+block:end]...)
		out = append(out, '\n')
		r.pos = end + 1
	}
	if strip && len(out) > 0 {
		out = out[:len(out)-1]
	}
	return &ynode{kind: 's', str: string(out)}, true
}
