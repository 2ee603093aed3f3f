package merge

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mcpreg/mcpreg/internal/labelsel"
	"github.com/mcpreg/mcpreg/model"
)

// claimingConfigMaps is k ConfigMaps that each define the same one server.
func claimingConfigMaps(k int) []*corev1.ConfigMap {
	cms := make([]*corev1.ConfigMap, k)
	for c := range cms {
		cms[c] = configMap(fmt.Sprintf("team-%05d", c), regLabels, upstreamDoc(testServer{
			Name: "io.example/same", ID: fmt.Sprint(c), URL: fmt.Sprintf("https://mcp.example.com/team%d/same", c)}))
	}
	return cms
}

// mergeWithin runs Merge on another goroutine and fails the test when it
// does not return within d.
func mergeWithin(t *testing.T, in testInput, d time.Duration) Result {
	t.Helper()
	done := make(chan Result, 1)
	go func() { done <- mergeIn(in) }()
	select {
	case res := <-done:
		return res
	case <-time.After(d):
		t.Fatalf("Merge did not finish in %v", d)
		return Result{}
	}
}

// TestManyConfigMapsDefiningOneName is the regression test for conflict
// listing: each copy's message listed all k-1 other ConfigMaps before being
// cut, so 16,000 ConfigMaps allocated 20 GB.
func TestManyConfigMapsDefiningOneName(t *testing.T) {
	const k = 16000
	cms := claimingConfigMaps(k)
	for _, strategy := range []Strategy{StrategyPrefix, StrategyPriority, StrategyError} {
		t.Run(string(strategy), func(t *testing.T) {
			res := mergeWithin(t, testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, Strategy: strategy, LastUpdated: now}, 60*time.Second)
			want := map[Strategy]int{StrategyPrefix: k, StrategyPriority: 1, StrategyError: 0}[strategy]
			got := 0
			if res.Registry != nil {
				got = len(res.Registry.Servers)
			}
			if got != want {
				t.Errorf("%d servers, want %d", got, want)
			}
			for _, d := range res.Diagnostics {
				if len(d.Message) > 2000 {
					t.Fatalf("a %d-byte message: %.200s…", len(d.Message), d.Message)
				}
			}
		})
	}
}

// BenchmarkConfigMapsDefiningOneName shows conflict handling near-linear in
// the number k of ConfigMaps defining one name: compare k and 4k.
func BenchmarkConfigMapsDefiningOneName(b *testing.B) {
	for _, k := range []int{2000, 8000} {
		cms := claimingConfigMaps(k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
			}
		})
	}
}

// oneServerShapes writes the c-th one-server document in each shape a
// ConfigMap may hold.
var oneServerShapes = map[string]func(c int) string{
	"upstream": func(c int) string {
		return upstreamDoc(testServer{Name: fmt.Sprintf("io.example.team%d/server", c), ID: fmt.Sprint(c),
			URL: fmt.Sprintf("https://mcp.example.com/team%d/server", c), Tags: []string{"db"}})
	},
	"list": func(c int) string {
		return fmt.Sprintf(`{"servers":[{"name":"server-%d","image":"ghcr.io/example/team%d:1.0","description":"Team %d's server","tags":["db"]}]}`, c, c, c)
	},
	"legacy": func(c int) string {
		return fmt.Sprintf(`{"version":"1.0.0","last_updated":"2025-01-01T00:00:00Z","servers":{"server-%d":{"image":"ghcr.io/example/team%d:1.0","description":"Team %d's server","tier":"Community","status":"Active","transport":"stdio","tools":["query"],"tags":["db"]}}}`, c, c, c)
	},
}

// oneServerConfigMaps is n ConfigMaps of one small server each, and the
// bytes of their registry data.
func oneServerConfigMaps(n int, doc func(int) string) ([]*corev1.ConfigMap, int) {
	cms := make([]*corev1.ConfigMap, n)
	size := 0
	for c := range cms {
		d := doc(c)
		size += len(d)
		cms[c] = configMap(fmt.Sprintf("team-%05d", c), regLabels, d)
	}
	return cms, size
}

