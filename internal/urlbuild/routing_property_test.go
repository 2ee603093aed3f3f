package urlbuild

import (
	"fmt"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// routingWorld is a random set of routes competing on a few listeners:
// paths, match types, methods and hostnames from small pools so that rules
// overlap, backends from a pool of three so that rules share them.
type routingWorld struct {
	gateways  []*gwv1.Gateway
	routes    []*gwv1.HTTPRoute
	transport string
	endpoint  string
}

func drawRoutingWorld(t *rapid.T) routingWorld {
	w := routingWorld{
		transport: rapid.SampledFrom([]string{TransportStreamableHTTP, TransportSSE, ""}).Draw(t, "transport"),
		endpoint:  rapid.SampledFrom([]string{"", "/mcp", "/sse"}).Draw(t, "endpoint"),
	}
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	for gi := range rapid.IntRange(1, 2).Draw(t, "gateways") {
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("g%d", gi), Namespace: "infra"}}
		for li := range rapid.IntRange(1, 3).Draw(t, "listeners") {
			l := gwv1.Listener{Name: gwv1.SectionName(fmt.Sprintf("l%d", li)), AllowedRoutes: all,
				Protocol: rapid.SampledFrom([]gwv1.ProtocolType{gwv1.HTTPSProtocolType, gwv1.HTTPProtocolType}).Draw(t, "protocol")}
			l.Port = map[gwv1.ProtocolType]int32{gwv1.HTTPProtocolType: 80, gwv1.HTTPSProtocolType: 443}[l.Protocol]
			if h := rapid.SampledFrom([]string{"", "*.example.com", "a.example.com"}).Draw(t, "listenerHostname"); h != "" {
				l.Hostname = ptr(gwv1.Hostname(h))
			}
			gw.Spec.Listeners = append(gw.Spec.Listeners, l)
		}
		gw.Status.Addresses = []gwv1.GatewayStatusAddress{{Type: ptr(gwv1.HostnameAddressType), Value: fmt.Sprintf("g%d.example.com", gi)}}
		w.gateways = append(w.gateways, gw)
	}
	paths := []string{"/", "/a", "/a/", "/a/b", "/mcp", "/a/mcp", "/sse", "/a/sse", "/messages", "/a/messages"}
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for ri := range rapid.IntRange(1, 5).Draw(t, "routes") {
		r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("r%d", ri), Namespace: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "ns"),
			CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, "age")) * time.Hour)),
		}}
		gw := rapid.SampledFrom(w.gateways).Draw(t, "parent")
		ref := gwv1.ParentReference{Name: gwv1.ObjectName(gw.Name), Namespace: ptr(gwv1.Namespace("infra"))}
		r.Spec.ParentRefs = []gwv1.ParentReference{ref}
		if rapid.IntRange(0, 5).Draw(t, "accepted") > 0 {
			r.Status.Parents = []gwv1.RouteParentStatus{{ParentRef: ref, ControllerName: "example.net/c",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}}}}
		}
		for _, h := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"a.example.com", "b.example.com", "*.example.com"}), 0, 2, rapid.ID[string]).Draw(t, "hostnames") {
			r.Spec.Hostnames = append(r.Spec.Hostnames, gwv1.Hostname(h))
		}
		for range rapid.IntRange(1, 3).Draw(t, "rules") {
			var rule gwv1.HTTPRouteRule
			for range rapid.IntRange(0, 2).Draw(t, "matches") {
				m := gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{
					Type:  ptr(rapid.SampledFrom([]gwv1.PathMatchType{gwv1.PathMatchPathPrefix, gwv1.PathMatchPathPrefix, gwv1.PathMatchExact, gwv1.PathMatchRegularExpression}).Draw(t, "type")),
					Value: ptr(rapid.SampledFrom(paths).Draw(t, "path")),
				}}
				if mt := rapid.SampledFrom([]string{"", "", "GET", "POST", "DELETE"}).Draw(t, "method"); mt != "" {
					m.Method = ptr(gwv1.HTTPMethod(mt))
				}
				if rapid.IntRange(0, 4).Draw(t, "header") == 0 {
					m.Headers = []gwv1.HTTPHeaderMatch{rapid.SampledFrom(headerConditions).Draw(t, "headerCondition")}
				}
				rule.Matches = append(rule.Matches, m)
			}
			if len(rule.Matches) <= 1 && rapid.Bool().Draw(t, "rewrite") {
				if len(rule.Matches) == 0 || *rule.Matches[0].Path.Type == gwv1.PathMatchPathPrefix {
					rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: replacePrefix("/")}}
				}
			}
			rule.BackendRefs = []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
				Name: gwv1.ObjectName(rapid.SampledFrom([]string{"s0", "s1", "s2"}).Draw(t, "backend")), Namespace: ptr(gwv1.Namespace("a")),
				Port: ptr(gwv1.PortNumber(8080))}}}}
			r.Spec.Rules = append(r.Spec.Rules, rule)
		}
		w.routes = append(w.routes, r)
	}
	return w
}

