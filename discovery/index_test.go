package discovery

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// allObjects lists every object of a snapshot.
func allObjects(s Snapshot) []any {
	var out []any
	for _, x := range s.MCPServers {
		out = append(out, x)
	}
	for _, x := range s.MCPRemoteProxies {
		out = append(out, x)
	}
	for _, x := range s.VirtualMCPServers {
		out = append(out, x)
	}
	for _, x := range s.MCPServerEntries {
		out = append(out, x)
	}
	for _, x := range s.MCPGroups {
		out = append(out, x)
	}
	for _, x := range s.Services {
		out = append(out, x)
	}
	for _, x := range s.Namespaces {
		out = append(out, x)
	}
	for _, x := range s.Gateways {
		out = append(out, x)
	}
	for _, x := range s.HTTPRoutes {
		out = append(out, x)
	}
	for _, x := range s.ReferenceGrants {
		out = append(out, x)
	}
	return out
}

// TestPropertyIndexMatchesAffectedBy: over random event sequences, the
// index answers what AffectedByChange answers on a snapshot of the same
// objects, asked before and after the event is recorded; and its snapshot
// discovers what the objects discover.
func TestPropertyIndexMatchesAffectedBy(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		opts.Namespaces = genWatchNamespaces(t)
		ix, err := NewIndex(opts, allObjects(snap)...)
		if err != nil {
			t.Fatal(err)
		}
		steps := rapid.IntRange(1, 8).Draw(t, "steps")
		for step := 0; step < steps; step++ {
			state := ix.Snapshot()
			c := genChange(t, state)
			check := func(when string, state Snapshot) {
				want, err := AffectedByChange(state, opts, c.old, c.new)
				if err != nil {
					t.Fatal(err)
				}
				got, err := ix.AffectedByChange(c.old, c.new)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("step %d (%T -> %T), %s the event: index differs (-snapshot +index):\n%s", step, c.old, c.new, when, d)
				}
				for _, obj := range []any{c.old, c.new} {
					want, _ := AffectedBy(state, opts, obj)
					got, _ := ix.AffectedBy(obj)
					if d := cmp.Diff(want, got); d != "" {
						t.Fatalf("step %d, AffectedBy(%T) %s the event (-snapshot +index):\n%s", step, obj, when, d)
					}
				}
			}
			check("before", state)
			switch {
			case present(c.old) == nil:
				err = ix.Add(c.new)
			case present(c.new) == nil:
				err = ix.Delete(c.old)
			default:
				err = ix.Update(c.old, c.new)
			}
			if err != nil {
				t.Fatal(err)
			}
			check("after", ix.Snapshot())
		}
		// The index's state is the objects: rebuilding from its snapshot
		// answers alike, and Discover agrees.
		again, _ := NewIndex(opts, allObjects(ix.Snapshot())...)
		if d := cmp.Diff(couplingSets(again.table), couplingSets(ix.table)); d != "" {
			t.Fatalf("couplings kept up to date differ from couplings built anew (-anew +kept):\n%s", d)
		}
	})
}

