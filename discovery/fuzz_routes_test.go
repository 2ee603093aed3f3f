package discovery

import (
	"fmt"
	"net/url"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// fuzzBytes reads choices from the fuzzer's bytes; past the end every
// choice is the first.
type fuzzBytes struct {
	b []byte
	i int
}

func (f *fuzzBytes) n(k int) int {
	if f.i >= len(f.b) || k <= 1 {
		return 0
	}
	c := f.b[f.i]
	f.i++
	return int(c) % k
}

func fuzzPick[T any](f *fuzzBytes, xs ...T) T { return xs[f.n(len(xs))] }

// fuzzSnapshot builds a small cluster straight from the bytes: Gateways with
// listeners and status, MCP resources with their Services, HTTPRoutes whose
// rules compete (paths, match types, methods, header conditions, rewrites,
// hostnames, ages from small pools, now and then a RequestRedirect),
// ReferenceGrants and Namespaces. No
// decoding: an execution costs a Discover call over a dozen objects.
func fuzzSnapshot(f *fuzzBytes) (Snapshot, Options) {
	var snap Snapshot
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cond := func(typ string, ok bool) metav1.Condition {
		c := metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: typ, Message: typ, LastTransitionTime: metav1.NewTime(t0)}
		if !ok {
			c.Status, c.Reason = metav1.ConditionFalse, "Invalid"
		}
		return c
	}
	for _, ns := range []string{"team", "web"} {
		if f.n(2) == 0 {
			snap.Namespaces = append(snap.Namespaces, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns,
				Labels: fuzzPick(f, map[string]string(nil), map[string]string{"expose": "true"})}})
		}
	}
	for gi := range 1 + f.n(2) {
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("gw%d", gi), Namespace: fuzzPick(f, "infra", "team")}}
		for li := range 1 + f.n(3) {
			l := gwv1.Listener{
				Name:     gwv1.SectionName(fmt.Sprintf("l%d", li)),
				Protocol: fuzzPick(f, gwv1.HTTPSProtocolType, gwv1.HTTPProtocolType, gwv1.TLSProtocolType),
				Port:     fuzzPick(f, int32(443), 80, 8080),
				Hostname: fuzzPick(f, (*gwv1.Hostname)(nil), ptrTo(gwv1.Hostname("*.example.com")), ptrTo(gwv1.Hostname("mcp.example.com")), ptrTo(gwv1.Hostname("*.com"))),
			}
			if l.Protocol == gwv1.TLSProtocolType {
				// The API server requires a TLS listener's mode.
				l.TLS = &gwv1.ListenerTLSConfig{Mode: ptrTo(gwv1.TLSModePassthrough)}
			}
			switch f.n(4) {
			case 0:
				l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}
			case 1:
				l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromSelector),
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{fuzzPick(f, "expose", "kubernetes.io/metadata.name"): fuzzPick(f, "true", "team")}}}}
			}
			gw.Spec.Listeners = append(gw.Spec.Listeners, l)
			if f.n(3) == 0 {
				gw.Status.Listeners = append(gw.Status.Listeners, gwv1.ListenerStatus{Name: l.Name,
					Conditions: []metav1.Condition{cond("Programmed", f.n(2) == 0), cond("ResolvedRefs", f.n(2) == 0)}})
			}
		}
		gw.Status.Addresses = fuzzPick(f, []gwv1.GatewayStatusAddress{{Type: ptrTo(gwv1.HostnameAddressType), Value: "gw.example.com"}},
			nil, []gwv1.GatewayStatusAddress{{Value: "192.0.2.1"}})
		if f.n(3) == 0 {
			gw.Status.Conditions = []metav1.Condition{cond("Accepted", f.n(4) > 0), cond("Programmed", f.n(4) > 0)}
		}
		snap.Gateways = append(snap.Gateways, gw)
	}
	var services []string
	for i := range 1 + f.n(3) {
		ns := fuzzPick(f, "team", "web")
		name := fmt.Sprintf("m%d", i)
		uid := types.UID(fmt.Sprintf("uid-%d", i))
		meta := metav1.ObjectMeta{Namespace: ns, Name: name, UID: uid, Annotations: map[string]string{AnnotationDescription: "A server"}}
		snap.MCPServers = append(snap.MCPServers, &model.MCPServer{ObjectMeta: meta,
			Spec: model.MCPServerSpec{Image: "registry.example.com/" + name + ":1", Transport: fuzzPick(f, model.TransportStreamableHTTP, model.TransportSSE)}})
		svc := "mcp-" + name + "-proxy"
		services = append(services, svc)
		snap.Services = append(snap.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: svc,
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: model.KindMCPServer, Name: name, UID: uid, Controller: ptrTo(true)}}}})
	}
	services = append(services, "plain")
	snap.Services = append(snap.Services, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "web", Name: "plain"}})
	if f.n(2) == 0 {
		snap.ReferenceGrants = append(snap.ReferenceGrants, &gwv1.ReferenceGrant{
			ObjectMeta: metav1.ObjectMeta{Namespace: fuzzPick(f, "team", "web"), Name: "g"},
			Spec: gwv1.ReferenceGrantSpec{
				From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "HTTPRoute", Namespace: gwv1.Namespace(fuzzPick(f, "team", "web"))}},
				To:   []gwv1.ReferenceGrantTo{{Kind: "Service"}},
			}})
	}
	paths := []string{"/", "/mcp", "/sse", "/messages", "/a", "/a/", "/a/mcp", "/a/sse", "/a/messages", "/a/b"}
	for ri := range 1 + f.n(4) {
		r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{
			Namespace: fuzzPick(f, "team", "web"), Name: fmt.Sprintf("r%d", f.n(4)+ri%2), Generation: 1,
			CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(f.n(3)) * time.Hour)),
		}}
		if v := fuzzPick(f, "true", "true", "", "True"); v != "" {
			r.Annotations = map[string]string{AnnotationExport: v}
		}
		for range 1 + f.n(2) {
			gw := fuzzPick(f, snap.Gateways...)
			p := gwv1.ParentReference{Name: gwv1.ObjectName(gw.Name), Namespace: ptrTo(gwv1.Namespace(gw.Namespace))}
			if f.n(4) == 0 {
				p.SectionName = ptrTo(gwv1.SectionName("l" + fmt.Sprint(f.n(2))))
			}
			r.Spec.ParentRefs = append(r.Spec.ParentRefs, p)
			if f.n(5) > 0 {
				r.Status.Parents = append(r.Status.Parents, gwv1.RouteParentStatus{ParentRef: p, ControllerName: "example.com/c",
					Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", ObservedGeneration: int64(f.n(2))}}})
			}
		}
		for range f.n(3) {
			r.Spec.Hostnames = append(r.Spec.Hostnames, fuzzPick[gwv1.Hostname](f, "mcp.example.com", "*.example.com", "other.org", "a.example.com"))
		}
		for range 1 + f.n(3) {
			var rule gwv1.HTTPRouteRule
			for range f.n(3) {
				m := gwv1.HTTPRouteMatch{Path: &gwv1.HTTPPathMatch{
					Type:  fuzzPick(f, ptrTo(gwv1.PathMatchPathPrefix), nil, ptrTo(gwv1.PathMatchExact), ptrTo(gwv1.PathMatchRegularExpression)),
					Value: ptrTo(fuzzPick(f, paths...)),
				}}
				m.Method = fuzzPick(f, (*gwv1.HTTPMethod)(nil), nil, ptrTo(gwv1.HTTPMethodGet), ptrTo(gwv1.HTTPMethodPost), ptrTo(gwv1.HTTPMethodDelete))
				if f.n(6) == 0 {
					m.Headers = []gwv1.HTTPHeaderMatch{{Name: "Version", Value: "1"}}
				}
				rule.Matches = append(rule.Matches, m)
			}
			switch f.n(5) {
			case 0:
				rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
					Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptrTo(fuzzPick(f, "/", "/x"))}}}}
			case 1:
				rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
					Path: &gwv1.HTTPPathModifier{Type: gwv1.FullPathHTTPPathModifier, ReplaceFullPath: ptrTo(fuzzPick(f, "/mcp", "/sse"))}}}}
			}
			for range 1 + f.n(2) {
				b := gwv1.HTTPBackendRef{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
					Name: gwv1.ObjectName(fuzzPick(f, services...)), Port: ptrTo(gwv1.PortNumber(8080)),
				}, Weight: fuzzPick(f, (*int32)(nil), ptrTo(int32(0)), ptrTo(int32(2)))}}
				if f.n(2) == 0 {
					b.Namespace = ptrTo(gwv1.Namespace(fuzzPick(f, "team", "web")))
				}
				rule.BackendRefs = append(rule.BackendRefs, b)
			}
			r.Spec.Rules = append(r.Spec.Rules, rule)
		}
		snap.HTTPRoutes = append(snap.HTTPRoutes, r)
	}
	opts := Options{LastUpdated: t0}
	if f.n(2) == 0 {
		opts.EndpointPaths = map[string]string{model.TransportStreamableHTTP: "/mcp", model.TransportSSE: "/sse"}
	}
	opts.RequireHTTPS = f.n(4) == 0
	// Choices read last, so that the inputs of the corpus keep the
	// snapshots they had (past the end of the bytes every choice is 0, which
	// changes nothing here): a rule of some route made a RequestRedirect,
	// which takes the requests it matches and forwards none (the CRD
	// refuses backendRefs beside it).
	if f.n(4) == 3 {
		r := fuzzPick(f, snap.HTTPRoutes...)
		rule := &r.Spec.Rules[f.n(len(r.Spec.Rules))]
		rule.BackendRefs = nil
		rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterRequestRedirect,
			RequestRedirect: &gwv1.HTTPRequestRedirectFilter{Hostname: ptrTo(gwv1.PreciseHostname("elsewhere.example.com"))}}}
	}
	return snap, opts
}

