package urlbuild

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

func TestDefaultParentRef(t *testing.T) {
	rows := []struct {
		name string
		in   gwv1.ParentReference
		want gwv1.ParentReference
	}{
		{
			name: "all defaults",
			in:   gwv1.ParentReference{Name: "gw"},
			want: gwv1.ParentReference{Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("apps")), Name: "gw"},
		},
		{
			name: "empty namespace, sectionName and port are unset",
			in:   gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("")), SectionName: ptr(gwv1.SectionName("")), Port: ptr(gwv1.PortNumber(0))},
			want: gwv1.ParentReference{Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("apps")), Name: "gw"},
		},
		{
			name: "explicit core group stays",
			in:   gwv1.ParentReference{Group: ptr(gwv1.Group("")), Kind: ptr(gwv1.Kind("Service")), Name: "svc", Port: ptr(gwv1.PortNumber(80))},
			want: gwv1.ParentReference{Group: ptr(gwv1.Group("")), Kind: ptr(gwv1.Kind("Service")), Namespace: ptr(gwv1.Namespace("apps")), Name: "svc", Port: ptr(gwv1.PortNumber(80))},
		},
		{
			name: "everything set",
			in: gwv1.ParentReference{Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("infra")),
				Name: "gw", SectionName: ptr(gwv1.SectionName("https")), Port: ptr(gwv1.PortNumber(443))},
			want: gwv1.ParentReference{Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("infra")),
				Name: "gw", SectionName: ptr(gwv1.SectionName("https")), Port: ptr(gwv1.PortNumber(443))},
		},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := DefaultParentRef(r.in, "apps")
			if diff := cmp.Diff(r.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
			if !SameParentRef(r.in, got, "apps") || !SameParentRef(got, r.want, "apps") {
				t.Error("a parentRef is not the same reference as its defaulted form")
			}
		})
	}
}

