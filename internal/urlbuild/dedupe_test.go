package urlbuild

import (
	"slices"
	"strconv"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
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