// FuzzDiscoverRoutes builds a cluster from the fuzzer's bytes (fuzzSnapshot)
// and runs Discover: nothing panics, the registry passes the upstream rules,
// and, when the API server would admit the objects, every URL an HTTPRoute
// gives is one whose client requests (GET, and POST and DELETE for
// streamable-http) route, by HTTPRoute precedence over all the routes, to
// the resource's Service as the route would send it there
// (checkRoutedGET).
func FuzzDiscoverRoutes(f *testing.F) {
	for _, seed := range []string{"", "\x00\x00\x00\x00\x00\x01\x02", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\xef\xee\xed\xec"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 512 {
			return // choices past the pools' sizes add nothing
		}
		snap, opts := fuzzSnapshot(&fuzzBytes{b: data})
		res := Discover(snap, opts)
		if res.Registry == nil {
			return
		}
		if ds := model.ValidateRegistry(res.Registry, model.ObjectRef{Kind: "Fuzz"}); ds.HasErrors() {
			t.Fatalf("invalid output: %v", ds)
		}
		if !admissible(snap) {
			// A cluster cannot hold the snapshot: Discover must not panic
			// and must emit a valid registry, but where requests go is
			// nobody's to say.
			return
		}
		ix := urlbuild.NewIndex(snap.Gateways, snap.Namespaces, snap.HTTPRoutes...)
		for _, e := range res.Entries {
			for _, rm := range e.Remotes {
				if rm.Via.Kind != urlbuild.KindHTTPRoute {
					continue
				}
				checkRoutedGET(t, snap, opts, ix, rm)
			}
		}
	})
}

