package discovery

import (
	"fmt"
	"testing"

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
