package urlbuild

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// TestConflictingListenersCarryNothing: two listeners of one port, protocol
// and hostname (a Gateway the API server refuses, which a manifest can still
// hold) carry no requests, whichever is ready and whichever the route names:
// no URL, and ListenerNotReady names the other listener.
func TestConflictingListenersCarryNothing(t *testing.T) {
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	ready := []metav1.Condition{{Type: "Programmed", Status: metav1.ConditionTrue}, {Type: "ResolvedRefs", Status: metav1.ConditionTrue}}
	for _, section := range []string{"a", "b", ""} {
		t.Run("sectionName="+section, func(t *testing.T) {
			gw := &gwv1.Gateway{
				ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
				Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{
					{Name: "b", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: all},
					{Name: "a", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: all},
				}},
				// Only b is ready: a has no status entry.
				Status: gwv1.GatewayStatus{
					Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "gw.example.com"}},
					Listeners: []gwv1.ListenerStatus{{Name: "b", Conditions: ready}},
				},
			}
			ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
			if section != "" {
				ref.SectionName = ptr(gwv1.SectionName(section))
			}
			urls, ds := shadowURLs(gw, acceptedRoute(ref))
			if len(urls) != 0 {
				t.Errorf("URLs %v through conflicting listeners, want none", urls)
			}
			named := 0
			for _, d := range ds {
				if d.Reason == model.ReasonListenerNotReady && strings.Contains(d.Message, "shares port, protocol and hostname with listener") {
					named++
				}
			}
			if named != 1 {
				t.Errorf("want one ListenerNotReady naming the conflict, got %v", ds)
			}
		})
	}
}

// TestTCPListenerSharesPort: an HTTPS listener that shares its port with a
// TCP listener carries nothing (an implementation that supports TCP
// listeners accepts neither), and ListenerNotReady names the TCP listener;
// a TCP listener on another port changes nothing.
func TestTCPListenerSharesPort(t *testing.T) {
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	for _, tc := range []struct {
		tcpPort gwv1.PortNumber
		urls    int
	}{{443, 0}, {5432, 1}} {
		t.Run(fmt.Sprint(tc.tcpPort), func(t *testing.T) {
			gw := &gwv1.Gateway{
				ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
				Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{
					{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443, Hostname: ptr(gwv1.Hostname("mcp.example.com")), AllowedRoutes: all},
					{Name: "db", Protocol: gwv1.TCPProtocolType, Port: tc.tcpPort, AllowedRoutes: all},
				}},
			}
			ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
			urls, ds := shadowURLs(gw, acceptedRoute(ref))
			if len(urls) != tc.urls {
				t.Errorf("URLs %v, want %d", urls, tc.urls)
			}
			named := 0
			for _, d := range ds {
				if d.Reason == model.ReasonListenerNotReady && strings.Contains(d.Message, `shares its port with TCP listener "db"`) {
					named++
				}
			}
			if want := 1 - tc.urls; named != want {
				t.Errorf("%d ListenerNotReady naming the TCP listener, want %d: %v", named, want, ds)
			}
		})
	}
}

// acceptedRoute is HTTPRoute team/r with one rule, PathPrefix /mcp, and the
// one parentRef ref, which its status accepts.
func acceptedRoute(ref gwv1.ParentReference) *gwv1.HTTPRoute {
	return &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "team"},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}},
			Rules:           []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: prefixMatch("/mcp")}}}},
		},
		Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
			ParentRef: ref, ControllerName: "example.net/c",
			Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
		}}}},
	}
}

// TestShadowedPrefixFallsBackOnlyAsWritten: when another route's Exact match
// takes a PathPrefix rule's bare prefix, the URL falls back to the prefix
// with a trailing "/" only where that is the prefix as written, or where the
// backend receives the very path the bare prefix would give it; otherwise
// no URL, ShadowedByRoute.
func TestShadowedPrefixFallsBackOnlyAsWritten(t *testing.T) {
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
		Spec:       gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: all}}},
		Status:     gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "gw.example.com"}}},
	}
	ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
	other := acceptedRoute(ref)
	other.Name = "other"
	other.Spec.Rules = []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: exactMatch("/a")}},
		BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "web"}}}}}}
	for _, tc := range []struct {
		name    string
		prefix  string
		rewrite *gwv1.HTTPURLRewriteFilter
		want    string // "" for no URL
	}{
		{"prefix without slash", "/a", nil, ""},
		{"prefix without slash, ReplacePrefixMatch", "/a", replacePrefix("/mcp"), ""},
		{"prefix as written with slash", "/a/", nil, "https://gw.example.com/a/"},
		{"prefix without slash, ReplaceFullPath", "/a", replaceFull("/mcp"), "https://gw.example.com/a/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := acceptedRoute(ref)
			r.Spec.Rules[0].Matches[0].Path = prefixMatch(tc.prefix)
			r.Spec.Rules[0].BackendRefs = []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "mcp-a-proxy"}}}}
			if tc.rewrite != nil {
				r.Spec.Rules[0].Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: tc.rewrite}}
			}
			a := NewIndex([]*gwv1.Gateway{gw}, nil, r, other).Attach(r)
			urls, ds := a.RuleURLs(0, RuleOptions{Transport: TransportStreamableHTTP})
			var got []string
			for _, u := range urls {
				got = append(got, u.URL)
			}
			var want []string
			if tc.want != "" {
				want = []string{tc.want}
			}
			if !slices.Equal(got, want) {
				t.Errorf("URLs %v, want %v", got, want)
			}
			shadowed := false
			for _, d := range ds {
				shadowed = shadowed || d.Reason == model.ReasonShadowedByRoute
			}
			if shadowed != (tc.want == "") {
				t.Errorf("ShadowedByRoute %v, want %v: %v", shadowed, tc.want == "", ds)
			}
		})
	}
}

