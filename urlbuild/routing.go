package urlbuild

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/model"
)

// Request routing: which rule of which HTTPRoute a request takes on a
// listener, as HTTPRouteSpec.Hostnames and HTTPRouteRule.Matches define it.
//
//  1. Hostnames first: of the routes attached to the listener whose
//     hostnames match the request's host, only those with the most specific
//     matching hostname are considered — an exact name over any wildcard, a
//     longer wildcard over a shorter one, any hostname over none
//     ("precedence must be given to rules from the HTTPRoute with the largest
//     number of characters in a matching non-wildcard hostname, then of
//     characters in a matching hostname"). Reading this as a choice of
//     routes rather than an order of rules is what implementations that
//     build one virtual host per hostname do; it never publishes a URL the
//     other reading would send elsewhere, only sometimes withholds one.
//  2. Then, across the rules of those routes: an Exact path match over a
//     PathPrefix one, a longer prefix over a shorter one (trailing "/"
//     ignored, then the prefix as written), a match with a method over one
//     without, more header matches, more query parameter matches; then the
//     oldest route (creationTimestamp), the route first by
//     "{namespace}/{name}", and the first rule in list order.
//
// The requests are those of an MCP client: a method and a path, no
// particular headers or query parameters, so a match with header or query
// conditions takes none of them. RegularExpression matches have
// implementation-specific precedence: one whose expression (read as Go's
// RE2, anchored) matches the path, or that does not compile, may take the
// request whatever the other matches, which RouteRequest reports.

// Request is a request through a Gateway: a precise host, a method, an
// absolute path, and the headers and query parameters that header and query
// matches look at (an MCP client's requests have none of those: a match
// with header or query conditions takes none of them).
type Request struct {
	Host   string
	Method string
	Path   string
	// Headers by name (compared case-insensitively) and Query by name
	// (compared exactly); nil for none.
	Headers map[string]string
	Query   map[string]string
}

// Routed is the rule a request takes.
type Routed struct {
	// Route names the HTTPRoute; Rule and Match are indexes in its
	// spec.rules and that rule's matches (Match -1 for a rule without
	// matches, which matches every path).
	Route model.ObjectRef
	Rule  int
	Match int
	// MayTake lists the rules that may take the request instead: those with
	// a RegularExpression match (their precedence is implementation-specific),
	// and the rule of the other reading of hostname precedence.
	MayTake []Routed
}

// String names the rule for messages: rule 2 of HTTPRoute ns/name.
func (r Routed) String() string {
	return "spec.rules[" + strconv.Itoa(r.Rule) + "] of HTTPRoute " + r.Route.Namespace + "/" + r.Route.Name
}

// RouteRequest returns the rule the request takes when it reaches port of
// the Gateway namespace/name over protocol (HTTP or HTTPS): the listener that
// receives its host (the most specific hostname), then the rule that wins
// by HTTPRoute precedence over every route given to [NewIndex] that is
// attached to that listener and accepted there. false when no listener
// receives the request or no rule matches it (the Gateway answers 404), and
// when the rule is not certain: a RegularExpression match may take the
// request, or the two readings of hostname precedence disagree (Routed is
// then the ordered reading's rule, if any, and MayTake names the others; a
// request the virtual-host reading answers with 404 has an empty MayTake
// and a Routed rule).
func (ix *Index) RouteRequest(gateway types.NamespacedName, port int32, protocol gwv1.ProtocolType, req Request) (Routed, bool) {
	g := ix.gateway(gateway.Namespace, gateway.Name)
	if g == nil {
		return Routed{}, false
	}
	req.Host = lower(req.Host)
	l := g.receiver(port, protocol, req.Host)
	if l == nil {
		return Routed{}, false
	}
	rt := l.route(&req)
	out := Routed{Rule: -1, Match: -1}
	if rt.ok {
		out = rt.win.routed()
	}
	out.MayTake = routedAll(rt.may)
	if rt.vhostOK && (!rt.ok || rt.vhost != rt.win) {
		out.MayTake = append(out.MayTake, rt.vhost.routed())
	}
	return out, rt.ok && len(out.MayTake) == 0 && (rt.vhostOK || !rt.ok)
}