// admissible reports whether the API server, with the Gateway API's CRDs,
// would admit the routes of a snapshot fuzzSnapshot built: no two share
// namespace and name, and a URLRewrite with ReplacePrefixMatch is on a rule
// with exactly one match, of type PathPrefix (after defaulting: no matches
// is one PathPrefix "/"). Gateways whose listeners conflict (one port,
// protocol and hostname), which it refuses too, are checked all the same:
// discovery publishes nothing through such listeners.
func admissible(snap Snapshot) bool {
	names := map[types.NamespacedName]bool{}
	for _, r := range snap.HTTPRoutes {
		n := types.NamespacedName{Namespace: r.Namespace, Name: r.Name}
		if names[n] {
			return false
		}
		names[n] = true
		for _, rule := range r.Spec.Rules {
			for _, f := range rule.Filters {
				if f.URLRewrite == nil || f.URLRewrite.Path == nil || f.URLRewrite.Path.Type != gwv1.PrefixMatchHTTPPathModifier {
					continue
				}
				if len(rule.Matches) > 1 || len(rule.Matches) == 1 && rule.Matches[0].Path != nil &&
					rule.Matches[0].Path.Type != nil && *rule.Matches[0].Path.Type != gwv1.PathMatchPathPrefix {
					return false
				}
			}
		}
	}
	return true
}

