package merge

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// benchConfigMaps builds n ConfigMaps of per upstream servers each; one
// server name in ten is shared by every ConfigMap, so the prefix rule runs.
func benchConfigMaps(n, per int) ([]*corev1.ConfigMap, int64) {
	var cms []*corev1.ConfigMap
	var size int64
	for c := range n {
		servers := make([]testServer, per)
		for i := range servers {
			name := fmt.Sprintf("io.github.team%d/server-%d", c, i)
			if i%10 == 0 {
				name = fmt.Sprintf("io.github.shared/server-%d", i)
			}
			servers[i] = testServer{Name: name, ID: fmt.Sprintf("%d-%d", c, i),
				URL: fmt.Sprintf("https://mcp.example.com/team%d/server-%d", c, i), Tags: []string{"db", "web"}}
		}
		doc := upstreamDoc(servers...)
		size += int64(len(doc))
		cms = append(cms, configMap(fmt.Sprintf("team-%03d", c), regLabels, doc))
	}
	return cms, size
}

// BenchmarkMerge merges 20 ConfigMaps of 500 servers (10,000 servers). The
// side-by-side comparison with ToolHive at 100,000 servers is in bench/.
func BenchmarkMerge(b *testing.B) {
	cms, size := benchConfigMaps(20, 500)
	for _, bc := range []struct {
		name   string
		filter *model.RegistryFilter
	}{
		{"nofilter", nil},
		{"filter", &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"*-7*"}}, Tags: &model.IncludeExclude{Include: []string{"db"}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			in := testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, Filter: bc.filter, LastUpdated: now}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				res := mergeIn(in)
				if res.Registry == nil || len(res.Registry.Servers) == 0 {
					b.Fatal(res.Diagnostics)
				}
			}
		})
	}
	// The floor the README's Performance section measures merges against:
	// json.Valid over the same bytes.
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, cm := range cms {
				if !json.Valid([]byte(cm.Data["registry.json"])) {
					b.Fatal("invalid fixture")
				}
			}
		}
	})
	b.Run("document", func(b *testing.B) {
		res := mergeIn(testInput{Namespace: testNS, Selector: regSelector, ConfigMaps: cms, LastUpdated: now})
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			_ = res.Document()
		}
	})
}

// BenchmarkAffectedBy maps one ConfigMap event over the sources of 1,000
// MCPRegistries, as a watch mapping does on every event.
func BenchmarkAffectedBy(b *testing.B) {
	var sources []Source
	for i := range 1000 {
		name := "reg-" + itoa(i)
		sources = append(sources, Source{
			Owner:     model.ObjectRef{APIVersion: DefaultAPIVersion, Kind: model.KindMCPRegistry, Namespace: testNS, Name: name},
			Entry:     "teams",
			Namespace: testNS,
			Selector:  &metav1.LabelSelector{MatchLabels: map[string]string{"reg": "true", "team": "t" + itoa(i%10)}},
		})
	}
	old := configMap("a", map[string]string{"reg": "true", "team": "t1"}, "{}")
	upd := old.DeepCopy()
	upd.Data["registry.json"] = "[]"
	b.Run("AffectedBy", func(b *testing.B) {
		for b.Loop() {
			if len(AffectedBy(sources, upd)) != 100 {
				b.Fatal("wrong count")
			}
		}
	})
	b.Run("AffectedByChange", func(b *testing.B) {
		for b.Loop() {
			if len(AffectedByChange(sources, old, upd)) != 100 {
				b.Fatal("wrong count")
			}
		}
	})
}

// benchNames are n names shaped as published ones are: a few namespaces,
// many sharing their first 32 bytes and more ("com.umbrella.team042/" and
// a long server key), numbered, in no order.
func benchNames(n int) []string {
	spaces := []string{"io.github.stacklok", "io.github.modelcontextprotocol", "com.umbrella.team042", "com.acme.team007"}
	keys := []string{"fetch", "kubernetes-operations", "github-enterprise", "postgres"}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/%s-mcp-%d", spaces[i*7%len(spaces)], keys[i*13%len(keys)], (i*7919)%n+10000)
	}
	return out
}

// benchParts are k parts of per entries each, named by benchNames, each
// name lying in 800 bytes of its own as a name lies in a ConfigMap's data,
// so that, cycling over the parts, a merge's steps find the names out of
// the cache as they do at scale.
func benchParts(k, per int) []*part {
	names := benchNames(k * per)
	parts := make([]*part, k)
	for r := range parts {
		data := make([]byte, per*800)
		p := &part{}
		slab := make([]entry, per)
		for i := range slab {
			name := names[r*per+i]
			copy(data[i*800:], name)
			orig := unsafe.String(&data[i*800], len(name))
			slab[i] = entry{part: p, pos: i, orig: orig, ver: "1.0.0"}
		}
		p.entries = make([]*entry, per)
		for i := range slab {
			p.entries[i] = &slab[i]
		}
		parts[r] = p
	}
	return parts
}

// BenchmarkDedupe sorts and dedupes the entries of one ConfigMap of 1,000
// servers at a time, of 100 (100,000 servers): the step whose comparisons
// the names' keys make cheap.
func BenchmarkDedupe(b *testing.B) {
	parts := benchParts(100, 1000)
	read := make([][]*entry, len(parts))
	for i, p := range parts {
		read[i] = slices.Clone(p.entries)
	}
	i := 0
	for b.Loop() {
		p := parts[i%len(parts)]
		heads := make([]treeHead, len(read[i%len(parts)]))
		for j, e := range read[i%len(parts)] {
			heads[j] = headOf(e)
		}
		p.dedupe(heads, false)
		i++
	}
}

// BenchmarkMergeRuns merges the sorted entries of 100 ConfigMaps of 1,000
// servers with the loser tree, from their records as a merge's reading
// leaves them.
func BenchmarkMergeRuns(b *testing.B) {
	parts := benchParts(100, 1000)
	runs := make([][]treeHead, len(parts))
	for i, p := range parts {
		heads := make([]treeHead, len(p.entries))
		for j, e := range p.entries {
			heads[j] = headOf(e)
		}
		p.dedupe(heads, false)
		runs[i] = p.heads
	}
	for b.Loop() {
		t := newLoserTree(runs)
		for t.left > 0 {
			t.next()
		}
	}
}

// BenchmarkRender renders the output ConfigMap of a merge of 100
// ConfigMaps of 1,000 servers: the document copied out of the servers'
// bytes, one allocation.
func BenchmarkRender(b *testing.B) {
	cms, size := benchConfigMaps(100, 1000)
	src := Source{Owner: model.ObjectRef{Kind: model.KindMCPRegistry, Namespace: testNS, Name: "reg", UID: "u-1"},
		Entry: "teams", Namespace: testNS, Selector: regSelector}
	res := Merge(src, cms, Options{LastUpdated: now})
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := res.Render(src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
