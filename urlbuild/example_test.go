package urlbuild_test

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/urlbuild"
)

func p[T any](v T) *T { return &v }

// exampleRoute is a route in production and its Gateway in gateway-system
// with an HTTPS listener admitting all namespaces.
func exampleRoute() (*gwv1.HTTPRoute, *gwv1.Gateway) {
	ref := gwv1.ParentReference{Name: "main-gateway", Namespace: p(gwv1.Namespace("gateway-system"))}
	route := &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Name: "my-mcp-server-route", Namespace: "production"},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}},
			Hostnames:       []gwv1.Hostname{"mcp.example.com"},
			Rules: []gwv1.HTTPRouteRule{{
				Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{
					Type: p(gwv1.PathMatchPathPrefix), Value: p("/servers/my-mcp-server")}}},
				Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
					Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: p("/")}}}},
				BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
					Name: "my-mcp-server", Port: p(gwv1.PortNumber(8080))}}}},
			}},
		},
		Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
			ParentRef: ref, ControllerName: "example.net/gateway-controller",
			Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
		}}}},
	}
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Name: "main-gateway", Namespace: "gateway-system"},
		Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{
			Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: p(gwv1.NamespacesFromAll)}},
		}}},
		Status: gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: p(gwv1.HostnameAddressType), Value: "mcp.example.com"}}},
	}
	return route, gw
}

// The URL of a route, as a base path and through the rewrite to
// ToolHive's streamable-http endpoint.
func ExampleRouteURLs() {
	route, gw := exampleRoute()
	ix := urlbuild.NewIndex([]*gwv1.Gateway{gw}, nil)

	urls, diags := urlbuild.RouteURLs(ix, route, 0, urlbuild.RuleOptions{})
	fmt.Println(urlbuild.Strings(urls), len(diags))

	urls, _ = urlbuild.RouteURLs(ix, route, 0, urlbuild.RuleOptions{EndpointPath: "/mcp"})
	for _, u := range urls {
		fmt.Println(u.URL, "via", u.Origin.Gateway, "listener", u.Origin.Listener)
	}
	// Output:
	// [https://mcp.example.com/servers/my-mcp-server] 0
	// https://mcp.example.com/servers/my-mcp-server/mcp via gateway-system/main-gateway listener https
}

// A caller walking many routes builds the index once, attaches each route
// once, and asks for each rule's URLs.
func ExampleIndex_Attach() {
	route, gw := exampleRoute()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "production"}}
	ix := urlbuild.NewIndex([]*gwv1.Gateway{gw}, []*corev1.Namespace{ns})

	a := ix.Attach(route)
	for _, o := range a.Origins {
		fmt.Println("origin", o)
	}
	for i := range urlbuild.DefaultRules(route) {
		urls, _ := a.RuleURLs(i, urlbuild.RuleOptions{EndpointPath: "/sse"})
		fmt.Println("rule", i, urlbuild.Strings(urls))
	}
	// Output:
	// origin https://mcp.example.com
	// rule 0 [https://mcp.example.com/servers/my-mcp-server/sse]
}

// Hostname intersection per HTTPRouteSpec.Hostnames: the more specific name
// wins, and a wildcard matches one or more labels.
func ExampleIntersect() {
	fmt.Println(urlbuild.Intersect([]string{"*.example.com"}, p("test.example.com")))
	fmt.Println(urlbuild.Intersect([]string{"a.b.example.com", "example.com"}, p("*.example.com")))
	fmt.Println(urlbuild.Intersect([]string{"*.foo.example.com"}, p("*.example.com")))
	fmt.Println(urlbuild.Intersect(nil, nil))
	// Output:
	// [test.example.com] false
	// [a.b.example.com] false
	// [*.foo.example.com] false
	// [] true
}

// The path a client must ask for so that the backend receives /mcp, and the
// forward rewrite that proves it.
func ExampleExternalPath() {
	match := &gwv1.HTTPPathMatch{Type: p(gwv1.PathMatchPathPrefix), Value: p("/github")}
	rewrite := &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: p("/")}}

	ext, _ := urlbuild.ExternalPath("/mcp", match, rewrite)
	back, _ := urlbuild.Rewrite(ext, match, rewrite)
	fmt.Println(ext, "->", back)

	_, err := urlbuild.ExternalPath("/mcp", match, nil)
	fmt.Println(err)
	// Output:
	// /github/mcp -> /mcp
	// without a path rewrite the backend receives the request path, which is under PathPrefix "/github", and the endpoint path "/mcp" is not; add a URLRewrite with ReplacePrefixMatch
}
