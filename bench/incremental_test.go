package bench

import (
	"flag"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/merge"
)

// The incremental merge and the parallel reading at scale: an operator
// re-merges on every ConfigMap event, and with merge.Incremental that costs
// the changed ConfigMap's share of a merge instead of a full one. The
// report runs, interleaved in one process:
//
//   - merge: merge.Merge of the data set, ConfigMaps read one after another;
//   - parallel: the same with Options.Parallel reading on GOMAXPROCS
//     goroutines (what mcpreg merge does);
//   - incremental: one ConfigMap changed (one server's description edited,
//     then back, each ConfigMap in turn), then Incremental.Result.
//
//	go test -run TestIncrementalReport -incr.report -count=1 .
//
// or as ordinary benchmarks:
//
//	go test -run XXX -bench 'Incremental/100k' -benchtime=5x .

var (
	incrReport = flag.Bool("incr.report", false, "run the incremental and parallel merge report (TestIncrementalReport)")
	incrSet    = flag.String("incr.set", "100k", "data set of TestIncrementalReport: 100k or 10k")
	incrRounds = flag.Int("incr.rounds", 5, "rounds of TestIncrementalReport")
	incrEdits  = flag.Int("incr.edits", 20, "incremental merges per round of TestIncrementalReport")
)

// incremental is the data of the incremental runs: the merge source of the
// data set's MCPRegistry entry, and for each ConfigMap an edited copy.
type incremental struct {
	d       *scaleData
	src     merge.Source
	opts    merge.Options
	changed []*corev1.ConfigMap
	inc     *merge.Incremental
	next    int
}

func newIncremental(tb testing.TB, d *scaleData) *incremental {
	sources, _ := merge.SourcesFor(d.registry)
	if len(sources) != 1 {
		tb.Fatalf("want one source, got %d", len(sources))
	}
	x := &incremental{d: d, src: sources[0], opts: merge.Options{LastUpdated: scaleNow}}
	for _, cm := range d.cms {
		c := cm.DeepCopy()
		data := c.Data["registry.json"]
		const key = `"description":"`
		i := strings.Index(data, key)
		if i < 0 {
			tb.Fatalf("%s: no description", cm.Name)
		}
		c.Data["registry.json"] = data[:i+len(key)] + "Edited: " + data[i+len(key):]
		c.ResourceVersion = "2"
		x.changed = append(x.changed, c)
	}
	x.inc = merge.NewIncremental(x.src, x.opts)
	for _, cm := range d.cms {
		x.inc.Update(cm)
	}
	x.inc.Result()
	return x
}

// edit changes the next ConfigMap (to its edited copy, or back) and merges.
func (x *incremental) edit() merge.Result {
	i := x.next % len(x.d.cms)
	cm := x.changed[i]
	if (x.next/len(x.d.cms))%2 == 1 {
		cm = x.d.cms[i]
	}
	x.next++
	x.inc.Update(cm)
	return x.inc.Result()
}

// snapshot is the snapshot the Incremental holds now.
func (x *incremental) snapshot() []*corev1.ConfigMap {
	out := slices.Clone(x.d.cms)
	for i := range x.next % (2 * len(out)) {
		j := i % len(out)
		if i < len(out) {
			out[j] = x.changed[j]
		} else {
			out[j] = x.d.cms[j]
		}
	}
	return out
}

// readParallel is mcpreg merge's Options.Parallel.
func readParallel(n int, read func(i int)) {
	workers := min(n, runtime.GOMAXPROCS(0))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				read(i)
			}
		})
	}
	wg.Wait()
}

func (x *incremental) full(parallel bool) merge.Result {
	opts := x.opts
	if parallel {
		opts.Parallel = readParallel
	}
	return merge.Merge(x.src, x.d.cms, opts)
}

