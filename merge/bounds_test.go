package merge

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
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
