package discovery

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/model"
)

// routeCluster is the discovery benchmark's cluster (README, Performance): n
// MCP resources (8 in 10 MCPServers, 1 MCPRemoteProxy, 1 VirtualMCPServer) in
// n/100 namespaces, each with the Service ToolHive names for it (controlled by
// it, UID and all) and an exported HTTPRoute to it, over gateways Gateways of
// an HTTPS listener open to all namespaces and an HTTP one for the Gateway's
// own namespace. Two routes in three name a hostname; the others take the
// Gateway's address. One route in ten reaches its Service from another
// namespace, through a ReferenceGrant; one resource in ten also carries the
// registry-url the route gives it (Method 1 and 2 agree).
func routeCluster(n, gateways int) Snapshot {
	var snap Snapshot
	namespaces := max(n/100, 1)
	for i := range gateways {
		snap.Gateways = append(snap.Gateways, &gwv1.Gateway{
			ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: fmt.Sprintf("gw-%d", i)},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{
				{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
					AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}},
				{Name: "http", Protocol: gwv1.HTTPProtocolType, Port: 80},
			}},
			Status: gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{
				{Type: ptrTo(gwv1.HostnameAddressType), Value: fmt.Sprintf("gw-%d.example.com", i)},
			}},
		})
	}
	for ns := range namespaces {
		snap.Namespaces = append(snap.Namespaces, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("team-%d", ns)}})
		// Routes of the "apps" namespaces reach Services here.
		snap.ReferenceGrants = append(snap.ReferenceGrants, &gwv1.ReferenceGrant{
			ObjectMeta: metav1.ObjectMeta{Namespace: fmt.Sprintf("team-%d", ns), Name: "from-apps"},
			Spec: gwv1.ReferenceGrantSpec{
				From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "HTTPRoute", Namespace: gwv1.Namespace(fmt.Sprintf("apps-%d", ns))}},
				To:   []gwv1.ReferenceGrantTo{{Kind: "Service"}},
			},
		})
	}
	for i := range n {
		ns := fmt.Sprintf("team-%d", i%namespaces)
		name := fmt.Sprintf("server-%d", i)
		uid := types.UID(fmt.Sprintf("uid-%d", i))
		meta := metav1.ObjectMeta{Namespace: ns, Name: name, UID: uid, Annotations: map[string]string{
			AnnotationDescription: "An MCP server of the benchmark",
		}}
		gw := i % gateways
		host := fmt.Sprintf("gw-%d.example.com", gw)
		if i%3 != 0 {
			host = fmt.Sprintf("%s.%s.example.com", name, ns)
		}
		prefix := "/servers/" + name
		if i%10 == 5 {
			meta.Annotations[AnnotationExport] = "true"
			meta.Annotations[AnnotationURL] = "https://" + host + prefix + "/mcp"
		}
		var kind, svcName string
		switch i % 10 {
		case 8:
			kind, svcName = model.KindMCPRemoteProxy, "mcp-"+name+"-remote-proxy"
			snap.MCPRemoteProxies = append(snap.MCPRemoteProxies, &model.MCPRemoteProxy{ObjectMeta: meta,
				Spec: model.MCPRemoteProxySpec{RemoteURL: "https://vendor.example/" + name, Transport: model.TransportStreamableHTTP}})
		case 9:
			kind, svcName = model.KindVirtualMCPServer, "vmcp-"+name
			snap.VirtualMCPServers = append(snap.VirtualMCPServers, &model.VirtualMCPServer{ObjectMeta: meta})
		default:
			kind, svcName = model.KindMCPServer, "mcp-"+name+"-proxy"
			snap.MCPServers = append(snap.MCPServers, &model.MCPServer{ObjectMeta: meta,
				Spec: model.MCPServerSpec{Image: fmt.Sprintf("ghcr.io/example/%s:1.0", name), Transport: model.TransportStreamableHTTP}})
		}
		snap.Services = append(snap.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: svcName,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: kind, Name: name, UID: uid, Controller: ptrTo(true)}},
		}})
		routeNS := ns
		backend := gwv1.BackendObjectReference{Name: gwv1.ObjectName(svcName), Port: ptrTo(gwv1.PortNumber(8080))}
		if i%10 == 3 {
			routeNS = fmt.Sprintf("apps-%d", i%namespaces)
			backend.Namespace = ptrTo(gwv1.Namespace(ns))
		}
		parent := gwv1.ParentReference{Name: gwv1.ObjectName(fmt.Sprintf("gw-%d", gw)), Namespace: ptrTo(gwv1.Namespace("infra")), SectionName: ptrTo(gwv1.SectionName("https"))}
		r := &gwv1.HTTPRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: routeNS, Name: name, Generation: 1, Annotations: map[string]string{AnnotationExport: "true"}},
			Spec: gwv1.HTTPRouteSpec{
				CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
				Rules: []gwv1.HTTPRouteRule{{
					Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: ptrTo(gwv1.PathMatchPathPrefix), Value: ptrTo(prefix)}}},
					Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
						Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptrTo("/")}}}},
					BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: backend}}},
				}},
			},
			Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
				ParentRef: parent, ControllerName: "example.com/gateway-controller",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", ObservedGeneration: 1}},
			}}}},
		}
		if i%3 != 0 {
			r.Spec.Hostnames = []gwv1.Hostname{gwv1.Hostname(host)}
		}
		snap.HTTPRoutes = append(snap.HTTPRoutes, r)
	}
	return snap
}

