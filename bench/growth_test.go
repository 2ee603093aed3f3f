package bench

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/model"
)

// How the merge grows with the data: the same kind of ConfigMaps as the
// scale benchmark (1,000 servers each, 1% of the names in conflict, the name
// filter), from 1,000 to 300,000 servers, and what its result keeps alive
// for every document shape, from one large ConfigMap to 10,000 small ones.
//
//	go test -run TestScaleGrowth -scale.growth -scale.rounds=5 -count=1 -v .
//	go test -run TestRetainedPerShape -count=1 -v .

var scaleGrowth = flag.Bool("scale.growth", false, "run the growth report (TestScaleGrowth)")

// growthSizes are the numbers of servers of TestScaleGrowth.
var growthSizes = []int{1_000, 3_000, 10_000, 30_000, 100_000, 300_000}

// growthOptions is the data set of n servers: ConfigMaps of 1,000 servers,
// as in gen.DefaultScale.
func growthOptions(n int) gen.ScaleOptions {
	return gen.ScaleOptions{Seed: 3, Files: max(1, n/1000), Servers: n, Shared: 5}
}

// TestScaleGrowth merges each size interleaved, scale.rounds times, and
// prints the medians and the exponent k of time ∝ servers^k fitted by least
// squares over the logarithms (1 is linear growth).
func TestScaleGrowth(t *testing.T) {
	if !*scaleGrowth {
		t.Skip("run with -scale.growth")
	}
	sets := make([]*scaleData, len(growthSizes))
	for i, n := range growthSizes {
		sets[i] = newScaleData(growthOptions(n))
	}
	type row struct {
		ns, cpu, valid []float64
		bytes          float64
		retained       float64
	}
	rows := make([]row, len(sets))
	for i, d := range sets { // warm up, and the memory figure
		if _, _, err := mcpregMerge(d); err != nil {
			t.Fatalf("%d servers: %v", d.servers, err)
		}
		rows[i].retained = retained(d, scaleRuns[0])
	}
	for range *scaleRounds {
		for i, d := range sets {
			// At least as many servers per measurement as the largest
			// size but one, so that small sizes are not timer noise.
			runs := max(1, 100_000/d.servers)
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			cpu0, wall0 := cpuTime(), time.Now()
			for range runs {
				if _, _, err := mcpregMerge(d); err != nil {
					t.Fatal(err)
				}
			}
			wall, cpu := time.Since(wall0), cpuTime()-cpu0
			runtime.ReadMemStats(&m1)
			rows[i].ns = append(rows[i].ns, float64(wall)/float64(runs))
			rows[i].cpu = append(rows[i].cpu, float64(cpu)/float64(runs))
			rows[i].bytes = float64(m1.TotalAlloc-m0.TotalAlloc) / float64(runs)
			wall0 = time.Now()
			for range runs {
				if err := validFloor(d); err != nil {
					t.Fatal(err)
				}
			}
			rows[i].valid = append(rows[i].valid, float64(time.Since(wall0))/float64(runs))
		}
	}
	med := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "median of %d interleaved rounds, %s, GOMAXPROCS=%d\n\n", *scaleRounds, runtime.Version(), runtime.GOMAXPROCS(0))
	sb.WriteString("| servers | ConfigMaps | MB | time/op | per server | CPU/op | a/c (json.Valid) | alloc/input | retained/input |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	xs, wallY, cpuY := make([]float64, len(sets)), make([]float64, len(sets)), make([]float64, len(sets))
	for i, d := range sets {
		ns, cpu := med(rows[i].ns), med(rows[i].cpu)
		xs[i], wallY[i], cpuY[i] = float64(d.servers), ns, cpu
		fmt.Fprintf(&sb, "| %d | %d | %.1f | %s | %.2f µs | %s | %.2f | %.2f | %.2f |\n", d.servers, len(d.cms), float64(d.size)/1e6,
			time.Duration(ns).Round(10*time.Microsecond), ns/float64(d.servers)/1e3, time.Duration(cpu).Round(10*time.Microsecond),
			ns/med(rows[i].valid), rows[i].bytes/float64(d.size), rows[i].retained/float64(d.size))
	}
	fmt.Fprintf(&sb, "\nexponent of time/op ∝ servers^k (least squares over log-log): k = %.3f (wall), %.3f (CPU)\n",
		growthExponent(xs, wallY), growthExponent(xs, cpuY))
	t.Log("\n" + sb.String())
}

// growthExponent fits log y = k log x + c by least squares and returns k.
func growthExponent(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += math.Log(x[i])
		my += math.Log(y[i])
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx float64
	for i := range x {
		dx := math.Log(x[i]) - mx
		sxy += dx * (math.Log(y[i]) - my)
		sxx += dx * dx
	}
	return sxy / sxx
}

