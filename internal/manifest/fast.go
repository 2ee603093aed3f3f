package manifest

import (
	"bytes"
	"encoding/json"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// The fast path. The general path reads a JSON manifest with several full
// encoding/json passes (the document split into values, each value's type
// read, the object decoded), each of which scans and copies a ConfigMap's
// registry data again: a megabyte of escaped JSON per ConfigMap. The fast
// path reads JSON in one validating pass (jsonx.Reader) that finds each
// object's members, decodes all but a ConfigMap's data with encoding/json as
// before (what is left is small: metadata), and unquotes each data value
// once (jsonx.Unquote).
//
// It gives exactly the general path's objects or declines: whenever the
// input is not valid JSON, an object is not one it can read member by member
// with certainty (a key escaped, not ASCII, or repeated in any case), or any
// step fails, the caller takes the general path, which reports any error as
// it always has. A differential test holds it to that.

// maxFastMembers bounds the members of an object the fast path reads (each
// key is compared with the others): Kubernetes objects have a handful.
const maxFastMembers = 64

// decodeFast reads data, as the general path would, when it is a sequence of
// JSON objects and arrays; ok is false when it declines.
func decodeFast(data []byte) (o *Objects, ok bool) {
	r := jsonx.NewReader(data)
	o = &Objects{}
	for n := 0; ; n++ {
		switch r.Kind() {
		case 0:
			return o, n > 0 && r.Err() == nil
		case '{', '[':
		default:
			return nil, false
		}
		if !o.readValue(&r, 0) {
			return nil, false
		}
	}
}

// decodeFastValue reads one JSON value, as decodeValue would; ok is false
// when the fast path declines.
func decodeFastValue(v []byte) (o *Objects, ok bool) {
	r := jsonx.NewReader(v)
	o = &Objects{}
	if !o.readValue(&r, 0) || r.End() != nil {
		return nil, false
	}
	return o, true
}

// member is a member of an object, its key plain ASCII.
type member struct {
	key, value []byte
}

// dataMember is a member of a ConfigMap's data: its key decoded, its value
// a string literal.
type dataMember struct {
	key string
	lit []byte
}

// readValue reads the next value of r as decodeValue reads it at depth and
// reports whether it could. After false, r is left anywhere.
func (o *Objects) readValue(r *jsonx.Reader, depth int) bool {
	switch r.Kind() {
	case 'n':
		return string(r.Skip()) == "null"
	case '[':
		r.BeginArray()
		for r.NextElement() {
			if !o.readValue(r, depth+1) {
				return false
			}
		}
		return r.Err() == nil
	case '{':
	default:
		return false // decodeValue's "not a Kubernetes object"
	}
	start := r.Pos()
	r.BeginObject()
	var (
		rest        []member // the members but a data object
		data        []dataMember
		hasData     bool
		dataStrings = true
	)
	for r.NextMember() {
		raw, esc := r.Key()
		if esc || !plainASCII(raw) || len(rest) >= maxFastMembers {
			return false
		}
		// Repeated keys, in any case: encoding/json would keep the last,
		// or merge two maps.
		if hasData && bytes.EqualFold(raw, []byte("data")) {
			return false
		}
		for _, m := range rest {
			if bytes.EqualFold(m.key, raw) {
				return false
			}
		}
		if string(raw) != "data" || r.Kind() != '{' {
			rest = append(rest, member{raw, r.Skip()})
			continue
		}
		hasData = true
		r.BeginObject()
		for r.NextMember() {
			key := r.KeyString() // as encoding/json decodes keys
			if r.Kind() != '"' {
				dataStrings = false
				r.Skip()
				continue
			}
			data = append(data, dataMember{key, r.Skip()})
		}
	}
	if r.Err() != nil {
		return false
	}
	v := r.Bytes(start)

	// What the general path reads with typeMeta, from the members but data
	// and with any items array left empty: small, however large the data
	// and the items.
	var items []byte
	var residual []byte
	residual = append(residual, '{')
	for i, m := range rest {
		if i > 0 {
			residual = append(residual, ',')
		}
		residual = append(residual, '"')
		residual = append(residual, m.key...)
		residual = append(residual, '"', ':')
		if bytes.EqualFold(m.key, []byte("items")) && m.value[0] == '[' {
			items = m.value
			residual = append(residual, "[]"...)
			continue
		}
		residual = append(residual, m.value...)
	}
	residual = append(residual, '}')
	var tm typeMeta
	if err := json.Unmarshal(residual, &tm); err != nil {
		return false
	}
	if tm.Kind == "List" || (strings.HasSuffix(tm.Kind, "List") && tm.Items != nil) {
		switch {
		case depth >= maxListDepth:
			return false // an error
		case items == nil:
			return true // no items: nothing to read
		}
		if kind, typed := strings.CutSuffix(tm.Kind, "List"); typed && kind != "" {
			// Items of a typed list may leave out their kind: the general
			// path reads them with the list's (itemOf).
			return o.decodeValue(v, "", 0, depth) == nil
		}
		ir := jsonx.NewReader(items)
		ir.BeginArray()
		for ir.NextElement() {
			if !o.readValue(&ir, depth+1) {
				return false
			}
		}
		return ir.End() == nil
	}
	if tm.APIVersion != "v1" || tm.Kind != "ConfigMap" {
		// Another kind, small as a rule: read as the general path reads it.
		return o.decodeValue(v, "", 0, depth) == nil
	}
	cm := new(corev1.ConfigMap)
	if err := json.Unmarshal(residual, cm); err != nil {
		return false
	}
	if hasData {
		if !dataStrings {
			return false
		}
		cm.Data = make(map[string]string, len(data))
		for _, m := range data {
			s, err := jsonx.Unquote(m.lit)
			if err != nil {
				return false
			}
			cm.Data[m.key] = s
		}
	}
	o.ConfigMaps = append(o.ConfigMaps, cm)
	return true
}

// plainASCII reports whether a key is printable ASCII, which encoding/json
// matches to a field by ASCII case folding alone.
func plainASCII(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}
