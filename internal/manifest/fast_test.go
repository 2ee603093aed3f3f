package manifest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	"sigs.k8s.io/yaml"
)

// The fast path must give exactly what the general path gives, objects or
// error, for every input: these tests hold Decode to decode(…, false).

// checkSamePaths decodes data both ways and compares.
func checkSamePaths(t *testing.T, name string, data []byte) {
	t.Helper()
	want, werr := decode(data, name, false)
	got, err := Decode(data, name)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Errorf("%s: error %v, the general path: %v", name, err, werr)
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: the fast path differs (-general +fast):\n%s", name, diff)
	}
}

// manifestFiles are every manifest of the repository's test data and
// examples.
func manifestFiles(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, root := range []string{"../../testdata", "../../cmd/mcpreg/example", "../../examples"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			switch strings.ToLower(filepath.Ext(path)) {
			case ".yaml", ".yml", ".json":
				b, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				out[path] = b
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d manifests found", len(out))
	}
	return out
}

// asJSON rewrites a YAML manifest as JSON: one value per document, and all of
// them as a List, as "kubectl get -o json" prints several objects. ok is
// false for a file the general path cannot read.
func asJSON(data []byte) (stream, list []byte, ok bool) {
	var docs [][]byte
	for _, doc := range bytes.Split(data, []byte("\n---")) {
		j, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, nil, false
		}
		if string(j) != "null" {
			docs = append(docs, j)
		}
	}
	stream = bytes.Join(docs, []byte("\n"))
	list = append([]byte(`{"apiVersion":"v1","kind":"List","metadata":{},"items":[`), bytes.Join(docs, []byte(","))...)
	list = append(list, "]}"...)
	return stream, list, len(docs) > 0
}

func TestFastPathMatchesOverTestdata(t *testing.T) {
	for path, data := range manifestFiles(t) {
		checkSamePaths(t, path, data)
		if stream, list, ok := asJSON(data); ok {
			checkSamePaths(t, path+" (JSON)", stream)
			checkSamePaths(t, path+" (JSON List)", list)
			var indented bytes.Buffer
			if json.Indent(&indented, list, "", "  ") == nil {
				checkSamePaths(t, path+" (JSON List, indented)", indented.Bytes())
			}
		}
	}
}

