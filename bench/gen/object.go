package gen

import (
	"bytes"
	"encoding/json"
)

// Object is a JSON object whose members keep the order they were added in,
// so that generated documents look like hand-written ones (and so that a
// test of "order does not matter" has an order to change).
type Object []Member

// Member is one member of an Object. Value is anything encoding/json
// marshals, including Object and json.RawMessage.
type Member struct {
	Key   string
	Value any
}

// Set appends a member.
func (o *Object) Set(key string, value any) { *o = append(*o, Member{key, value}) }

// MarshalJSON writes the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.Key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// mustJSON marshals a value built by this package; they always marshal.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("gen: " + err.Error())
	}
	return b
}