func routedAll(cs []cand) []Routed {
	if len(cs) == 0 {
		return nil
	}
	out := make([]Routed, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.routed())
	}
	return out
}

// routeEntry is one HTTPRoute given to NewIndex, its matches compiled.
type routeEntry struct {
	route   *gwv1.HTTPRoute
	ref     model.ObjectRef
	matches []matchEntry
}

// matchEntry is one match of a rule, with what precedence compares.
type matchEntry struct {
	rule, match int
	typ         gwv1.PathMatchType
	// value is the Exact path, the PathPrefix with its trailing "/" dropped
	// ("" for the root), or the RegularExpression.
	value string
	// rawLen is the length of the PathPrefix as written.
	rawLen  int
	method  string
	headers int
	query   int
	re      *regexp.Regexp // nil when the expression does not compile
	// hm and qm are the header and query conditions, for requests that
	// carry headers or query parameters (RouteRequest).
	hm []gwv1.HTTPHeaderMatch
	qm []gwv1.HTTPQueryParamMatch
}

// cand is a match of an attached route, a candidate for requests.
type cand struct {
	r *routeEntry
	m *matchEntry
}

func (c cand) routed() Routed {
	return Routed{Route: c.r.ref, Rule: c.m.rule, Match: c.m.match}
}

// describe names the rule and match for messages.
func (c cand) describe() string {
	s := c.routed().String()
	if c.m.match >= 0 {
		s += " (matches[" + strconv.Itoa(c.m.match) + "]: "
	} else {
		s += " (default match: "
	}
	switch c.m.typ {
	case gwv1.PathMatchPathPrefix:
		s += "PathPrefix " + strconv.Quote(prefixBase(c.m.value))
	default:
		s += string(c.m.typ) + " " + strconv.Quote(capped(c.m.value))
	}
	if c.m.method != "" {
		s += ", method " + c.m.method
	}
	if c.m.headers > 0 || c.m.query > 0 {
		s += ", " + strconv.Itoa(c.m.headers) + " header and " + strconv.Itoa(c.m.query) + " query conditions"
	}
	return s + ")"
}