// fastCases are inputs at the edges of what the fast path reads itself and
// what it leaves to the general path. Many are invalid on purpose (keys
// repeated, values of the wrong type): no API server stores them, and both
// paths must agree on them all the same.
var fastCases = []string{
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns","labels":{"x":"1"}},"data":{"registry.json":"{\"a\":\"\\u00e9\\ud83d\\ude00\"}","k":""}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":null}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":"x"}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":1}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"1","k":"2"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"1"},"data":{"j":"2"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"1"},"Data":{"j":"2"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","DATA":{"k":"1"}}`,
	`{"apiVersion":"v1","Kind":"ConfigMap","data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","kind":"Service","data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","d\u0061ta":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","data":{"\u006b":"1","caf\u00e9":"2"}}`,
	"{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"k\":\"bad \xff byte\"}}",
	"{\"apiVersion\":\"v1\",\"\u212aind\":\"ConfigMap\",\"data\":{\"k\":\"1\"}}",
	`{"apiVersion":"v1","kind":"ConfigMap","items":5,"data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","items":[],"data":{"k":"1"}}`,
	`{"apiVersion":"/v1","kind":"ConfigMap","data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":7},"data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"creationTimestamp":"nope"},"data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","binaryData":{"b":"aGk="},"immutable":true,"data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap","binaryData":{"b":"not base64"}}`,
	`{"apiVersion":"v1","kind":"ConfigMap"}{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"n"}} [{"apiVersion":"v1","kind":"ConfigMap"}]`,
	`{"apiVersion":"v1","kind":"ConfigMap"} null`,
	`{"apiVersion":"v1","kind":"ConfigMap"} 5`,
	`{"apiVersion":"v1","kind":"ConfigMap"`,
	`{"apiVersion":"v1","kind":"ConfigMap"}}`,
	`[{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"1"}},null,[{"apiVersion":"v1","kind":"ConfigMap"}]]`,
	`[{"apiVersion":"v1","kind":"ConfigMap"},"x"]`,
	`{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"1"}},{"apiVersion":"v1","kind":"Service","metadata":{"name":"s"}}]}`,
	`{"apiVersion":"v1","kind":"List","items":null}`,
	`{"apiVersion":"v1","kind":"List"}`,
	`{"apiVersion":"v1","kind":"List","Items":[{"apiVersion":"v1","kind":"ConfigMap"}]}`,
	`{"apiVersion":"v1","kind":"ConfigMapList","items":[{"apiVersion":"v1","kind":"ConfigMap","data":{"k":"1"}}]}`,
	`{"apiVersion":"v1","kind":"FooList","data":{"k":"1"}}`,
	`{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat(`{"kind":"List","items":[`, 9) + `{"apiVersion":"v1","kind":"ConfigMap"}` + strings.Repeat(`]}`, 9) + `]}`,
	`{"apiVersion":"v1","kind":"List","items":[` + strings.Repeat(`{"kind":"List","items":[`, 6) + `{"apiVersion":"v1","kind":"ConfigMap"}` + strings.Repeat(`]}`, 6) + `]}`,
	`{"apiVersion":"toolhive.stacklok.dev/v1alpha1","kind":"MCPServer","metadata":{"name":"x"},"spec":{"image":"i"}}`,
	`{"apiVersion":"toolhive.stacklok.dev/v1alpha1","kind":"MCPServer","spec":{"groupRef":7}}`,
	"\xef\xbb\xbf{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  registry.json: '{\"a\": 1}'\n---\n{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}\n",
	"apiVersion: v1\nkind: ConfigMap\ndata: {k: 1}\n",
	"apiVersion: v1\nkind: ConfigMap\ndata: {k: 'x', k2: \"\\xff\"}\n",
	"# only a comment\n---\n \u00a0\n---\napiVersion: v1\nkind: ConfigMap\n",
	// YAML the fast reader takes, and YAML just past what it takes.
	yamlCM("data:\n  registry.json: '{\"a\": \"it''s\"}'\n  other: |\n    line 1\n\n      indented # not a comment\n    last\n\n  strip: |-\n    x\n  dq: \"plain\"\n  word: teams\n"),
	yamlCM("data:\n  folded: 'one\n    two  \n\n\n    three \n     four'\n  tail: 'a\n    '\n  head: '   \n    b'\n"),
	yamlCM("data:\n  k: 'x'  \n  # a comment\n  j: ''\n\n"),
	yamlCM("data:\n  k: 'x' # a comment\n"),
	yamlCM("data:\n  k: 'x\n  y'\n"),
	yamlCM("data:\n  k: 'x\ny'\n"),
	yamlCM("data:\n  k: \"a\\tb\"\n"),
	yamlCM("data:\n  k: \"a\n    b\"\n"),
	yamlCM("data:\n  k: yes\n"),
	yamlCM("data:\n  k: 'yes'\n  on: x\n"),
	yamlCM("data:\n  k: null\n"),
	yamlCM("data:\n  k:\n  j: x\n"),
	yamlCM("data:\n  k: 12\n"),
	yamlCM("data:\n  k: a:b\n"),
	yamlCM("data:\n  k:x\n"),
	yamlCM("data:\n  k: x\n  k: y\n"),
	yamlCM("data:\n  k: x\n  K: y\n"),
	yamlCM("data:\n  k: x\nData:\n  j: y\n"),
	yamlCM("data: {}\n"),
	yamlCM("data: null\n"),
	yamlCM("data:\n"),
	yamlCM("data:\n  k: |+\n    x\n\n"),
	yamlCM("data:\n  k: |2\n    x\n"),
	yamlCM("data:\n  k: |\n\n    x\n"),
	yamlCM("data:\n  k: |\n    x\n      \n    y\n"),
	yamlCM("data:\n  k: |\n  j: x\n"),
	yamlCM("data:\n  k: |\n    x\n   y\n"),
	yamlCM("data:\n  k: >\n    x\n"),
	yamlCM("data:\n  k: \"\"\n"),
	yamlCM("data:\n  k: &a x\n  j: *a\n"),
	yamlCM("data:\n  k: !!str x\n"),
	yamlCM("data:\n  - x\n"),
	yamlCM("data:\n  k: [x]\n"),
	yamlCM("data:\n\tk: x\n"),
	yamlCM("data:\r\n  k: x\r\n"),
	yamlCM("data:\n  k: 'caf\u00e9 \U0001F600 \u2028 x'\n"),
	yamlCM("data:\n  k: 'caf\u00e9 \U0001F600'\n"),
	yamlCM("data:\n  k: 'nel \u0085 x'\n"),
	yamlCM("data:\n  k: 'bad \xff'\n"),
	yamlCM("data:\n  k: 'x'\n    j: y\n"),
	yamlCM("data:\n    k: x\n  j: y\n"),
	yamlCM("data:\n  nested:\n    deeper: x\n"),
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  creationTimestamp: null\n  annotations:\n    note: 'a ''quoted'' note'\n  labels: {}\ndata:\n  k: x\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: 7\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nimmutable: true\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nbinaryData:\n  b: aGk=\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\nbinaryData:\n  b: not64\n",
	"apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata:\n  k: 'v'\n",
	"  apiVersion: v1\n  kind: ConfigMap\n",
	"apiVersion: v1\nkind: ConfigMap\ndata:\n  k: 'unterminated\n",
	"apiVersion: v1\nkind: ConfigMap\ndata:\n  k: x",
}

// yamlCM is a ConfigMap manifest in YAML with the given members after its
// metadata.
func yamlCM(rest string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  namespace: ns\n  labels:\n    toolhive.stacklok.dev/registry: teams\n" + rest
}

func TestFastPathMatchesOnEdgeCases(t *testing.T) {
	for i, c := range fastCases {
		checkSamePaths(t, "case "+string(rune('A'+i)), []byte(c))
	}
}

// FuzzFastPath: on any input, Decode gives what the general path gives.
// Seeds: fastCases, FuzzDecode's seeds (testdata/fuzz/FuzzDecode) and
// testdata/fuzz/FuzzFastPath.
func FuzzFastPath(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c))
	}
	seeds, _ := filepath.Glob("testdata/fuzz/FuzzDecode/*")
	for _, path := range seeds {
		if b, err := os.ReadFile(path); err == nil {
			if v, ok := corpusValue(b); ok {
				f.Add(v)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSamePaths(t, "fuzz", data)
	})
}

// corpusValue reads the []byte of a one-value fuzz corpus file.
func corpusValue(file []byte) ([]byte, bool) {
	_, rest, ok := bytes.Cut(file, []byte("[]byte("))
	if !ok || !bytes.HasSuffix(bytes.TrimSpace(rest), []byte(")")) {
		return nil, false
	}
	s, err := strconv.Unquote(string(bytes.TrimSuffix(bytes.TrimSpace(rest), []byte(")"))))
	return []byte(s), err == nil
}

// TestFastPathTaken: the shapes a user's manifests have are read by the fast
// path, not left to the general one.
func TestFastPathTaken(t *testing.T) {
	for _, c := range []string{fastCases[0], fastCases[1], fastCases[20], fastCases[22], fastCases[27], fastCases[29], fastCases[33]} {
		if _, ok := decodeFast([]byte(c)); !ok {
			t.Errorf("the fast path declines %s", c)
		}
	}
	for _, y := range []string{
		yamlCM("data:\n  folded: 'one\n    two  \n\n\n    three \n     four'\n  tail: 'a\n    '\n  head: '   \n    b'\n"),
		yamlCM("data:\n  k: 'x'  \n  # a comment\n  j: ''\n\n"),
		yamlCM("data:\n  k: |\n    x\n\n  j: |-\n    y\n    z\n  dq: \"plain\"\n  word: teams\n"),
		yamlCM("data: {}\n"), yamlCM("data:\n"),
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  creationTimestamp: null\n  annotations:\n    note: 'a ''quoted'' note'\n  labels: {}\ndata:\n  k: x\n",
	} {
		if _, ok := decodeFastYAML([]byte(y)); !ok {
			t.Errorf("the fast path declines %s", y)
		}
	}
	y := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  registry.json: '{\"a\": 1}'\n"
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := decodeFastValue(j); !ok {
		t.Errorf("the fast path declines %s", j)
	}
}

// TestFastYAMLMatchesProperty: ConfigMaps with data of every awkward kind
// (quotes, leading, trailing and repeated spaces, blank lines, '#', ':',
// YAML's special words, non-ASCII, long lines), written as "kubectl get -o
// yaml" writes them, decode the same by both paths; and the fast path takes
// those made of printable ASCII and line breaks.
func TestFastYAMLMatchesProperty(t *testing.T) {
	pieces := []string{"a", "b", " ", "  ", "\n", "\n\n", "'", "''", `"`, "#", " #", ": ", "-", "{", "}", "[", "yes", "null", "~", "1", "0x1F",
		"é", "\u2028", "\U0001F600", "\t", `\`, strings.Repeat("long words ", 12)}
	rapid.Check(t, func(t *rapid.T) {
		data := map[string]string{}
		for i := range rapid.IntRange(0, 4).Draw(t, "keys") {
			var b strings.Builder
			for range rapid.IntRange(0, 30).Draw(t, "len") {
				b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
			}
			data[rapid.SampledFrom([]string{"registry.json", "k", "on", "a.b_c-d", "x" + strconv.Itoa(i)}).Draw(t, "key")] = b.String()
		}
		cm := &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "ns", Labels: map[string]string{"toolhive.stacklok.dev/registry": rapid.SampledFrom([]string{"teams", "true", "a b"}).Draw(t, "label")}},
			Data:       data,
		}
		y, err := yaml.Marshal(cm)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := decode(y, "p.yaml", false)
		got, err := Decode(y, "p.yaml")
		if werr != nil || err != nil {
			t.Fatalf("errors: %v, %v\n%s", err, werr, y)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("the fast path differs (-general +fast):\n%s\n%s", diff, y)
		}
	})
}