func heapAfterGC() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestRetainedMemoryPerByte: what a merge result keeps alive is proportional
// to the bytes merged, not to the number of documents. Each parsed document
// used to keep ~74 KB of fixed blocks, so 10,000 one-server ConfigMaps
// (3.7 MB of data) kept 740 MB. Merged repeatedly as an operator would, the
// live result must stay within 3× the data, for every document shape.
func TestRetainedMemoryPerByte(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a few hundred MB with the old code")
	}
	const n = 10000
	for _, shape := range []string{"upstream", "list", "legacy"} {
		t.Run(shape, func(t *testing.T) {
			cms, size := oneServerConfigMaps(n, oneServerShapes[shape])
			in := testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now}
			base := heapAfterGC()
			var res Result
			for range 3 {
				res = mergeIn(in)
			}
			retained := int64(heapAfterGC()) - int64(base)
			// The ConfigMaps were in the baseline: keep them out of the figure.
			runtime.KeepAlive(cms)
			if res.Registry == nil || len(res.Registry.Servers) != n {
				t.Fatalf("not %d servers: %v", n, res.Diagnostics)
			}
			// A converted entry is an upstream entry, larger than the
			// legacy one it came from: the bound is 3× the larger of the
			// data read and the document written.
			written := len(res.Document())
			data := size
			if shape != "upstream" {
				data = max(size, written)
			}
			t.Logf("%d one-server ConfigMaps (%s), %d bytes read, %d written: the result keeps %d bytes (%.2f× the bytes read, %.2f× those written)",
				n, shape, size, written, retained, float64(retained)/float64(size), float64(retained)/float64(written))
			if retained > 3*int64(data) {
				t.Errorf("the result keeps %d bytes, over 3× the %d bytes of data", retained, data)
			}
			runtime.KeepAlive(res)
		})
	}
}

// BenchmarkOneServerConfigMaps shows the memory of a merge proportional to
// the bytes, not to the documents: compare B/op of n and 4n one-server
// ConfigMaps (it was ~74 KB per document).
func BenchmarkOneServerConfigMaps(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		cms, size := oneServerConfigMaps(n, oneServerShapes["upstream"])
		in := testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				mergeIn(in)
			}
		})
	}
}

// nullConfigMaps is k ConfigMaps of about 1 MiB of null entries each.
func nullConfigMaps(k, perCM int) []*corev1.ConfigMap {
	doc := `{"data":{"servers":[` + strings.Repeat("null,", perCM-1) + `null]}}`
	cms := make([]*corev1.ConfigMap, k)
	for c := range cms {
		cms[c] = configMap(fmt.Sprintf("nulls-%d", c), regLabels, doc)
	}
	return cms
}

// TestNullEntriesGiveBoundedDiagnostics is the regression test for
// diagnostic amplification: ten 1 MiB ConfigMaps of null entries gave 3.5
// million diagnostics in 12 s. Each ConfigMap now gives at most
// model.MaxPerObjectReason InvalidEntry diagnostics and one summary whose
// count makes up the rest, within a generous deadline.
func TestNullEntriesGiveBoundedDiagnostics(t *testing.T) {
	const k, perCM = 10, 200000
	res := mergeWithin(t, testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: nullConfigMaps(k, perCM), LastUpdated: now}, 60*time.Second)
	perObject := map[string]int{}
	counted := 0
	for _, d := range res.Diagnostics.WithReason(model.ReasonInvalidEntry) {
		perObject[d.Object.Name]++
		counted += d.Count()
	}
	if counted != k*perCM {
		t.Errorf("the InvalidEntry diagnostics count %d dropped entries, want %d", counted, k*perCM)
	}
	for name, n := range perObject {
		if n > model.MaxPerObjectReason+1 {
			t.Errorf("%d InvalidEntry diagnostics about %s, want at most %d", n, name, model.MaxPerObjectReason+1)
		}
	}
	if len(res.Diagnostics) > k*(model.MaxPerObjectReason+1)+10 {
		t.Errorf("%d diagnostics", len(res.Diagnostics))
	}
}

// BenchmarkNullEntries shows the cost of bad entries linear in their number
// with a bounded number of diagnostics: compare n and 4n null entries.
func BenchmarkNullEntries(b *testing.B) {
	for _, n := range []int{50000, 200000} {
		cms := nullConfigMaps(1, n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
			}
		})
	}
}