// capped cuts a tenant value for a message.
func capped(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// takes reports whether the match matches a request with this method and
// path and no headers or query parameters.
func (m *matchEntry) takes(method, path string) bool {
	return m.takesRequest(&Request{Method: method, Path: path})
}

// takesRequest reports whether the match matches the request.
func (m *matchEntry) takesRequest(req *Request) bool {
	if m.method != "" && m.method != req.Method || !m.conditions(req) {
		return false
	}
	path := req.Path
	switch m.typ {
	case gwv1.PathMatchExact:
		return path == m.value
	case gwv1.PathMatchPathPrefix:
		return prefixMatches(m.value, path)
	}
	return false
}

// mayTake reports whether a RegularExpression match may take the request.
func (m *matchEntry) mayTake(req *Request) bool {
	if m.method != "" && m.method != req.Method || !m.conditions(req) {
		return false
	}
	return m.re == nil || m.re.MatchString(req.Path)
}

// conditions reports whether the request meets the header and query
// conditions of the match (HTTPHeaderMatch, HTTPQueryParamMatch: Exact by
// default; a RegularExpression that does not compile is taken to match).
func (m *matchEntry) conditions(req *Request) bool {
	if m.headers == 0 && m.query == 0 {
		return true
	}
	if len(req.Headers) == 0 && len(req.Query) == 0 {
		return false
	}
	for _, h := range m.hm {
		v, ok := "", false
		for k, x := range req.Headers {
			if strings.EqualFold(k, string(h.Name)) {
				v, ok = x, true
				break
			}
		}
		if !ok || !valueMatches(h.Type, h.Value, v) {
			return false
		}
	}
	for _, q := range m.qm {
		v, ok := req.Query[string(q.Name)]
		if !ok || !valueMatches((*gwv1.HeaderMatchType)(q.Type), q.Value, v) {
			return false
		}
	}
	return true
}

// valueMatches applies an Exact (default) or RegularExpression condition.
func valueMatches(typ *gwv1.HeaderMatchType, want, got string) bool {
	if typ == nil || *typ == gwv1.HeaderMatchExact {
		return want == got
	}
	if *typ != gwv1.HeaderMatchRegularExpression || len(want) > 1024 {
		return false
	}
	re, err := regexp.Compile(want)
	return err != nil || re.MatchString(got)
}

// newRouteEntry compiles the matches of every rule of r (defaulted:
// DefaultRules, DefaultMatches). Match types other than Exact, PathPrefix
// and RegularExpression are left out: the CRD refuses them.
func newRouteEntry(r *gwv1.HTTPRoute) *routeEntry {
	e := &routeEntry{route: r, ref: model.ObjectRef{Kind: KindHTTPRoute, Namespace: r.Namespace, Name: r.Name}}
	rules := DefaultRules(r)
	n := 0
	for i := range rules {
		n += max(len(rules[i].Matches), 1)
	}
	e.matches = make([]matchEntry, 0, n)
	for ri := range rules {
		for mi, hm := range DefaultMatches(rules[ri]) {
			typ, value := DefaultPathMatch(hm)
			m := matchEntry{rule: ri, match: mi, typ: typ, value: value, headers: len(hm.Headers), query: len(hm.QueryParams), hm: hm.Headers, qm: hm.QueryParams}
			if len(rules[ri].Matches) == 0 {
				m.match = -1
			}
			if hm.Method != nil {
				m.method = string(*hm.Method)
			}
			switch typ {
			case gwv1.PathMatchExact:
			case gwv1.PathMatchPathPrefix:
				m.rawLen = len(value)
				m.value = strings.TrimRight(value, "/")
			case gwv1.PathMatchRegularExpression:
				// Bounded: the CRD caps the value at 1024 characters, and RE2
				// matches in linear time.
				if len(value) <= 1024 {
					m.re, _ = regexp.Compile("^(?:" + value + ")$")
				}
			default:
				continue
			}
			e.matches = append(e.matches, m)
		}
	}
	return e
}

// routeGroup is the matches of the routes attached to a listener under one
// route hostname ("" for routes without hostnames), sorted by precedence.
type routeGroup struct {
	cands []cand
	// regex are the RegularExpression matches, apart: their precedence is
	// implementation-specific.
	regex []cand
	// exact and prefix index cands by Exact path and trimmed PathPrefix
	// when the group is large; nil otherwise (a scan is as fast).
	exact, prefix map[string][]int32
}

// smallGroup is the size up to which a group is scanned rather than
// indexed.
const smallGroup = 8

// comparePrecedence orders two matches by HTTPRouteRule.Matches precedence,
// the winner first; Exact and PathPrefix matches only.
func comparePrecedence(a, b cand) int {
	if a.m.typ != b.m.typ {
		if a.m.typ == gwv1.PathMatchExact {
			return -1
		}
		return 1
	}
	ac, bc := a.r.route.CreationTimestamp, b.r.route.CreationTimestamp
	return cmp.Or(
		-cmp.Compare(len(a.m.value), len(b.m.value)),
		-cmp.Compare(a.m.rawLen, b.m.rawLen),
		-cmp.Compare(boolRank(a.m.method != ""), boolRank(b.m.method != "")),
		-cmp.Compare(a.m.headers, b.m.headers),
		-cmp.Compare(a.m.query, b.m.query),
		ac.Time.Compare(bc.Time),
		cmp.Compare(a.r.ref.Namespace, b.r.ref.Namespace),
		cmp.Compare(a.r.ref.Name, b.r.ref.Name),
		cmp.Compare(a.m.rule, b.m.rule),
		cmp.Compare(a.m.match, b.m.match),
	)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finish sorts the group and indexes it when large.
func (g *routeGroup) finish() {
	slices.SortFunc(g.cands, comparePrecedence)
	slices.SortFunc(g.regex, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.r.ref.Namespace, b.r.ref.Namespace), cmp.Compare(a.r.ref.Name, b.r.ref.Name),
			cmp.Compare(a.m.rule, b.m.rule), cmp.Compare(a.m.match, b.m.match))
	})
	if len(g.cands) <= smallGroup {
		return
	}
	g.exact, g.prefix = make(map[string][]int32), make(map[string][]int32)
	for i, c := range g.cands {
		if c.m.typ == gwv1.PathMatchExact {
			g.exact[c.m.value] = append(g.exact[c.m.value], int32(i))
		} else {
			g.prefix[c.m.value] = append(g.prefix[c.m.value], int32(i))
		}
	}
}