// TestIncrementalScale: at scale, incremental results after edits, a
// relabel, a delete and an add are those of a full merge, and parallel
// reading gives the same result.
func TestIncrementalScale(t *testing.T) {
	set := "10k"
	if *incrReport {
		set = *incrSet
	}
	d := scaleSets[set]()
	x := newIncremental(t, d)
	check := func(what string, got merge.Result, snapshot []*corev1.ConfigMap) {
		t.Helper()
		want := merge.Merge(x.src, snapshot, x.opts)
		if got.Hash != want.Hash || string(got.Document()) != string(want.Document()) ||
			!slices.Equal(got.Diagnostics, want.Diagnostics) || !slices.Equal(got.Filtered, want.Filtered) || !slices.Equal(got.Sources, want.Sources) {
			t.Fatalf("%s: the incremental result differs from a full merge", what)
		}
	}
	if a, b := x.full(false), x.full(true); a.Hash != b.Hash || string(a.Document()) != string(b.Document()) || !slices.Equal(a.Diagnostics, b.Diagnostics) {
		t.Fatal("parallel reading changed the result")
	}
	for range 3 {
		res := x.edit()
		check("edit", res, x.snapshot())
	}
	snap := x.snapshot()
	// Relabel the first ConfigMap out of the selection: it defines names
	// its neighbour defines too, which are then no longer in conflict.
	out := snap[0].DeepCopy()
	out.Labels, out.ResourceVersion = nil, "3"
	x.inc.Update(out)
	snap[0] = out
	check("relabel", x.inc.Result(), snap)
	x.inc.Remove(snap[1].Namespace, snap[1].Name)
	check("delete", x.inc.Result(), slices.Delete(slices.Clone(snap), 1, 2))
	x.inc.Update(snap[1])
	check("add", x.inc.Result(), snap)
}

func BenchmarkIncremental(b *testing.B) {
	for _, set := range []string{"100k", "10k"} {
		b.Run(set, func(b *testing.B) {
			x := newIncremental(b, scaleSets[set]())
			b.Run("merge", func(b *testing.B) {
				for b.Loop() {
					x.full(false)
				}
			})
			b.Run("parallel", func(b *testing.B) {
				for b.Loop() {
					x.full(true)
				}
			})
			b.Run("incremental", func(b *testing.B) {
				for b.Loop() {
					x.edit()
				}
			})
		})
	}
}

// TestIncrementalReport prints the three runs side by side with their
// ratios, measured in one process in interleaved rounds.
func TestIncrementalReport(t *testing.T) {
	if !*incrReport {
		t.Skip("run with -incr.report")
	}
	d := scaleSets[*incrSet]()
	x := newIncremental(t, d)
	runs := []struct {
		name string
		n    int
		run  func()
	}{
		{"merge", 1, func() { x.full(false) }},
		{"parallel", 1, func() { x.full(true) }},
		{"incremental", *incrEdits, func() { x.edit() }},
	}
	wall := make([][]float64, len(runs))
	cpu := make([][]float64, len(runs))
	for _, r := range runs { // warm up
		r.run()
	}
	for range *incrRounds {
		for i, r := range runs {
			runtime.GC()
			cpu0, wall0 := cpuTime(), time.Now()
			for range r.n {
				r.run()
			}
			wall[i] = append(wall[i], float64(time.Since(wall0))/float64(r.n))
			cpu[i] = append(cpu[i], float64(cpuTime()-cpu0)/float64(r.n))
		}
	}
	med := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	best := func(xs []float64) float64 { return slices.Min(xs) }
	var sb strings.Builder
	fmt.Fprintf(&sb, "data set %s: %d ConfigMaps, %d servers, %.1f MB; median of %d interleaved rounds, %s, GOMAXPROCS=%d, NumCPU=%d\n\n",
		*incrSet, len(d.cms), d.servers, float64(d.size)/1e6, *incrRounds, runtime.Version(), runtime.GOMAXPROCS(0), runtime.NumCPU())
	sb.WriteString("| run | time/op | CPU/op | best time/op |\n|---|---:|---:|---:|\n")
	for i, r := range runs {
		fmt.Fprintf(&sb, "| %s | %s | %s | %s |\n", r.name, time.Duration(med(wall[i])).Round(10*time.Microsecond),
			time.Duration(med(cpu[i])).Round(10*time.Microsecond), time.Duration(best(wall[i])).Round(10*time.Microsecond))
	}
	m, p, inc := med(wall[0]), med(wall[1]), med(wall[2])
	fmt.Fprintf(&sb, "\nincremental/merge = %.3f of the time (%.3f of the CPU); merge/parallel = %.2f× speed-up (CPU %.2f× the sequential)\n",
		inc/m, med(cpu[2])/med(cpu[0]), m/p, med(cpu[1])/med(cpu[0]))
	fmt.Fprintf(&sb, "best of the rounds: incremental/merge = %.3f; merge/parallel = %.2f× speed-up\n",
		best(wall[2])/best(wall[0]), best(wall[0])/best(wall[1]))
	t.Log("\n" + sb.String())
}