// TestPartialSyncFailureNamesFailedConfigMaps: the summary names every
// failed ConfigMap it has room for, each whole and escaped, sorted, and
// counts the rest; it was one value cut at model.MaxEchoRunes, so five
// ConfigMaps of ordinary names already lost the last ones.
func TestPartialSyncFailureNamesFailedConfigMaps(t *testing.T) {
	long := func(i int) string { return fmt.Sprintf("%03d-%s", i, strings.Repeat("x", 249)) } // 253 characters
	for _, tt := range []struct {
		name   string
		failed []string
		listed int // names the message lists; the others are counted
	}{
		{"short names", []string{"team-a", "team-b", "team-c", "team-d", "team-e", "team-f", "team-g", "team-h", "team-i", "team-j", "team-k", "team-l"}, 12},
		{"long names", []string{long(0), long(1), long(2), long(3), long(4), long(5), long(6), long(7), long(8), long(9), long(10), long(11), long(12), long(13), long(14), long(15), long(16)}, 14},
		{"control characters", []string{"bad\nname", "other"}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cms := []*corev1.ConfigMap{configMap("good", regLabels, upstreamDoc(testServer{Name: "io.example/good", URL: "https://mcp.example.com/good"}))}
			for _, n := range tt.failed {
				cms = append(cms, configMap(n, regLabels, "{"))
			}
			res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
			var msg string
			for _, d := range res.Diagnostics {
				if d.Reason == model.ReasonPartialSyncFailure {
					msg = d.Message
				}
			}
			if len(msg) > model.MaxMessageBytes {
				t.Errorf("message of %d bytes", len(msg))
			}
			prev := -1
			for i, n := range tt.failed {
				at := strings.Index(msg, model.Echo(n)+" (InvalidJSON)")
				if (i < tt.listed) != (at >= 0) {
					t.Errorf("%q listed: %v, want %v\n%s", n, at >= 0, i < tt.listed, msg)
				}
				if at >= 0 && at < prev {
					t.Errorf("%q out of order\n%s", n, msg)
				}
				prev = at
			}
			if more := len(tt.failed) - tt.listed; more > 0 && !strings.HasSuffix(msg, fmt.Sprintf(" and %d more", more)) {
				t.Errorf("the message does not count the %d not listed:\n%s", more, msg)
			}
			if strings.Contains(msg, "\n") || strings.Contains(msg, "…(") {
				t.Errorf("a name is cut or not escaped:\n%s", msg)
			}
		})
	}
}

// TestSelectorLooksValuesUp is the regression test for selectors of many
// values: apimachinery's requirement scans its value list for every
// ConfigMap matched, so 32,000 ConfigMaps against an In and a NotIn of
// 32,000 values each took 2.3 s (quadratic). The selector Selector returns
// looks values up in a set (labelsel.Fast leaves it as it is), and answers
// as apimachinery's does.
func TestSelectorLooksValuesUp(t *testing.T) {
	const n = 1000
	in := make([]string, n)
	out := make([]string, n)
	for i := range in {
		in[i] = fmt.Sprintf("t%d", 2*i)
		out[i] = fmt.Sprintf("t%d", 3*i)
	}
	ls := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: "team", Operator: metav1.LabelSelectorOpIn, Values: in},
		{Key: "team", Operator: metav1.LabelSelectorOpNotIn, Values: out},
	}}
	sel, err := Selector(ls)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.TypeOf(labelsel.Fast(sel)) != reflect.TypeOf(sel) {
		t.Fatalf("Selector returned %T, which scans the values of each requirement", sel)
	}
	slow, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 * n {
		set := labels.Set{"team": fmt.Sprintf("t%d", i)}
		if got, want := sel.Matches(set), slow.Matches(set); got != want {
			t.Fatalf("team=t%d: Matches = %v, want %v", i, got, want)
		}
	}
}

// BenchmarkSelectorManyValues matches ConfigMaps against a selector of as
// many values: linear in n.
func BenchmarkSelectorManyValues(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			vs := make([]string, n)
			for i := range vs {
				vs[i] = fmt.Sprintf("t%d", i)
			}
			sel, err := Selector(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "team", Operator: metav1.LabelSelectorOpIn, Values: vs}}})
			if err != nil {
				b.Fatal(err)
			}
			sets := make([]labels.Set, n)
			for i := range sets {
				sets[i] = labels.Set{"team": vs[n-1-i]}
			}
			b.ResetTimer()
			for range b.N {
				for _, s := range sets {
					if !sel.Matches(s) {
						b.Fatal("not matched")
					}
				}
			}
		})
	}
}