func TestParentGateway(t *testing.T) {
	rows := []struct {
		ref  gwv1.ParentReference
		want string
		ok   bool
	}{
		{gwv1.ParentReference{Name: "gw"}, "apps/gw", true},
		{gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra")), SectionName: ptr(gwv1.SectionName("http"))}, "infra/gw", true},
		{gwv1.ParentReference{Name: "gw", Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway"))}, "apps/gw", true},
		{gwv1.ParentReference{Name: "svc", Group: ptr(gwv1.Group("")), Kind: ptr(gwv1.Kind("Service"))}, "/", false},
		{gwv1.ParentReference{Name: "ls", Kind: ptr(gwv1.Kind("ListenerSet"))}, "/", false},
	}
	for _, r := range rows {
		got, ok := ParentGateway(r.ref, "apps")
		if got.String() != r.want || ok != r.ok {
			t.Errorf("ParentGateway(%+v) = %s, %v; want %s, %v", r.ref, got, ok, r.want, r.ok)
		}
	}
}

func TestSameParentRef(t *testing.T) {
	base := gwv1.ParentReference{Name: "gw"}
	rows := []struct {
		name  string
		other gwv1.ParentReference
		want  bool
	}{
		{"defaulted fields spelled out", gwv1.ParentReference{Group: ptr(gwv1.Group(GatewayGroup)), Kind: ptr(gwv1.Kind("Gateway")), Namespace: ptr(gwv1.Namespace("apps")), Name: "gw"}, true},
		{"other name", gwv1.ParentReference{Name: "gw2"}, false},
		{"other namespace", gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}, false},
		{"core group", gwv1.ParentReference{Group: ptr(gwv1.Group("")), Name: "gw"}, false},
		{"other kind", gwv1.ParentReference{Kind: ptr(gwv1.Kind("ListenerSet")), Name: "gw"}, false},
		{"sectionName set", gwv1.ParentReference{Name: "gw", SectionName: ptr(gwv1.SectionName("http"))}, false},
		{"port set", gwv1.ParentReference{Name: "gw", Port: ptr(gwv1.PortNumber(80))}, false},
		{"empty sectionName", gwv1.ParentReference{Name: "gw", SectionName: ptr(gwv1.SectionName(""))}, true},
	}
	for _, r := range rows {
		if got := SameParentRef(base, r.other, "apps"); got != r.want {
			t.Errorf("%s: SameParentRef = %v; want %v", r.name, got, r.want)
		}
		if got := SameParentRef(r.other, base, "apps"); got != r.want {
			t.Errorf("%s: SameParentRef is not symmetric", r.name)
		}
	}
}

func TestDefaultAllowedRoutes(t *testing.T) {
	httpKinds := []gwv1.RouteGroupKind{
		{Group: ptr(gwv1.Group(GatewayGroup)), Kind: "HTTPRoute"},
		{Group: ptr(gwv1.Group(GatewayGroup)), Kind: "GRPCRoute"},
	}
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}}
	rows := []struct {
		name string
		in   gwv1.Listener
		want gwv1.AllowedRoutes
	}{
		{"absent: Same, protocol kinds", gwv1.Listener{Protocol: gwv1.HTTPProtocolType},
			gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSame)}, Kinds: httpKinds}},
		{"namespaces without from", gwv1.Listener{Protocol: gwv1.HTTPSProtocolType, AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{}}},
			gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSame)}, Kinds: httpKinds}},
		{"selector kept, kind group defaulted", gwv1.Listener{Protocol: gwv1.HTTPProtocolType, AllowedRoutes: &gwv1.AllowedRoutes{
			Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSelector), Selector: sel},
			Kinds:      []gwv1.RouteGroupKind{{Kind: "HTTPRoute"}}}},
			gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSelector), Selector: sel},
				Kinds: []gwv1.RouteGroupKind{{Group: ptr(gwv1.Group(GatewayGroup)), Kind: "HTTPRoute"}}}},
		{"TLS carries TLSRoute", gwv1.Listener{Protocol: gwv1.TLSProtocolType},
			gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSame)},
				Kinds: []gwv1.RouteGroupKind{{Group: ptr(gwv1.Group(GatewayGroup)), Kind: "TLSRoute"}}}},
		{"unknown protocol carries nothing", gwv1.Listener{Protocol: "example.com/quic"},
			gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSame)}, Kinds: []gwv1.RouteGroupKind{}}},
	}
	for _, r := range rows {
		if diff := cmp.Diff(r.want, DefaultAllowedRoutes(r.in)); diff != "" {
			t.Errorf("%s (-want +got)\n%s", r.name, diff)
		}
	}
}

func TestDefaultBackendRef(t *testing.T) {
	got := DefaultBackendRef(gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "svc", Port: ptr(gwv1.PortNumber(8080))}}, "apps")
	want := gwv1.BackendRef{
		BackendObjectReference: gwv1.BackendObjectReference{Group: ptr(gwv1.Group("")), Kind: ptr(gwv1.Kind("Service")), Name: "svc",
			Namespace: ptr(gwv1.Namespace("apps")), Port: ptr(gwv1.PortNumber(8080))},
		Weight: ptr(int32(1)),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	in := gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Group: ptr(gwv1.Group("example.com")), Kind: ptr(gwv1.Kind("Thing")),
		Name: "t", Namespace: ptr(gwv1.Namespace("other"))}, Weight: ptr(int32(0))}
	got = DefaultBackendRef(in, "apps")
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("set fields must be kept (-want +got)\n%s", diff)
	}
	*got.Weight = 5
	if *in.Weight != 0 {
		t.Error("DefaultBackendRef shares pointers with its input")
	}
}

