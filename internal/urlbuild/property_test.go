package urlbuild

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// world is a random cluster snapshot: Namespaces, Gateways, HTTPRoutes, drawn
// from small pools so that references often resolve and hostnames overlap.
type world struct {
	namespaces []*corev1.Namespace
	gateways   []*gwv1.Gateway
	routes     []*gwv1.HTTPRoute
}

var (
	nsPool       = []string{"a", "b", "c"}
	hostPool     = []string{"a.example.com", "b.example.com", "x.b.example.com", "*.example.com", "*.b.example.com", "other.net"}
	pathPool     = []string{"/", "/mcp", "/a", "/a/b", "/srv/"}
	teamPool     = []string{"x", "y"}
	protocolPool = []gwv1.ProtocolType{gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType, gwv1.TCPProtocolType}
	portPool     = []int32{80, 443, 8080}
)

func drawWorld(t *rapid.T) world {
	var w world
	for _, n := range nsPool {
		if rapid.Bool().Draw(t, "ns-present-"+n) {
			w.namespaces = append(w.namespaces, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
				Name: n, Labels: map[string]string{"team": rapid.SampledFrom(teamPool).Draw(t, "team")},
			}})
		}
	}
	nGateways := rapid.IntRange(1, 3).Draw(t, "gateways")
	for gi := range nGateways {
		gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("g%d", gi), Namespace: rapid.SampledFrom(nsPool).Draw(t, "gw-ns"),
		}}
		nListeners := rapid.IntRange(0, 4).Draw(t, "listeners")
		for li := range nListeners {
			l := gwv1.Listener{
				Name:     gwv1.SectionName(fmt.Sprintf("l%d", li)),
				Protocol: rapid.SampledFrom(protocolPool).Draw(t, "protocol"),
				Port:     rapid.SampledFrom(portPool).Draw(t, "port"),
			}
			if rapid.Bool().Draw(t, "has-hostname") {
				l.Hostname = ptr(gwv1.Hostname(rapid.SampledFrom(hostPool).Draw(t, "listener-hostname")))
			}
			switch rapid.IntRange(0, 4).Draw(t, "allowed") {
			case 1:
				l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromSame)}}
			case 2:
				l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
			case 3:
				l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{
					From:     ptr(gwv1.NamespacesFromSelector),
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": rapid.SampledFrom(teamPool).Draw(t, "sel-team")}},
				}}
			case 4:
				l.AllowedRoutes = &gwv1.AllowedRoutes{
					Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)},
					Kinds:      []gwv1.RouteGroupKind{{Kind: gwv1.Kind(rapid.SampledFrom([]string{"GRPCRoute", "HTTPRoute"}).Draw(t, "kind"))}},
				}
			}
			gw.Spec.Listeners = append(gw.Spec.Listeners, l)
		}
		for _, a := range rapid.SliceOfN(rapid.SampledFrom([]string{"Hostname lb.example.com", "Hostname lb.b.example.com", "IPAddress 192.0.2.1", "IPAddress 2001:db8::1", "NamedAddress n"}), 0, 3).Draw(t, "addresses") {
			typ, value, _ := strings.Cut(a, " ")
			gw.Status.Addresses = append(gw.Status.Addresses, gwv1.GatewayStatusAddress{Type: ptr(gwv1.AddressType(typ)), Value: value})
		}
		w.gateways = append(w.gateways, gw)
	}
	nRoutes := rapid.IntRange(1, 4).Draw(t, "routes")
	for ri := range nRoutes {
		r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("r%d", ri), Namespace: rapid.SampledFrom(nsPool).Draw(t, "route-ns"),
		}}
		nRefs := rapid.IntRange(1, 3).Draw(t, "parentRefs")
		for range nRefs {
			gw := w.gateways[rapid.IntRange(0, len(w.gateways)-1).Draw(t, "parent")]
			ref := gwv1.ParentReference{Name: gwv1.ObjectName(gw.Name), Namespace: ptr(gwv1.Namespace(gw.Namespace))}
			// parentRefs may repeat: the CRD would refuse that, the code must
			// still not depend on their order.
			if rapid.IntRange(0, 2).Draw(t, "has-section") == 0 {
				ref.SectionName = ptr(gwv1.SectionName(fmt.Sprintf("l%d", rapid.IntRange(0, 3).Draw(t, "section"))))
			}
			if rapid.IntRange(0, 3).Draw(t, "has-port") == 0 {
				ref.Port = ptr(rapid.SampledFrom(portPool).Draw(t, "ref-port"))
			}
			r.Spec.ParentRefs = append(r.Spec.ParentRefs, ref)
			if rapid.IntRange(0, 4).Draw(t, "accepted") > 0 {
				r.Status.Parents = append(r.Status.Parents, gwv1.RouteParentStatus{
					ParentRef:      ref,
					ControllerName: "example.net/c",
					Conditions:     []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
				})
			}
		}
		for _, h := range rapid.SliceOfNDistinct(rapid.SampledFrom(hostPool), 0, 3, rapid.ID[string]).Draw(t, "route-hostnames") {
			r.Spec.Hostnames = append(r.Spec.Hostnames, gwv1.Hostname(h))
		}
		nRules := rapid.IntRange(0, 2).Draw(t, "rules")
		for range nRules {
			var rule gwv1.HTTPRouteRule
			for _, p := range rapid.SliceOfN(rapid.SampledFrom(pathPool), 0, 2).Draw(t, "paths") {
				rule.Matches = append(rule.Matches, gwv1.HTTPRouteMatch{Path: prefixMatch(p)})
			}
			r.Spec.Rules = append(r.Spec.Rules, rule)
		}
		w.routes = append(w.routes, r)
	}
	return w
}