// backendOf is the backend of the rule x names.
func (w routingWorld) backendOf(x Routed) gwv1.ObjectName {
	for _, r := range w.routes {
		if r.Namespace == x.Route.Namespace && r.Name == x.Route.Name {
			return DefaultRules(r)[x.Rule].BackendRefs[0].Name
		}
	}
	return ""
}

// headerConditions are header matches: on a header whose value an MCP
// client's requests fix, met by some of them (exact, in another case of the
// name, by an expression) or by none, and on a header they do not send.
var headerConditions = []gwv1.HTTPHeaderMatch{
	{Name: "Content-Type", Value: "application/json"},
	{Name: "content-type", Value: "text/plain"},
	{Name: "Accept", Value: "text/event-stream"},
	{Name: "Accept", Type: ptr(gwv1.HeaderMatchRegularExpression), Value: "event-stream"},
	{Name: "Accept", Value: "application/json, text/event-stream"},
	{Name: "Version", Value: "1"},
}

// Headers written out as an MCP client sends them, the test's own list.
var (
	messageHeaders    = map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
	streamHeaders     = map[string]string{"Accept": "text/event-stream"}
	sseMessageHeaders = map[string]string{"Content-Type": "application/json"}
)

// clientRequests is the test's own list of what an MCP client sends for a
// URL path p, with the headers whose values the transport fixes.
func clientRequests(transport, endpoint, p string) []Request {
	switch transport {
	case TransportStreamableHTTP:
		return []Request{{Method: "POST", Path: p, Headers: messageHeaders}, {Method: "GET", Path: p, Headers: streamHeaders}, {Method: "DELETE", Path: p}}
	case TransportSSE:
		reqs := []Request{{Method: "GET", Path: p, Headers: streamHeaders}}
		if endpoint != "" {
			reqs = append(reqs, Request{Method: "POST", Path: sibling(p), Headers: sseMessageHeaders})
		}
		return reqs
	}
	return []Request{{Method: "GET", Path: p}}
}

// TestPropertyPublishedURLsRoute: for random route sets, every URL a rule
// publishes is one whose client requests RouteRequest sends to a rule that
// leads to the URL's backend, all of them, certainly (no RegularExpression
// or reading of hostname precedence that could take them elsewhere).
func TestPropertyPublishedURLsRoute(t *testing.T) {
	published, draws := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		draws++
		w := drawRoutingWorld(t)
		ix := NewIndex(w.gateways, nil, w.routes...)
		for _, r := range w.routes {
			a := ix.Attach(r)
			for ri, rule := range DefaultRules(r) {
				urls, _ := a.RuleURLs(ri, RuleOptions{EndpointPath: w.endpoint, Transport: w.transport})
				want := rule.BackendRefs[0].Name
				for _, u := range urls {
					published++
					pu, err := url.Parse(u.URL)
					if err != nil {
						t.Fatal(err)
					}
					protocol := map[string]gwv1.ProtocolType{"http": gwv1.HTTPProtocolType, "https": gwv1.HTTPSProtocolType}[pu.Scheme]
					for _, req := range clientRequests(w.transport, w.endpoint, pu.Path) {
						req.Host = pu.Hostname()
						got, ok := ix.RouteRequest(u.Origin.Gateway, int32(u.Origin.Port), protocol, req)
						if !ok && (got.Rule < 0 || len(got.MayTake) == 0) {
							t.Fatalf("%s/%s rule %d publishes %s, but %s %s is not routed (%+v)", r.Namespace, r.Name, ri, u.URL, req.Method, req.Path, got)
						}
						// Where the rule is not certain, every rule that may
						// take the request must lead to the backend.
						for _, x := range append([]Routed{got}, got.MayTake...) {
							if b := w.backendOf(x); b != want {
								t.Fatalf("%s/%s rule %d publishes %s (backend %s), but %s %s may go to %s, backend %s",
									r.Namespace, r.Name, ri, u.URL, want, req.Method, req.Path, x, b)
							}
						}
					}
				}
			}
		}
	})
	t.Logf("%d URLs published in %d draws", published, draws)
	if published*2 < draws {
		t.Errorf("no URL published in %d draws", draws)
	}
}

