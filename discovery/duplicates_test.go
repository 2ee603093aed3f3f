package discovery

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
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

// TestMCPResourceCopiesExtraMetadata: of two copies of one MCPServer, one
// with registry-url and one without, the same one is used whether or not
// both carry an annotation whose key sorts right after registry-url's (where
// a comparison of whole encodings would flip).
func TestMCPResourceCopiesExtraMetadata(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	base := snap.MCPServers[0]
	withURL := *base
	withURL.ObjectMeta = *base.ObjectMeta.DeepCopy()
	withURL.Annotations = map[string]string{AnnotationURL: "https://a.example.com/mcp"}
	plain := *base
	plain.ObjectMeta = *base.ObjectMeta.DeepCopy()
	plain.Annotations = nil
	extra := func(s *model.MCPServer) *model.MCPServer {
		c := *s
		c.ObjectMeta = *s.ObjectMeta.DeepCopy()
		if c.Annotations == nil {
			c.Annotations = map[string]string{}
		}
		c.Annotations[AnnotationURL+" "] = "https://extra.example.com/"
		return &c
	}
	result := func(servers ...*model.MCPServer) string {
		s := snap
		s.MCPServers = servers
		res := Discover(s, opts)
		return string(encodeResult(res)) + string(diagnosticsText(res.Diagnostics))
	}
	want := result(&withURL, &plain)
	if !strings.Contains(want, "DuplicateName") || !strings.Contains(want, AnnotationURL+" is set") {
		t.Fatalf("the copy with registry-url is not the one used:\n%s", want)
	}
	for _, got := range []string{result(&plain, &withURL), result(extra(&withURL), extra(&plain)), result(extra(&plain), extra(&withURL))} {
		if got != want {
			t.Errorf("result\n%s\nwant\n%s", got, want)
		}
	}
}

// TestCompareCopies: the order of two copies does not change when both get
// the same extra annotations or labels, wherever their keys sort.
func TestCompareCopies(t *testing.T) {
	copyWith := func(ann, lab map[string]string) *resource {
		s := &model.MCPServer{ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "ns", Annotations: ann, Labels: lab}}
		return &resource{meta: &s.ObjectMeta, obj: s}
	}
	m := func(kv ...string) map[string]string {
		out := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	pairs := []struct{ a, b *resource }{
		{copyWith(m("k", "1"), nil), copyWith(nil, nil)},
		{copyWith(m("k", "1"), nil), copyWith(m("k", "2"), nil)},
		{copyWith(nil, m("team", "red")), copyWith(nil, nil)},
		{copyWith(m("a", "1"), m("team", "red")), copyWith(m("a", "1"), m("team", "blue", "tier", "x"))},
		{copyWith(m("b", "1"), nil), copyWith(m("c", "1"), nil)},
	}
	extras := []string{"", "a", "k ", "k0", "m", "team ", "z", "\x00"}
	for i, p := range pairs {
		want := compareCopies(p.a, p.b)
		if want == 0 || compareCopies(p.b, p.a) != -want {
			t.Fatalf("pair %d: compareCopies %d, reversed %d", i, want, compareCopies(p.b, p.a))
		}
		for _, k := range extras {
			add := func(r *resource) *resource {
				ann, lab := m(), m()
				for key, v := range r.meta.Annotations {
					ann[key] = v
				}
				for key, v := range r.meta.Labels {
					lab[key] = v
				}
				ann[k], lab[k] = "extra", "extra"
				return copyWith(ann, lab)
			}
			if got := compareCopies(add(p.a), add(p.b)); got != want {
				t.Errorf("pair %d with extra key %q: %d, want %d", i, k, got, want)
			}
		}
	}
}
