package merge

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

// goroutines is an Options.Parallel that reads on one goroutine per
// ConfigMap, started in an order drawn from seed.
func goroutines(seed uint64) func(n int, read func(i int)) {
	return func(n int, read func(i int)) {
		order := rand.New(rand.NewPCG(seed, 11)).Perm(n)
		var wg sync.WaitGroup
		for _, i := range order {
			wg.Go(func() { read(i) })
		}
		wg.Wait()
	}
}

// sameResult fails t unless a and b agree byte for byte: document, hash,
// diagnostics, sources and filtered names.
func sameResult(t interface{ Fatalf(string, ...any) }, what string, a, b Result) {
	if string(a.Document()) != string(b.Document()) {
		t.Fatalf("%s: documents differ:\n%s\nvs\n%s", what, a.Document(), b.Document())
	}
	if a.Hash != b.Hash {
		t.Fatalf("%s: hashes differ: %s vs %s", what, a.Hash, b.Hash)
	}
	if !slices.Equal(a.Diagnostics, b.Diagnostics) {
		t.Fatalf("%s: diagnostics differ:\n%v\nvs\n%v", what, a.Diagnostics, b.Diagnostics)
	}
	if !slices.Equal(a.Sources, b.Sources) {
		t.Fatalf("%s: sources differ: %v vs %v", what, a.Sources, b.Sources)
	}
	if !slices.Equal(a.Filtered, b.Filtered) {
		t.Fatalf("%s: filtered differ: %v vs %v", what, a.Filtered, b.Filtered)
	}
}

// TestParallelReadProperty: reading the ConfigMaps concurrently, in any
// order, gives the same result as reading them one after another; so does
// a Parallel that reads nothing (the merge reads what it left).
func TestParallelReadProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gs := drawConfigMaps(t)
		strategy := rapid.SampledFrom([]Strategy{StrategyPrefix, StrategyPriority, StrategyError, StrategyVersions}).Draw(t, "strategy")
		src := Source{Namespace: testNS, Selector: regSelector, Strategy: strategy, Filter: drawFilter(t)}
		if rapid.Bool().Draw(t, "explicit") {
			src.Selector = nil // every ConfigMap given, in the order given
		}
		cms := cmsOf(gs)
		want := Merge(src, cms, Options{LastUpdated: now})
		got := Merge(src, cms, Options{LastUpdated: now, Parallel: goroutines(rapid.Uint64().Draw(t, "seed"))})
		sameResult(t, "parallel", want, got)
		lazy := Merge(src, cms, Options{LastUpdated: now, Parallel: func(int, func(int)) {}})
		sameResult(t, "Parallel reading nothing", want, lazy)
	})
}