func TestDefaultMatches(t *testing.T) {
	typ, value := DefaultPathMatch(DefaultMatches(gwv1.HTTPRouteRule{})[0])
	if typ != gwv1.PathMatchPathPrefix || value != "/" {
		t.Errorf("default match = %s %q; want PathPrefix /", typ, value)
	}
	if rules := DefaultRules(&gwv1.HTTPRoute{}); len(rules) != 1 || len(rules[0].Matches) != 0 {
		t.Errorf("DefaultRules of a route without rules = %+v; want one rule without matches", rules)
	}
	if DefaultRules(nil) != nil {
		t.Error("DefaultRules(nil) is not nil")
	}
}

// TestAPIEdges: nil inputs, out-of-range indexes and duplicates never panic
// and always say what happened.
func TestAPIEdges(t *testing.T) {
	route, gw := testExampleRoute()
	var nilIndex *Index
	if urls, ds := RouteURLs(nilIndex, route, 0, RuleOptions{}); len(urls) != 0 || len(ds.WithReason(model.ReasonParentNotFound)) != 1 {
		t.Errorf("nil index: %v %v; want no URL and ParentNotFound", urls, ds)
	}
	if urls, ds := RouteURLs(nil, nil, 0, RuleOptions{}); urls != nil || ds != nil {
		t.Errorf("nil route: %v %v", urls, ds)
	}
	ix := NewIndex([]*gwv1.Gateway{nil, gw}, []*corev1.Namespace{nil})
	for _, i := range []int{-1, 1, 99} {
		urls, ds := RouteURLs(ix, route, i, RuleOptions{})
		if len(urls) != 0 || len(ds.WithReason(model.ReasonUnsupportedPathMatch)) != 1 {
			t.Errorf("rule %d: %v %v; want no URL and one UnsupportedPathMatch", i, urls, ds)
		}
	}
	for _, b := range []int{-1, 0, 7} {
		urls, ds := RouteURLs(ix, route, 0, RuleOptions{Backend: b})
		if got := Strings(urls); len(got) != 1 || got[0] != "https://mcp.example.com/servers/my-mcp-server" || len(ds) != 0 {
			t.Errorf("backend %d: %v %v", b, got, ds)
		}
	}
	var a *Attachment
	if urls, ds := a.RuleURLs(0, RuleOptions{}); urls != nil || ds != nil {
		t.Error("nil Attachment gives URLs")
	}

	// Duplicate Gateways: the newer generation wins whatever the order.
	older := gw.DeepCopy()
	older.Generation = 1
	older.Status.Addresses = nil
	newer := gw.DeepCopy()
	newer.Generation = 2
	for _, gws := range [][]*gwv1.Gateway{{older, newer}, {newer, older}} {
		if got := NewIndex(gws, nil).Gateway("gateway-system", "main-gateway"); got.Generation != 2 {
			t.Errorf("duplicate Gateways: kept generation %d", got.Generation)
		}
	}
	if NewIndex(nil, nil).Gateway("gateway-system", "main-gateway") != nil || nilIndex.Gateway("a", "b") != nil {
		t.Error("empty index finds a Gateway")
	}
}

// testExampleRoute is the route production/my-mcp-server-route and its
// Gateway (see example_test.go for the same objects used as documentation).
func testExampleRoute() (*gwv1.HTTPRoute, *gwv1.Gateway) {
	ref := gwv1.ParentReference{Name: "main-gateway", Namespace: ptr(gwv1.Namespace("gateway-system"))}
	route := &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Name: "my-mcp-server-route", Namespace: "production"},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}},
			Hostnames:       []gwv1.Hostname{"mcp.example.com"},
			Rules: []gwv1.HTTPRouteRule{{
				Matches:     []gwv1.HTTPRouteMatch{{Path: prefixMatch("/servers/my-mcp-server")}},
				Filters:     []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: replacePrefix("/")}},
				BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "my-mcp-server"}}}},
			}},
		},
		Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
			ParentRef: ref, ControllerName: "example.net/c",
			Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
		}}}},
	}
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Name: "main-gateway", Namespace: "gateway-system"},
		Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}}},
		Status: gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "mcp.example.com"}}},
	}
	return route, gw
}