// drawPathMatch draws a PathPrefix or Exact match of one of paths, with a
// GET or POST method condition or none.
func drawPathMatch(t *rapid.T, paths []string) gwv1.HTTPRouteMatch {
	m := gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{
		Type:  ptr(rapid.SampledFrom([]gwv1.PathMatchType{gwv1.PathMatchPathPrefix, gwv1.PathMatchExact}).Draw(t, "type")),
		Value: ptr(rapid.SampledFrom(paths).Draw(t, "path")),
	}}
	if mt := rapid.SampledFrom([]string{"", "GET", "POST"}).Draw(t, "method"); mt != "" {
		m.Method = ptr(gwv1.HTTPMethod(mt))
	}
	return m
}

// TestPropertyClientHeaderSets: the header sets of an MCP client's requests
// (Request.client), which the URL checks route through what the index
// worked out for each set, route as the same headers written out do, which
// RouteRequest reads condition by condition — on groups small and large,
// with header conditions that some sets meet, all, or none.
func TestPropertyClientHeaderSets(t *testing.T) {
	sets := []struct {
		client  uint8
		method  string
		headers map[string]string
	}{
		{clientMessage, "POST", messageHeaders},
		{clientStream, "GET", streamHeaders},
		{clientSSEMessage, "POST", sseMessageHeaders},
		{clientPlain, "DELETE", nil},
	}
	rapid.Check(t, func(t *rapid.T) {
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: "g", Namespace: "infra"},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "l", Protocol: gwv1.HTTPProtocolType, Port: 80,
				AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}}}}
		ref := gwv1.ParentReference{Name: "g", Namespace: ptr(gwv1.Namespace("infra"))}
		paths := []string{"/", "/a", "/a/b", "/mcp"}
		var routes []*gwv1.HTTPRoute
		for ri := range rapid.IntRange(1, 3*smallGroup).Draw(t, "routes") {
			r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("r%02d", ri), Namespace: "a"}}
			r.Spec.ParentRefs = []gwv1.ParentReference{ref}
			var rule gwv1.HTTPRouteRule
			for range rapid.IntRange(1, 2).Draw(t, "matches") {
				m := drawPathMatch(t, paths)
				for range rapid.IntRange(0, 2).Draw(t, "headers") {
					m.Headers = append(m.Headers, rapid.SampledFrom(headerConditions).Draw(t, "headerCondition"))
				}
				if rapid.IntRange(0, 5).Draw(t, "query") == 0 {
					m.QueryParams = []gwv1.HTTPQueryParamMatch{{Name: "a", Value: "1"}}
				}
				rule.Matches = append(rule.Matches, m)
			}
			r.Spec.Rules = []gwv1.HTTPRouteRule{rule}
			routes = append(routes, r)
		}
		ix := NewIndex([]*gwv1.Gateway{gw}, nil, routes...)
		l := ix.gateway("infra", "g").receiver(80, gwv1.HTTPProtocolType, "gw.example.com")
		for _, p := range append(paths, "/a/b/c", "/x") {
			for _, s := range sets {
				got := l.route(&Request{Host: "gw.example.com", Method: s.method, Path: p, client: s.client}, nil)
				want, wantOK := ix.RouteRequest(types.NamespacedName{Namespace: "infra", Name: "g"}, 80, gwv1.HTTPProtocolType,
					Request{Host: "gw.example.com", Method: s.method, Path: p, Headers: s.headers})
				if got.ok != (want.Rule >= 0) || got.ok && got.win.routed().String() != want.String() || got.ok && int(got.win.m.match) != want.Match {
					t.Fatalf("%s %s with header set %d: the set routes to %v (%v), the headers written out to %v (%v)", s.method, p, s.client, got.win.routed(), got.ok, want, wantOK)
				}
			}
		}
	})
}

