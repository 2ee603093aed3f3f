package discovery_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/model"
)

func ptr[T any](v T) *T { return &v }

// routeCluster is a cluster exporting through a Gateway: an unannotated
// MCPServer, the Service it controls, an annotated HTTPRoute to it and the
// Gateway.
func routeCluster() discovery.Snapshot {
	parent := gwv1.ParentReference{Name: "main-gateway", Namespace: ptr(gwv1.Namespace("gateway-system"))}
	return discovery.Snapshot{
		MCPServers: []*model.MCPServer{{
			ObjectMeta: metav1.ObjectMeta{Name: "my-mcp-server", Namespace: "production", UID: "uid-1"},
			Spec:       model.MCPServerSpec{Transport: model.TransportStreamableHTTP},
		}},
		Services: []*corev1.Service{{ObjectMeta: metav1.ObjectMeta{
			Name: "my-mcp-server", Namespace: "production",
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPServer", Name: "my-mcp-server", UID: "uid-1", Controller: ptr(true),
			}},
		}}},
		HTTPRoutes: []*gwv1.HTTPRoute{{
			ObjectMeta: metav1.ObjectMeta{Name: "my-mcp-server-route", Namespace: "production",
				Annotations: map[string]string{discovery.AnnotationExport: "true"}},
			Spec: gwv1.HTTPRouteSpec{
				CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{parent}},
				Hostnames:       []gwv1.Hostname{"mcp.example.com"},
				Rules: []gwv1.HTTPRouteRule{{
					Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchPathPrefix), Value: ptr("/servers/my-mcp-server")}}},
					Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
						Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptr("/")}}}},
					BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
						Name: "my-mcp-server", Port: ptr(gwv1.PortNumber(8080))}}}},
				}},
			},
			Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
				ParentRef: parent, ControllerName: "example.com/gateway-controller",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted"}},
			}}}},
		}},
		Gateways: []*gwv1.Gateway{{
			ObjectMeta: metav1.ObjectMeta{Name: "main-gateway", Namespace: "gateway-system"},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
				AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}}},
			Status: gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "mcp.example.com"}}},
		}},
	}
}

// An annotated HTTPRoute alone exports the MCPServer behind it, at the
// route's base path; with ToolHive's endpoint path, at the URL
// that reaches the proxy's /mcp through the route's rewrite.
func ExampleDiscover_httpRoute() {
	snap := routeCluster()
	for _, paths := range []map[string]string{nil, {model.TransportStreamableHTTP: "/mcp"}} {
		res := discovery.Discover(snap, discovery.Options{EndpointPaths: paths, LastUpdated: time.Date(2025, 10, 15, 10, 30, 0, 0, time.UTC)})
		for _, e := range res.Entries {
			for _, r := range e.Remotes {
				fmt.Println(e.Name, r.Type, r.URL, "via", r.Via)
			}
		}
		for _, d := range res.Diagnostics {
			fmt.Println(d.Severity, d.Reason, d.Object)
		}
	}
	// Output:
	// dev.stacklok.toolhive/production.my-mcp-server streamable-http https://mcp.example.com/servers/my-mcp-server via HTTPRoute/production/my-mcp-server-route
	// Info MissingDescription MCPServer/production/my-mcp-server
	// dev.stacklok.toolhive/production.my-mcp-server streamable-http https://mcp.example.com/servers/my-mcp-server/mcp via HTTPRoute/production/my-mcp-server-route
	// Info MissingDescription MCPServer/production/my-mcp-server
}

// A controller maps watch events to the MCP resources to look at again: the
// Gateway's address changing concerns the server its routes lead to; a
// ConfigMap concerns none; an object of a kind discovery does not read is
// an error.
func ExampleAffectedByChange() {
	snap := routeCluster()
	old := snap.Gateways[0]
	moved := old.DeepCopy()
	moved.Status.Addresses[0].Value = "lb.example.com"
	fmt.Println(discovery.AffectedByChange(snap, discovery.Options{}, old, moved))
	fmt.Println(discovery.AffectedBy(snap, discovery.Options{}, &corev1.ConfigMap{}))
	_, err := discovery.AffectedBy(snap, discovery.Options{}, &corev1.Pod{})
	fmt.Println(err)
	// Output:
	// [MCPServer/production/my-mcp-server] <nil>
	// [] <nil>
	// new object: discovery does not read *v1.Pod (kind "")
}
