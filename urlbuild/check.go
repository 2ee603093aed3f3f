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
	// what says what the client sends it for, in messages.
	what string
}

// urlCheck checks that the requests an MCP client sends to a candidate URL
// of one rule reach that rule's backend, using the index's routing (see
// routing.go). It is built per rule.
type urlCheck struct {
	a         *Attachment
	ruleIndex int
	rule      gwv1.HTTPRouteRule
	rewrite   *gwv1.HTTPURLRewriteFilter
	opts      RuleOptions
	// backend is the defaulted backendRef the URL must reach; nil when
	// opts.Backend names none (rule filters only), in which case only this
	// rule counts as reaching it.
	backend *gwv1.BackendRef
	reqs    []clientRequest
}

func (a *Attachment) newURLCheck(ruleIndex int, opts RuleOptions) *urlCheck {
	if a.ix == nil || a.ix.routes == nil {
		return nil
	}
	rules := DefaultRules(a.route)
	if ruleIndex < 0 || ruleIndex >= len(rules) {
		return nil
	}
	c := &urlCheck{a: a, ruleIndex: ruleIndex, rule: rules[ruleIndex], opts: opts}
	rw, _, ok := ruleRewrite(c.rule, ruleIndex, opts.Backend, a.Route)
	if !ok {
		return nil // appendRulePaths gave no path and said why
	}
	c.rewrite = rw
	if opts.Backend >= 0 && opts.Backend < len(c.rule.BackendRefs) {
		b := DefaultBackendRef(c.rule.BackendRefs[opts.Backend].BackendRef, a.route.Namespace)
		c.backend = &b
	}
	return c
}

// requests lists what a client sends for a URL path p whose requests the
// backend receives at b: streamable-http POSTs its messages, GETs the
// server's stream and DELETEs the session; SSE GETs the stream and, when
// the endpoint path is known, POSTs to the message endpoint beside it
// (ToolHive's proxy serves /messages next to /sse: the stream path with
// its last segment replaced). Without a transport, a GET.
func (c *urlCheck) requests(p, b string) []clientRequest {
	c.reqs = c.reqs[:0]
	switch c.opts.Transport {
	case TransportStreamableHTTP:
		c.reqs = append(c.reqs,
			clientRequest{"POST", p, b, "streamable-http sends its messages with POST"},
			clientRequest{"GET", p, b, "streamable-http opens the server's stream with GET"},
			clientRequest{"DELETE", p, b, "streamable-http ends a session with DELETE"})
	case TransportSSE:
		c.reqs = append(c.reqs, clientRequest{"GET", p, b, "SSE opens its stream with GET"})
		if c.opts.EndpointPath != "" {
			c.reqs = append(c.reqs, clientRequest{"POST", sibling(p), sibling(b),
				"SSE posts its messages to the message endpoint beside the stream"})
		}
	default:
		c.reqs = append(c.reqs, clientRequest{"GET", p, b, "a client reaches the URL with GET"})
	}
	return c.reqs
}

// sibling replaces the last segment of p with the message endpoint's.
func sibling(p string) string {
	return path.Join(path.Dir(strings.TrimSuffix(p, "/")), messagesSegment)
}

// url returns the path to publish for rule path rp through origin o: rp's
// own when every client request to it reaches the backend, else, for a
// PathPrefix whose bare prefix another rule takes, the prefix with a
// trailing "/" when that works; false and a diagnostic when neither does.
func (c *urlCheck) url(o Origin, rp RulePath) (string, model.Diagnostic, bool) {
	m := c.match(rp.Match)
	b, err := Rewrite(rp.Path, m.Path, c.rewrite)
	if err != nil {
		return "", model.Warningf(model.ReasonUnsupportedPathMatch, c.a.Route, c.field(rp.Match), "%s", err.Error()), false
	}
	d, ok := c.try(o, rp.Path, b)
	if ok {
		return rp.Path, model.Diagnostic{}, true
	}
	if typ, value := DefaultPathMatch(m); typ == gwv1.PathMatchPathPrefix && rp.Path != "/" && rp.Path == prefixBase(strings.TrimRight(value, "/")) {
		alt := rp.Path + "/"
		if b2, err := Rewrite(alt, m.Path, c.rewrite); err == nil && (c.opts.EndpointPath == "" || b2 == b) {
			if _, ok := c.try(o, alt, b2); ok {
				return alt, model.Diagnostic{}, true
			}
		}
	}
	return "", d, false
}

