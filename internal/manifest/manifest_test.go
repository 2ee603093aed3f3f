package manifest

import (
	"fmt"
	"strings"
	"testing"
)

func TestDecodeShapes(t *testing.T) {
	yamlMulti := `
# leading comment
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns, labels: {x: "1"}}
data: {registry.json: "{}"}
---
# only a comment
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ignored}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: mcp-x-proxy, namespace: ns}
- apiVersion: gateway.networking.k8s.io/v1
  kind: HTTPRoute
  metadata: {name: r, namespace: ns}
  spec:
    parentRefs: [{name: gw}]
- apiVersion: gateway.networking.k8s.io/v1beta1
  kind: ReferenceGrant
  metadata: {name: g, namespace: other}
  spec:
    from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: ns}]
    to: [{group: "", kind: Service}]
- apiVersion: toolhive.stacklok.dev/v1beta1
  kind: MCPServer
  metadata: {name: x, namespace: ns}
  spec: {image: img, groupRef: {name: g}}
`
	o, err := Decode([]byte(yamlMulti), "multi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(o.ConfigMaps) != 1 || len(o.Services) != 1 || len(o.HTTPRoutes) != 1 || len(o.ReferenceGrants) != 1 || len(o.MCPServers) != 1 || o.Len() != 5 {
		t.Errorf("decoded %+v", o)
	}
	if o.MCPServers[0].Group() != "g" || o.ConfigMaps[0].Labels["x"] != "1" {
		t.Errorf("fields lost: %+v %+v", o.MCPServers[0], o.ConfigMaps[0])
	}

	jsonStream := `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","labels":{"team":"x"}}}
{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"b"}}`
	o, err = Decode([]byte(jsonStream), "stream.json")
	if err != nil || len(o.Namespaces) != 2 {
		t.Fatalf("JSON stream: %v %+v", err, o)
	}
	o, err = Decode([]byte(`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"toolhive.stacklok.dev/v1alpha1","kind":"MCPGroup","metadata":{"name":"g","namespace":"n"}}]}`), "list.json")
	if err != nil || len(o.MCPGroups) != 1 {
		t.Fatalf("JSON List: %v %+v", err, o)
	}
}

func TestDecodeErrorsNameTheSource(t *testing.T) {
	for _, bad := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: [1, 2]\n",
		"key: [unclosed\n",
		"- just\n- a list\n",
		"plain scalar\n",
	} {
		_, err := Decode([]byte(bad), "bad.yaml")
		if err == nil {
			t.Errorf("no error for %q", bad)
			continue
		}
		if got := err.Error(); len(got) < 9 || got[:9] != "bad.yaml:" {
			t.Errorf("error does not name the file: %v", err)
		}
	}
}

// FuzzDecode: no manifest input makes decoding panic.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
		"apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: List, items: []}]\n",
		`{"apiVersion":"toolhive.stacklok.dev/v1alpha1","kind":"MCPServer","spec":{"groupRef":7}}`,
		"---\n---\n", "[", "{}", "kind: HTTPRoute\napiVersion: gateway.networking.k8s.io/v1\nspec: {rules: [{}]}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := Decode(data, "fuzz.yaml")
		if err == nil && o == nil {
			t.Fatal("nil objects without error")
		}
	})
}

// TestDeepDocumentSaysWhy: a manifest nested deeper than the decoders allow
// is refused with a message that says so, not "yaml: exceeded max depth".
// (Invalid on purpose: no API server stores such an object.)
func TestDeepDocumentSaysWhy(t *testing.T) {
	for name, doc := range map[string]string{
		"json": `{"apiVersion":"v1","kind":"ConfigMap","data":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`,
		"yaml": "apiVersion: v1\nkind: ConfigMap\ndata: " + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "\n",
	} {
		_, err := Decode([]byte(doc), "deep."+name)
		if err == nil || !strings.Contains(err.Error(), "nested") || !strings.Contains(err.Error(), "deep."+name+": document 1") {
			t.Errorf("%s: error %v; want one naming the file and saying the document is nested too deep", name, err)
		}
	}
}

// TestDocumentEndMarkers: a document end marker ("...") with nothing but
// blank lines and comments after it, or with "---" starting the next
// document, ends a document as YAML reads it; a line that only begins with
// three dots is content.
func TestDocumentEndMarkers(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: ns}\ndata: {k: %s}\n"
	for name, tc := range map[string]struct {
		doc  string
		want int
	}{
		"trailing marker":          {fmt.Sprintf(cm, "a", "v") + "...\n", 1},
		"marker, comment, blank":   {fmt.Sprintf(cm, "a", "v") + "... # done\n\n# bye\n", 1},
		"marker then ---":          {fmt.Sprintf(cm, "a", "v") + "...\n---\n" + fmt.Sprintf(cm, "b", "v"), 2},
		"dots in a value":          {fmt.Sprintf(cm, "a", "...x"), 1},
		"a line starting with ...": {"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata:\n  k: |\n    ....\n", 1},
	} {
		for _, fast := range []bool{true, false} {
			o, err := decode([]byte(tc.doc), "s.yaml", fast)
			if err != nil || o.Len() != tc.want {
				n := -1
				if o != nil {
					n = o.Len()
				}
				t.Errorf("%s (fast %v): %d objects, error %v; want %d objects", name, fast, n, err, tc.want)
			}
		}
	}
}

