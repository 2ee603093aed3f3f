package jsonx

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// unquoteCases are literals whose decoding encoding/json defines in detail:
// every escape, surrogate pairs, lone and mismatched surrogates, invalid
// UTF-8 (replaced byte by byte), and literals that are not valid JSON.
var unquoteCases = []string{
	`""`, `"a"`, `"\"quoted\" and \\ and \/"`, `"\b\f\n\r\t"`,
	`"\u0041\u00e9\u4e2d"`, `"\u003chtml\u003e \u0026"`, `"\ud83d\ude00 smile"`,
	`"\ud83d alone"`, `"\ude00 low first"`, `"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`,
	`"\ud83d\"`, `"end \ud83d"`, `"\uDBFF\uDFFF"`, "\"caf\xc3\xa9\"", "\"bad \xff byte\"",
	"\"cut \xe4\xb8\"", "\"\xed\xa0\x80 encoded surrogate\"",
	`"{\"$schema\":\"https://ex/s.json\",\"data\":{\"servers\":[]}}"`,
	// Not valid JSON.
	`"`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"tab\there\"", `"a"b"`, `abc`, `"\"`,
}

func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	long := `"` + strings.Repeat(`{\"k\":\"v\u00e9\"},`, 500) + "\xf0\x9f\x98\x80\"" // past the 8-byte loop
	for _, lit := range append(unquoteCases, long) {
		checkUnquote(t, []byte(lit))
	}
}

func checkUnquote(t *testing.T, lit []byte) {
	t.Helper()
	lit = bytes.Trim(lit, " \t\r\n") // json.Unmarshal allows space around a value
	var want string
	werr := json.Unmarshal(lit, &want)
	if werr == nil && (len(lit) == 0 || lit[0] != '"') {
		return // another kind of value
	}
	got, err := Unquote(lit)
	switch {
	case werr != nil && err == nil:
		t.Errorf("Unquote(%q) = %q, encoding/json: %v", lit, got, werr)
	case werr == nil && err != nil:
		t.Errorf("Unquote(%q): %v, encoding/json: %q", lit, err, want)
	case got != want:
		t.Errorf("Unquote(%q) = %q, encoding/json %q", lit, got, want)
	}
}

func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		checkUnquote(t, lit)
	})
}

// BenchmarkUnquote reads a ConfigMap data value: a registry document of
// about a megabyte as a JSON string, a quote escaped every few bytes.
func BenchmarkUnquote(b *testing.B) {
	doc := `{"name":"io.github.example/server-000","description":"Manage repositories, issues and pull requests","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://mcp.example.com/mcp"}]},`
	lit, _ := json.Marshal(strings.Repeat(doc, 1<<20/len(doc)))
	b.Run("Unquote", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for b.Loop() {
			if _, err := Unquote(lit); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(lit)))
		for b.Loop() {
			var s string
			if err := json.Unmarshal(lit, &s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