// TestPropertyRouteRequestMatchesReference: on one listener without a
// hostname carrying many routes (so that lookups go through the group's
// indexes), RouteRequest picks the rule a plain reading of
// HTTPRouteRule.Matches picks, for random requests.
func TestPropertyRouteRequestMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: "g", Namespace: "infra"},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "l", Protocol: gwv1.HTTPProtocolType, Port: 80,
				AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}}}}}
		ref := gwv1.ParentReference{Name: "g", Namespace: ptr(gwv1.Namespace("infra"))}
		paths := []string{"/", "/a", "/a/", "/a/b", "/a/b/", "/ab", "/a/b/c", "/mcp", "/a/mcp"}
		t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		var routes []*gwv1.HTTPRoute
		for ri := range rapid.IntRange(smallGroup+1, 20).Draw(t, "routes") {
			// "a" is a prefix of "a-b", which sorts first as "{namespace}/{name}".
			r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("r%02d", ri), Namespace: rapid.SampledFrom([]string{"a", "a-b", "b"}).Draw(t, "ns"),
				CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "age")) * time.Hour))}}
			r.Spec.ParentRefs = []gwv1.ParentReference{ref}
			r.Status.Parents = []gwv1.RouteParentStatus{{ParentRef: ref, ControllerName: "example.net/c",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}}}}
			var rule gwv1.HTTPRouteRule
			for range rapid.IntRange(1, 2).Draw(t, "matches") {
				m := drawPathMatch(t, paths)
				// A header or query condition, which the requests (plain,
				// as an MCP client's) never meet.
				switch rapid.IntRange(0, 5).Draw(t, "condition") {
				case 0:
					m.Headers = []gwv1.HTTPHeaderMatch{{Name: "X-A", Value: "1"}}
				case 1:
					m.QueryParams = []gwv1.HTTPQueryParamMatch{{Name: "a", Value: "1"}}
				}
				rule.Matches = append(rule.Matches, m)
			}
			r.Spec.Rules = []gwv1.HTTPRouteRule{rule}
			routes = append(routes, r)
		}
		ix := NewIndex([]*gwv1.Gateway{gw}, nil, routes...)
		for range 10 {
			req := Request{Host: "gw.example.com", Method: rapid.SampledFrom([]string{"GET", "POST", "DELETE"}).Draw(t, "reqMethod"),
				Path: rapid.SampledFrom(append(paths, "/a/b/c/d", "/x", "/a/x")).Draw(t, "reqPath")}
			got, ok := ix.RouteRequest(types.NamespacedName{Namespace: "infra", Name: "g"}, 80, gwv1.HTTPProtocolType, req)
			want, wantOK := referenceRoute(routes, req)
			if ok != wantOK || ok && (got.Route.Namespace != want.Namespace || got.Route.Name != want.Name || got.Match != want.match) {
				t.Fatalf("%s %s: got %v %v (match %d), want %v %s/%s match %d", req.Method, req.Path, ok, got, got.Match, wantOK, want.Namespace, want.Name, want.match)
			}
		}
	})
}

type refWinner struct {
	*gwv1.HTTPRoute
	match int
}

