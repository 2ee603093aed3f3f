package urlbuild

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// FuzzIntersect checks Intersect on arbitrary hostnames: no panic; the
// result is sorted, distinct and lower case; every concrete result is a host
// both sides accept; every wildcard result is one of the inputs.
func FuzzIntersect(f *testing.F) {
	f.Add("foo.example.com", "*.example.com", true)
	f.Add("*.example.com,test.example.net", "*.example.com", true)
	f.Add("*.example.com", "test.example.com", true)
	f.Add("*.foo.example.com", "*.example.com", true)
	f.Add("", "", false)
	f.Add("A.COM,a.com,", "", true)
	f.Add("*", "*.", true)
	f.Fuzz(func(t *testing.T, routeList, listener string, listenerSet bool) {
		var route []string
		if routeList != "" {
			route = strings.Split(routeList, ",")
		}
		var lp *string
		if listenerSet {
			lp = &listener
		}
		hosts, anyHost := Intersect(route, lp)
		if anyHost && len(hosts) > 0 {
			t.Fatalf("anyHost with hosts %q", hosts)
		}
		if !slices.IsSorted(hosts) || len(slices.Compact(slices.Clone(hosts))) != len(hosts) {
			t.Fatalf("hosts %q not sorted and distinct", hosts)
		}
		l := ""
		if lp != nil {
			l = asciiLower(listener)
		}
		inputs := []string{l}
		for _, r := range route {
			inputs = append(inputs, asciiLower(r))
		}
		for _, h := range hosts {
			if h != asciiLower(h) {
				t.Fatalf("host %q not lower case", h)
			}
			if IsWildcard(h) {
				if !slices.Contains(inputs, h) {
					t.Fatalf("wildcard %q is none of the inputs %q", h, inputs)
				}
				continue
			}
			if !MatchHostname(l, h) {
				t.Fatalf("host %q not accepted by the listener hostname %q", h, l)
			}
			if !slices.ContainsFunc(route, func(r string) bool { return MatchHostname(r, h) && r != "" }) && len(slices.DeleteFunc(slices.Clone(route), func(r string) bool { return r == "" })) > 0 {
				t.Fatalf("host %q accepted by no route hostname %q", h, route)
			}
		}
	})
}

// FuzzRouteURLs builds a one-listener Gateway and an accepted one-rule route
// from fuzzed fields and checks that whatever comes out is a URL the
// registry accepts, that it parses back to its parts, and that its path
// reaches the endpoint through the rule.
func FuzzRouteURLs(f *testing.F) {
	f.Add("mcp.example.com", "", "HTTPS", int32(443), "PathPrefix", "/servers/my-mcp-server", "ReplacePrefixMatch", "/", "", "Hostname", "mcp.example.com")
	f.Add("mcp.example.com", "", "HTTPS", int32(443), "PathPrefix", "/servers/my-mcp-server", "ReplacePrefixMatch", "/", "/mcp", "Hostname", "mcp.example.com")
	f.Add("", "*.example.com", "HTTP", int32(8080), "Exact", "/x", "ReplaceFullPath", "/mcp", "/mcp", "Hostname", "lb.example.com")
	f.Add("", "", "HTTP", int32(80), "", "", "", "", "", "", "2001:db8::1")
	f.Add("*.b.example.com", "*.example.com", "HTTP", int32(80), "PathPrefix", "/", "", "", "/sse", "IPAddress", "192.0.2.1")
	f.Add("Bad_Host", "", "HTTP", int32(0), "RegularExpression", "/v[0-9]", "Other", "x", "mcp", "NamedAddress", "n")
	f.Fuzz(func(t *testing.T, routeHost, listenerHost, protocol string, port int32, pathType, pathValue, rewriteType, rewriteValue, endpoint, addrType, addrValue string) {
		l := gwv1.Listener{Name: "l", Protocol: gwv1.ProtocolType(protocol), Port: port,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}
		if listenerHost != "" {
			l.Hostname = ptr(gwv1.Hostname(listenerHost))
		}
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "infra", Name: "gw"}, Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{l}}}
		if addrValue != "" {
			a := gwv1.GatewayStatusAddress{Value: addrValue}
			if addrType != "" {
				a.Type = ptr(gwv1.AddressType(addrType))
			}
			gw.Status.Addresses = []gwv1.GatewayStatusAddress{a}
		}
		match := gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{}}
		if pathType != "" {
			match.Path.Type = ptr(gwv1.PathMatchType(pathType))
		}
		if pathValue != "" {
			match.Path.Value = ptr(pathValue)
		}
		rule := gwv1.HTTPRouteRule{Matches: []gwv1.HTTPRouteMatch{match}}
		var rewrite *gwv1.HTTPURLRewriteFilter
		if rewriteType != "" {
			mod := &gwv1.HTTPPathModifier{Type: gwv1.HTTPPathModifierType(rewriteType)}
			if rewriteType == string(gwv1.FullPathHTTPPathModifier) {
				mod.ReplaceFullPath = ptr(rewriteValue)
			} else {
				mod.ReplacePrefixMatch = ptr(rewriteValue)
			}
			rewrite = &gwv1.HTTPURLRewriteFilter{Path: mod}
			rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: rewrite}}
		}
		ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
		route := &gwv1.HTTPRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: "apps", Name: "r"},
			Spec:       gwv1.HTTPRouteSpec{CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}}, Rules: []gwv1.HTTPRouteRule{rule}},
			Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
				ParentRef: ref, ControllerName: "example.net/c",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
			}}}},
		}
		if routeHost != "" {
			route.Spec.Hostnames = []gwv1.Hostname{gwv1.Hostname(routeHost)}
		}
		ix := NewIndex([]*gwv1.Gateway{gw}, []*corev1.Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "apps"}}})
		urls, ds := RouteURLs(ix, route, 0, RuleOptions{EndpointPath: endpoint})
		if len(urls) == 0 && len(ds) == 0 {
			t.Fatal("no URL and no diagnostic saying why")
		}
		for _, u := range urls {
			if !model.RemoteURLPattern().MatchString(u.URL) {
				t.Fatalf("%q does not match %s", u.URL, model.RemoteURLPattern())
			}
			p, err := url.Parse(u.URL)
			if err != nil {
				t.Fatalf("%q does not parse: %v", u.URL, err)
			}
			wantHost := strings.TrimPrefix(u.Origin.String(), u.Origin.Scheme+"://")
			if p.Scheme != u.Origin.Scheme || p.Host != wantHost || p.EscapedPath() != u.Path || u.URL != u.Origin.String()+u.Path {
				t.Fatalf("%q parses to scheme %q host %q path %q; built from %+v", u.URL, p.Scheme, p.Host, p.EscapedPath(), u)
			}
			if h := p.Hostname(); h != strings.Trim(u.Origin.Host, "[]") {
				t.Fatalf("%q has host %q, built from %q", u.URL, h, u.Origin.Host)
			}
			if p.RawQuery != "" || p.Fragment != "" || p.User != nil {
				t.Fatalf("%q has a query, fragment or user info", u.URL)
			}
			if endpoint != "" {
				if got, err := Rewrite(u.Path, match.Path, rewrite); err != nil || got != endpoint {
					t.Fatalf("%q: the backend receives %q, %v, not the endpoint %q", u.URL, got, err, endpoint)
				}
			}
		}
	})
}

// asciiLower is the test's own ASCII lower-casing, so the fuzz target does not
// check lower against itself.
func asciiLower(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}
