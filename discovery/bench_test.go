package discovery

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// benchSnapshot has n MCP resources of each kind in 100 namespaces, all
// exported by annotation, a tenth of the servers enriching one of 100
// source entries.
func benchSnapshot(n int) (Snapshot, *model.Registry) {
	var snap Snapshot
	meta := func(kind string, i int) metav1.ObjectMeta {
		ns := fmt.Sprintf("ns-%d", i%100)
		return metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("%s-%d", kind, i), Annotations: map[string]string{
			AnnotationExport:      "true",
			AnnotationURL:         fmt.Sprintf("https://%s.example.com/%s/%d", ns, kind, i),
			AnnotationDescription: "A server",
		}}
	}
	for i := 0; i < n; i++ {
		image := fmt.Sprintf("ghcr.io/example/internal-%d:1.0", i)
		if i%10 == 0 {
			image = fmt.Sprintf("ghcr.io/example/public-%d:1.0", i%100)
		}
		snap.MCPServers = append(snap.MCPServers, &model.MCPServer{ObjectMeta: meta("s", i), Spec: model.MCPServerSpec{Image: image}})
		snap.MCPRemoteProxies = append(snap.MCPRemoteProxies, &model.MCPRemoteProxy{ObjectMeta: meta("p", i)})
		snap.VirtualMCPServers = append(snap.VirtualMCPServers, &model.VirtualMCPServer{ObjectMeta: meta("v", i)})
	}
	src := []byte(`{"servers":[`)
	for i := 0; i < 100; i++ {
		if i > 0 {
			src = append(src, ',')
		}
		src = fmt.Appendf(src, `{"name":"io.example/public-%d","image":"ghcr.io/example/public-%d:1.0","description":"Public %d"}`, i, i, i)
	}
	src = append(src, "]}"...)
	reg, _ := model.Parse(src, model.ParseOptions{})
	return snap, reg
}

// BenchmarkDiscover measures discovery by annotation over 3×n resources (the
// README's Performance section aims at 10,000 of each kind in under 100 ms
// with routes).
func BenchmarkDiscover(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		snap, src := benchSnapshot(n)
		opts := Options{SourceRegistry: src, LastUpdated: time.Unix(0, 0)}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				res := Discover(snap, opts)
				if len(res.Entries) == 0 {
					b.Fatal("no entries")
				}
			}
		})
	}
}

// TestDiscoverLeavesInputsAlone: Discover changes neither the snapshot nor
// the source registry (callers keep them in informer caches).
func TestDiscoverLeavesInputsAlone(t *testing.T) {
	snap, src := benchSnapshot(50)
	srcBefore := src.Encode()
	opts := Options{SourceRegistry: src}
	// Tiers and titles make Discover write into copies of source entries.
	for _, s := range snap.MCPServers[:20] {
		s.Annotations[AnnotationTier] = TierOfficial
		s.Annotations[AnnotationTitle] = "Changed title"
	}
	before := encode(snap)
	res := Discover(snap, opts)
	if len(res.Entries) == 0 {
		t.Fatal("no entries")
	}
	if string(encode(snap)) != string(before) {
		t.Errorf("Discover changed the snapshot")
	}
	if string(src.Encode()) != string(srcBefore) {
		t.Errorf("Discover changed the source registry")
	}
}