// TestIndexErrors: inputs the index cannot read are errors.
func TestIndexErrors(t *testing.T) {
	if _, err := NewIndex(Options{LabelSelector: "a in ("}); err == nil {
		t.Error("bad selector accepted")
	}
	ix, err := NewIndex(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, obj := range []any{&corev1.Pod{}, struct{}{}} {
		if ix.Add(obj) == nil || ix.Delete(obj) == nil || ix.Update(nil, obj) == nil {
			t.Errorf("%T accepted", obj)
		}
		if _, err := ix.AffectedBy(obj); err == nil {
			t.Errorf("AffectedBy(%T) accepted", obj)
		}
	}
	if _, err := NewIndex(Options{}, &corev1.Pod{}); err == nil {
		t.Error("NewIndex took a Pod")
	}
}

// indexBenchObjects has n of each kind the index holds: MCP resources of
// every kind, Services they control, exported HTTPRoutes to them through 50
// Gateways, Namespaces and ReferenceGrants.
func indexBenchObjects(n int) []any {
	var objs []any
	gws := 50
	for g := 0; g < gws; g++ {
		host := gwv1.Hostname(fmt.Sprintf("gw-%d.example.com", g))
		objs = append(objs, &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: fmt.Sprintf("gw-%d", g)},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Port: 443, Protocol: gwv1.HTTPSProtocolType, Hostname: &host}}}})
	}
	ctrl := true
	for i := 0; i < n; i++ {
		ns := fmt.Sprintf("ns-%d", i%1000)
		meta := func(name string) metav1.ObjectMeta {
			return metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: map[string]string{AnnotationExport: "true"}}
		}
		name := fmt.Sprintf("s-%d", i)
		objs = append(objs,
			&model.MCPServer{ObjectMeta: meta(name), Spec: model.MCPServerSpec{Image: "ghcr.io/x/" + name + ":1"}},
			&model.MCPRemoteProxy{ObjectMeta: meta(fmt.Sprintf("p-%d", i)), Spec: model.MCPRemoteProxySpec{RemoteURL: fmt.Sprintf("https://remote-%d.example.com/mcp", i)}},
			&model.VirtualMCPServer{ObjectMeta: meta(fmt.Sprintf("v-%d", i))},
			&model.MCPServerEntry{ObjectMeta: meta(fmt.Sprintf("e-%d", i)), Spec: model.MCPServerEntrySpec{
				RemoteURL: fmt.Sprintf("https://entry-%d.example.com/mcp", i), Transport: model.TransportStreamableHTTP, GroupRef: &model.GroupRef{Name: "g"}}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "mcp-" + name + "-proxy", OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: model.KindMCPServer, Name: name, UID: "u", Controller: &ctrl}}},
				Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 8080}}}},
			&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("nsx-%d", i), Labels: map[string]string{"i": fmt.Sprint(i)}}},
			&gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: fmt.Sprintf("g-%d", i)}},
		)
		prefix := fmt.Sprintf("/%s", name)
		gw := gwv1.ObjectName(fmt.Sprintf("gw-%d", i%gws))
		gwNS := gwv1.Namespace("infra")
		objs = append(objs, &gwv1.HTTPRoute{ObjectMeta: meta("r-" + name), Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: gw, Namespace: &gwNS}}},
			Rules: []gwv1.HTTPRouteRule{{
				Matches:     []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Value: &prefix}}},
				BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: gwv1.ObjectName("mcp-" + name + "-proxy")}}}},
			}}}})
	}
	return objs
}

// BenchmarkIndexEvent: one watch event (an MCPServer's annotation changing:
// asked, then recorded) against n objects of each kind, by the index and by
// the snapshot function, measured in one run. refs/op is the size of the
// answer: the names of the servers of one namespace could collide after a
// DuplicateName rename ("s-7", "s-1007", ...), so it grows with n (1 at 1k,
// 100 at 100k); the index's time follows the answer, not the objects held,
// while the snapshot function reads every object.
func BenchmarkIndexEvent(b *testing.B) {
	for _, n := range []int{1000, 100000} {
		objs := indexBenchObjects(n)
		opts := Options{LastUpdated: time.Unix(0, 0)}
		start := time.Now()
		ix, err := NewIndex(opts, objs...)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("n=%d: %d objects indexed in %v", n, ix.Len(), time.Since(start))
		old := ix.store[model.ObjectRef{Kind: model.KindMCPServer, Namespace: "ns-7", Name: "s-7"}].(*model.MCPServer)
		b.Run(fmt.Sprintf("index/%d", n), func(b *testing.B) {
			cpu := processCPU()
			defer func() { b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
			cur := old
			refs := 0
			defer func() { b.ReportMetric(float64(refs), "refs/op") }()
			for b.Loop() {
				next := cur.DeepCopy()
				next.Annotations[AnnotationDescription] = fmt.Sprint(b.N)
				got, err := ix.AffectedByChange(cur, next)
				if err != nil || len(got) == 0 {
					b.Fatal(got, err)
				}
				refs = len(got)
				if err := ix.Update(cur, next); err != nil {
					b.Fatal(err)
				}
				cur = next
			}
		})
		if n > 1000 {
			continue // the snapshot function at 100k objects per kind takes seconds an event
		}
		snap := ix.Snapshot()
		b.Run(fmt.Sprintf("snapshot/%d", n), func(b *testing.B) {
			for b.Loop() {
				next := old.DeepCopy()
				next.Annotations[AnnotationDescription] = "x"
				if got, err := AffectedByChange(snap, opts, old, next); err != nil || len(got) == 0 {
					b.Fatal(got, err)
				}
			}
		})
	}
}

// couplingSets is a coupling table as sorted sets, for comparison.
func couplingSets(t *couplingTable) map[string]string {
	out := map[string]string{}
	for ref, r := range t.res {
		keys := slices.Clone(r.keys)
		slices.Sort(keys)
		shapes := make([]string, 0, len(r.shapes))
		for _, s := range r.shapes {
			shapes = append(shapes, s.host+"|"+s.first)
		}
		slices.Sort(shapes)
		out[ref.String()] = fmt.Sprint(r.selected, slices.Compact(keys), slices.Compact(shapes))
	}
	return out
}
