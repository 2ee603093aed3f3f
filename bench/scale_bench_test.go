package bench

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// The merge benchmarks of the README's Performance section: for each data set,
// (a) mcpreg, (b) ToolHive's way and (c) json.Valid over the same bytes.
// Besides ns/op, MB/s, B/op and allocs/op each reports:
//
//   - alloc/input: bytes allocated by one run ÷ bytes of input. With the
//     garbage collector off nothing is freed, so the heap then peaks at
//     exactly its size before the run plus these bytes: the ratio bounds the
//     run's peak memory beyond the input it reads. The README aims at 3 at most.
//   - retained/input: live heap after the run and a collection, with the
//     result still referenced, ÷ bytes of input — what the result itself
//     keeps, a lower bound of the peak.
//
// Run them side by side, interleaved, with ratios:
//
//	go test -run TestScaleReport -scale.report -count=1 .
//
// or as ordinary benchmarks:
//
//	go test -run XXX -bench 'ScaleMerge/^100k$' -benchtime=3x -count=3 .

var (
	scaleReport = flag.Bool("scale.report", false, "run the side-by-side merge report (TestScaleReport)")
	scaleSet    = flag.String("scale.set", "100k", "data set of TestScaleReport: 100k, 100k-indented or 10k")
	scaleRounds = flag.Int("scale.rounds", 5, "rounds of TestScaleReport; each round runs (a), (b) and (c) scale.runs times")
	scaleRepeat = flag.Int("scale.runs", 2, "runs of each pipeline in a round of TestScaleReport")
)

// scaleRun is one of the three pipelines; it returns what must stay
// referenced as its result.
type scaleRun struct {
	name string
	run  func(*scaleData) (any, error)
}

var scaleRuns = []scaleRun{
	{"mcpreg", func(d *scaleData) (any, error) {
		res, doc, err := mcpregMerge(d)
		return []any{res, doc}, err
	}},
	{"toolhive", func(d *scaleData) (any, error) { return toolhiveMerge(d) }},
	{"json.Valid", func(d *scaleData) (any, error) { return nil, validFloor(d) }},
	{"goccy.Valid", func(d *scaleData) (any, error) { return nil, validFast(d) }},
	// (a) with the ConfigMaps read on GOMAXPROCS goroutines
	// (Options.Parallel, as mcpreg merge reads them): on more than one core,
	// against the one-core floors.
	{"mcpreg.parallel", func(d *scaleData) (any, error) {
		res, doc, err := mcpregMergeWith(d, readParallel)
		return []any{res, doc}, err
	}},
}

func BenchmarkScaleMerge(b *testing.B) {
	for _, set := range []string{"100k", "100k-indented", "10k"} {
		b.Run(set, func(b *testing.B) {
			d := scaleSets[set]()
			for _, r := range scaleRuns {
				b.Run(r.name, func(b *testing.B) {
					b.SetBytes(d.size)
					b.ReportAllocs()
					var before, after runtime.MemStats
					runtime.ReadMemStats(&before)
					cpu0 := cpuTime()
					for b.Loop() {
						if _, err := r.run(d); err != nil {
							b.Fatal(err)
						}
					}
					cpu := cpuTime() - cpu0
					runtime.ReadMemStats(&after)
					// CPU time, all threads: the steadier figure on a
					// shared machine.
					b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
					b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(d.size), "alloc/input")
					b.StopTimer()
					b.ReportMetric(retained(d, r)/float64(d.size), "retained/input")
				})
			}
		})
	}
}

// retained runs r once and returns the live heap its result holds.
func retained(d *scaleData, r scaleRun) float64 {
	// Two collections each time: one may leave garbage of the run before
	// (objects with finalizers, the sweep of the last cycle) for the next,
	// which would be counted here as freed.
	runtime.GC()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _ := r.run(d)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(out)
	return float64(int64(after.HeapAlloc) - int64(before.HeapAlloc))
}

// peak runs r once with the garbage collector off and returns how much the
// heap grew: the run's peak memory beyond what was live before it (nothing
// is freed, so the heap is largest at the end).
func peak(d *scaleData, r scaleRun) float64 {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(old)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, _ := r.run(d)
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(out)
	return float64(after.HeapAlloc - before.HeapAlloc)
}

