package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestDuplicateKeysBounded: an entry repeating many keys gives at most
// MaxPerObjectReason DuplicateKey warnings and one summary for the rest,
// keeps the last member of each key, and each warning names the key's
// member and how often it was given.
func TestDuplicateKeysBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"data":{"servers":[{"name":"io.github.acme/x","description":"d","version":"1.0.0"`)
	const keys = 500
	for i := range keys {
		fmt.Fprintf(&b, `,"k%d":1,"k%d":2,"k%d":3`, i, i, i)
	}
	b.WriteString(`}]}}`)
	reg, ds := Parse([]byte(b.String()), ParseOptions{Source: ObjectRef{Kind: "File", Name: "input.json"}})
	if reg == nil || len(reg.Servers) != 1 {
		t.Fatalf("registry %v, diagnostics %v", reg, ds)
	}
	if raw, ok := reg.Servers[0].Get("k7"); !ok || string(raw) != "3" {
		t.Errorf("k7 = %s, want the last member 3", raw)
	}
	if n := len(reg.Servers[0].Keys()); n != keys+3 {
		t.Errorf("%d keys kept, want %d", n, keys+3)
	}
	var warnings, summaries int
	for _, d := range ds {
		if d.Reason != ReasonDuplicateKey {
			t.Errorf("unexpected %s", d)
			continue
		}
		if d.Count() > 1 {
			summaries++
			continue
		}
		warnings++
		if warnings == 1 && (d.Field != "data.servers[0].k0" || !strings.Contains(d.Message, `key "k0" is given 3 times`)) {
			t.Errorf("first warning %s", d)
		}
	}
	if warnings != MaxPerObjectReason || summaries != 1 {
		t.Errorf("%d warnings and %d summaries, want %d and 1", warnings, summaries, MaxPerObjectReason)
	}
}
