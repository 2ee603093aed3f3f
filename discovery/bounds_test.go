package discovery

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// claimantsSnapshot has n MCPServers in one namespace that all set the same
// registry-name: every one but the first is renamed with DuplicateName.
func claimantsSnapshot(n int) Snapshot {
	var snap Snapshot
	for i := range n {
		snap.MCPServers = append(snap.MCPServers, &model.MCPServer{
			ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: fmt.Sprintf("s-%d", i), Annotations: map[string]string{
				AnnotationExport: "true",
				AnnotationName:   "io.example/same",
				AnnotationURL:    fmt.Sprintf("https://tenant.example.com/s/%d", i),
			}},
			Spec: model.MCPServerSpec{Image: "ghcr.io/example/same:1.0"},
		})
	}
	return snap
}

// TestManyClaimantsOfOneName is the regression test for renaming: 10,000
// resources claiming one name took 17 s and 2 GB when each rename searched
// its suffix from "-2"; it must now take well under the deadline.
func TestManyClaimantsOfOneName(t *testing.T) {
	const n = 20000
	snap := claimantsSnapshot(n)
	done := make(chan Result, 1)
	go func() { done <- Discover(snap, Options{LastUpdated: time.Unix(0, 0)}) }()
	select {
	case res := <-done:
		if len(res.Entries) != n {
			t.Fatalf("%d entries, want %d", len(res.Entries), n)
		}
		seen := map[string]bool{}
		for _, e := range res.Entries {
			if seen[e.Name] {
				t.Fatalf("name %q given twice", e.Name)
			}
			seen[e.Name] = true
		}
		if !seen["io.example/same"] || !seen["io.example/same-2"] || !seen[fmt.Sprintf("io.example/same-%d", n)] {
			t.Errorf("the renames are not io.example/same, -2 … -%d", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("discovering %d claimants of one name did not finish in 30 s", n)
	}
}

// BenchmarkClaimantsOfOneName shows renaming near-linear in the number of
// claimants of one name: compare n and 4n.
func BenchmarkClaimantsOfOneName(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		snap := claimantsSnapshot(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Discover(snap, Options{LastUpdated: time.Unix(0, 0)})
			}
		})
	}
}

// samePathSnapshot has n exported HTTPRoutes in namespace "team", each to
// the Service of its own MCPServer, all for host mcp.example.com and
// PathPrefix /same on one HTTPS listener; every other route also requires a
// header, which an MCP client's request does not carry. route-00000 comes
// first by "{namespace}/{name}" and takes every request.
func samePathSnapshot(n int) Snapshot {
	parent := gwv1.ParentReference{Name: "gw", Namespace: ptrTo(gwv1.Namespace("infra"))}
	snap := Snapshot{Gateways: []*gwv1.Gateway{{
		ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "gw"},
		Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}}}},
		Status: gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptrTo(gwv1.IPAddressType), Value: "203.0.113.1"}}},
	}}}
	for i := range n {
		name := fmt.Sprintf("s-%05d", i)
		uid := types.UID("uid-" + name)
		snap.MCPServers = append(snap.MCPServers, &model.MCPServer{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: name, UID: uid},
			Spec:       model.MCPServerSpec{Image: "ghcr.io/example/" + name + ":1.0", Transport: model.TransportStreamableHTTP}})
		snap.Services = append(snap.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "mcp-" + name + "-proxy",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: model.KindMCPServer, Name: name, UID: uid, Controller: ptrTo(true)}}}})
		match := gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{Type: ptrTo(gwv1.PathMatchPathPrefix), Value: ptrTo("/same")}}
		if i%2 == 1 {
			match.Headers = []gwv1.HTTPHeaderMatch{{Name: "X-Tenant", Value: name}}
		}
		snap.HTTPRoutes = append(snap.HTTPRoutes, &gwv1.HTTPRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: fmt.Sprintf("route-%05d", i), Annotations: map[string]string{AnnotationExport: "true"}},
			Spec: gwv1.HTTPRouteSpec{
				CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
				Hostnames:       []gwv1.Hostname{"mcp.example.com"},
				Rules: []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{match},
					BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
						Name: gwv1.ObjectName("mcp-" + name + "-proxy"), Port: ptrTo(gwv1.PortNumber(8080))}}}}}},
			},
			Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
				ParentRef: parent, ControllerName: "example.com/gateway-controller",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
			}}}},
		})
	}
	return snap
}

