package model_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/internal/jsonx"
	"github.com/mcpreg/mcpreg/model"
)

// simpleDocument is the compact document written the plain way, one server
// after another through Server.AppendJSON: the yardstick of the batched
// writing of AppendJSON and WriteTo.
func simpleDocument(r *model.Registry) []byte {
	b := []byte(`{"$schema":`)
	b = jsonx.AppendQuote(b, r.Schema)
	b = append(b, `,"version":`...)
	b = jsonx.AppendQuote(b, r.Version)
	b = append(b, `,"meta":{"last_updated":`...)
	b = jsonx.AppendQuote(b, r.LastUpdated)
	b = append(b, `},"data":{"servers":[`...)
	first := true
	for _, s := range r.Servers {
		if s == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = s.AppendJSON(b)
	}
	return append(b, "]}}"...)
}

// TestWriteJSONBatches: a document of more servers than one batch, some
// read compact and written as read, some given "$schema" in front of their
// bytes, some changed and written member by member, some nil, comes out of
// AppendJSON and WriteTo as the servers' own AppendJSON bytes one after the
// other.
func TestWriteJSONBatches(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 80).Draw(t, "n")
		servers := make([]any, n)
		for i := range servers {
			servers[i] = map[string]any{
				"name":        fmt.Sprintf("com.example/s%d", i),
				"description": rapid.StringMatching(`[a-z ]{0,12}`).Draw(t, fmt.Sprintf("desc%d", i)),
				"version":     "1.0.0",
			}
		}
		doc := map[string]any{"version": "1.0.0", "meta": map[string]any{"last_updated": "2025-01-01T00:00:00Z"},
			"data": map[string]any{"servers": servers}}
		in, _ := json.Marshal(doc)
		reg, ds := model.Parse(in, model.ParseOptions{})
		if reg == nil {
			t.Fatalf("no registry: %v", ds)
		}
		for i, s := range reg.Servers {
			switch rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("how%d", i)) {
			case 1:
				model.Canonicalize(s, model.ObjectRef{}, "", model.NormalizeOptions{})
			case 2:
				s.SetDescription("changed")
			case 3:
				reg.Servers[i] = nil
			}
		}
		want := simpleDocument(reg)
		if got := reg.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("AppendJSON:\n got %s\nwant %s", got, want)
		}
		var out strings.Builder
		if _, err := reg.WriteTo(&out); err != nil || out.String() != string(want) {
			t.Fatalf("WriteTo = %v:\n got %s\nwant %s", err, out.String(), want)
		}
	})
}