// TestURLCheckedThroughEveryGateway: a route attached to two Gateways that
// both serve its host gives one URL, which a client may reach through
// either Gateway (DNS decides): it is published only when its requests
// reach the backend through both, whichever Gateway sorts first.
func TestURLCheckedThroughEveryGateway(t *testing.T) {
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	gateway := func(name, addr string) *gwv1.Gateway {
		return &gwv1.Gateway{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "infra"},
			Spec:       gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: all}}},
			Status:     gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.IPAddressType), Value: addr}}},
		}
	}
	gws := []*gwv1.Gateway{gateway("gw1", "203.0.113.1"), gateway("gw2", "203.0.113.2")}
	refTo := func(name string) gwv1.ParentReference {
		return gwv1.ParentReference{Name: gwv1.ObjectName(name), Namespace: ptr(gwv1.Namespace("infra"))}
	}
	onBoth := func() *gwv1.HTTPRoute {
		r := acceptedRoute(refTo("gw1"))
		second := acceptedRoute(refTo("gw2"))
		r.Spec.ParentRefs = append(r.Spec.ParentRefs, refTo("gw2"))
		r.Status.Parents = append(r.Status.Parents, second.Status.Parents...)
		r.Spec.Hostnames = []gwv1.Hostname{"mcp.example.com"}
		r.Spec.Rules[0].BackendRefs = []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "mcp-a-proxy"}}}}
		return r
	}
	shadow := func(gw string) *gwv1.HTTPRoute {
		o := acceptedRoute(refTo(gw))
		o.Name = "other"
		o.Spec.Hostnames = []gwv1.Hostname{"mcp.example.com"}
		o.Spec.Rules = []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: exactMatch("/mcp")}},
			BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "web"}}}}}}
		return o
	}
	for _, tc := range []struct {
		name     string
		shadowOn string // "" for no other route
		want     []string
	}{
		{"no other route", "", []string{"https://mcp.example.com/mcp"}},
		{"shadowed on the first Gateway", "gw1", nil},
		{"shadowed on the second Gateway", "gw2", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := onBoth()
			routes := []*gwv1.HTTPRoute{r}
			if tc.shadowOn != "" {
				routes = append(routes, shadow(tc.shadowOn))
			}
			a := NewIndex(gws, nil, routes...).Attach(r)
			urls, ds := a.RuleURLs(0, RuleOptions{Transport: TransportStreamableHTTP})
			var got []string
			for _, u := range urls {
				got = append(got, u.URL)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("URLs %v, want %v", got, tc.want)
			}
			named := 0
			for _, d := range ds {
				if d.Reason == model.ReasonShadowedByRoute && strings.Contains(d.Message, "Gateway infra/"+tc.shadowOn) {
					named++
				}
			}
			want := 0
			if tc.shadowOn != "" {
				want = 1
			}
			if named != want {
				t.Errorf("%d ShadowedByRoute naming Gateway %s, want %d: %v", named, tc.shadowOn, want, ds)
			}
		})
	}
}

// TestCompetitorWithUnknownNamespace: on a listener that admits namespaces
// by selector, another route whose status says the Gateway accepted it
// competes for requests even when its Namespace is not in the snapshot (the
// controller knew its labels); a Namespace whose labels the selector does
// not match keeps it out.
func TestCompetitorWithUnknownNamespace(t *testing.T) {
	from := gwv1.NamespacesFromSelector
	sel := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: &from,
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"gw-access": "yes"}}}}
	gw := &gwv1.Gateway{
		ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
		Spec:       gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: sel}}},
		Status:     gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "gw.example.com"}}},
	}
	ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
	team := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team", Labels: map[string]string{"gw-access": "yes"}}}
	r := acceptedRoute(ref)
	o := acceptedRoute(ref)
	o.Name, o.Namespace = "o", "web"
	o.Spec.Rules = []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: prefixMatch("/mcp")}},
		BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{Name: "web"}}}}}}
	r.CreationTimestamp = metav1.NewTime(time.Date(2025, 1, 2, 0, 0, 0, 0, time.UTC))
	o.CreationTimestamp = metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) // older: wins ties
	for _, tc := range []struct {
		name string
		web  *corev1.Namespace
		urls int
	}{
		{"web unknown", nil, 0},
		{"web not selected", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "web"}}, 1},
		{"web selected", &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"gw-access": "yes"}}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nss := []*corev1.Namespace{team}
			if tc.web != nil {
				nss = append(nss, tc.web)
			}
			urls, ds := NewIndex([]*gwv1.Gateway{gw}, nss, r, o).Attach(r).RuleURLs(0, RuleOptions{Transport: TransportStreamableHTTP})
			if len(urls) != tc.urls {
				t.Errorf("%d URLs, want %d: %v %v", len(urls), tc.urls, urls, ds)
			}
		})
	}
}

