package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// TestAliasExpansionIsBounded: a document whose aliases repeat a large value
// many times is refused before it is expanded (the decoders' own guard counts
// nodes, not bytes), in block and flow style, while ordinary anchors (labels
// shared, merge keys) are read as before.
func TestAliasExpansionIsBounded(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	var block, flow strings.Builder
	block.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: ns}\ndata:\n  k0: &s \"" + big + "\"\n")
	flow.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: ns}\ndata: {k0: &s \"" + big + "\"")
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&block, "  k%d: *s\n", i)
		fmt.Fprintf(&flow, ", k%d: *s", i)
	}
	flow.WriteString("}\n")
	for name, doc := range map[string]string{"block": block.String(), "flow": flow.String()} {
		_, err := Decode([]byte(doc), "big.yaml")
		if err == nil || !strings.Contains(err.Error(), "aliases expand") || !strings.Contains(err.Error(), "big.yaml: document 1") {
			t.Errorf("%s: error %v; want one naming the document and saying its aliases expand too far", name, err)
		}
	}

	ok := `apiVersion: v1
kind: ConfigMap
metadata:
  name: shared
  namespace: ns
  labels: &labels {team: a, reg: x}
  annotations: {<<: *labels, note: "R&D *only*"}
data:
  a: &v "one"
  b: *v
`
	o, err := Decode([]byte(ok), "ok.yaml")
	if err != nil || len(o.ConfigMaps) != 1 {
		t.Fatalf("ordinary anchors: %v", err)
	}
	cm := o.ConfigMaps[0]
	if cm.Data["b"] != "one" || cm.Annotations["team"] != "a" || cm.Labels["reg"] != "x" {
		t.Errorf("ordinary anchors read as %v %v %v", cm.Data, cm.Labels, cm.Annotations)
	}
}

// TestMayAlias: the pre-check finds anchors and aliases where YAML allows
// them, and not in text that only holds the characters.
func TestMayAlias(t *testing.T) {
	for _, c := range []struct {
		text string
		c    byte
		want bool
	}{
		{"a: &x 1", '&', true}, {"- *x", '*', true}, {"[*x]", '*', true}, {"{a: *x}", '*', true}, {"&x 1", '&', true},
		{"R&D", '&', false}, {"a * b", '*', false}, {"a: \"x*\"", '*', false}, {"*", '*', false},
	} {
		if got := mayAlias([]byte(c.text), c.c); got != c.want {
			t.Errorf("mayAlias(%q, %q) = %v, want %v", c.text, c.c, got, c.want)
		}
	}
}