// checkRoutedGET checks that a GET of the remote's URL (and, for
// streamable-http, a POST and a DELETE), sent to the Gateways of the
// snapshot on its scheme and port, reaches the resource's Service on at
// least one of them as the route via would send it there, every request
// through the same Gateway.
// A reference is a rule of via whose URLs go to that Service, routed over
// alone (over GET, POST or DELETE: a rule with a method condition leaves the
// GET to another rule): its backend path for the URL, which with
// EndpointPaths must be the endpoint path. The rule that takes the GET over all the routes
// (via's own, another of via's, or another route's) must forward it to the
// same Service and port at that path (one reference's), through a
// reference the ReferenceGrants permit; when the verdict is uncertain, so
// must every rule that may take it.
func checkRoutedGET(t *testing.T, snap Snapshot, opts Options, ix *urlbuild.Index, rm Remote) {
	t.Helper()
	pu, err := url.Parse(rm.URL)
	if err != nil {
		t.Fatalf("%s: %v", rm.URL, err)
	}
	c := routedGET{snap: snap, pu: pu, via: rm.Via, endpoint: opts.EndpointPaths[rm.Type],
		protocol: gwv1.HTTPSProtocolType, port: 443,
		// fuzzSnapshot's MCPServer ns/name has the Service ns/mcp-name-proxy,
		// port 8080.
		want: fuzzBackend{namespace: rm.Resource.Namespace, name: "mcp-" + rm.Resource.Name + "-proxy", port: 8080}}
	if pu.Scheme == "http" {
		c.protocol, c.port = gwv1.HTTPProtocolType, 80
	}
	if p := pu.Port(); p != "" {
		fmt.Sscan(p, &c.port)
	}
	// The methods a client of the remote's transport sends to the URL
	// itself: streamable-http POSTs its messages, GETs the server's stream
	// and DELETEs the session; SSE GETs its stream (its message endpoint is
	// another path).
	methods := []string{"GET"}
	if rm.Type == model.TransportStreamableHTTP {
		methods = []string{"GET", "POST", "DELETE"}
	}
	failed := "GET"
gateways:
	for _, g := range snap.Gateways {
		gk := types.NamespacedName{Namespace: g.Namespace, Name: g.Name}
		refs := c.references(gk)
		for _, method := range methods {
			got, ok := ix.RouteRequest(gk, c.port, c.protocol, urlbuild.Request{Host: pu.Hostname(), Method: method, Path: pu.Path})
			// Without MayTake an uncertain verdict is a 404 in one reading of
			// hostname precedence.
			if got.Route == (model.ObjectRef{}) || (!ok && len(got.MayTake) == 0) {
				failed = method
				continue gateways
			}
			for _, r := range append([]urlbuild.Routed{got}, got.MayTake...) {
				if !c.serves(refs, r) {
					failed = method
					continue gateways
				}
			}
		}
		return
	}
	t.Fatalf("%s (from %s, for %s): a %s reaches Service %s/%s on no Gateway as the route would send it there",
		rm.URL, rm.Via, rm.Resource, failed, c.want.namespace, c.want.name)
}

// routedGET is what checkRoutedGET checks a GET of the URL pu against: the
// Gateways' port and protocol for its scheme, the route via it came from,
// the Service want it must reach, and the endpoint path ("" for none).
type routedGET struct {
	snap     Snapshot
	pu       *url.URL
	port     int32
	protocol gwv1.ProtocolType
	via      model.ObjectRef
	want     fuzzBackend
	endpoint string
}

