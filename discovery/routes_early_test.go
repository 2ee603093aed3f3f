package discovery

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/urlbuild"
)

// TestPropertyExportValueFromIndex: the registry-export annotation the walk
// reads from what the route index noted (routeWalker.exportValue) is the
// route's own, whatever its value, with nil routes among them.
func TestPropertyExportValueFromIndex(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 8).Draw(t, "routes")
		routes := make([]*gwv1.HTTPRoute, n)
		for i := range routes {
			v := rapid.SampledFrom([]string{"absent", "nil", "true", "false", "True", ""}).Draw(t, "export")
			if v == "nil" {
				continue
			}
			r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "a", Name: fmt.Sprintf("r%d", i)}}
			if v != "absent" {
				r.Annotations = map[string]string{AnnotationExport: v}
			}
			routes[i] = r
		}
		w := &routeWalker{exportSeen: make([]exportSeen, len(routes))}
		urlbuild.NewIndexAttaching(nil, nil, routes, w.noteExport)
		for pos, r := range routes {
			if r == nil {
				continue
			}
			wantV, wantOK := r.Annotations[AnnotationExport]
			if v, ok := w.exportValue(pos, r); v != wantV || ok != wantOK {
				t.Fatalf("route %d: exportValue %q %v, want %q %v", pos, v, ok, wantV, wantOK)
			}
		}
	})
}

// TestPropertyRouteExportsEarly: the route walk with the work done ahead
// while the route index files the routes (attaching the exported ones,
// noting their annotations, preparing those of the common shape) gives the
// exports and diagnostics the walk gives without it, on random snapshots
// with and without a copy of a route (two routes of one namespace and name).
func TestPropertyRouteExportsEarly(t *testing.T) {
	prepared := 0
	rapid.Check(t, func(t *rapid.T) {
		snap := genSnapshot(t)
		if len(snap.HTTPRoutes) > 0 && rapid.IntRange(0, 3).Draw(t, "duplicate") == 0 {
			dup := rapid.SampledFrom(snap.HTTPRoutes).Draw(t, "dupOf").DeepCopy()
			snap.HTTPRoutes = slices.Insert(snap.HTTPRoutes, rapid.IntRange(0, len(snap.HTTPRoutes)).Draw(t, "dupAt"), dup)
		}
		if rapid.IntRange(0, 3).Draw(t, "nil") == 0 {
			snap.HTTPRoutes = slices.Insert(snap.HTTPRoutes, rapid.IntRange(0, len(snap.HTTPRoutes)).Draw(t, "nilAt"), nil)
		}
		opts := genOptions(t)
		if rapid.IntRange(0, 3).Draw(t, "inNamespaces") == 0 {
			opts.Namespaces = []string{rapid.SampledFrom(propNamespaces).Draw(t, "namespace")}
		}
		cfg, _ := compile(opts)
		if cfg == nil {
			return
		}
		ix, _ := indexResources(&snap, cfg)
		wantOut, wantDs := routeExportsEarly(&snap, ix, cfg, false)
		gotOut, gotDs := routeExportsEarly(&snap, ix, cfg, true)
		same := cmp.Options{
			cmp.AllowUnexported(export{}, candidateURL{}),
			cmp.Comparer(func(a, b *resource) bool { return a == b }),
		}
		if d := cmp.Diff(wantOut, gotOut, same); d != "" {
			t.Fatalf("exports (-without +with the work done ahead):\n%s", d)
		}
		if d := cmp.Diff(wantDs, gotDs); d != "" {
			t.Fatalf("diagnostics (-without +with the work done ahead):\n%s", d)
		}
		w := &routeWalker{cfg: cfg, ix: ix, services: indexServices(snap.Services, ix), grants: indexGrants(snap.ReferenceGrants)}
		for _, r := range snap.HTTPRoutes {
			if r != nil && r.Annotations[AnnotationExport] == "true" && w.prepare(r).res != nil {
				prepared++
			}
		}
	})
	if prepared == 0 {
		t.Error("no route was prepared")
	}
}