// route returns the match of the group that takes the request, and the
// RegularExpression matches that may take it instead.
func (g *routeGroup) route(req *Request) (cand, []cand, bool) {
	var may []cand
	for _, c := range g.regex {
		if c.m.mayTake(req) {
			may = append(may, c)
		}
	}
	if g.exact == nil {
		for _, c := range g.cands {
			if c.m.takesRequest(req) {
				return c, may, true
			}
		}
		return cand{}, may, false
	}
	path := req.Path
	first := func(ids []int32) (cand, bool) {
		for _, i := range ids {
			if c := g.cands[i]; c.m.takesRequest(req) {
				return c, true
			}
		}
		return cand{}, false
	}
	if c, ok := first(g.exact[path]); ok {
		return c, may, true
	}
	// The prefixes a path is under, element by element, longest first: the
	// path itself (unless it ends in "/"), then the path up to each "/".
	if !strings.HasSuffix(path, "/") {
		if c, ok := first(g.prefix[path]); ok {
			return c, may, true
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != '/' {
			continue
		}
		if c, ok := first(g.prefix[path[:i]]); ok {
			return c, may, true
		}
	}
	return cand{}, may, false
}

// routing is where a request goes on a listener under the two readings of
// hostname precedence (see the top of this file).
type routing struct {
	// win is the rule the ordered reading gives: route hostnames ranked by
	// specificity, a request the rules of the most specific ones do not
	// match falling through to the next.
	win cand
	ok  bool
	// vhost is what the virtual-host reading gives: only the routes whose
	// hostname, intersected with the listener's, is the most specific one
	// matching the host, without falling through.
	vhost   cand
	vhostOK bool
	// may are the RegularExpression matches that may take the request.
	may []cand
}

// agree reports whether both readings send the request to one rule.
func (r *routing) agree() bool {
	return r.ok && r.vhostOK && r.win == r.vhost
}

// route returns where a request goes on this listener.
func (l *listenerEntry) route(req *Request) routing {
	var out routing
	if l.routing == nil {
		return out
	}
	l.eachGroup(l.routing, req.Host, func(g *routeGroup) bool {
		c, may, ok := g.route(req)
		out.may = append(out.may, may...)
		if ok {
			out.win, out.ok = c, true
		}
		return !ok
	})
	vhosts := l.vhosts
	if vhosts == nil {
		vhosts = l.routing
	}
	l.eachGroup(vhosts, req.Host, func(g *routeGroup) bool {
		out.vhost, _, out.vhostOK = g.route(req)
		return false
	})
	return out
}

// eachGroup calls f on the groups of m whose hostname matches host, the
// most specific first (host itself, the wildcards matching it from the
// longest, then ""), until f returns false.
func (l *listenerEntry) eachGroup(m map[string]*routeGroup, host string, f func(*routeGroup) bool) {
	if g := m[host]; g != nil && host != "" && !f(g) {
		return
	}
	var buf [256]byte
	for i := 1; i < len(host); i++ {
		if host[i] != '.' || i+1 == len(host) {
			continue
		}
		if g := m[string(append(append(buf[:0], '*'), host[i:]...))]; g != nil && !f(g) {
			return
		}
	}
	if g := m[""]; g != nil {
		f(g)
	}
}

// addRoutes attaches the routes to the listeners of the index, as Attach
// does (the parentRef selects the listener, the listener carries HTTP and
// admits the route, the route status accepts the parentRef), and files
// their matches under each route hostname that the listener serves. Two
// routes of one namespace and name: the one dedupe.Newer prefers.
func (ix *Index) addRoutes(routes []*gwv1.HTTPRoute) {
	if len(routes) == 0 {
		return
	}
	ix.routes = make(map[nsName]*routeEntry, len(routes))
	chosen := make(map[nsName]*gwv1.HTTPRoute, len(routes))
	for _, r := range routes {
		if r == nil {
			continue
		}
		k := nsName{r.Namespace, r.Name}
		if old, ok := chosen[k]; ok && !dedupe.Newer(r, &r.ObjectMeta, old, &old.ObjectMeta) {
			continue
		}
		chosen[k] = r
	}
	var groups []*routeGroup
	var keys []string
	// mark tells the listeners a route is already attached to (several
	// parentRefs may select one listener) without a search.
	mark := 0
	for _, r := range routes {
		if r == nil || chosen[nsName{r.Namespace, r.Name}] != r {
			continue
		}
		e := newRouteEntry(r)
		ix.routes[nsName{r.Namespace, r.Name}] = e
		routeNS := routeNamespace{ix: ix, name: r.Namespace}
		hostnames := routeHostnames(r.Spec.Hostnames)
		mark++
		for _, ref := range r.Spec.ParentRefs {
			key := parentKeyOf(ref, r.Namespace)
			if key.group != GatewayGroup || key.kind != KindGateway {
				continue
			}
			g := ix.gateway(key.namespace, key.name)
			if g == nil || !routeAcceptance(r, key).accepted {
				continue
			}
			for li := range g.listeners {
				l := &g.listeners[li]
				// A listener whose port, protocol and hostname another one
				// (first by name) has receives no requests: it gets no routes.
				if key.section != "" && key.section != l.name || key.port != 0 && key.port != l.port || l.scheme == "" ||
					l.mark == mark || g.byHostname[portProtocol{l.port, l.protocol}][l.hostname] != l ||
					!l.admits(r.Namespace, g.namespace, &routeNS) {
					continue
				}
				keys = routeHostKeys(keys[:0], hostnames, l.hostname)
				if len(keys) == 0 {
					continue
				}
				l.mark = mark
				if l.routing == nil {
					l.routing = make(map[string]*routeGroup)
				}
				groups = fileUnder(groups, l.routing, keys, e)
				if l.hostname != "" {
					// The intersected hostnames differ from the route's.
					if l.vhosts == nil {
						l.vhosts = make(map[string]*routeGroup)
					}
					keys, _ = intersect(keys[:0], hostnames, l.hostname)
					groups = fileUnder(groups, l.vhosts, keys, e)
				}
			}
		}
	}
	for _, g := range groups {
		g.finish()
	}
}

// fileUnder adds the matches of e to the groups of m under keys, creating
// groups as needed (appended to groups).
func fileUnder(groups []*routeGroup, m map[string]*routeGroup, keys []string, e *routeEntry) []*routeGroup {
	for _, k := range keys {
		grp := m[k]
		if grp == nil {
			grp = &routeGroup{}
			m[k] = grp
			groups = append(groups, grp)
		}
		for mi := range e.matches {
			c := cand{r: e, m: &e.matches[mi]}
			if c.m.typ == gwv1.PathMatchRegularExpression {
				grp.regex = append(grp.regex, c)
			} else {
				grp.cands = append(grp.cands, c)
			}
		}
	}
	return groups
}

// routeHostnames returns the route's hostnames in lower case, sorted,
// without duplicates or empty ones.
func routeHostnames(hostnames []gwv1.Hostname) []string {
	out := make([]string, 0, len(hostnames))
	for _, h := range hostnames {
		if h != "" {
			out = append(out, lower(string(h)))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// routeHostKeys appends the route hostnames (from routeHostnames) that
// intersect the listener hostname, or "" when the route has none (it then
// takes every host the listener receives).
func routeHostKeys(dst, hostnames []string, listener string) []string {
	if len(hostnames) == 0 {
		return append(dst, "")
	}
	for _, rh := range hostnames {
		if listener != "" {
			if _, ok := intersectOne(rh, listener); !ok {
				continue
			}
		}
		dst = append(dst, rh)
	}
	return dst
}