// TestPlainAndTLSListenersSharePort: an HTTP and an HTTPS (or TLS) listener
// on one port conflict (ProtocolConflict): neither carries requests, and
// ListenerNotReady names the other; on distinct ports, or HTTPS beside TLS,
// nothing changes. A listener whose status says Conflicted=False is taken
// at the controller's word.
func TestPlainAndTLSListenersSharePort(t *testing.T) {
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	programmed := func(name string, conflicted metav1.ConditionStatus) gwv1.ListenerStatus {
		return gwv1.ListenerStatus{Name: gwv1.SectionName(name), Conditions: []metav1.Condition{
			{Type: "Accepted", Status: metav1.ConditionTrue}, {Type: "Programmed", Status: metav1.ConditionTrue},
			{Type: "ResolvedRefs", Status: metav1.ConditionTrue}, {Type: "Conflicted", Status: conflicted}}}
	}
	for _, tc := range []struct {
		name      string
		listeners []gwv1.Listener
		urls      int
		status    []gwv1.ListenerStatus
	}{
		{"HTTP and HTTPS on 8443", []gwv1.Listener{
			{Name: "plain", Protocol: gwv1.HTTPProtocolType, Port: 8443, AllowedRoutes: all},
			{Name: "tls", Protocol: gwv1.HTTPSProtocolType, Port: 8443, AllowedRoutes: all}}, 0, nil},
		{"HTTP and HTTPS on 8443, both Conflicted=False in status", []gwv1.Listener{
			{Name: "plain", Protocol: gwv1.HTTPProtocolType, Port: 8443, AllowedRoutes: all},
			{Name: "tls", Protocol: gwv1.HTTPSProtocolType, Port: 8443, AllowedRoutes: all}}, 2,
			[]gwv1.ListenerStatus{programmed("plain", metav1.ConditionFalse), programmed("tls", metav1.ConditionFalse)}},
		{"HTTP and HTTPS on 8443, only HTTP Conflicted=False in status", []gwv1.Listener{
			{Name: "plain", Protocol: gwv1.HTTPProtocolType, Port: 8443, AllowedRoutes: all},
			{Name: "tls", Protocol: gwv1.HTTPSProtocolType, Port: 8443, AllowedRoutes: all}}, 1,
			[]gwv1.ListenerStatus{programmed("plain", metav1.ConditionFalse), programmed("tls", metav1.ConditionUnknown)}},
		{"HTTP beside TLS on 443", []gwv1.Listener{
			{Name: "plain", Protocol: gwv1.HTTPProtocolType, Port: 443, AllowedRoutes: all},
			{Name: "passthrough", Protocol: gwv1.TLSProtocolType, Port: 443, AllowedRoutes: all}}, 0, nil},
		{"HTTP on 80, HTTPS on 443", []gwv1.Listener{
			{Name: "plain", Protocol: gwv1.HTTPProtocolType, Port: 80, AllowedRoutes: all},
			{Name: "tls", Protocol: gwv1.HTTPSProtocolType, Port: 443, AllowedRoutes: all}}, 2, nil},
		{"HTTPS beside TLS on 443", []gwv1.Listener{
			{Name: "tls", Protocol: gwv1.HTTPSProtocolType, Port: 443, Hostname: ptr(gwv1.Hostname("mcp.example.com")), AllowedRoutes: all},
			{Name: "passthrough", Protocol: gwv1.TLSProtocolType, Port: 443, Hostname: ptr(gwv1.Hostname("db.example.com")), AllowedRoutes: all}}, 1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gw := &gwv1.Gateway{
				ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"},
				Spec:       gwv1.GatewaySpec{Listeners: tc.listeners},
				Status:     gwv1.GatewayStatus{Addresses: []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: "mcp.example.com"}}, Listeners: tc.status},
			}
			ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
			urls, ds := shadowURLs(gw, acceptedRoute(ref))
			if len(urls) != tc.urls {
				t.Errorf("URLs %v, want %d", urls, tc.urls)
			}
			named := 0
			for _, d := range ds {
				if d.Reason == model.ReasonListenerNotReady && strings.Contains(d.Message, "ProtocolConflict") {
					named++
				}
			}
			// A listener left out by the protocol conflict: none carries,
			// or one the status does not clear beside one it does.
			if conflicted := tc.urls == 0 || (tc.status != nil && tc.urls < len(tc.listeners)); conflicted != (named > 0) {
				t.Errorf("%d ListenerNotReady naming a protocol conflict: %v", named, ds)
			}
		})
	}
}