func TestGrowthExponent(t *testing.T) {
	x := []float64{1e3, 1e4, 1e5}
	for _, k := range []float64{1, 1.05, 2} {
		y := make([]float64, len(x))
		for i := range x {
			y[i] = 7 * math.Pow(x[i], k)
		}
		if got := growthExponent(x, y); math.Abs(got-k) > 1e-9 {
			t.Errorf("exponent of x^%v: %v", k, got)
		}
	}
}

// shapeDocs are the registry documents of n servers in one document shape,
// split into ConfigMaps of per servers each.
type shapeDocs func(n, per int) []string

// retainedShapes are the three shapes a ConfigMap may hold: the upstream
// document, ToolHive's list shorthand and ToolHive's legacy catalog (its
// container and remote servers; the groups' own servers ride with the first
// ConfigMap).
var retainedShapes = map[string]shapeDocs{
	"upstream": func(n, per int) []string {
		var docs []string
		for _, f := range gen.UpstreamFiles(gen.ScaleOptions{Seed: 4, Files: n / per, Servers: n}) {
			docs = append(docs, string(f.Data))
		}
		return docs
	},
	"toolhive-list": func(n, per int) []string {
		var list struct {
			Servers []json.RawMessage `json:"servers"`
		}
		mustUnmarshal(gen.ToolHiveList(gen.CatalogOptions{Seed: 4, Containers: n * 2 / 3, Remotes: n - n*2/3}), &list)
		var docs []string
		for c := range slices.Chunk(list.Servers, per) {
			b, _ := json.Marshal(map[string]any{"servers": c})
			docs = append(docs, string(b))
		}
		return docs
	},
	"toolhive-legacy": func(n, per int) []string {
		var cat map[string]json.RawMessage
		mustUnmarshal(gen.ToolHiveCatalog(gen.CatalogOptions{Seed: 4, Containers: n * 2 / 3, Remotes: n - n*2/3 - 2, GroupOnly: 2}), &cat)
		type kv struct {
			key, field string
			value      json.RawMessage
		}
		var all []kv
		for _, field := range []string{"servers", "remote_servers"} {
			var m map[string]json.RawMessage
			mustUnmarshal(cat[field], &m)
			for _, k := range sortedKeysOf(m) {
				all = append(all, kv{k, field, m[k]})
			}
		}
		var docs []string
		for c := range slices.Chunk(all, per) {
			doc := map[string]any{"$schema": cat["$schema"], "version": cat["version"], "last_updated": cat["last_updated"]}
			for _, e := range c {
				m, _ := doc[e.field].(map[string]json.RawMessage)
				if m == nil {
					m = map[string]json.RawMessage{}
					doc[e.field] = m
				}
				m[e.key] = e.value
			}
			if len(docs) == 0 {
				doc["groups"] = cat["groups"]
			}
			b, _ := json.Marshal(doc)
			docs = append(docs, string(b))
		}
		return docs
	},
}

func mustUnmarshal(b []byte, v any) {
	if err := json.Unmarshal(b, v); err != nil {
		panic(err)
	}
}

func sortedKeysOf[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestRetainedPerShape: what a merge result keeps alive is proportional to
// the bytes merged, for every document shape and whether the servers come in
// 10 ConfigMaps of 1,000 or 10,000 ConfigMaps of one: at most 3× the larger
// of the bytes read and the bytes written (a converted ToolHive entry is
// larger as an upstream one).
func TestRetainedPerShape(t *testing.T) {
	if testing.Short() {
		t.Skip("merges 10,000 servers six times")
	}
	const n = 10_000
	for _, shape := range []string{"upstream", "toolhive-list", "toolhive-legacy"} {
		for _, per := range []int{1000, 1} {
			t.Run(fmt.Sprintf("%s/%d-per-ConfigMap", shape, per), func(t *testing.T) {
				docs := retainedShapes[shape](n, per)
				d := &scaleData{registry: scaleRegistry()}
				for i, doc := range docs {
					d.cms = append(d.cms, &corev1.ConfigMap{
						ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("team-%05d", i), Namespace: scaleNamespace, Labels: scaleLabels, ResourceVersion: "1"},
						Data:       map[string]string{model.DefaultRegistryKey: doc},
					})
					d.size += int64(len(doc))
				}
				res, doc, err := mcpregMerge(d)
				if err != nil {
					t.Fatal(err)
				}
				if got := len(res.Registry.Servers) + len(res.Filtered); got < n*9/10 {
					t.Fatalf("%d servers merged of %d: %v", got, n, res.Diagnostics.WithSeverity(model.SeverityWarning))
				}
				kept := retained(d, scaleRuns[0])
				data := max(float64(d.size), float64(len(doc)))
				t.Logf("%d ConfigMaps, %d bytes read, %d written: the result keeps %.0f bytes (%.2f× read, %.2f× written)",
					len(d.cms), d.size, len(doc), kept, kept/float64(d.size), kept/float64(len(doc)))
				if kept > 3*data {
					t.Errorf("the result keeps %.0f bytes, over 3× the %.0f bytes of data", kept, data)
				}
			})
		}
	}
}