// render computes every rule's URLs (with provenance) and diagnostics.
func (w world) render(withFields bool) (urls []string, diags []string) {
	ix := NewIndex(w.gateways, w.namespaces)
	for _, r := range w.routes {
		for ri := range DefaultRules(r) {
			us, ds := RouteURLs(ix, r, ri, RuleOptions{})
			for _, u := range us {
				line := fmt.Sprintf("%s/%s rule %d %s", r.Namespace, r.Name, ri, u.URL)
				if withFields {
					line += fmt.Sprintf(" %s %s %d", u.Origin.Gateway, u.Origin.Listener, u.Match)
				}
				urls = append(urls, line)
			}
			for _, d := range ds {
				if !withFields {
					d.Field = ""
				}
				diags = append(diags, d.String())
			}
		}
	}
	slices.Sort(diags)
	return urls, diags
}

func shuffled[T any](t *rapid.T, label string, s []T) []T {
	out := slices.Clone(s)
	for i := len(out) - 1; i > 0; i-- {
		j := rapid.IntRange(0, i).Draw(t, label)
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// TestPermutationInvariance: shuffling Gateways, Namespaces, listeners and
// status.parents gives byte-identical URLs (with provenance) and
// diagnostics; shuffling parentRefs as well gives the same URL list and the
// same diagnostics but for the parentRef index in field paths.
func TestPermutationInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		wantURLs, wantDiags := w.render(true)

		var p world
		p.namespaces = shuffled(t, "ns-order", w.namespaces)
		for _, gw := range shuffled(t, "gw-order", w.gateways) {
			gw = gw.DeepCopy()
			gw.Spec.Listeners = shuffled(t, "listener-order", gw.Spec.Listeners)
			p.gateways = append(p.gateways, gw)
		}
		for _, r := range w.routes {
			r = r.DeepCopy()
			r.Status.Parents = shuffled(t, "status-order", r.Status.Parents)
			p.routes = append(p.routes, r)
		}
		gotURLs, gotDiags := p.render(true)
		if !slices.Equal(gotURLs, wantURLs) || !slices.Equal(gotDiags, wantDiags) {
			t.Fatalf("shuffled objects changed the output:\nURLs %q\nwant %q\ndiags %q\nwant  %q", gotURLs, wantURLs, gotDiags, wantDiags)
		}

		wantURLs, wantDiags = w.render(false)
		for i, r := range p.routes {
			r.Spec.ParentRefs = shuffled(t, "parent-order", r.Spec.ParentRefs)
			p.routes[i] = r
		}
		gotURLs, gotDiags = p.render(false)
		if !slices.Equal(gotURLs, wantURLs) || !slices.Equal(gotDiags, wantDiags) {
			t.Fatalf("shuffled parentRefs changed the output:\nURLs %q\nwant %q\ndiags %q\nwant  %q", gotURLs, wantURLs, gotDiags, wantDiags)
		}
	})
}

// TestNoURLThroughExcludingListener: every URL comes from a listener that the
// parentRef selects, that carries HTTP, whose allowedRoutes admit the route's
// namespace and kind (checked here by an independent reading of the spec),
// and every URL is a valid registry remote URL.
func TestNoURLThroughExcludingListener(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		ix := NewIndex(w.gateways, w.namespaces)
		for _, r := range w.routes {
			for ri := range DefaultRules(r) {
				urls, _ := RouteURLs(ix, r, ri, RuleOptions{})
				for _, u := range urls {
					if !model.RemoteURLPattern().MatchString(u.URL) {
						t.Fatalf("%s is not a valid remote URL", u.URL)
					}
					gw := ix.Gateway(u.Origin.Gateway.Namespace, u.Origin.Gateway.Name)
					if gw == nil {
						t.Fatalf("%s comes from unknown Gateway %s", u.URL, u.Origin.Gateway)
					}
					i := slices.IndexFunc(gw.Spec.Listeners, func(l gwv1.Listener) bool { return l.Name == u.Origin.Listener })
					if i < 0 {
						t.Fatalf("%s comes from unknown listener %s", u.URL, u.Origin.Listener)
					}
					l := gw.Spec.Listeners[i]
					ref := r.Spec.ParentRefs[u.Origin.ParentIndex]
					if ref.SectionName != nil && *ref.SectionName != l.Name || ref.Port != nil && *ref.Port != l.Port {
						t.Fatalf("%s comes from listener %s, which parentRef %d does not select", u.URL, l.Name, u.Origin.ParentIndex)
					}
					if l.Protocol != gwv1.HTTPProtocolType && l.Protocol != gwv1.HTTPSProtocolType {
						t.Fatalf("%s comes from a %s listener", u.URL, l.Protocol)
					}
					if !oracleAllows(l, gw.Namespace, r.Namespace, w.namespaces) {
						t.Fatalf("%s: listener %s/%s excludes routes from namespace %s", u.URL, gw.Name, l.Name, r.Namespace)
					}
				}
			}
		}
	})
}

