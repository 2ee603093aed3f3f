package urlbuild

// The implementation is in the internal package of the same name, which
// package discovery uses directly; this package gives its exported names,
// with its types' fields written out, and converts between the two.

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	core "github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// The group and kinds this package compares references against.
const (
	// GatewayGroup is the API group of Gateway API objects, the default group
	// of a ParentReference and of a RouteGroupKind.
	GatewayGroup = gwv1.GroupName
	// KindGateway is the default kind of a ParentReference.
	KindGateway = "Gateway"
	// KindHTTPRoute is the kind a listener's allowedRoutes must admit.
	KindHTTPRoute = "HTTPRoute"
	// KindService is the default kind of a BackendObjectReference.
	KindService = "Service"
)

// Transports whose client requests RuleOptions.Transport names.
const (
	TransportStreamableHTTP = "streamable-http"
	TransportSSE            = "sse"
)

// Origin is the scheme, host and port one listener gives a route, with where
// it came from.
type Origin struct {
	// ParentIndex is the index of the parentRef in spec.parentRefs
	// (DefaultParentRef gives it with its defaults).
	ParentIndex int
	// Gateway and Listener name the Gateway and the listener attached to.
	Gateway  types.NamespacedName
	Listener gwv1.SectionName
	// Scheme is "http" or "https", from the listener protocol.
	Scheme string
	// Host is the URL host: a hostname, an IPv4 address or a bracketed IPv6
	// address.
	Host string
	// Port is the listener port; String leaves it out for http:80 and
	// https:443.
	Port gwv1.PortNumber
	// FromAddress reports that Host came from the Gateway's status.addresses
	// because neither the route nor the listener named a usable hostname.
	FromAddress bool
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

// Request is a request through a Gateway: a precise host, a method, an
// absolute path, and the headers and query parameters that header and query
// matches look at. (The URL checks route an MCP client's requests: no
// query parameters, and only the headers whose values the transport fixes:
// Content-Type: application/json on a POST, Accept: application/json,
// text/event-stream on a streamable-http POST, Accept: text/event-stream
// on a GET of the stream.)
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

// Index holds Gateways by namespace/name and Namespace labels by name, with
// everything a route lookup needs worked out once: listener defaults, parsed
// label selectors, usable status addresses. Build it once per snapshot with
// [NewIndex]; looking a route up is then independent of the number of
// Gateways. An Index is read-only after construction and safe to share
// between goroutines.
type Index struct {
	ix *core.Index
}

// NewIndex indexes gateways and namespaces. Nil entries are skipped. When two
// objects share a namespace and name (which a cluster cannot hold, but
// concatenated manifests can), the one with the higher metadata.generation,
// then resourceVersion, then UID is kept, and failing those the one whose
// JSON sorts last, so the choice does not depend on input order.
//
// The routes, when given, are every HTTPRoute of the snapshot, exported or
// not: a request to a URL is routed over all the routes attached to its
// listener (see [Index.RouteRequest]), and a URL whose requests another
// route's rule would take is not published. Without routes each rule is
// taken to win its requests.
//
// A Namespace without the label kubernetes.io/metadata.name gets it, with
// its name as the value: the API server sets it on every Namespace, and
// allowedRoutes selectors use it.
func NewIndex(gateways []*gwv1.Gateway, namespaces []*corev1.Namespace, routes ...*gwv1.HTTPRoute) *Index {
	return &Index{ix: core.NewIndex(gateways, namespaces, routes...)}
}

// core is the implementation's index; nil for a nil Index.
func (ix *Index) core() *core.Index {
	if ix == nil {
		return nil
	}
	return ix.ix
}

// Gateway returns the indexed Gateway namespace/name, or nil.
func (ix *Index) Gateway(namespace, name string) *gwv1.Gateway {
	return ix.core().Gateway(namespace, name)
}

// RouteRequest returns the rule the request takes when it reaches port of
// the Gateway namespace/name over protocol (HTTP or HTTPS): the listener that
// receives its host (the most specific hostname), then the rule that wins
// by HTTPRoute precedence over every route given to [NewIndex] that is
// attached to that listener and accepted there, or not reconciled yet (no
// status.parents entry for the parentRef: the controller will accept it
// once it catches up). false when no listener
// receives the request or no rule matches it (the Gateway answers 404), and
// when the rule is not certain: a RegularExpression match may take the
// request, or the two readings of hostname precedence disagree (Routed is
// then the ordered reading's rule, if any, and MayTake names the others; a
// request the virtual-host reading answers with 404 has an empty MayTake
// and a Routed rule).
func (ix *Index) RouteRequest(gateway types.NamespacedName, port int32, protocol gwv1.ProtocolType, req Request) (Routed, bool) {
	r, ok := ix.core().RouteRequest(gateway, port, protocol, core.Request{Host: req.Host, Method: req.Method, Path: req.Path, Headers: req.Headers, Query: req.Query})
	return routedOf(r), ok
}

// routedOf converts a Routed of the implementation.
func routedOf(r core.Routed) Routed {
	out := Routed{Route: r.Route, Rule: r.Rule, Match: r.Match}
	if r.MayTake != nil {
		out.MayTake = make([]Routed, len(r.MayTake))
		for i, m := range r.MayTake {
			out.MayTake[i] = routedOf(m)
		}
	}
	return out
}

// String names the rule for messages: rule 2 of HTTPRoute ns/name.
func (r Routed) String() string {
	return core.Routed{Route: r.Route, Rule: r.Rule, Match: r.Match}.String()
}

// String renders scheme://host[:port].
func (o Origin) String() string { return core.Origin(o).String() }

// String returns the URL.
func (u URL) String() string { return u.URL }

// Attachment is the parent side of one HTTPRoute: the origins its parentRefs
// give, and the diagnostics of the parentRefs and listeners that gave none
// (and of stale route status). It does not
// depend on the route's rules, so a caller computes it once per route and
// asks it for the URLs of each rule ([Attachment.RuleURLs]).
type Attachment struct {
	// Route names the HTTPRoute in diagnostics.
	Route model.ObjectRef
	// Origins are sorted by scheme, host, port, then Gateway, listener and
	// parentRef index, one per scheme://host:port (the first of those that
	// give it).
	Origins []Origin
	// Diagnostics are sorted; all name the route, with the field
	// spec.parentRefs[i] of the parentRef concerned.
	Diagnostics model.Diagnostics

	// a is the implementation's attachment, whose Origins RuleURLs does not
	// read: it reads Origins above, which the caller may have changed.
	a core.Attachment
	// originBuf holds the origin of a route with one, the common case.
	originBuf [1]Origin
}

// Attach resolves the parentRefs of route against the index: the Gateway,
// the listeners the route attaches to, the route status, and the origin of
// each listener (see the package documentation for the rules). A nil route
// gives an empty Attachment.
func (ix *Index) Attach(route *gwv1.HTTPRoute) *Attachment {
	a := new(Attachment)
	ix.core().AttachInto(&a.a, route)
	a.Route, a.Diagnostics = a.a.Route, a.a.Diagnostics
	if a.a.Origins != nil {
		a.Origins = a.originBuf[:0]
		for _, o := range a.a.Origins {
			a.Origins = append(a.Origins, Origin(o))
		}
	}
	return a
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
	var buf [4]core.Origin
	origins := buf[:0]
	for _, o := range a.Origins {
		origins = append(origins, core.Origin(o))
	}
	urls, ds := a.a.AppendRuleURLs(nil, origins, ruleIndex, core.RuleOptions(opts))
	return urlsOf(urls), ds
}

// urlsOf converts URLs of the implementation; nil stays nil.
func urlsOf(urls []core.URL) []URL {
	if urls == nil {
		return nil
	}
	out := make([]URL, len(urls))
	for i, u := range urls {
		out[i] = URL{URL: u.URL, Origin: Origin(u.Origin), Path: u.Path, Match: u.Match}
	}
	return out
}

// RouteURLs returns the external URLs of rule ruleIndex of route (indexes of
// [DefaultRules]: a route without rules has the default rule 0) and the
// diagnostics of its parentRefs and of that rule. It is
// ix.Attach(route).RuleURLs(ruleIndex, opts) with the
// diagnostics merged; a caller looking at several rules of one route should
// call Attach once instead.
func RouteURLs(ix *Index, route *gwv1.HTTPRoute, ruleIndex int, opts RuleOptions) ([]URL, model.Diagnostics) {
	urls, ds := core.RouteURLs(ix.core(), route, ruleIndex, core.RuleOptions(opts))
	return urlsOf(urls), ds
}

// Strings returns the distinct URL strings of urls, sorted.
func Strings(urls []URL) []string {
	out := make([]string, 0, len(urls))
	for _, u := range urls {
		out = append(out, u.URL)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// RulePaths returns the external paths of rule ruleIndex of route (indexes of
// [DefaultRules]), one per distinct path, sorted, with the diagnostics of the
// matches and filters that give none (all UnsupportedPathMatch: warnings when
// the rule gives no path at all, else infos):
//
//   - each match (HTTPRouteRule.Matches, default PathPrefix "/") gives its
//     [BasePath], or with opts.EndpointPath its [ExternalPath] through the
//     rule's URLRewrite filter;
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
	paths, ds := core.RulePaths(route, ruleIndex, core.RuleOptions(opts))
	if paths == nil {
		return nil, ds
	}
	out := make([]RulePath, len(paths))
	for i, p := range paths {
		out[i] = RulePath(p)
	}
	return out, ds
}

// BasePath is the external path a match stands for: a PathPrefix value with
// its trailing "/" dropped ("When specified, a trailing `/` is ignored",
// PathMatchPathPrefix) — the root stays "/" — or an Exact value as is. A nil
// match is the default PathPrefix "/" (HTTPRouteMatch.Path). RegularExpression
// and unknown types have no base path; nor has a value the CRD would refuse
// (HTTPPathMatch validation: absolute, no "//", "/./", "/../", "#", "%2f",
// only URL path characters).
func BasePath(match *gwv1.HTTPPathMatch) (string, error) {
	return core.BasePath(match)
}

// DefaultAllowedRoutes returns the listener's allowedRoutes with the CRD
// defaults applied: namespaces from Same when allowedRoutes, its namespaces or
// their from is unset (Listener.AllowedRoutes, AllowedRoutes.Namespaces,
// RouteNamespaces.From); each kind's group defaulted to
// gateway.networking.k8s.io (RouteGroupKind.Group); and, when no kinds are
// listed, the kinds the listener protocol carries (AllowedRoutes.Kinds: "When
// unspecified or empty, the kinds of Routes selected are determined using the
// Listener protocol"), see [DefaultRouteKinds]. The selector is shared with
// the listener, not copied.
func DefaultAllowedRoutes(l gwv1.Listener) gwv1.AllowedRoutes {
	return core.DefaultAllowedRoutes(l)
}

// DefaultBackendRef returns ref with the CRD defaults applied, in new
// pointers: group "" — the core group — (BackendObjectReference.Group), kind
// Service (BackendObjectReference.Kind), the route's namespace when the
// namespace is unset or empty (BackendObjectReference.Namespace), weight 1
// (BackendRef.Weight). The port is kept as given.
func DefaultBackendRef(ref gwv1.BackendRef, routeNamespace string) gwv1.BackendRef {
	return core.DefaultBackendRef(ref, routeNamespace)
}

// DefaultMatches returns the rule's matches, or the default when there are
// none: one PathPrefix "/" match, "which has the effect of matching every
// HTTP request" (HTTPRouteRule.Matches).
func DefaultMatches(rule gwv1.HTTPRouteRule) []gwv1.HTTPRouteMatch {
	return core.DefaultMatches(rule)
}

// DefaultParentRef returns ref with the CRD defaults applied, in new pointers:
// group "gateway.networking.k8s.io" (ParentReference.Group) and kind "Gateway"
// (ParentReference.Kind) when unset, and the route's namespace when the
// namespace is unset or empty (ParentReference.Namespace: "When unspecified,
// this refers to the local namespace of the Route"). An empty sectionName
// becomes nil ("When unspecified (empty string), this will reference the
// entire resource") and so does port 0, which the CRD's distinctness rules
// treat as unset. A group set to "" stays "": that is the core group.
func DefaultParentRef(ref gwv1.ParentReference, routeNamespace string) gwv1.ParentReference {
	return core.DefaultParentRef(ref, routeNamespace)
}

// DefaultPathMatch returns the type and value of a match's path with the
// defaults applied: no path is PathPrefix "/" (HTTPRouteMatch.Path), an unset
// type is PathPrefix (HTTPPathMatch.Type), an unset value "/"
// (HTTPPathMatch.Value).
func DefaultPathMatch(m gwv1.HTTPRouteMatch) (gwv1.PathMatchType, string) {
	return core.DefaultPathMatch(m)
}

// DefaultRouteKinds returns the route kinds the Gateway API pairs with a
// listener protocol when allowedRoutes.kinds is empty: HTTPRoute and
// GRPCRoute for HTTP and HTTPS, TLSRoute for TLS, TCPRoute for TCP, UDPRoute
// for UDP, none for other protocols (implementation-specific).
func DefaultRouteKinds(p gwv1.ProtocolType) []gwv1.RouteGroupKind {
	return core.DefaultRouteKinds(p)
}

// DefaultRules returns the route's rules, or the CRD default when there are
// none: one rule matching PathPrefix "/" (HTTPRouteSpec.Rules). The default
// rule is returned without matches, which [DefaultMatches] turns into that
// PathPrefix "/", so that no field path names a match the object lacks. The
// slice is the route's own when it has rules.
func DefaultRules(route *gwv1.HTTPRoute) []gwv1.HTTPRouteRule {
	return core.DefaultRules(route)
}

// ExternalPath is the inverse of [Rewrite]: the request path a client sends so
// that the backend receives endpoint (for example ToolHive's /mcp), through a
// rule with this path match and URL rewrite. Where several request paths reach
// endpoint (any path under the prefix, with ReplaceFullPath) it returns the
// base path of the match. It fails, saying what the backend receives instead,
// when no request path can reach endpoint. For every result p,
// Rewrite(p, match, filter) == endpoint.
func ExternalPath(endpoint string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (string, error) {
	return core.ExternalPath(endpoint, match, filter)
}

// Intersect computes the hostnames that both the route and a listener accept,
// per HTTPRouteSpec.Hostnames and Listener.Hostname:
//
//   - a listener with no hostname (nil or "") accepts every hostname; a route
//     with no hostnames accepts every hostname the listener accepts;
//   - when both are empty the result is anyHost=true and no hosts: any host
//     the Gateway is reachable under;
//   - otherwise hosts lists, for each route hostname that overlaps the
//     listener hostname, the more specific of the two: exact names must be
//     equal; an exact name and a wildcard overlap when the wildcard matches
//     the name (which is then the result); two wildcards overlap when one's
//     domain ends with the other's (the longer one is the result).
//
// Route hostnames that do not overlap are ignored, as the spec requires. An
// empty hosts with anyHost=false means the listener does not match the route.
// Hostnames are compared and returned in lower case, sorted, without
// duplicates; empty route hostnames are skipped. Use [IsWildcard] or
// [SplitHostnames] to tell concrete names from wildcards.
func Intersect(routeHostnames []string, listenerHostname *string) (hosts []string, anyHost bool) {
	return core.Intersect(routeHostnames, listenerHostname)
}

// IsWildcard reports whether h is a wildcard hostname: the label "*" followed by
// a non-empty domain, as in "*.example.com". The wildcard label must appear by
// itself as the first label (gwv1.Hostname); "*" alone or "*.": not wildcards.
func IsWildcard(h string) bool {
	return core.IsWildcard(h)
}

// MatchHostname reports whether the precise hostname host is served by
// pattern, a precise or wildcard hostname. A wildcard is a suffix match on
// whole labels: "*.example.com" matches "foo.example.com" and
// "a.b.example.com" but not "example.com" (HTTPRouteSpec.Hostnames,
// Listener.Hostname). Comparison ignores case, as DNS does. An empty pattern
// matches every host.
func MatchHostname(pattern, host string) bool {
	return core.MatchHostname(pattern, host)
}

// ParentGateway returns the namespace/name of the Gateway a parentRef names,
// with the defaults of [DefaultParentRef]; false when it names something
// other than a Gateway (a Service, a ListenerSet). Watch mapping uses it to
// find the routes a changed Gateway concerns.
func ParentGateway(ref gwv1.ParentReference, routeNamespace string) (types.NamespacedName, bool) {
	return core.ParentGateway(ref, routeNamespace)
}

// Rewrite returns the path the backend receives when a request for path takes
// a rule with this path match and URL rewrite (HTTPURLRewriteFilter.Path; nil
// filter or path: unchanged). It fails when the match does not match path or
// the combination is not valid. The semantics are those of HTTPPathModifier:
//
//   - ReplaceFullPath replaces the whole path.
//   - ReplacePrefixMatch (PathPrefix matches only) replaces the matched
//     prefix, element by element, trailing "/" ignored on both the prefix and
//     the replacement: /foo/bar with prefix /foo and replacement /xyz gives
//     /xyz/bar; /foo gives /xyz; /foo/ gives /xyz/; an empty replacement or
//     "/" gives /bar, "/" and "/" (the table of
//     HTTPPathModifier.ReplacePrefixMatch).
func Rewrite(path string, match *gwv1.HTTPPathMatch, filter *gwv1.HTTPURLRewriteFilter) (string, error) {
	return core.Rewrite(path, match, filter)
}

// SameParentRef reports whether a and b name the same parent section once
// defaulted relative to the route's namespace (see [DefaultParentRef]): group,
// kind, namespace, name, sectionName and port all equal. This is how a
// status.parents entry is tied to a spec.parentRefs entry
// (RouteParentStatus.ParentRef: "corresponds with a ParentRef in the spec").
func SameParentRef(a, b gwv1.ParentReference, routeNamespace string) bool {
	return core.SameParentRef(a, b, routeNamespace)
}

// SplitHostnames separates concrete hostnames from wildcards, keeping order.
func SplitHostnames(hosts []string) (concrete, wildcards []string) {
	return core.SplitHostnames(hosts)
}

// ValidHostname reports whether h is a precise hostname a URL may carry:
// RFC 1123 labels of lower-case letters, digits and '-', starting and ending
// with a letter or digit, at most 253 characters — the pattern of
// gwv1.PreciseHostname, plus RFC 1123's limit of 63 characters a label —
// whose last label is not a number (all digits, or "0x" and hexadecimal
// digits): the Gateway API allows no IP as a hostname, and a URL reader
// takes any such host for an IPv4 address.
func ValidHostname(h string) bool {
	return core.ValidHostname(h)
}
