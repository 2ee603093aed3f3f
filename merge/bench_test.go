package merge

import (
	"encoding/json"
	"fmt"
	"testing"

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
