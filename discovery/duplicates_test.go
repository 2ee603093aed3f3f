package discovery

import (
	"path/filepath"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestServiceDuplicates: two copies of one Service (concatenated
// manifests): one is used whatever the order, the newer by
// metadata.generation, so its controller decides which MCP resource the
// route's URL goes to.
func TestServiceDuplicates(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	other := *snap.MCPServers[0]
	other.ObjectMeta = *other.ObjectMeta.DeepCopy()
	other.Name, other.UID = "other-server", "6f1c1d2e-0001-4000-8000-0000000000ff"
	snap.MCPServers = append(snap.MCPServers, &other)
	newer := snap.Services[0].DeepCopy()
	newer.Generation = 2
	newer.OwnerReferences[0].Name, newer.OwnerReferences[0].UID = other.Name, other.UID
	older := snap.Services[0].DeepCopy()
	older.Generation = 0
	older.OwnerReferences = nil
	for _, services := range [][]*corev1.Service{
		{snap.Services[0], newer, older}, {newer, snap.Services[0], older}, {older, newer, snap.Services[0]},
	} {
		s := snap
		s.Services = services
		res := Discover(s, opts)
		if len(res.Entries) != 1 || res.Entries[0].Resources[0].Name != other.Name {
			t.Errorf("entries %v", res.Entries)
		}
	}
}

// TestRouteCopies: of three copies of one route, the newest is used in any
// order, and what the others would give is not (a path of their own).
func TestRouteCopies(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	copyAt := func(gen int64, path string) *gwv1.HTTPRoute {
		r := snap.HTTPRoutes[0].DeepCopy()
		r.Generation = gen
		r.Status.Parents[0].Conditions[0].ObservedGeneration = gen
		r.Spec.Rules[0].Matches[0].Path.Value = ptrTo(path)
		return r
	}
	routes := []*gwv1.HTTPRoute{copyAt(1, "/one"), copyAt(3, "/three"), copyAt(2, "/two")}
	for _, order := range [][]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		s := snap
		s.HTTPRoutes = nil
		for _, i := range order {
			s.HTTPRoutes = append(s.HTTPRoutes, routes[i])
		}
		res := Discover(s, opts)
		if got := registryURLs(res.Registry); !slices.Equal(got, []string{"https://mcp.example.com/three"}) {
			t.Errorf("order %v: URLs %v", order, got)
		}
		for _, d := range res.Diagnostics {
			if d.Object.Kind == "HTTPRoute" {
				t.Errorf("order %v: %s", order, d)
			}
		}
	}
}
