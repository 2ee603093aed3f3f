package model_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// genJSONValue draws arbitrary JSON-able values, nested a little.
func genJSONValue(depth int) *rapid.Generator[any] {
	leaves := []*rapid.Generator[any]{
		rapid.Map(rapid.String(), func(s string) any { return s }),
		rapid.Map(rapid.Int64Range(-1<<40, 1<<40), func(i int64) any { return float64(i) }),
		rapid.Map(rapid.Bool(), func(b bool) any { return b }),
		rapid.Just[any](nil),
	}
	if depth <= 0 {
		return rapid.OneOf(leaves...)
	}
	return rapid.OneOf(append(leaves,
		rapid.Map(rapid.SliceOfN(genJSONValue(depth-1), 0, 3), func(s []any) any { return s }),
		rapid.Map(rapid.MapOfN(rapid.StringMatching(`[a-zA-Z_$.-]{1,12}`), genJSONValue(depth-1), 0, 3),
			func(m map[string]any) any { return m }),
	)...)
}

// genServer draws an upstream entry as a decoded JSON object: the fields the
// library reads plus unknown ones, in a random key order once encoded.
func genServer(t *rapid.T, i int) map[string]any {
	s := map[string]any{
		"name":        rapid.StringMatching(`[a-z][a-z0-9.-]{1,20}/[a-z][a-z0-9._-]{1,20}`).Draw(t, fmt.Sprintf("name%d", i)),
		"description": rapid.String().Draw(t, fmt.Sprintf("desc%d", i)),
		"version":     rapid.StringMatching(`[0-9]\.[0-9]\.[0-9]`).Draw(t, fmt.Sprintf("ver%d", i)),
	}
	extra := rapid.MapOfN(rapid.StringMatching(`x-[a-z]{1,8}`), genJSONValue(2), 0, 4).Draw(t, fmt.Sprintf("extra%d", i))
	for k, v := range extra {
		s[k] = v
	}
	if rapid.Bool().Draw(t, fmt.Sprintf("hasRemotes%d", i)) {
		s["remotes"] = []any{map[string]any{"type": "sse", "url": "https://h.example.com/" + fmt.Sprint(i), "headers": []any{map[string]any{"name": "X"}}}}
	}
	return s
}

// TestRoundTrip: parse → emit → parse gives the same document, and every
// entry, unknown fields included, is JSON-equal to what went in.
func TestRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 6).Draw(t, "n")
		servers := make([]any, n)
		for i := range servers {
			servers[i] = genServer(t, i)
		}
		doc := map[string]any{
			"$schema": model.RegistrySchemaURL,
			"version": "1.0.0",
			"meta":    map[string]any{"last_updated": "2025-01-01T00:00:00Z"},
			"data":    map[string]any{"servers": servers},
		}
		var in []byte
		if rapid.Bool().Draw(t, "indent") {
			in, _ = json.MarshalIndent(doc, "", "    ")
		} else {
			in, _ = json.Marshal(doc)
		}
		reg, ds := model.Parse(in, model.ParseOptions{})
		if reg == nil || len(ds) > 0 {
			t.Fatalf("Parse: %v", ds)
		}
		out := reg.Encode()
		reg2, ds2 := model.Parse(out, model.ParseOptions{})
		if reg2 == nil || len(ds2) > 0 {
			t.Fatalf("Parse of output: %v", ds2)
		}
		if again := reg2.Encode(); string(again) != string(out) {
			t.Fatalf("emit is not stable:\n%s\n---\n%s", out, again)
		}
		var got map[string]any
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(doc, got); diff != "" {
			t.Fatalf("document changed (-in +out):\n%s", diff)
		}
	})
}

// TestSetKeepsOrder: editing one member leaves the others where they were.
func TestSetKeepsOrder(t *testing.T) {
	s, err := model.ParseServer([]byte(`{"z":1,"name":"a/b","description":"d","version":"1.0.0","a":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	s.SetName("c/d")
	s.SetRemotes([]model.Remote{{Type: "sse", URL: "https://x.example.com/sse"}})
	got := string(s.AppendJSON(nil))
	want := `{"z":1,"name":"c/d","description":"d","version":"1.0.0","a":[2],"remotes":[{"type":"sse","url":"https://x.example.com/sse"}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	c := s.Clone()
	c.SetDescription("changed")
	if s.Description() != "d" {
		t.Error("Clone shares edits with the original")
	}
}

func TestDuplicateKeysLastWins(t *testing.T) {
	s, err := model.ParseServer([]byte(`{"name":"a/first","description":"d","name":"a/second"}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name() != "a/second" || !slices.Equal(s.Keys(), []string{"description", "name"}) {
		t.Errorf("name %q keys %v", s.Name(), s.Keys())
	}
}

func TestTags(t *testing.T) {
	s, err := model.ParseServer([]byte(`{"name":"a/b","tags":["z","a"],"_meta":{
		"io.modelcontextprotocol.registry/publisher-provided":{
			"io.github.stacklok":{"img:1":{"status":"active","tags":["web","a"]}},
			"com.other":{"k":{"tags":["other"]},"bad":"x"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Tags(), []string{"a", "other", "web", "z"}; !slices.Equal(got, want) {
		t.Errorf("Tags = %v, want %v", got, want)
	}
}
