package model

import (
	"fmt"
	"strings"
	"testing"
)

// longListEntry is a registry document of one server whose publisher-provided
// _meta holds the given tags (written as JSON string literals) and, beside
// them, an object of extra members (written as JSON members, without braces).
func longListEntry(tags []string, extra string) []byte {
	var b strings.Builder
	b.WriteString(`{"data":{"servers":[{"name":"io.github.acme/long","description":"d","version":"1.0.0",` +
		`"remotes":[{"type":"sse","url":"https://acme.example.com/sse"}],` +
		`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.stacklok":{` +
		`"https://acme.example.com/sse":{"status":"active","tags":[`)
	b.WriteString(strings.Join(tags, ","))
	b.WriteString(`]}`)
	if extra != "" {
		b.WriteString(",")
		b.WriteString(extra)
	}
	b.WriteString(`}}}}]}}`)
	return []byte(b.String())
}

// normalizeDoc parses doc, which holds one server, and normalizes the server
// as a merge does, returning the diagnostics of both.
func normalizeDoc(t *testing.T, doc []byte) Diagnostics {
	t.Helper()
	obj := ObjectRef{Kind: "File", Name: "input.json"}
	reg, ds := Parse(doc, ParseOptions{Source: obj})
	if reg == nil || len(reg.Servers) != 1 {
		t.Fatalf("registry %v, diagnostics %v", reg, ds)
	}
	_, nds := Normalize(reg.Servers[0], obj, "data.servers[0]")
	return append(ds, nds...)
}

// TestLongListsFindEveryRepeat: the uniqueness check of a long list of tags
// (past the size where it looks repeats up in a map rather than comparing
// with the earlier ones) reports each repeat with the index of its first
// occurrence, escaped or not, and nothing else; a long list of distinct
// tags passes.
func TestLongListsFindEveryRepeat(t *testing.T) {
	var tags []string
	for i := range 200 {
		tags = append(tags, fmt.Sprintf(`"t%d"`, i))
	}
	if ds := normalizeDoc(t, longListEntry(tags, "")); len(ds) != 0 {
		t.Fatalf("200 distinct tags: diagnostics %v", ds)
	}
	for _, n := range []int{manyKeys - 1, manyKeys, manyKeys + 1, 200} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			tags := tags[:n:n]
			// t3 again, t5 escaped, the last one again, and t5 escaped once more.
			last := fmt.Sprintf("t%d", n-1)
			tags = append(tags, `"t3"`, `"t\u0035"`, `"`+last+`"`, `"t\u0035"`)
			ds := normalizeDoc(t, longListEntry(tags, ""))
			if len(ds) != 1 || ds[0].Reason != ReasonInvalidEntry {
				t.Fatalf("diagnostics %v, want one InvalidEntry", ds)
			}
			for _, want := range []string{
				fmt.Sprintf(`tags[%d] repeats "t3" (also at [3])`, n),
				fmt.Sprintf(`tags[%d] repeats "t\u0035" (also at [5])`, n+1),
				fmt.Sprintf(`tags[%d] repeats %q (also at [%d])`, n+2, last, n-1),
				fmt.Sprintf(`tags[%d] repeats "t\u0035" (also at [5])`, n+3),
			} {
				if !strings.Contains(ds[0].Message, want) {
					t.Errorf("message lacks %s:\n%s", want, ds[0].Message)
				}
			}
			if c := strings.Count(ds[0].Message, "repeats"); c != 4 {
				t.Errorf("%d repeats reported, want 4:\n%s", c, ds[0].Message)
			}
		})
	}
}

// TestLongObjectsFindEveryRepeat: a repeated key in a long object (past the
// size where the fast reading looks keys up in a map) is found, and the
// last member of the key is the one checked, as in a short object.
func TestLongObjectsFindEveryRepeat(t *testing.T) {
	for _, n := range []int{manyKeys - 1, manyKeys, manyKeys + 1, 500} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var members []string
			for i := range n {
				members = append(members, fmt.Sprintf(`"https://acme.example.com/%d":{"status":"active"}`, i))
			}
			extra := strings.Join(members, ",")
			if ds := normalizeDoc(t, longListEntry([]string{`"a1"`}, extra)); len(ds) != 0 {
				t.Fatalf("%d distinct keys: diagnostics %v", n, ds)
			}
			// The first key given again, last, with a tier ToolHive does not
			// have: the member checked is that one.
			extra += `,"https://acme.example.com/0":{"status":"active","tier":"Gold"}`
			ds := normalizeDoc(t, longListEntry([]string{`"a1"`}, extra))
			if len(ds) != 1 || ds[0].Reason != ReasonInvalidEntry ||
				!strings.Contains(ds[0].Message, `[https://acme.example.com/0].tier is "Gold"`) {
				t.Fatalf("diagnostics %v, want one InvalidEntry for the bad tier of the repeated key's last member", ds)
			}
		})
	}
}

// BenchmarkLongListsAndObjects shows the uniqueness check of a list of tags
// and the repeated-key check of an object linear in their length, where
// both were quadratic (16,000 tags of one ConfigMap entry took 3.3 s, 16,000
// keys of one _meta object 3.7 s): compare n and 4n.
func BenchmarkLongListsAndObjects(b *testing.B) {
	for _, n := range []int{4000, 16000} {
		var tags, keys []string
		for i := range n {
			tags = append(tags, fmt.Sprintf(`"t%d"`, i))
			keys = append(keys, fmt.Sprintf(`"k%d":{"status":"active"}`, i))
		}
		for _, c := range []struct {
			name string
			doc  []byte
		}{
			{"tags", longListEntry(tags, "")},
			{"keys", longListEntry([]string{`"a1"`}, strings.Join(keys, ","))},
		} {
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(c.doc)))
				for b.Loop() {
					reg, _ := Parse(c.doc, ParseOptions{})
					Normalize(reg.Servers[0], ObjectRef{}, "")
				}
			})
		}
	}
}
