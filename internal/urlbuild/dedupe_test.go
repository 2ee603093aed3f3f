package urlbuild

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/golden"
)

// TestDedupeRoutes: dedupeRoutes keeps what a pass in input order keeps —
// per namespace and name the first route, replaced by each later one
// dedupe.Newer prefers, in the place of the first — and leaves its input
// alone, on random lists with many duplicates and nil entries.
func TestDedupeRoutes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 40).Draw(t, "n")
		routes := make([]*gwv1.HTTPRoute, n)
		for i := range routes {
			if rapid.IntRange(0, 9).Draw(t, "nil") == 0 {
				continue
			}
			routes[i] = &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{
				Namespace:  rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns"),
				Name:       rapid.SampledFrom([]string{"x", "y", "z"}).Draw(t, "name"),
				Generation: int64(rapid.IntRange(0, 3).Draw(t, "gen")),
				UID:        types.UID("uid-" + strconv.Itoa(i)),
			}}
		}
		before := slices.Clone(routes)
		// The pass in input order.
		var want []*gwv1.HTTPRoute
		for _, r := range routes {
			if r == nil {
				continue
			}
			at := slices.IndexFunc(want, func(k *gwv1.HTTPRoute) bool { return k.Namespace == r.Namespace && k.Name == r.Name })
			switch {
			case at < 0:
				want = append(want, r)
			case dedupe.Newer(r, &r.ObjectMeta, want[at], &want[at].ObjectMeta):
				want[at] = r
			}
		}
		got := dedupeRoutes(routes)
		if !slices.Equal(got, want) {
			t.Fatalf("kept %v, want %v", names(got), names(want))
		}
		if !slices.Equal(routes, before) {
			t.Fatal("dedupeRoutes changed its input")
		}
	})
}

func names(rs []*gwv1.HTTPRoute) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Namespace+"/"+r.Name+"/"+string(r.UID))
	}
	return out
}

// TestIndexDropsOlderCopies: an index given, besides each route of a golden
// case, an older copy of it (lower metadata.generation, a rule matching
// every path, before and after the route in the input) routes every request
// as the index of the routes alone does: the copies, filed at first, are
// dropped when the index files the routes again without them.
func TestIndexDropsOlderCopies(t *testing.T) {
	for _, dir := range golden.Cases(t, goldenDir) {
		objs := golden.LoadObjects(t, dir)
		var withCopies []*gwv1.HTTPRoute
		for i, r := range objs.HTTPRoutes {
			old := r.DeepCopy()
			old.Generation = r.Generation - 1
			old.Spec.Rules = []gwv1.HTTPRouteRule{{}}
			if i%2 == 0 {
				withCopies = append(withCopies, old, r)
			} else {
				withCopies = append(withCopies, r, old)
			}
		}
		want := NewIndex(objs.Gateways, objs.Namespaces, objs.HTTPRoutes...)
		got := NewIndex(objs.Gateways, objs.Namespaces, withCopies...)
		if len(objs.HTTPRoutes) > 0 && !got.DuplicateRoutes() || want.DuplicateRoutes() {
			t.Fatalf("%s: DuplicateRoutes %v with copies, %v without", dir, got.DuplicateRoutes(), want.DuplicateRoutes())
		}
		for _, r := range objs.HTTPRoutes {
			for _, o := range want.Attach(r).Origins {
				protocol := gwv1.HTTPProtocolType
				if o.Scheme == "https" {
					protocol = gwv1.HTTPSProtocolType
				}
				for _, p := range []string{"/", "/mcp", "/x/y"} {
					req := Request{Host: o.Host, Method: "GET", Path: p}
					w, wok := want.RouteRequest(o.Gateway, int32(o.Port), protocol, req)
					g, gok := got.RouteRequest(o.Gateway, int32(o.Port), protocol, req)
					if d := cmp.Diff([]any{w, wok}, []any{g, gok}); d != "" {
						t.Errorf("%s %s %s%s: (-routes alone +with older copies):\n%s", dir, r.Name, o, p, d)
					}
				}
			}
		}
	}
}