// TestScaleReport runs (a), (b) and (c) interleaved, scale.rounds times, and
// prints the medians and the ratios as the markdown table of RESULTS.md.
// Each round runs each pipeline scale.runs times and measures wall time, the
// process's CPU time (all threads, the garbage collector's included: on a
// shared machine it is the steadier figure) and allocation.
func TestScaleReport(t *testing.T) {
	if !*scaleReport {
		t.Skip("run with -scale.report")
	}
	mk, ok := scaleSets[*scaleSet]
	if !ok {
		t.Fatalf("no data set %q", *scaleSet)
	}
	d := mk()
	type row struct {
		ns, cpu        []float64
		user, sys      []float64
		faults         []float64
		bytes, allocs  float64
		peak, retained float64
	}
	rows := make([]row, len(scaleRuns))
	for i, r := range scaleRuns { // warm up, and the memory figures
		if _, err := r.run(d); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		rows[i].peak = peak(d, r)
		rows[i].retained = retained(d, r)
	}
	n := *scaleRepeat
	for range *scaleRounds {
		for i, r := range scaleRuns {
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			u0, wall0 := selfUsage(), time.Now()
			for range n {
				if _, err := r.run(d); err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
			}
			wall, u := time.Since(wall0), selfUsage().sub(u0)
			runtime.ReadMemStats(&m1)
			rows[i].ns = append(rows[i].ns, float64(wall)/float64(n))
			rows[i].cpu = append(rows[i].cpu, float64(u.user+u.sys)/float64(n))
			rows[i].user = append(rows[i].user, float64(u.user)/float64(n))
			rows[i].sys = append(rows[i].sys, float64(u.sys)/float64(n))
			rows[i].faults = append(rows[i].faults, float64(u.faults)/float64(n))
			rows[i].bytes = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
			rows[i].allocs = float64(m1.Mallocs-m0.Mallocs) / float64(n)
		}
	}
	med := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	a, bb, c, dd := med(rows[0].ns), med(rows[1].ns), med(rows[2].ns), med(rows[3].ns)
	ac, bc, cc, dc := med(rows[0].cpu), med(rows[1].cpu), med(rows[2].cpu), med(rows[3].cpu)
	var sb strings.Builder
	fmt.Fprintf(&sb, "data set %s: %d ConfigMaps, %d servers, %.1f MB of input; median of %d interleaved rounds of %d runs, %s, GOMAXPROCS=%d\n\n",
		*scaleSet, len(d.cms), d.servers, float64(d.size)/1e6, *scaleRounds, n, runtime.Version(), runtime.GOMAXPROCS(0))
	sb.WriteString("| pipeline | time/op | CPU/op | MB/s | B/op | allocs/op | peak/input | retained/input |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, r := range scaleRuns {
		ns := med(rows[i].ns)
		fmt.Fprintf(&sb, "| %s | %s | %s | %.0f | %.0f | %.0f | %.2f | %.2f |\n", r.name,
			time.Duration(ns).Round(time.Millisecond), time.Duration(med(rows[i].cpu)).Round(time.Millisecond),
			float64(d.size)/ns*1e3, rows[i].bytes, rows[i].allocs,
			rows[i].peak/float64(d.size), rows[i].retained/float64(d.size))
	}
	fmt.Fprintf(&sb, "\nratios of time/op: a/b = %.2f (mcpreg %.1f× faster than ToolHive's way), a/c = %.2f (of json.Valid), a/d = %.2f (of goccy/go-json's Valid)\n", a/bb, bb/a, a/c, a/dd)
	fmt.Fprintf(&sb, "ratios of CPU/op:  a/b = %.2f (%.1f×), a/c = %.2f, a/d = %.2f\n", ac/bc, bc/ac, ac/cc, ac/dc)
	// The system time is mostly page faults: the kernel mapping memory the
	// run touches for the first time, such as the output document when the
	// runtime places it in pages it had given back. How often that happens
	// depends on the runtime and the machine, not on the merge's own work.
	fmt.Fprintf(&sb, "CPU/op split: mcpreg user %s + system %s (%.0f page faults/op), json.Valid user %s + system %s (%.0f); a/c of user CPU = %.2f\n",
		time.Duration(med(rows[0].user)).Round(time.Millisecond), time.Duration(med(rows[0].sys)).Round(time.Millisecond), med(rows[0].faults),
		time.Duration(med(rows[2].user)).Round(time.Millisecond), time.Duration(med(rows[2].sys)).Round(time.Millisecond), med(rows[2].faults),
		med(rows[0].user)/med(rows[2].user))
	p, pc := med(rows[4].ns), med(rows[4].cpu)
	fmt.Fprintf(&sb, "mcpreg.parallel (%d cores) against the one-core floors: time/op a/c = %.2f, a/d = %.2f; CPU/op a/c = %.2f, a/d = %.2f\n",
		runtime.GOMAXPROCS(0), p/c, p/dd, pc/cc, pc/dc)
	t.Log("\n" + sb.String())
}