// getReference is where one rule of via sends the URL's requests over via
// alone: the route, the rule and match that take them, and the backend
// path.
type getReference struct {
	route       *gwv1.HTTPRoute
	rule, match int
	path        string
}

// references lists, on the Gateway gk, each rule of via whose URLs go to
// want (the backendRef with the most weight, the first on a tie), routed
// over alone (over GET, POST or DELETE: the rule may have a method
// condition), with its backend path, which must be the endpoint path when
// there is one. The URL came from one of them, which another rule of via
// may shadow.
func (c *routedGET) references(gk types.NamespacedName) []getReference {
	var refs []getReference
	for _, vr := range routesNamed(c.snap, c.via) {
		for i, r := range urlbuild.DefaultRules(vr) {
			if b, ok := ruleBackend(vr, &r, true); !ok || b != c.want {
				continue
			}
			vf := vr.DeepCopy()
			vf.Spec.Rules = []gwv1.HTTPRouteRule{r}
			ix := urlbuild.NewIndex(c.snap.Gateways, c.snap.Namespaces, vf)
			var alone urlbuild.Routed
			ok := false
			for _, method := range []string{"GET", "POST", "DELETE"} {
				req := urlbuild.Request{Host: c.pu.Hostname(), Method: method, Path: c.pu.Path}
				if alone, ok = ix.RouteRequest(gk, c.port, c.protocol, req); ok && alone.Route == c.via {
					break
				}
				// Uncertain only between matches of this one rule (a
				// RegularExpression beside the match the URL came from):
				// the rule takes the request; serves checks each match.
				if !ok && alone.Route == c.via && oneRule(alone) {
					ok = true
					break
				}
			}
			if !ok || alone.Route != c.via {
				continue
			}
			_, path, ok := forwards(vf, alone, c.pu.Path, true)
			if !ok || (c.endpoint != "" && path != c.endpoint) {
				continue
			}
			refs = append(refs, getReference{route: vr, rule: i, match: alone.Match, path: path})
		}
	}
	return refs
}

// oneRule reports whether every match that may take a request, r and
// r.MayTake, is of r's route and rule.
func oneRule(r urlbuild.Routed) bool {
	for _, m := range r.MayTake {
		if m.Route != r.Route || m.Rule != r.Rule {
			return false
		}
	}
	return true
}

// serves reports whether the rule got forwards a GET of the URL to want as
// one of the references does: at its backend path, through a reference the
// ReferenceGrants permit.
func (c *routedGET) serves(refs []getReference, got urlbuild.Routed) bool {
	for _, ref := range refs {
		for _, wr := range routesNamed(c.snap, got.Route) {
			// The reference rule itself (through any of its matches: they
			// share its backendRefs) sends the URL's requests where its URLs
			// go; any other rule must send all its traffic to want.
			self := wr == ref.route && got.Rule == ref.rule
			wb, wpath, ok := forwardsTaken(wr, got, c.pu.Path, self)
			if ok && wb == c.want && wpath == ref.path && granted(c.snap, wr.Namespace, wb) {
				return true
			}
		}
	}
	return false
}

// fuzzBackend is a Service backendRef: namespace, name and port.
type fuzzBackend struct {
	namespace, name string
	port            gwv1.PortNumber
}

// ruleBackend returns the backend rule, of route, sends traffic to: the one
// every backendRef of weight > 0 names (false when they name several), or,
// with heaviest, the one given the most weight (the first on a tie), where
// the rule's URLs go. false when no backendRef has weight > 0.
func ruleBackend(route *gwv1.HTTPRoute, rule *gwv1.HTTPRouteRule, heaviest bool) (fuzzBackend, bool) {
	var b fuzzBackend
	n, top := 0, int32(0)
	for _, br := range rule.BackendRefs {
		w := int32(1)
		if br.Weight != nil {
			w = *br.Weight
		}
		if w <= 0 {
			continue
		}
		x := fuzzBackend{namespace: route.Namespace, name: string(br.Name)}
		if br.Namespace != nil {
			x.namespace = string(*br.Namespace)
		}
		if br.Port != nil {
			x.port = *br.Port
		}
		switch {
		case heaviest && w > top:
			b, top = x, w
		case !heaviest && n > 0 && x != b:
			return fuzzBackend{}, false
		case !heaviest:
			b = x
		}
		n++
	}
	return b, n > 0
}