// oracleAllows re-reads AllowedRoutes straight from the spec, without the
// package's defaulting helpers.
func oracleAllows(l gwv1.Listener, gwNS, routeNS string, namespaces []*corev1.Namespace) bool {
	if ar := l.AllowedRoutes; ar != nil && len(ar.Kinds) > 0 &&
		!slices.ContainsFunc(ar.Kinds, func(k gwv1.RouteGroupKind) bool {
			return k.Kind == "HTTPRoute" && (k.Group == nil || *k.Group == gwv1.GroupName)
		}) {
		return false
	}
	from := gwv1.NamespacesFromSame
	var sel *metav1.LabelSelector
	if l.AllowedRoutes != nil && l.AllowedRoutes.Namespaces != nil {
		if l.AllowedRoutes.Namespaces.From != nil {
			from = *l.AllowedRoutes.Namespaces.From
		}
		sel = l.AllowedRoutes.Namespaces.Selector
	}
	switch from {
	case gwv1.NamespacesFromAll:
		return true
	case gwv1.NamespacesFromSame:
		return gwNS == routeNS
	case gwv1.NamespacesFromSelector:
		i := slices.IndexFunc(namespaces, func(n *corev1.Namespace) bool { return n.Name == routeNS })
		if i < 0 || sel == nil {
			return false
		}
		s, err := metav1.LabelSelectorAsSelector(sel)
		return err == nil && s.Matches(labels.Set(namespaces[i].Labels))
	}
	return false
}

// TestInversionLandsOnEndpoint: for any request path a rule matches, the
// path the backend receives (Rewrite, the forward direction) is reachable,
// and ExternalPath finds a request path that Rewrite takes exactly there.
// For any endpoint at all, ExternalPath either fails or is such a path.
func TestInversionLandsOnEndpoint(t *testing.T) {
	segment := rapid.SampledFrom([]string{"a", "b", "mcp", "sse", "x"})
	pathOf := func(t *rapid.T, label string, min int) string {
		segs := rapid.SliceOfN(segment, min, 3).Draw(t, label)
		p := "/" + strings.Join(segs, "/")
		if len(segs) > 0 && rapid.Bool().Draw(t, label+"-slash") {
			p += "/"
		}
		return p
	}
	rapid.Check(t, func(t *rapid.T) {
		exact := rapid.Bool().Draw(t, "exact")
		value := pathOf(t, "match", 0)
		match := prefixMatch(value)
		if exact {
			match = exactMatch(value)
		}
		var filter *gwv1.HTTPURLRewriteFilter
		switch rapid.IntRange(0, 2).Draw(t, "filter") {
		case 1:
			if !exact {
				filter = replacePrefix(rapid.SampledFrom([]string{"", "/", "/x", "/x/", "/x/y", "/mcp"}).Draw(t, "replace-prefix"))
			}
		case 2:
			filter = replaceFull(pathOf(t, "replace-full", 1))
		}

		// Forward from a request path the rule matches.
		request := value
		if !exact {
			request = strings.TrimRight(value, "/") + strings.TrimSuffix(pathOf(t, "rest", 0), "/")
			if request == "" {
				request = "/"
			}
			if rapid.Bool().Draw(t, "request-slash") && !strings.HasSuffix(request, "/") {
				request += "/"
			}
		}
		endpoint, err := Rewrite(request, match, filter)
		if err != nil {
			t.Fatalf("Rewrite(%q, %s, %s): %v", request, showMatch(match), showFilter(filter), err)
		}
		ext, err := ExternalPath(endpoint, match, filter)
		if err != nil {
			t.Fatalf("Rewrite(%q, %s, %s) = %q, but ExternalPath finds no way there: %v", request, showMatch(match), showFilter(filter), endpoint, err)
		}
		if back, err := Rewrite(ext, match, filter); err != nil || back != endpoint {
			t.Fatalf("ExternalPath(%q, %s, %s) = %q, which reaches %q, %v", endpoint, showMatch(match), showFilter(filter), ext, back, err)
		}

		// Any endpoint: a result is always a true preimage.
		any := pathOf(t, "any-endpoint", 0)
		if ext, err := ExternalPath(any, match, filter); err == nil {
			if back, err := Rewrite(ext, match, filter); err != nil || back != any {
				t.Fatalf("ExternalPath(%q, %s, %s) = %q, which reaches %q, %v", any, showMatch(match), showFilter(filter), ext, back, err)
			}
		}
	})
}
