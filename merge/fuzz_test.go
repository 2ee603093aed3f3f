package merge

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// FuzzMerge runs whole merges over ConfigMaps whose data is arbitrary bytes
// (one in data, one in binaryData, one fixed): no panic, and whatever comes out
// is valid (model.ValidateJSON), deterministic and independent of ConfigMap
// order.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"servers":[{"name":"github-mcp","image":"ghcr.io/github/mcp-server:latest"}]}`),
		[]byte(`{"servers":[{"name":"github-mcp","image":"ghcr.io/github/mcp-server:v2"}]}`), uint8(0))
	f.Add([]byte(upstreamDoc(testServer{Name: "io.ex/alpha", ID: "1", URL: "https://x.example/a"})),
		[]byte(upstreamDoc(testServer{Name: "io.ex/alpha", ID: "2", URL: "https://x.example/a"})), uint8(1))
	f.Add([]byte(`{"servers":{"fetch":{"image":"x","description":"d"}},"remote_servers":{"r":{"url":"https://r.example","transport":"sse"}}}`),
		[]byte(`{"data":{"servers":[{"name":"fixed-cm/beta"}]}}`), uint8(2))
	f.Add([]byte(`{`), []byte(`[]`), uint8(3))
	f.Add([]byte(`{"data":{"servers":[{"name":"a/b","description":"`+string(make([]byte, 0))+`x","version":"1"},{"name":"a/b"}]}}`), []byte("\xff\xfe"), uint8(4))
	fixed := configMap("fixed-cm", regLabels, upstreamDoc(testServer{Name: "io.ex/beta", ID: "f"}, testServer{Name: "io.ex/alpha", ID: "g"}))
	f.Fuzz(func(t *testing.T, a, b []byte, opts uint8) {
		cms := []*corev1.ConfigMap{
			{ObjectMeta: metav1.ObjectMeta{Name: "alpha-cm", Namespace: testNS, Labels: regLabels}, Data: map[string]string{"registry.json": string(a)}},
			{ObjectMeta: metav1.ObjectMeta{Name: "beta-cm", Namespace: testNS, Labels: regLabels}, BinaryData: map[string][]byte{"registry.json": b}},
			fixed,
		}
		strategies := []Strategy{StrategyPrefix, StrategyPriority, StrategyError}
		in := testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, Strategy: strategies[int(opts)%3], LastUpdated: now}
		if opts&4 != 0 {
			in.Filter = &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"*alpha*"}}}
		}
		res := mergeIn(in)
		in.ConfigMaps = []*corev1.ConfigMap{cms[2], cms[1], cms[0]}
		again := mergeIn(in)
		if string(res.Document()) != string(again.Document()) || !slices.Equal(res.Diagnostics, again.Diagnostics) {
			t.Fatal("the result depends on ConfigMap order")
		}
		if res.Registry == nil {
			if !res.Diagnostics.HasErrors() {
				t.Fatal("no registry and no error")
			}
			return
		}
		if ds := model.ValidateJSON(res.Document(), model.ObjectRef{Kind: "File", Name: "out"}); ds.HasErrors() {
			t.Fatalf("invalid output: %v\n%s", ds.WithSeverity(model.SeverityError), res.Document())
		}
	})
}
