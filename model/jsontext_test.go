package model_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// TestJSONTextIsAppendJSON: whenever JSONText gives an entry's bytes in
// place, they are the bytes AppendJSON writes, for entries read compact or
// indented, with or without "$schema", normalised (which may add
// "$schema" or change members) and edited after reading.
func TestJSONTextIsAppendJSON(t *testing.T) {
	inPlace := 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 4).Draw(t, "n")
		servers := make([]any, n)
		for i := range servers {
			s := genServer(t, i)
			if rapid.Bool().Draw(t, fmt.Sprintf("schema%d", i)) {
				s["$schema"] = model.ServerSchemaURL
			}
			servers[i] = s
		}
		doc := map[string]any{"data": map[string]any{"servers": servers}}
		var in []byte
		if rapid.Bool().Draw(t, "indent") {
			in, _ = json.MarshalIndent(doc, "", "  ")
		} else {
			in, _ = json.Marshal(doc)
		}
		reg, _ := model.Parse(in, model.ParseOptions{})
		if reg == nil {
			t.Fatalf("Parse failed on %s", in)
		}
		for i, s := range reg.Servers {
			switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("change%d", i)) {
			case 1:
				model.NormalizeWith(s, model.ObjectRef{}, "", model.NormalizeOptions{})
			case 2:
				s.SetDescription("changed")
			}
			text, ok := s.JSONText()
			if !ok {
				continue
			}
			inPlace++
			if want := s.AppendJSON(nil); string(text) != string(want) {
				t.Fatalf("JSONText = %s\nAppendJSON = %s", text, want)
			}
		}
	})
	if inPlace == 0 {
		t.Fatal("no entry had its JSON text in place: the property checked nothing")
	}
}