// TestTrailingContentIsRefused: a document whose first value is followed by
// more that is not a value (a cut or damaged "kubectl get -o json" stream, a
// flow-style YAML object and then more) is an error naming the source and
// the document, never read as its first value with the rest dropped.
func TestTrailingContentIsRefused(t *testing.T) {
	cm := func(name string) string {
		return `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `","namespace":"ns"},"data":{"k":"v"}}`
	}
	for name, doc := range map[string]string{
		"stream then junk":             cm("a") + "\n" + cm("b") + "\nx\n",
		"stream then cut object":       cm("a") + "\n" + cm("b") + "\n" + cm("c")[:40] + "\n",
		"object then brace":            cm("a") + " }",
		"array then bracket":           "[" + cm("a") + "] ]",
		"flow YAML then more":          "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n",
		"flow YAML then a list":        "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- b\n",
		"second document marker":       "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n...\n{apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n",
		"block YAML, end marker, more": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n... # end\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n",
		"end marker, then junk":        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n...\n\ngarbage: [unclosed\n",
	} {
		for _, fast := range []bool{true, false} {
			o, err := decode([]byte(doc), "s.json", fast)
			if err == nil {
				t.Errorf("%s (fast %v): read %d objects, no error", name, fast, o.Len())
				continue
			}
			if !strings.HasPrefix(err.Error(), "s.json: document 1: ") {
				t.Errorf("%s (fast %v): error %q does not name the source and document", name, fast, err)
			}
		}
	}
	// What is still read: flow YAML alone, with a comment or an explicit end.
	for _, doc := range []string{
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}}\n",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}}\n# done\n",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: a, namespace: ns}}\n...\n",
		cm("a") + "\n" + cm("b") + "\n",
	} {
		o, err := Decode([]byte(doc), "ok.yaml")
		if err != nil {
			t.Errorf("%q: %v", doc, err)
		} else if len(o.ConfigMaps) == 0 {
			t.Errorf("%q: no ConfigMap read", doc)
		}
	}
}

// TestTypedListItemsWithoutKind: a typed list as the API server's list
// endpoint returns it ("ConfigMapList", "HTTPRouteList"), whose items carry
// no kind or apiVersion, is read with the kind the list names.
func TestTypedListItemsWithoutKind(t *testing.T) {
	docs := map[string]string{
		"ConfigMapList": `{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"1"},"items":[` +
			`{"metadata":{"name":"a","namespace":"ns"},"data":{"registry.json":"{}"}},` +
			`{"metadata":{"name":"b","namespace":"ns"},"data":{"registry.json":"{}"}}]}`,
		"HTTPRouteList": `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRouteList","items":[` +
			`{"metadata":{"name":"r","namespace":"ns"},"spec":{"parentRefs":[{"name":"gw"}]}}]}`,
		"MCPServerList": "apiVersion: toolhive.stacklok.dev/v1alpha1\nkind: MCPServerList\nitems:\n- metadata: {name: s, namespace: ns}\n  spec: {image: i}\n",
	}
	for name, doc := range docs {
		for _, fast := range []bool{true, false} {
			o, err := decode([]byte(doc), "list.json", fast)
			if err != nil {
				t.Errorf("%s (fast %v): %v", name, fast, err)
				continue
			}
			if got := len(o.ConfigMaps) + len(o.HTTPRoutes) + len(o.MCPServers); got != strings.Count(doc, `"metadata":{"name"`)+strings.Count(doc, "- metadata") || got == 0 {
				t.Errorf("%s (fast %v): %d objects read: %+v", name, fast, got, o)
			}
		}
	}
}

// TestKindWithoutAPIVersion: a hand-written manifest that leaves out
// apiVersion is read as the kind it names, where one API group serves that
// kind; a kind read from no group is still left out.
func TestKindWithoutAPIVersion(t *testing.T) {
	doc := "kind: ConfigMap\nmetadata: {name: a, namespace: ns}\ndata: {registry.json: '{}'}\n" +
		"---\nkind: Service\nmetadata: {name: s, namespace: ns}\n" +
		"---\nkind: HTTPRoute\nmetadata: {name: r, namespace: ns}\nspec: {parentRefs: [{name: gw}]}\n" +
		"---\nkind: ReferenceGrant\nmetadata: {name: g, namespace: ns}\n" +
		"---\nkind: MCPServer\nmetadata: {name: m, namespace: ns}\nspec: {image: i, groupRef: {name: grp}}\n" +
		"---\nkind: MCPGroup\napiVersion: \"\"\nmetadata: {name: grp, namespace: ns}\n" +
		"---\nkind: Deployment\nmetadata: {name: d, namespace: ns}\n" +
		"---\n{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"b\",\"namespace\":\"ns\"}}\n"
	for _, fast := range []bool{true, false} {
		o, err := decode([]byte(doc), "objects.yaml", fast)
		if err != nil {
			t.Fatalf("fast %v: %v", fast, err)
		}
		if len(o.ConfigMaps) != 2 || len(o.Services) != 1 || len(o.HTTPRoutes) != 1 || len(o.ReferenceGrants) != 1 ||
			len(o.MCPServers) != 1 || len(o.MCPGroups) != 1 || o.Len() != 7 {
			t.Errorf("fast %v: read %d objects: %+v", fast, o.Len(), o)
			continue
		}
		if o.MCPServers[0].Group() != "grp" || o.ConfigMaps[0].Data["registry.json"] != "{}" {
			t.Errorf("fast %v: objects not read whole: %+v %+v", fast, o.MCPServers[0], o.ConfigMaps[0])
		}
	}
}
