package urlbuild

import (
	"path"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// Transports whose client requests RuleOptions.Transport names.
const (
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
)

// messagesSegment is the last path segment of the SSE message endpoint,
// which ToolHive's proxy serves beside its stream (/sse and /messages).
const messagesSegment = "messages"

// clientRequest is one request a client sends for a URL, and the path the
// backend must receive.
type clientRequest struct {
	method, path, backend string
	// client is the set of headers sent with it (Request.client).
	client uint8
	// what says what the client sends it for, in messages.
	what string
}

// urlCheck checks that the requests an MCP client sends to a candidate URL
// of one rule reach that rule's backend, using the index's routing (see
// routing.go). It is built per rule.
type urlCheck struct {
	a         *Attachment
	ruleIndex int
	rule      *gwv1.HTTPRouteRule
	rewrite   *gwv1.HTTPURLRewriteFilter
	opts      RuleOptions
	// backendRef is the backendRef the URL must reach, nil when opts.Backend
	// names none (rule filters only), in which case only this rule counts as
	// reaching it; backend is it defaulted. Both are worked out the first
	// time another rule is looked at (haveBackend), which is rare.
	backendRef  *gwv1.BackendRef
	backend     backendKey
	haveBackend bool
	reqs        [3]clientRequest
	// memo is the backend path of the last rule path seen (the same for
	// every origin); cur is the URL path being checked with its backend
	// path, and curMatch the match it came from, which needs no rewrite to
	// check.
	memo     bool
	memoPath RulePath
	memoB    string
	memoErr  error
	cur      clientRequest
	curMatch int
}

// backendKey is a defaulted backendRef (see DefaultBackendRef), compared
// without allocating.
type backendKey struct {
	group, kind, namespace, name string
	port                         int32
	hasPort                      bool
	weight                       int32
}

func backendKeyOf(ref *gwv1.BackendRef, routeNamespace string) backendKey {
	k := backendKey{kind: KindService, namespace: routeNamespace, name: string(ref.Name), weight: 1}
	if ref.Group != nil {
		k.group = string(*ref.Group)
	}
	if ref.Kind != nil {
		k.kind = string(*ref.Kind)
	}
	if ref.Namespace != nil && *ref.Namespace != "" {
		k.namespace = string(*ref.Namespace)
	}
	if ref.Port != nil {
		k.port, k.hasPort = *ref.Port, true
	}
	if ref.Weight != nil {
		k.weight = *ref.Weight
	}
	return k
}

// sameBackend reports whether two backendRefs name one backend.
func (k backendKey) sameBackend(o backendKey) bool {
	return k.group == o.group && k.kind == o.kind && k.namespace == o.namespace && k.name == o.name &&
		k.hasPort == o.hasPort && k.port == o.port
}

// initURLCheck prepares c, which must be zero, for rule ruleIndex, whose
// path rewrite for the backend is rewrite (from appendRulePaths); false
// when the attachment has no routes to route over. It sets the fields one by
// one: the struct is large and made per rule.
func (a *Attachment) initURLCheck(c *urlCheck, ruleIndex int, opts RuleOptions, rewrite *gwv1.HTTPURLRewriteFilter) bool {
	if a.ix == nil || !a.ix.hasRoutes {
		return false
	}
	rules := DefaultRules(a.route)
	if ruleIndex < 0 || ruleIndex >= len(rules) {
		return false
	}
	// The rule itself is read only when a check needs it (backendKey,
	// match): most URLs are taken by their own match, and a caller that
	// prepared the rule (PrepareRule) need not read it again.
	c.a, c.ruleIndex, c.rule, c.opts, c.rewrite = a, ruleIndex, &rules[ruleIndex], opts, rewrite
	return true
}

// backendKey returns the defaulted backendRef the URL must reach; false
// when there is none.
func (c *urlCheck) backendKey() (backendKey, bool) {
	if !c.haveBackend {
		if b := c.opts.Backend; b >= 0 && b < len(c.rule.BackendRefs) {
			c.backendRef = &c.rule.BackendRefs[b].BackendRef
			c.backend = backendKeyOf(c.backendRef, c.a.route.Namespace)
		}
		c.haveBackend = true
	}
	return c.backend, c.backendRef != nil
}

// requests lists what a client sends for a URL path p whose requests the
// backend receives at b: streamable-http POSTs its messages, GETs the
// server's stream and DELETEs the session; SSE GETs the stream and, when
// the endpoint path is known, POSTs to the message endpoint beside it
// (ToolHive's proxy serves /messages next to /sse: the stream path with
// its last segment replaced). Without a transport, a GET.
func (c *urlCheck) requests(p, b string) []clientRequest {
	reqs := c.reqs[:0]
	switch c.opts.Transport {
	case TransportStreamableHTTP:
		reqs = append(reqs,
			clientRequest{"POST", p, b, clientMessage, "streamable-http sends its messages with POST"},
			clientRequest{"GET", p, b, clientStream, "streamable-http opens the server's stream with GET"},
			clientRequest{"DELETE", p, b, clientPlain, "streamable-http ends a session with DELETE"})
	case TransportSSE:
		reqs = append(reqs, clientRequest{"GET", p, b, clientStream, "SSE opens its stream with GET"})
		if c.opts.EndpointPath != "" {
			reqs = append(reqs, clientRequest{"POST", sibling(p), sibling(b), clientSSEMessage,
				"SSE posts its messages to the message endpoint beside the stream"})
		}
	default:
		reqs = append(reqs, clientRequest{"GET", p, b, clientPlain, "a client reaches the URL with GET"})
	}
	return reqs
}

// sibling replaces the last segment of p with the message endpoint's.
func sibling(p string) string {
	return path.Join(path.Dir(strings.TrimSuffix(p, "/")), messagesSegment)
}

// url returns the path to publish for rule path rp through origin o: rp's
// own when every client request to it reaches the backend, else, for a
// PathPrefix whose bare prefix another rule takes, the prefix with a
// trailing "/" when its requests reach the backend and either the prefix
// is written so (PathPrefix "/match/": the URL is the prefix as written)
// or the backend receives the very path the bare prefix's requests would
// (a ReplaceFullPath rewrite); false and a diagnostic when none does. A
// prefix written without the "/" does not fall back: the backend would
// receive another path than the one the URL promises.
func (c *urlCheck) url(o Origin, rp RulePath) (string, model.Diagnostic, bool) {
	if !c.memo || c.memoPath != rp {
		if c.opts.EndpointPath != "" {
			// appendRulePaths took rp.Path from ExternalPath, which promises
			// (and checks) that the rewrite sends it to the endpoint path.
			c.memoB, c.memoErr = c.opts.EndpointPath, nil
		} else {
			c.memoB, c.memoErr = Rewrite(rp.Path, c.match(rp.Match).Path, c.rewrite)
		}
		c.memo, c.memoPath = true, rp
	}
	b, err := c.memoB, c.memoErr
	if err != nil {
		return "", model.Warningf(model.ReasonUnsupportedPathMatch, c.a.Route, c.field(rp.Match), "%s", err.Error()), false
	}
	c.cur, c.curMatch = clientRequest{path: rp.Path, backend: b}, rp.Match
	d, ok := c.try(o, rp.Path, b)
	if ok {
		return rp.Path, model.Diagnostic{}, true
	}
	m := c.match(rp.Match)
	if typ, value := DefaultPathMatch(m); typ == gwv1.PathMatchPathPrefix && rp.Path != "/" && rp.Path == prefixBase(strings.TrimRight(value, "/")) {
		alt := rp.Path + "/"
		asWritten := c.opts.EndpointPath == "" && strings.HasSuffix(value, "/")
		if b2, err := Rewrite(alt, m.Path, c.rewrite); err == nil && (b2 == b || asWritten) {
			c.cur = clientRequest{path: alt, backend: b2}
			if _, ok := c.try(o, alt, b2); ok {
				return alt, model.Diagnostic{}, true
			}
		}
	}
	return "", d, false
}

// also checks the path url chose for rule path rp through another origin,
// o, of the same scheme, host and port: the client requests for it must
// reach the backend, at the same backend path, through o's Gateway too.
// url must have been called for rp just before.
func (c *urlCheck) also(o Origin, rp RulePath, path string) (model.Diagnostic, bool) {
	b := c.memoB
	if path != rp.Path {
		var err error
		if b, err = Rewrite(path, c.match(rp.Match).Path, c.rewrite); err != nil {
			return model.Warningf(model.ReasonUnsupportedPathMatch, c.a.Route, c.field(rp.Match), "%s", err.Error()), false
		}
	}
	c.cur, c.curMatch = clientRequest{path: path, backend: b}, rp.Match
	return c.try(o, path, b)
}

// match returns match mi of the rule (the default match for -1).
func (c *urlCheck) match(mi int) gwv1.HTTPRouteMatch {
	ms := DefaultMatches(*c.rule)
	if mi < 0 || mi >= len(ms) {
		return ms[0]
	}
	return ms[mi]
}

func (c *urlCheck) field(mi int) string {
	f := "spec.rules[" + strconv.Itoa(c.ruleIndex) + "]"
	if mi >= 0 {
		f += ".matches[" + strconv.Itoa(mi) + "]"
	}
	return f
}

// try routes the client requests for path p (backend path b) through the
// listener that receives o's host; the diagnostic of the first that does
// not reach the backend.
func (c *urlCheck) try(o Origin, p, b string) (model.Diagnostic, bool) {
	l, ok := c.receiver(o)
	if !ok {
		return model.Diagnostic{}, true
	}
	if l == nil {
		return c.diag(model.ReasonNoMatchingListener, o, c.requests(p, b)[0], p, "no listener of the Gateway receives it"), false
	}
	// Requests for one path route alike whatever their method when no
	// match on the way has a method condition: route once.
	var last routing
	var lastReq clientRequest
	have := false
	for _, rq := range c.requests(p, b) {
		if have && last.methodFree && rq.path == lastReq.path && rq.backend == lastReq.backend {
			continue // routed as the last one, which reached the backend
		}
		last, lastReq, have = l.route(&Request{Host: o.Host, Method: rq.method, Path: rq.path, client: rq.client}, c.home(l, o.Host)), rq, true
		if d, ok := c.reaches(o, l, &last, rq, p); !ok {
			return d, false
		}
	}
	return model.Diagnostic{}, true
}

// home returns the route's group in l.routing for host when the route was
// filed under exactly that hostname on l (nil otherwise): what a map
// look-up would find, known without one.
func (c *urlCheck) home(l *listenerEntry, host string) *routeGroup {
	if e := c.a.entry; e != nil && e.homeL == l && e.homeHost == host {
		return e.home
	}
	return nil
}

// receiver returns the listener that receives o's requests (nil for none);
// false when the index does not hold o's Gateway. The attachment knows it
// for the origin of a route that has one.
func (c *urlCheck) receiver(o Origin) (*listenerEntry, bool) {
	if a := c.a; a.recvG != nil && o.Host == a.recvHost && o.Port == a.recvPort && (o.Scheme == "https") == a.recvHTTPS &&
		o.Gateway.Name == a.recvG.name && o.Gateway.Namespace == a.recvG.namespace {
		return a.recv, true
	}
	g := c.a.ix.gateway(o.Gateway.Namespace, o.Gateway.Name)
	if g == nil {
		return nil, false
	}
	protocol := gwv1.HTTPProtocolType
	if o.Scheme == "https" {
		protocol = gwv1.HTTPSProtocolType
	}
	return g.receiver(int32(o.Port), protocol, o.Host), true
}

// reaches reports whether rq, sent through listener l, reaches the backend
// at the path it must, and otherwise says where it goes.
func (c *urlCheck) reaches(o Origin, l *listenerEntry, rt *routing, rq clientRequest, p string) (model.Diagnostic, bool) {
	if mc := rt.crowded; mc != nil {
		what := "more than " + strconv.Itoa(maxFreeRegex) + " RegularExpression matches that may take any path (no literal prefix)"
		if mc.m.re != nil {
			if prefix, _ := mc.m.re.LiteralPrefix(); prefix != "" {
				what = "more than " + strconv.Itoa(maxPrefixedRegex) + " RegularExpression matches whose literal prefix the path starts with"
			}
		}
		return c.diag(model.ReasonShadowedByRoute, o, rq, p, "the listener holds "+what+", more than the check tests; "+mc.describe()+
			" is one of those untested, and may take it"+pendingNote(*mc, o)), false
	}
	for _, mc := range rt.may {
		if !c.serves(mc, rq) {
			return c.diag(model.ReasonShadowedByRoute, o, rq, p, mc.describe()+
				" may take it: its RegularExpression match has implementation-specific precedence"+pendingNote(mc, o)), false
		}
	}
	if rt.ok && c.serves(rt.win, rq) {
		if !rt.vhostOK {
			return c.diag(model.ReasonShadowedByRoute, o, rq, p, "it goes to "+rt.win.describe()+
				" only when routes with less specific hostnames are tried after those with more specific ones; Gateways that keep one virtual host per hostname answer 404"), false
		}
		if rt.vhost == rt.win || c.serves(rt.vhost, rq) {
			return model.Diagnostic{}, true
		}
		return c.diag(model.ReasonShadowedByRoute, o, rq, p, "Gateways that keep one virtual host per hostname (the route's hostnames intersected with the listener's) send it to "+
			rt.vhost.describe()+", which "+c.elsewhere(rt.vhost)), false
	}
	ours := c.takes(rq.method, rq.path)
	switch {
	case rt.ok && ours:
		return c.diag(model.ReasonShadowedByRoute, o, rq, p, "it goes to "+rt.win.describe()+
			", which wins by HTTPRoute precedence and "+c.elsewhere(rt.win)+headersNote(rt.win, rq)+pendingNote(rt.win, o)), false
	case rt.ok:
		return c.diag(model.ReasonMethodNotRouted, o, rq, p, "the rule does not match it, and it goes to "+rt.win.describe()), false
	case !ours:
		return c.diag(model.ReasonMethodNotRouted, o, rq, p, "no rule on the listener matches it (the Gateway answers 404)"), false
	}
	return c.diag(model.ReasonNoMatchingListener, o, rq, p, "the route is not attached to "+l.describe()+", the listener that receives it"), false
}

// headersNote says, for a message about a match x with header conditions
// that takes rq, which headers rq carries; "" when x has none.
func headersNote(x cand, rq clientRequest) string {
	if x.m.headers == 0 {
		return ""
	}
	var sent []string
	for _, name := range [...]string{"Content-Type", "Accept"} {
		if v, ok := clientHeader(rq.client, name); ok {
			sent = append(sent, name+": "+v)
		}
	}
	if len(sent) == 0 {
		return ""
	}
	return " (an MCP client sends it with " + strings.Join(sent, " and ") + ")"
}

// pendingNote says, for a message, that the route of x competes for o's
// requests before its Gateway's controller has reconciled it: its status
// has no entry for any parentRef naming o's Gateway (acceptance.competes).
// "" otherwise.
func pendingNote(x cand, o Origin) string {
	r := x.r.route
	for _, ps := range r.Status.Parents {
		k := parentKeyOf(ps.ParentRef, r.Namespace)
		if k.group == GatewayGroup && k.kind == KindGateway && k.namespace == o.Gateway.Namespace && k.name == o.Gateway.Name {
			return ""
		}
	}
	return " (its status has no entry for Gateway " + o.Gateway.Namespace + "/" + o.Gateway.Name +
		" yet; it takes these requests once the controller reconciles it)"
}

// takes reports whether a match of the rule matches the request.
func (c *urlCheck) takes(method, p string) bool {
	for _, m := range DefaultMatches(*c.rule) {
		typ, value := DefaultPathMatch(m)
		e := matchEntry{typ: typ, value: value, headers: int32(len(m.Headers)), query: int32(len(m.QueryParams))}
		if typ == gwv1.PathMatchPathPrefix {
			e.value = strings.TrimRight(value, "/")
		}
		if m.Method != nil {
			e.method = string(*m.Method)
		}
		if e.takes(method, p) {
			return true
		}
	}
	return false
}

// serves reports whether the rule x of the match that takes rq forwards it
// to the backend at rq.backend: this rule, or another rule whose
// backendRefs of weight > 0 all name the same backend, with a rewrite that
// gives the same path.
func (c *urlCheck) serves(x cand, rq clientRequest) bool {
	if x.r.route == c.a.route && int(x.m.rule) == c.ruleIndex && int(x.m.match) == c.curMatch &&
		rq.path == c.cur.path && rq.backend == c.cur.backend {
		return true // the URL's own match: its backend path by construction
	}
	rules := DefaultRules(x.r.route)
	ri := int(x.m.rule)
	if ri >= len(rules) {
		return false
	}
	rule := rules[ri]
	ms := DefaultMatches(rule)
	mi := max(int(x.m.match), 0)
	if mi >= len(ms) {
		return false
	}
	var rw *gwv1.HTTPURLRewriteFilter
	if x.r.route.Namespace == c.a.Route.Namespace && x.r.route.Name == c.a.Route.Name && ri == c.ruleIndex {
		rw = c.rewrite
	} else {
		first, permitted := c.sameBackendRule(x.r.route.Namespace, &rule)
		if first < 0 || !permitted {
			return false
		}
		var ok bool
		if rw, _, ok = ruleRewrite(rule, ri, first, x.r.ref()); !ok {
			return false
		}
	}
	got, err := backendPath(rq.path, ms[mi].Path, rw)
	return err == nil && got == rq.backend
}

// sameBackendRule returns the index of the first backendRef of weight > 0
// of rule, a rule of another route in routeNamespace (or another rule of
// this one), when every such backendRef names the URL's backend (-1
// otherwise), and whether the route may reference that backend
// (RuleOptions.Permits).
func (c *urlCheck) sameBackendRule(routeNamespace string, rule *gwv1.HTTPRouteRule) (first int, permitted bool) {
	want, ok := c.backendKey()
	if !ok {
		return -1, false
	}
	first = -1
	for j := range rule.BackendRefs {
		b := backendKeyOf(&rule.BackendRefs[j].BackendRef, routeNamespace)
		if b.weight <= 0 {
			continue
		}
		if !b.sameBackend(want) {
			return -1, false
		}
		if first < 0 {
			first = j
		}
	}
	permitted = first >= 0 && (want.namespace == routeNamespace || c.opts.Permits == nil ||
		c.opts.Permits(routeNamespace, want.namespace, want.name))
	return first, permitted
}

// elsewhere says why a request x takes does not reach the backend: x leads
// to another backend, or to this one through a reference the Gateway
// refuses.
func (c *urlCheck) elsewhere(x cand) string {
	rules := DefaultRules(x.r.route)
	if ri := int(x.m.rule); ri < len(rules) {
		if first, permitted := c.sameBackendRule(x.r.route.Namespace, &rules[ri]); first >= 0 && !permitted {
			want, _ := c.backendKey()
			// The names are the route's spec, escaped and capped.
			return string(model.Sprintf("leads to the same backend through a reference the Gateway refuses: its backendRef crosses namespaces to Service %s/%s and no ReferenceGrant allows it (the Gateway answers 500)",
				want.namespace, want.name))
		}
	}
	return "does not lead to the same backend"
}

// diag reports that a client request to the URL does not reach the backend.
func (c *urlCheck) diag(reason model.Reason, o Origin, rq clientRequest, p, where string) model.Diagnostic {
	var u []byte
	u = o.appendTo(u)
	u = append(u, p...)
	return model.Warningf(reason, c.a.Route, "spec.rules["+strconv.Itoa(c.ruleIndex)+"]",
		"no URL %s (listener %s of Gateway %s): %s %s (%s) does not reach the rule's backend: %s",
		string(u), o.Listener, o.Gateway, rq.method, rq.path, rq.what, model.Text(where))
}
