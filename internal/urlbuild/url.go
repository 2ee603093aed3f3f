package urlbuild

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// RuleOptions says which path of a rule the URL must reach.
type RuleOptions struct {
	// EndpointPath is the path the backend serves the MCP endpoint on (for
	// ToolHive's proxy /mcp for streamable-http, /sse for sse). Empty: the URL
	// is the base path of each match (the path the route itself advertises).
	EndpointPath string
	// Backend is the index in the rule's backendRefs of the backend the URL
	// must reach: that backendRef's own filters (HTTPBackendRef.Filters) apply
	// after the rule's. The zero value is the first backendRef; an index out of
	// range (such as -1) means the rule's filters only.
	Backend int
	// Transport is the MCP transport the URL is for ([TransportStreamableHTTP]
	// or [TransportSSE]), which says what requests a client sends to it;
	// empty: a GET. When the index holds the snapshot's routes, a URL is
	// given only where each of those requests reaches the backend.
	Transport string
	// Permits reports whether an HTTPRoute in routeNamespace may send
	// requests to the Service serviceNamespace/serviceName: across
	// namespaces only when a ReferenceGrant allows it, and a Gateway answers
	// 500 for a backendRef it refuses. It is asked of the rules of other
	// routes that take the URL's requests by precedence: such a rule serves
	// them only if its reference to the backend is permitted. nil: every
	// reference is.
	Permits func(routeNamespace, serviceNamespace, serviceName string) bool
}

// RulePath is one external path of a rule.
type RulePath struct {
	Path string
	// Match is the index in spec.rules[i].matches the path came from; -1 when
	// the rule has no matches (the default PathPrefix "/").
	Match int
}

// URL is one external URL of a route rule, with its provenance.
type URL struct {
	// URL is scheme://host[:port]/path.
	URL string
	// Origin is the parentRef, Gateway and listener the host came from.
	Origin Origin
	// Path is the URL path and Match the index of the match it came from
	// (-1 for the default match).
	Path  string
	Match int
}

// String returns the URL.
func (u URL) String() string { return u.URL }