// referenceRoute is the test's own reading of HTTPRouteRule.Matches
// precedence over routes of one rule each, for requests without headers or
// query parameters.
func referenceRoute(routes []*gwv1.HTTPRoute, req Request) (refWinner, bool) {
	type key struct {
		exact             bool
		prefixLen, rawLen int
		method            bool
		created           time.Time
		ns, name          string
		match             int
	}
	better := func(a, b key) bool {
		switch {
		case a.exact != b.exact:
			return a.exact
		case a.prefixLen != b.prefixLen:
			return a.prefixLen > b.prefixLen
		case a.rawLen != b.rawLen:
			return a.rawLen > b.rawLen
		case a.method != b.method:
			return a.method
		case !a.created.Equal(b.created):
			return a.created.Before(b.created)
		case a.ns+"/"+a.name != b.ns+"/"+b.name:
			return a.ns+"/"+a.name < b.ns+"/"+b.name
		}
		return a.match < b.match
	}
	var best key
	var win refWinner
	found := false
	for _, r := range routes {
		for mi, m := range r.Spec.Rules[0].Matches {
			if m.Method != nil && string(*m.Method) != req.Method || len(m.Headers) > 0 || len(m.QueryParams) > 0 {
				continue
			}
			v := *m.Path.Value
			k := key{method: m.Method != nil, created: r.CreationTimestamp.Time, ns: r.Namespace, name: r.Name, match: mi}
			if *m.Path.Type == gwv1.PathMatchExact {
				if req.Path != v {
					continue
				}
				k.exact = true
			} else {
				p := v
				for len(p) > 1 && p[len(p)-1] == '/' {
					p = p[:len(p)-1]
				}
				if p == "/" {
					p = ""
				}
				if !(req.Path == p || len(req.Path) > len(p) && req.Path[:len(p)] == p && req.Path[len(p)] == '/') {
					continue
				}
				k.prefixLen, k.rawLen = len(p), len(v)
			}
			if !found || better(k, best) {
				best, win, found = k, refWinner{r, mi}, true
			}
		}
	}
	return win, found
}

// TestPropertyAttachAtSameAsAttach: an Attachment made by AttachAt, which
// starts a URL's routing check from the route's own group, gives the URLs
// and diagnostics Attach gives, for routes at their position (with nil
// routes and duplicates mixed in, which change or drop the positions'
// entries) and at a wrong one.
func TestPropertyAttachAtSameAsAttach(t *testing.T) {
	hinted := 0
	rapid.Check(t, func(t *rapid.T) {
		w := drawRoutingWorld(t)
		routes := slices.Clone(w.routes)
		if rapid.Bool().Draw(t, "nil") {
			routes = slices.Insert(routes, rapid.IntRange(0, len(routes)).Draw(t, "nilAt"), nil)
		}
		if rapid.IntRange(0, 4).Draw(t, "duplicate") == 0 {
			dup := rapid.SampledFrom(w.routes).Draw(t, "dupOf").DeepCopy()
			routes = append(routes, dup)
		}
		ix := NewIndex(w.gateways, nil, routes...)
		opts := RuleOptions{EndpointPath: w.endpoint, Transport: w.transport}
		var at Attachment
		for pos, r := range routes {
			if r == nil {
				continue
			}
			if rapid.IntRange(0, 3).Draw(t, "wrongPosition") == 0 {
				pos = (pos + 1) % len(routes)
			}
			want := ix.Attach(r)
			ix.AttachAt(&at, r, pos)
			if at.entry != nil {
				hinted++
			}
			if d := cmp.Diff(want.Origins, at.Origins); d != "" {
				t.Fatalf("%s/%s origins (-Attach +AttachAt):\n%s", r.Namespace, r.Name, d)
			}
			for ri := range DefaultRules(r) {
				wantURLs, wantDs := want.RuleURLs(ri, opts)
				gotURLs, gotDs := at.RuleURLs(ri, opts)
				if d := cmp.Diff(wantURLs, gotURLs); d != "" {
					t.Fatalf("%s/%s rule %d URLs (-Attach +AttachAt):\n%s", r.Namespace, r.Name, ri, d)
				}
				if d := cmp.Diff(wantDs, gotDs); d != "" {
					t.Fatalf("%s/%s rule %d diagnostics (-Attach +AttachAt):\n%s", r.Namespace, r.Name, ri, d)
				}
			}
		}
	})
	if hinted == 0 {
		t.Error("AttachAt never found a route's entry")
	}
}