// forwards returns the backend the rule r.Rule of route sends traffic to
// (ruleBackend) and the path it receives for path; false when there is none
// or the rewrite fails.
func forwards(route *gwv1.HTTPRoute, r urlbuild.Routed, path string, heaviest bool) (fuzzBackend, string, bool) {
	rules := urlbuild.DefaultRules(route)
	if r.Rule >= len(rules) {
		return fuzzBackend{}, "", false
	}
	rule := rules[r.Rule]
	b, ok := ruleBackend(route, &rule, heaviest)
	matches := urlbuild.DefaultMatches(rule)
	mi := max(r.Match, 0)
	if !ok || mi >= len(matches) {
		return fuzzBackend{}, "", false
	}
	var rw *gwv1.HTTPURLRewriteFilter
	for _, f := range rule.Filters {
		if f.Type == gwv1.HTTPRouteFilterURLRewrite {
			rw = f.URLRewrite
		}
	}
	p, err := urlbuild.Rewrite(path, matches[mi].Path, rw)
	return b, p, err == nil
}

// forwardsTaken is forwards for a request a match has taken, which may be
// a RegularExpression match: no URL comes from one (Rewrite refuses it), but
// one may take a request for another match's URL, and then it forwards the
// path as it came, or ReplaceFullPath's path (ReplacePrefixMatch cannot go
// with it: such a route is not admissible).
func forwardsTaken(route *gwv1.HTTPRoute, r urlbuild.Routed, path string, heaviest bool) (fuzzBackend, string, bool) {
	rules := urlbuild.DefaultRules(route)
	if r.Rule >= len(rules) {
		return fuzzBackend{}, "", false
	}
	matches := urlbuild.DefaultMatches(rules[r.Rule])
	mi := max(r.Match, 0)
	if mi >= len(matches) || matches[mi].Path == nil || matches[mi].Path.Type == nil || *matches[mi].Path.Type != gwv1.PathMatchRegularExpression {
		return forwards(route, r, path, heaviest)
	}
	rule := rules[r.Rule]
	b, ok := ruleBackend(route, &rule, heaviest)
	if !ok {
		return fuzzBackend{}, "", false
	}
	for _, f := range rule.Filters {
		if f.Type != gwv1.HTTPRouteFilterURLRewrite || f.URLRewrite == nil || f.URLRewrite.Path == nil {
			continue
		}
		if f.URLRewrite.Path.Type != gwv1.FullPathHTTPPathModifier || f.URLRewrite.Path.ReplaceFullPath == nil {
			return fuzzBackend{}, "", false
		}
		path = *f.URLRewrite.Path.ReplaceFullPath
	}
	return b, path, true
}

// routesNamed returns the routes of the snapshot with ref's namespace and
// name (the fuzzer may make two).
func routesNamed(snap Snapshot, ref model.ObjectRef) []*gwv1.HTTPRoute {
	var out []*gwv1.HTTPRoute
	for _, r := range snap.HTTPRoutes {
		if r.Namespace == ref.Namespace && r.Name == ref.Name {
			out = append(out, r)
		}
	}
	return out
}

// granted reports whether a route in routeNS may reference the Service b:
// within its namespace, or by a ReferenceGrant in b's namespace.
func granted(snap Snapshot, routeNS string, b fuzzBackend) bool {
	if routeNS == b.namespace {
		return true
	}
	for _, g := range snap.ReferenceGrants {
		if g.Namespace != b.namespace {
			continue
		}
		for _, from := range g.Spec.From {
			if from.Kind != "HTTPRoute" || string(from.Namespace) != routeNS {
				continue
			}
			for _, to := range g.Spec.To {
				if to.Kind == "Service" && to.Group == "" && (to.Name == nil || string(*to.Name) == b.name) {
					return true
				}
			}
		}
	}
	return false
}