// Strings returns the distinct URL strings of urls, sorted.
func Strings(urls []URL) []string {
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		out = append(out, u.URL)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RouteURLs returns the external URLs of rule ruleIndex of route (indexes of
// [DefaultRules]: a route without rules has the default rule 0) and the
// diagnostics of its parentRefs and of that rule. It is
// ix.Attach(route).RuleURLs(ruleIndex, opts) with the
// diagnostics merged; a caller looking at several rules of one route should
// call Attach once instead.
func RouteURLs(ix *Index, route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) ([]URL, model.Diagnostics) {
	if route == nil {
		return nil, nil
	}
	a := ix.Attach(route)
	urls, ds := a.RuleURLs(ruleIndex, opts)
	ds = append(slices.Clip(a.Diagnostics), ds...)
	ds.Sort()
	return urls, ds
}

// RuleURLs returns the URLs of rule ruleIndex: every origin of the attachment
// with every path of the rule ([RulePaths]), one URL per distinct string,
// sorted; and the diagnostics of the rule (not those of the attachment, which
// are in a.Diagnostics). A URL reached through several listeners or matches
// keeps the provenance that sorts first (Gateway, listener, parentRef index,
// match index).
func (a *Attachment) RuleURLs(ruleIndex int, opts RuleOptions) ([]URL, model.Diagnostics) {
	if a == nil {
		return nil, nil
	}
	return a.AppendRuleURLs(nil, a.Origins, ruleIndex, opts)
}

// AppendRuleURLs is [Attachment.RuleURLs] for the given origins (a.Origins,
// or a copy of them), appending the URLs to dst, which it sorts and
// deduplicates only in the part it appends. It returns dst unchanged when
// the rule has no URL. A caller that keeps nothing of the URLs but their
// strings can pass the same dst, emptied, for every rule.
func (a *Attachment) AppendRuleURLs(dst []URL, origins []Origin, ruleIndex int, opts RuleOptions) ([]URL, model.Diagnostics) {
	if a == nil || a.route == nil {
		return dst, nil
	}
	var pbuf [4]RulePath
	paths, ds, rewrite := appendRulePaths(pbuf[:0], a.route, ruleIndex, opts)
	return a.appendRuleURLs(dst, origins, ruleIndex, opts, paths, ds, rewrite, "")
}

// RulePrep is what [Attachment.AppendRuleURLs] works out from a rule alone,
// before it looks at origins: the rule's paths and its path rewrite. A
// caller that reads its routes while their memory is at hand, and builds
// their URLs later, prepares the rules then ([PrepareRule]) and passes the
// RulePrep to [Attachment.AppendPreparedRuleURLs]. Only the common rule, of
// one path and no diagnostic, is prepared; for any other the RulePrep is
// empty and AppendPreparedRuleURLs reads the rule as AppendRuleURLs does.
type RulePrep struct {
	// path and match are the rule's RulePath, held in few words: a
	// RulePrep is made per route. When split, the path is path followed
	// by the endpoint path from tailAt on (externalPathSplit), joined only
	// in the URL.
	path    string
	rewrite *gwv1.HTTPURLRewriteFilter
	match   int32
	tailAt  int32
	ok      bool
	split   bool
}

// PrepareRule prepares rule ruleIndex of route for URLs with opts (see
// [RulePrep]).
func PrepareRule(route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) RulePrep {
	if p, ok := prepareSplit(route, ruleIndex, opts); ok {
		return p
	}
	var pbuf [2]RulePath
	paths, ds, rewrite := appendRulePaths(pbuf[:0], route, ruleIndex, opts)
	if len(paths) != 1 || len(ds) != 0 || int(int32(paths[0].Match)) != paths[0].Match {
		return RulePrep{}
	}
	return RulePrep{path: paths[0].Path, match: int32(paths[0].Match), rewrite: rewrite, ok: true}
}

// prepareSplit is PrepareRule for the common rule of one match, without
// header or query conditions, whose path through the rewrite to
// opts.EndpointPath comes in two pieces (externalPathSplit): what
// appendRulePaths gives for it, without joining them. false for any other
// rule, which PrepareRule prepares through appendRulePaths.
func prepareSplit(route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) (RulePrep, bool) {
	if route == nil || opts.EndpointPath == "" {
		return RulePrep{}, false
	}
	rules := DefaultRules(route)
	if ruleIndex < 0 || ruleIndex >= len(rules) {
		return RulePrep{}, false
	}
	rule := rules[ruleIndex]
	matches := DefaultMatches(rule)
	if len(matches) != 1 || len(matches[0].Headers) > 0 || len(matches[0].QueryParams) > 0 {
		return RulePrep{}, false
	}
	obj := model.ObjectRef{Kind: KindHTTPRoute, Namespace: route.Namespace, Name: route.Name}
	rewrite, _, ok := ruleRewrite(rule, ruleIndex, opts.Backend, obj)
	if !ok {
		return RulePrep{}, false
	}
	head, tailAt, err := externalPathSplit(opts.EndpointPath, matches[0].Path, rewrite)
	if err != nil || tailAt == len(opts.EndpointPath) || isWellKnownParts(head, opts.EndpointPath[tailAt:]) ||
		strings.IndexByte(head, '%') >= 0 {
		// An error is a diagnostic, and a path in one piece is the usual
		// one: both are left to appendRulePaths, as is a well-known path,
		// which gives no URL.
		return RulePrep{}, false
	}
	match := int32(0)
	if len(rule.Matches) == 0 {
		match = -1
	}
	return RulePrep{path: head, rewrite: rewrite, match: match, tailAt: int32(tailAt), ok: true, split: true}, true
}

// AppendPreparedRuleURLs is [Attachment.AppendRuleURLs] for a rule prepared
// by [PrepareRule] with the same route, rule index and options: the same
// URLs and diagnostics, without reading the rule's matches and filters
// again when it was prepared.
func (a *Attachment) AppendPreparedRuleURLs(dst []URL, origins []Origin, ruleIndex int, opts RuleOptions, prep *RulePrep) ([]URL, model.Diagnostics) {
	if prep == nil || !prep.ok {
		return a.AppendRuleURLs(dst, origins, ruleIndex, opts)
	}
	if a == nil || a.route == nil {
		return dst, nil
	}
	tail := ""
	if prep.split {
		tail = opts.EndpointPath[prep.tailAt:]
	}
	return a.appendRuleURLs(dst, origins, ruleIndex, opts, []RulePath{{Path: prep.path, Match: int(prep.match)}}, nil, prep.rewrite, tail)
}

// appendRuleURLs is AppendRuleURLs once the rule's paths, their
// diagnostics and the rule's path rewrite are known. A non-empty tail
// follows the path of the one element of paths (a split RulePrep): the
// first URL is then built ahead of its check, the path a part of it, so
// that the path and the URL take one allocation, not two.
func (a *Attachment) appendRuleURLs(dst []URL, origins []Origin, ruleIndex int, opts RuleOptions, paths []RulePath, ds model.Diagnostics, rewrite *gwv1.HTTPURLRewriteFilter, tail string) ([]URL, model.Diagnostics) {
	if len(origins) == 0 || len(paths) == 0 {
		return dst, ds
	}
	start := len(dst)
	if dst == nil {
		dst = make([]URL, 0, len(origins)*len(paths))
	}
	var chk urlCheck
	checking := a.initURLCheck(&chk, ruleIndex, opts, rewrite)
	var buf [128]byte
	for _, o := range origins {
		base := o.appendTo(buf[:0])
		for pi := range paths {
			p := paths[pi]
			// joined is the URL when built ahead of the check.
			joined := ""
			if tail != "" {
				joined = string(append(append(base, p.Path...), tail...))
				p.Path = joined[len(base):]
				paths[pi].Path, tail = p.Path, ""
			}
			path := p.Path
			if checking {
				var d model.Diagnostic
				var ok bool
				if path, d, ok = chk.url(o, p); !ok {
					ds = append(ds, d)
					continue
				}
				// The same URL through another Gateway the route is
				// attached to: a client may reach that one instead.
				if twins := a.twinsOf(o); len(twins) > 0 {
					failed := false
					for _, t := range twins {
						if d, ok := chk.also(t, p, path); !ok {
							ds, failed = append(ds, d), true
							break
						}
					}
					if failed {
						continue
					}
				}
			}
			u := joined
			if u == "" || path != p.Path {
				u = string(append(base, path...))
			}
			dst = append(dst, URL{URL: u, Origin: o, Path: path, Match: p.Match})
		}
	}
	if urls := dst[start:]; len(urls) > 1 {
		slices.SortFunc(urls, func(x, y URL) int {
			return cmp.Or(
				strings.Compare(x.URL, y.URL),
				cmp.Compare(x.Origin.Gateway.Namespace, y.Origin.Gateway.Namespace),
				cmp.Compare(x.Origin.Gateway.Name, y.Origin.Gateway.Name),
				cmp.Compare(x.Origin.Listener, y.Origin.Listener),
				cmp.Compare(x.Origin.ParentIndex, y.Origin.ParentIndex),
				cmp.Compare(x.Match, y.Match),
			)
		})
		urls = slices.CompactFunc(urls, func(x, y URL) bool { return x.URL == y.URL })
		dst = dst[:start+len(urls)]
	}
	return dst, ds
}

// RulePaths returns the external paths of rule ruleIndex of route (indexes of
// [DefaultRules]), one per distinct path, sorted, with the diagnostics of the
// matches and filters that give none (all UnsupportedPathMatch: warnings when
// the rule gives no path at all, else infos):
//
//   - each match (HTTPRouteRule.Matches, default PathPrefix "/") gives its
//     [BasePath], or with opts.EndpointPath its [ExternalPath] through the
//     rule's URLRewrite filter; a base path under /.well-known/ gives none
//     (RFC 8615 metadata, such as OAuth discovery, is no MCP endpoint);
//   - a match with header or query-parameter conditions gives none: a plain
//     request to the path would not take the rule;
//   - a rule with a RequestRedirect filter gives none: it forwards nothing
//     (HTTPRouteFilterRequestRedirect);
//   - a path rewrite in both the rule's and the backendRef's filters, or two
//     in one list (HTTPRouteRule.Filters: "URLRewrite filter cannot be
//     repeated"), gives none; so does ReplacePrefixMatch in a rule with
//     more than one match (HTTPRouteRule validation: "exactly one PathPrefix
//     match must be specified").
func RulePaths(route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) ([]RulePath, model.Diagnostics) {
	if route == nil {
		return nil, nil
	}
	paths, ds, _ := appendRulePaths(nil, route, ruleIndex, opts)
	return paths, ds
}

// appendRulePaths is RulePaths appending to dst, which must be empty: a
// caller passes a small array of its own so that the common rule of one
// match allocates nothing.
func appendRulePaths(dst []RulePath, route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) ([]RulePath, model.Diagnostics, *gwv1.HTTPURLRewriteFilter) {
	if route == nil {
		return dst, nil, nil
	}
	obj := model.ObjectRef{Kind: KindHTTPRoute, Namespace: route.Namespace, Name: route.Name}
	rules := DefaultRules(route)
	if ruleIndex < 0 || ruleIndex >= len(rules) {
		return nil, model.Diagnostics{model.Warningf(model.ReasonUnsupportedPathMatch, obj, "spec.rules",
			"rule index %d is out of range: the route has %d rules", ruleIndex, len(rules))}, nil
	}
	rule := rules[ruleIndex]
	ruleField := func() string { return "spec.rules[" + strconv.Itoa(ruleIndex) + "]" }
	rewrite, d, ok := ruleRewrite(rule, ruleIndex, opts.Backend, obj)
	if !ok {
		return nil, model.Diagnostics{d}, nil
	}
	matches := DefaultMatches(rule)
	paths := dst
	if paths == nil {
		paths = make([]RulePath, 0, len(matches))
	}
	var ds model.Diagnostics
	for mi, m := range matches {
		match := mi
		if len(rule.Matches) == 0 {
			match = -1
		}
		// field is the match's field path, built only for a diagnostic.
		field := func() string {
			if match < 0 {
				return ruleField()
			}
			return ruleField() + ".matches[" + strconv.Itoa(mi) + "]"
		}
		if len(m.Headers) > 0 || len(m.QueryParams) > 0 {
			ds = append(ds, model.Warningf(model.ReasonUnsupportedPathMatch, obj, field(),
				"the match also requires %d header and %d query parameter conditions, which a registry client does not send: a plain request to this path would not take this rule",
				len(m.Headers), len(m.QueryParams)))
			continue
		}
		var p string
		var err error
		if opts.EndpointPath == "" {
			if p, err = BasePath(m.Path); err == nil {
				// The rewrite must make sense for this match even when the URL
				// is the base path, or the controller would reject the rule.
				_, err = Rewrite(p, m.Path, rewrite)
			}
		} else {
			p, err = ExternalPath(opts.EndpointPath, m.Path, rewrite)
		}
		if err == nil && isWellKnown(p) {
			// ToolHive's own guide routes /mcp and OAuth discovery
			// (/.well-known/oauth-protected-resource) in one rule: the
			// second is metadata, not a server to publish, whether its
			// path is the URL or leads to the endpoint path.
			err = fmt.Errorf("path %s is under /.well-known/, where metadata lives (RFC 8615: OAuth protected-resource metadata, RFC 9728, and the like), not an MCP endpoint", quoteCapped(p))
		}
		if err != nil {
			ds = append(ds, model.Warningf(model.ReasonUnsupportedPathMatch, obj, field()+".path", "%v", err))
			continue
		}
		paths = append(paths, RulePath{Path: p, Match: match})
	}
	if len(paths) > 0 {
		// The rule still reaches the backend through another match: the
		// matches left out are other ways in, worth knowing, not a loss.
		for i := range ds {
			ds[i].Severity = model.SeverityInfo
		}
	}
	slices.SortFunc(paths, func(x, y RulePath) int {
		return cmp.Or(strings.Compare(x.Path, y.Path), cmp.Compare(x.Match, y.Match))
	})
	paths = slices.CompactFunc(paths, func(x, y RulePath) bool { return x.Path == y.Path })
	return paths, ds, rewrite
}

// ruleRewrite returns the URLRewrite filter whose path modifier applies to
// requests that take rule and go to backend (rule filters, then the
// backendRef's: HTTPBackendRef.Filters), or a diagnostic when the rule
// forwards nothing or its rewrites cannot be told apart.
func ruleRewrite(rule gwv1.HTTPRouteRule, ruleIndex, backend int, obj model.ObjectRef) (*gwv1.HTTPURLRewriteFilter, model.Diagnostic, bool) {
	var s filterScan
	s.scan(rule.Filters, filterAt{rule: ruleIndex, backend: -1}, obj)
	if !s.failed && backend >= 0 && backend < len(rule.BackendRefs) {
		s.scan(rule.BackendRefs[backend].Filters, filterAt{rule: ruleIndex, backend: backend}, obj)
	}
	if s.failed {
		return nil, s.diag, false
	}
	if s.found != nil {
		mod, err := pathModifierOf(s.found)
		if err != nil {
			return nil, model.Warningf(model.ReasonUnsupportedPathMatch, obj, s.foundAt.String(), "%v", err), false
		}
		// HTTPRouteRule validation: "When using URLRewrite filter with
		// path.replacePrefixMatch, exactly one PathPrefix match must be
		// specified" (also within backendRefs). Which prefix a request lost
		// would otherwise be ambiguous.
		if n := len(DefaultMatches(rule)); mod.Type == gwv1.PrefixMatchHTTPPathModifier && n != 1 {
			return nil, model.Warningf(model.ReasonUnsupportedPathMatch, obj, s.foundAt.String(),
				"a URLRewrite with ReplacePrefixMatch needs exactly one PathPrefix match, and the rule has %d matches", n), false
		}
	}
	return s.found, model.Diagnostic{}, true
}

// filterAt locates a filter: spec.rules[rule].filters[filter], or under
// backendRefs[backend] when backend >= 0. It becomes a field path only when a
// diagnostic needs one.
type filterAt struct{ rule, backend, filter int }

func (f filterAt) String() string {
	s := "spec.rules[" + strconv.Itoa(f.rule) + "]"
	if f.backend >= 0 {
		s += ".backendRefs[" + strconv.Itoa(f.backend) + "]"
	}
	return s + ".filters[" + strconv.Itoa(f.filter) + "]"
}

// filterScan collects, over the rule's and the backendRef's filter lists, the
// path rewrite that applies, or the diagnostic that stops the rule.
type filterScan struct {
	found   *gwv1.HTTPURLRewriteFilter
	foundAt filterAt
	failed  bool
	diag    model.Diagnostic
}

// scan looks through one filter list for a RequestRedirect (the rule forwards
// nothing) and for path rewrites.
func (s *filterScan) scan(filters []gwv1.HTTPRouteFilter, at filterAt, obj model.ObjectRef) {
	for fi, f := range filters {
		at.filter = fi
		switch f.Type {
		case gwv1.HTTPRouteFilterRequestRedirect:
			s.fail(model.Warningf(model.ReasonUnsupportedPathMatch, obj, at.String(),
				"a RequestRedirect filter answers with a redirect and forwards nothing to a backend"))
			return
		case gwv1.HTTPRouteFilterURLRewrite:
			switch {
			case f.URLRewrite == nil:
				s.fail(model.Warningf(model.ReasonUnsupportedPathMatch, obj, at.String(), "a URLRewrite filter without urlRewrite"))
				return
			case f.URLRewrite.Path == nil:
				// A Host rewrite only.
			case s.found != nil:
				s.fail(model.Warningf(model.ReasonUnsupportedPathMatch, obj, at.String(),
					"a second path rewrite (the first is %s): which applies is not defined", s.foundAt))
				return
			default:
				s.found, s.foundAt = f.URLRewrite, at
			}
		}
	}
}

func (s *filterScan) fail(d model.Diagnostic) { s.failed, s.diag = true, d }

// isWellKnown reports whether path p is /.well-known or under it: the
// well-known URIs of RFC 8615, which name metadata about a host or resource,
// never an MCP endpoint.
func isWellKnown(p string) bool { return isWellKnownParts(decodeUnreserved(p), "") }

// decodeUnreserved decodes the percent-encoded unreserved characters of a
// path (letters, digits, '-', '.', '_', '~'), which RFC 3986 (6.2.2.2) makes
// the same path as the characters themselves: /%2ewell-known is
// /.well-known to every server.
func decodeUnreserved(p string) string {
	if strings.IndexByte(p, '%') < 0 {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '%' && i+2 < len(p) {
			if c, ok := unhex(p[i+1], p[i+2]); ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~') {
				b.WriteByte(c)
				i += 2
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// unhex is the byte two hex digits spell.
func unhex(h, l byte) (byte, bool) {
	v := func(c byte) (byte, bool) {
		switch {
		case c >= '0' && c <= '9':
			return c - '0', true
		case c >= 'a' && c <= 'f':
			return c - 'a' + 10, true
		case c >= 'A' && c <= 'F':
			return c - 'A' + 10, true
		}
		return 0, false
	}
	a, ok1 := v(h)
	b, ok2 := v(l)
	return a<<4 | b, ok1 && ok2
}

// isWellKnownParts is isWellKnown of head+tail, without joining them.
func isWellKnownParts(head, tail string) bool {
	const wk = "/.well-known"
	n := min(len(head), len(wk))
	if head[:n] != wk[:n] {
		return false
	}
	rest := tail
	if len(head) > len(wk) {
		rest = head[len(wk):] + tail // rare: the head is already under it
	} else if len(head) < len(wk) {
		need := wk[len(head):]
		if !strings.HasPrefix(tail, need) {
			return false
		}
		rest = tail[len(need):]
	}
	return rest == "" || rest[0] == '/'
}
