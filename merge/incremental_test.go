package merge

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"pgregory.net/rapid"
)

// TestIncrementalProperty: after every step of a random sequence of edits
// (add, change, delete, relabel, touch a ConfigMap; several edits between
// two merges sometimes), Incremental.Result equals Merge of the same
// snapshot byte for byte. The ConfigMaps are drawn as in
// TestMergeProperties: names conflicting between ConfigMaps, invalid and
// duplicate entries, shared remote URLs, broken, unlabelled, generated and
// foreign ConfigMaps.
func TestIncrementalProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		strategy := rapid.SampledFrom([]Strategy{StrategyPrefix, StrategyPriority, StrategyVersions, StrategyError}).Draw(t, "strategy")
		src := Source{Namespace: testNS, Selector: regSelector, Strategy: strategy, Filter: drawFilter(t)}
		switch rapid.IntRange(0, 5).Draw(t, "source") {
		case 0:
			src.Selector = nil // every ConfigMap given, in the order first given
		case 1:
			src.Selector, src.Name = nil, "cm-b" // one ConfigMap by name
		}
		opts := Options{LastUpdated: now}
		if rapid.Bool().Draw(t, "parallel") {
			opts.Parallel = goroutines(rapid.Uint64().Draw(t, "seed"))
		}
		inc := NewIncremental(src, opts)
		held := map[string]*corev1.ConfigMap{} // by name: all are in testNS or "elsewhere"
		var order []string
		steps := rapid.IntRange(1, 25).Draw(t, "steps")
		for step := range steps {
			names := slices.Sorted(maps.Keys(held))
			op := rapid.SampledFrom([]string{"upsert", "upsert", "delete", "relabel", "touch"}).Draw(t, fmt.Sprintf("op%d", step))
			switch {
			case op == "upsert" || len(names) == 0:
				gs := drawConfigMaps(t)
				if len(gs) == 0 {
					continue
				}
				cm := gs[rapid.IntRange(0, len(gs)-1).Draw(t, fmt.Sprintf("pick%d", step))].cm
				if old, ok := held[cm.Name]; ok && old.Namespace != cm.Namespace {
					inc.Remove(old.Namespace, old.Name)
					order = slices.DeleteFunc(order, func(n string) bool { return n == cm.Name })
					delete(held, cm.Name)
				}
				if _, ok := held[cm.Name]; !ok {
					order = append(order, cm.Name)
				}
				held[cm.Name] = cm
				inc.Update(cm)
			case op == "delete":
				name := rapid.SampledFrom(names).Draw(t, fmt.Sprintf("delete%d", step))
				inc.Remove(held[name].Namespace, name)
				delete(held, name)
				order = slices.DeleteFunc(order, func(n string) bool { return n == name })
			default:
				name := rapid.SampledFrom(names).Draw(t, fmt.Sprintf("edit%d", step))
				cm := held[name].DeepCopy()
				if op == "relabel" {
					cm.Labels = rapid.SampledFrom([]map[string]string{nil, regLabels, {"reg": "false"},
						{"reg": "true", GeneratedByLabel: GeneratedByValue}}).Draw(t, fmt.Sprintf("labels%d", step))
				}
				held[name] = cm
				inc.Update(cm)
			}
			if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("merge%d", step)) == 0 && step < steps-1 {
				continue // another edit before the next merge
			}
			snapshot := make([]*corev1.ConfigMap, len(order))
			for i, n := range order {
				snapshot[i] = held[n]
			}
			sameResult(t, fmt.Sprintf("step %d (%s)", step, op), Merge(src, snapshot, opts), inc.Result())
		}
	})
}

// TestIncrementalResourceVersion: a copy of a ConfigMap with the same UID
// and resourceVersion is taken as unchanged (what a cached client's List
// gives on every reconcile) and not read again; a new resourceVersion, or
// none, is read.
func TestIncrementalResourceVersion(t *testing.T) {
	server := func(name string) string { return upstreamDoc(testServer{Name: name, ID: name}) }
	cm := configMap("team-a", regLabels, server("io.ex/alpha"))
	cm.UID, cm.ResourceVersion = "0b5b2d5e-8a3c-4c6e-9a57-3f1d2c4b5a60", "10"
	src := Source{Namespace: testNS, Selector: regSelector}
	inc := NewIncremental(src, Options{LastUpdated: now})
	names := func() []string {
		var out []string
		for _, s := range inc.Result().Registry.Servers {
			out = append(out, s.Name())
		}
		return out
	}
	inc.Update(cm)
	if got := names(); !slices.Equal(got, []string{"io.ex/alpha"}) {
		t.Fatalf("first merge: %v", got)
	}
	// Not a real change: the API server would have given a new
	// resourceVersion. It shows the copy is not read.
	same := cm.DeepCopy()
	same.Data["registry.json"] = server("io.ex/beta")
	inc.Update(same)
	if got := names(); !slices.Equal(got, []string{"io.ex/alpha"}) {
		t.Fatalf("a copy with the same resourceVersion was read again: %v", got)
	}
	for _, rv := range []string{"11", ""} {
		next := same.DeepCopy()
		next.ResourceVersion = rv
		inc.Update(next)
		if got := names(); !slices.Equal(got, []string{"io.ex/beta"}) {
			t.Fatalf("resourceVersion %q: the change was not read: %v", rv, got)
		}
	}
}