// routeBenchOptions are the options of the benchmark: ToolHive's endpoint
// paths, so every URL goes through the rewrite inversion.
func routeBenchOptions() Options {
	return Options{
		EndpointPaths: map[string]string{model.TransportStreamableHTTP: "/mcp", model.TransportSSE: "/sse"},
		LastUpdated:   time.Unix(0, 0),
	}
}

// BenchmarkDiscoverRoutes is the README's discovery target: 10,000 each of MCP
// resources, Services and HTTPRoutes over 50 Gateways, and ten times that
// (100,000 each over 500 Gateways). The README aims for under 100 ms at 10k on
// one core (run with -cpu 1) and under 12 times that at 100k. cpu-ns/op is the
// process CPU time of one Discover, garbage collection included: on a shared
// machine ns/op also counts the time other processes held the CPU.
func BenchmarkDiscoverRoutes(b *testing.B) {
	for _, sc := range []struct{ n, gateways int }{{10_000, 50}, {100_000, 500}} {
		snap := routeCluster(sc.n, sc.gateways)
		opts := routeBenchOptions()
		b.Run(fmt.Sprint(sc.n), func(b *testing.B) {
			b.ReportAllocs()
			cpu := processCPU()
			for b.Loop() {
				if res := Discover(snap, opts); len(res.Entries) != sc.n {
					b.Fatalf("%d entries", len(res.Entries))
				}
			}
			b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestDiscoverRoutesScale runs the benchmark's snapshot at 10,000 once and
// checks the result: every resource exported with the URL its route gives,
// no diagnostic.
func TestDiscoverRoutesScale(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test")
	}
	snap := routeCluster(10_000, 50)
	res := Discover(snap, routeBenchOptions())
	if len(res.Diagnostics) > 0 {
		t.Fatalf("%d diagnostics, first %s", len(res.Diagnostics), res.Diagnostics[0])
	}
	if len(res.Entries) != 10_000 {
		t.Fatalf("%d entries", len(res.Entries))
	}
	for _, e := range res.Entries {
		if len(e.Remotes) != 1 {
			t.Fatalf("%s: remotes %v", e.Name, e.Remotes)
		}
	}
	// Spot checks: a route with a hostname, one without, one across
	// namespaces (server-3, in apps-3 reaching team-3), one annotated too.
	want := map[string]string{
		"dev.stacklok.toolhive/team-1.server-1": "https://server-1.team-1.example.com/servers/server-1/mcp",
		"dev.stacklok.toolhive/team-0.server-0": "https://gw-0.example.com/servers/server-0/mcp",
		"dev.stacklok.toolhive/team-3.server-3": "https://gw-3.example.com/servers/server-3/mcp",
		"dev.stacklok.toolhive/team-5.server-5": "https://server-5.team-5.example.com/servers/server-5/mcp",
	}
	for _, e := range res.Entries {
		if u, ok := want[e.Name]; ok {
			if e.Remotes[0].URL != u {
				t.Errorf("%s: %s, want %s", e.Name, e.Remotes[0].URL, u)
			}
			delete(want, e.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing entries %v", want)
	}
}