// TestManyRoutesOfOnePath is the regression test for route precedence:
// each route's URL check looked through every match of its path, routes ×
// routes (20,000 routes of one host and path took 6.7 s, 40,000 more than
// 10 s; 40,000 take 0.5 s now). The first route
// takes every request: it alone is exported, and each route without a
// header condition is shadowed by it (those with one take no request of an
// MCP client, so they are not either).
func TestManyRoutesOfOnePath(t *testing.T) {
	const n = 40000
	snap := samePathSnapshot(n)
	done := make(chan Result, 1)
	go func() { done <- Discover(snap, Options{LastUpdated: time.Unix(0, 0)}) }()
	select {
	case res := <-done:
		if len(res.Entries) != 1 || res.Entries[0].Name != "dev.stacklok.toolhive/team.s-00000" || len(res.Entries[0].Remotes) != 1 ||
			res.Entries[0].Remotes[0].URL != "https://mcp.example.com/same" {
			t.Fatalf("entries %+v, want only team/s-00000 at https://mcp.example.com/same", res.Entries)
		}
		shadowed := 0
		for _, d := range res.Diagnostics {
			if d.Reason == model.ReasonShadowedByRoute && d.Object.Kind == urlbuild.KindHTTPRoute && strings.Contains(d.Message, "HTTPRoute team/route-00000") {
				shadowed++
			}
		}
		if shadowed != n/2-1 {
			t.Errorf("%d ShadowedByRoute naming route-00000, want %d", shadowed, n/2-1)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("discovering %d routes of one host and path did not finish in 10 s", n)
	}
}

// BenchmarkManyRoutesOfOnePath shows route precedence linear in the routes
// of one host and path: compare n and 4n.
func BenchmarkManyRoutesOfOnePath(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		snap := samePathSnapshot(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				Discover(snap, Options{LastUpdated: time.Unix(0, 0)})
			}
		})
	}
}

// unfitSourceSnapshot has n MCPServers running tags of one repository that
// the source registry does not list, and a source registry of n entries of
// that repository, all but the last of which a reader would skip (version
// "latest").
func unfitSourceSnapshot(n int) (Snapshot, *model.Registry) {
	var snap Snapshot
	src := []byte(`{"data":{"servers":[`)
	for i := range n {
		name := fmt.Sprintf("s-%05d", i)
		snap.MCPServers = append(snap.MCPServers, &model.MCPServer{
			ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: name, UID: types.UID("uid-" + name), Annotations: map[string]string{
				AnnotationExport: "true", AnnotationURL: "https://mcp.example.com/" + name}},
			Spec: model.MCPServerSpec{Image: fmt.Sprintf("ghcr.io/acme/tool:run-%d", i), Transport: model.TransportStreamableHTTP}})
		version := "latest"
		if i == n-1 {
			version = "1.0.0"
		}
		if i > 0 {
			src = append(src, ',')
		}
		src = fmt.Appendf(src, `{"name":"io.example/e-%05d","description":"d","version":%q,"packages":[{"registryType":"oci","identifier":"ghcr.io/acme/tool:%d","transport":{"type":"stdio"}}]}`, i, version, i)
	}
	reg, _ := model.Parse(append(src, "]}}"...), model.ParseOptions{})
	return snap, reg
}

// TestUnfitSourceEntriesBounded: every resource of the repository enriches
// its one entry a reader keeps, each with one diagnostic counting the
// entries passed over, however many there are.
func TestUnfitSourceEntriesBounded(t *testing.T) {
	snap, reg := unfitSourceSnapshot(300)
	res := Discover(snap, Options{SourceRegistry: reg, LastUpdated: time.Unix(0, 0)})
	if len(res.Entries) != 1 || res.Entries[0].Name != "io.example/e-00299" || len(res.Entries[0].Remotes) != 300 {
		t.Fatalf("%d entries; want the one kept entry with 300 remotes", len(res.Entries))
	}
	if n := len(res.Diagnostics.WithReason(model.ReasonInvalidEntry)); n != 300 {
		t.Errorf("%d InvalidEntry diagnostics; want one a resource", n)
	}
}

// BenchmarkUnfitSourceEntries shows the look-up of source entries a reader
// skips linear in servers plus entries (compare n and 4n): each list of
// entries is read once, not once a resource.
func BenchmarkUnfitSourceEntries(b *testing.B) {
	for _, n := range []int{500, 2000} {
		snap, reg := unfitSourceSnapshot(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Discover(snap, Options{SourceRegistry: reg, LastUpdated: time.Unix(0, 0)})
			}
		})
	}
}