// match returns match mi of the rule (the default match for -1).
func (c *urlCheck) match(mi int) gwv1.HTTPRouteMatch {
	ms := DefaultMatches(c.rule)
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
	g := c.a.ix.gateway(o.Gateway.Namespace, o.Gateway.Name)
	if g == nil {
		return model.Diagnostic{}, true
	}
	protocol := gwv1.HTTPProtocolType
	if o.Scheme == "https" {
		protocol = gwv1.HTTPSProtocolType
	}
	l := g.receiver(int32(o.Port), protocol, o.Host)
	for _, rq := range c.requests(p, b) {
		if d, ok := c.reaches(o, l, rq, p); !ok {
			return d, false
		}
	}
	return model.Diagnostic{}, true
}

// reaches reports whether rq, sent through listener l, reaches the backend
// at the path it must, and otherwise says where it goes.
func (c *urlCheck) reaches(o Origin, l *listenerEntry, rq clientRequest, p string) (model.Diagnostic, bool) {
	if l == nil {
		return c.diag(model.ReasonNoMatchingListener, o, rq, p, "no listener of the Gateway receives it"), false
	}
	rt := l.route(&Request{Host: o.Host, Method: rq.method, Path: rq.path})
	for _, mc := range rt.may {
		if !c.serves(mc, rq) {
			return c.diag(model.ReasonShadowedByRoute, o, rq, p, mc.describe()+
				" may take it: its RegularExpression match has implementation-specific precedence"), false
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
			rt.vhost.describe()+", which does not lead to the same backend"), false
	}
	ours := c.takes(rq.method, rq.path)
	switch {
	case rt.ok && ours:
		return c.diag(model.ReasonShadowedByRoute, o, rq, p, "it goes to "+rt.win.describe()+
			", which wins by HTTPRoute precedence and does not lead to the same backend"), false
	case rt.ok:
		return c.diag(model.ReasonMethodNotRouted, o, rq, p, "the rule does not match it, and it goes to "+rt.win.describe()), false
	case !ours:
		return c.diag(model.ReasonMethodNotRouted, o, rq, p, "no rule on the listener matches it (the Gateway answers 404)"), false
	}
	return c.diag(model.ReasonNoMatchingListener, o, rq, p, "the route is not attached to "+l.describe()+", the listener that receives it"), false
}

// takes reports whether a match of the rule matches the request.
func (c *urlCheck) takes(method, p string) bool {
	for _, m := range DefaultMatches(c.rule) {
		typ, value := DefaultPathMatch(m)
		e := matchEntry{typ: typ, value: value, headers: len(m.Headers), query: len(m.QueryParams)}
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
	rules := DefaultRules(x.r.route)
	if x.m.rule >= len(rules) {
		return false
	}
	rule := rules[x.m.rule]
	ms := DefaultMatches(rule)
	mi := max(x.m.match, 0)
	if mi >= len(ms) {
		return false
	}
	var rw *gwv1.HTTPURLRewriteFilter
	if x.r.ref == c.a.Route && x.m.rule == c.ruleIndex {
		rw = c.rewrite
	} else {
		if c.backend == nil {
			return false
		}
		first := -1
		for j := range rule.BackendRefs {
			b := DefaultBackendRef(rule.BackendRefs[j].BackendRef, x.r.route.Namespace)
			if *b.Weight <= 0 {
				continue
			}
			if !sameBackend(b, *c.backend) {
				return false
			}
			if first < 0 {
				first = j
			}
		}
		if first < 0 {
			return false
		}
		var ok bool
		if rw, _, ok = ruleRewrite(rule, x.m.rule, first, x.r.ref); !ok {
			return false
		}
	}
	got, err := Rewrite(rq.path, ms[mi].Path, rw)
	return err == nil && got == rq.backend
}

// sameBackend reports whether two defaulted backendRefs name one backend.
func sameBackend(a, b gwv1.BackendRef) bool {
	return *a.Group == *b.Group && *a.Kind == *b.Kind && *a.Namespace == *b.Namespace && a.Name == b.Name &&
		(a.Port == nil) == (b.Port == nil) && (a.Port == nil || *a.Port == *b.Port)
}

// diag reports that a client request to the URL does not reach the backend.
func (c *urlCheck) diag(reason model.Reason, o Origin, rq clientRequest, p, where string) model.Diagnostic {
	var u []byte
	u = o.appendTo(u)
	u = append(u, p...)
	return model.Warningf(reason, c.a.Route, "spec.rules["+strconv.Itoa(c.ruleIndex)+"]",
		"no URL %s (listener %s of Gateway %s): %s %s (%s) does not reach the rule's backend: %s",
		u, o.Listener, o.Gateway, rq.method, rq.path, rq.what, where)
}
