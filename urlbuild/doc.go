// Package urlbuild turns an HTTPRoute and its parent Gateways into the external
// URLs a client uses to reach the route's backends, following the Gateway API
// (sigs.k8s.io/gateway-api apis/v1) as written in the doc comments of its types.
// Each rule below names the field whose comment defines it.
//
// The work is split so that a caller walking many routes does the expensive
// part once:
//
//   - [NewIndex] indexes Gateways (by namespace/name, with listeners, label
//     selectors and status addresses pre-digested) and Namespaces (labels).
//   - [Index.Attach] resolves one route's parentRefs: the Gateway, the
//     listeners the route may attach to, the route status, and the origin
//     (scheme://host[:port]) each listener gives. It does not look at rules.
//   - [Attachment.RuleURLs] combines those origins with the paths of one rule.
//   - [RouteURLs] does both for one rule, for callers that need no reuse.
//
// An Index is read-only once built and safe for concurrent use; Attach
// reuses its scratch space from route to route, so resolving many routes one
// after another allocates little more than the Attachments themselves.
//
// # Parent side
//
// For each spec.parentRefs entry, defaulted as the CRD does
// ([DefaultParentRef]; ParentReference.Group, .Kind, .Namespace):
//
//  1. Only Gateways (group gateway.networking.k8s.io, kind Gateway) give
//     external URLs. A core Service parent (a mesh "producer" route) is
//     reported as Info ParentNotFound; any other kind as Warning
//     ParentNotFound.
//  2. The Gateway must exist in the index, else ParentNotFound. A Gateway in
//     another namespace needs no ReferenceGrant: Listener.AllowedRoutes
//     governs the link (CommonRouteSpec.ParentRefs, ParentReference.Namespace).
//  3. The listeners the route attaches to: those whose name equals
//     sectionName and whose port equals port when set
//     (ParentReference.SectionName, ParentReference.Port), whose protocol is
//     HTTP or HTTPS (ProtocolType; TLS, TCP and UDP listeners cannot carry an
//     HTTPRoute), and whose hostname intersects the route's hostnames
//     (HTTPRouteSpec.Hostnames). None → NoMatchingListener. Of those, the
//     listener's allowedRoutes (Listener.AllowedRoutes, defaulted by
//     [DefaultAllowedRoutes]) must admit the route's kind (AllowedRoutes.Kinds)
//     and namespace (RouteNamespaces.From: Same, All, or Selector against the
//     route namespace's labels — a Namespace missing from the index is not
//     selected). None → NotAllowedByListeners.
//  4. The route status must hold a status.parents entry whose parentRef equals
//     the defaulted parentRef in every field (group, kind, namespace, name,
//     sectionName, port; unset and empty sectionName/port are the same
//     reference) with condition Accepted=True (RouteParentStatus.Conditions),
//     whatever its controllerName; else RouteNotAccepted. An Accepted
//     condition whose observedGeneration is behind metadata.generation gives a
//     StaleRouteStatus warning and the URLs are still built.
//
// Listeners are checked before the status because the spec-derived reason
// (which listener, which field) says more than a controller's condition; each
// parentRef that yields nothing gets exactly one diagnostic saying why (a
// listener that gives no host gets its own). All these are warnings — the
// route is dropped from that parent, nothing stops — except the Info for a
// mesh Service parent.
//
// # Host
//
// [Intersect] computes the hostnames a listener serves for the route
// (HTTPRouteSpec.Hostnames, Listener.Hostname): exact names must be equal
// (case-insensitively); a wildcard `*.example.com` matches names with one or
// more labels before `.example.com` but not `example.com`; of two
// overlapping names the more specific wins; an empty side matches anything.
// Several listeners giving one scheme://host:port give one origin.
// Every concrete hostname in the intersection gives a URL; wildcards are used
// only when there is no concrete name. When both sides are empty the host is
// taken from Gateway status.addresses (GatewayStatus.Addresses): the first
// Hostname address, else the first IPAddress (a nil type defaults to
// IPAddress per GatewayStatusAddress.Type; IPv6 in brackets; NamedAddress and
// implementation-specific types unused). When the intersection holds only
// wildcards, the first Hostname address matched by one of them is used — a
// request to an IP or another name would not be routed by that listener.
// Nothing usable gives GatewayAddressPending (the Gateway has no address yet)
// or NoConcreteHostname.
//
// A host is kept only if this listener is the one that receives its
// requests (found by hostname lookups, a few per host whatever the number of
// listeners): when another listener of the Gateway on the same port and
// protocol has a more specific hostname matching it (an exact name beats a
// wildcard, a longer wildcard a shorter one), requests go there
// (GatewaySpec.Listeners, "Distinct Listeners"; Listener.Hostname on
// misdirected requests). If the route is attached to that listener too, the
// URL comes from it; otherwise the host is dropped with NoMatchingListener.
//
// The scheme is the listener protocol (HTTP → http, HTTPS → https); the port
// is left out for http:80 and https:443.
//
// # Path
//
// Each match of the rule (HTTPRouteRule.Matches, defaulted to PathPrefix "/";
// HTTPPathMatch.Type defaults to PathPrefix and .Value to "/") gives one path;
// several matches give one URL per distinct path. By default the path is the
// match's base path: a PathPrefix with its trailing "/" dropped (the root
// stays "/"), an Exact value as is. RegularExpression and unknown types give
// UnsupportedPathMatch. So do matches with header or query-parameter
// conditions (HTTPRouteMatch.Headers, .QueryParams): a registry client sends
// neither, so a plain request to that path would not take this rule. A method
// condition is kept: MCP clients use the usual methods on one URL. These
// diagnostics are warnings when the rule gives no path at all, and infos when
// another match of the rule still gives one.
//
// When the caller names the backend's endpoint path (ToolHive's proxy serves
// /mcp for streamable-http and /sse for sse), the path is instead the
// external path that reaches the endpoint through the rule's URLRewrite
// filter ([ExternalPath], the inverse of [Rewrite]; HTTPPathModifier
// ReplacePrefixMatch and ReplaceFullPath). When no request path can reach the
// endpoint the match gives UnsupportedPathMatch, with a message that says what
// the backend receives instead.
//
// A rule with a RequestRedirect filter answers with a redirect and forwards
// nothing (HTTPRouteFilterRequestRedirect; the CRD forbids backendRefs next to
// it), so it gives no URL and UnsupportedPathMatch. Filters of the backendRef
// the URL must reach (HTTPBackendRef.Filters) apply too; a path rewrite on
// both the rule and the backendRef is ambiguous and unsupported.
//
// # Readiness
//
// A Gateway whose status conditions Accepted or Programmed are present and
// not True routes nothing: no URL, GatewayNotReady. A listener whose entry in
// status.listeners has Accepted, Programmed or ResolvedRefs not True (an
// HTTPS listener whose certificate Secret is missing) or Conflicted True, or
// that status.listeners leaves out while listing others, carries nothing: no
// URL, ListenerNotReady. So do two listeners of one port, protocol and
// hostname, whatever their status (the API server refuses them, and the
// Gateway API lets no implementation pick one). An HTTP or HTTPS listener
// sharing its port with a TCP listener (which an implementation that
// supports TCP listeners does not accept), and an HTTP listener sharing its
// port with an HTTPS or TLS one, and that HTTPS listener (ProtocolConflict),
// carry nothing either unless the listener's status.listeners entry says
// Conflicted=False: whether such listeners conflict is the
// implementation's call. A Gateway
// given without status conditions (a hand-written manifest) is taken as
// ready; the API server defaults them to Unknown, which is not.
//
// # Request routing
//
// A URL is a promise that a client's requests reach the rule's backend.
// When [NewIndex] is given the snapshot's HTTPRoutes (all of them, exported
// or not: every accepted route attached to a listener takes traffic, and so
// does one whose status has no entry for the parentRef yet, which the
// controller has not reconciled: it takes traffic once it does, with nothing
// else changed; a route the status refuses takes none), each
// candidate URL is checked request by request ([Index.RouteRequest]):
// hostname precedence between routes (HTTPRouteSpec.Hostnames, read both as
// an order in which a request unmatched by the routes of the most specific
// hostname falls through to the next, and as the choice of one virtual host
// per hostname intersected with the listener's; a URL must route to its
// backend under both readings), then match
// precedence across all their rules (HTTPRouteRule.Matches: Exact over
// PathPrefix, the longer prefix, a method match, more header matches, more
// query matches, the older route, the route first by namespace/name, the
// first rule). The requests are those of an MCP client
// ([RuleOptions.Transport]): streamable-http POSTs, GETs and DELETEs the
// endpoint; SSE GETs its stream and, with an endpoint path, POSTs to the
// message endpoint beside it (ToolHive's proxy serves /messages next to
// /sse). Each must be taken by this rule, or by another whose backendRefs all
// name the same backend and whose rewrite gives the same path. A PathPrefix
// whose bare prefix another rule takes (an Exact /match beside a PathPrefix
// /match/) publishes the prefix with a trailing "/", the path it wins.
// Otherwise no URL: ShadowedByRoute names the rule that takes the request,
// MethodNotRouted the request that the rule's method condition leaves to
// another rule or to a 404. RegularExpression matches, whose precedence is
// implementation-specific, are taken to win any path they match.
//
// Not done: ListenerSet parents, default Gateways (UseDefaultGateways), and
// Gateway status observedGeneration (a condition observed before the current
// generation is read as current).
//
// All functions are pure and deterministic: results and diagnostics are
// sorted, and do not depend on the order of Gateways, Namespaces or
// listeners given.
package urlbuild
