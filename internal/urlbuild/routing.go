package urlbuild

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

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
// The requests are those of an MCP client: a method, a path, no query
// parameters, and the headers whose values the transport fixes (see
// clientHeader: Content-Type on a POST, Accept on a streamable-http POST and
// on a GET of the stream), so a match with query conditions, or with header
// conditions those headers do not meet, takes none of them. RegularExpression matches have
// implementation-specific precedence: one whose expression (read as Go's
// RE2, anchored) matches the path, or that does not compile, may take the
// request whatever the other matches, which RouteRequest reports.

// Request is a request through a Gateway: a precise host, a method, an
// absolute path, and the headers and query parameters that header and query
// matches look at; or, for the requests of an MCP client, the header set it
// sends (client).
type Request struct {
	Host   string
	Method string
	Path   string
	// Headers by name (compared case-insensitively) and Query by name
	// (compared exactly); nil for none.
	Headers map[string]string
	Query   map[string]string
	// client, when Headers and Query are nil, names the headers an MCP
	// client sends with the request (see clientHeader); 0 for none.
	client uint8
}

// The header sets of an MCP client's requests (Request.client).
const (
	clientPlain uint8 = iota
	// clientMessage is a streamable-http POST: "Content-Type:
	// application/json" and "Accept: application/json, text/event-stream"
	// (the MCP specification's Streamable HTTP transport).
	clientMessage
	// clientStream is a GET of the server's stream, streamable-http or
	// SSE: "Accept: text/event-stream".
	clientStream
	// clientSSEMessage is an SSE POST to the message endpoint:
	// "Content-Type: application/json".
	clientSSEMessage
	clientSets
)

// clientHeader returns the value of the header name (any case) in the
// requests of header set client, and whether they carry it. Only the
// headers whose values the transport fixes are known: a session ID, a
// protocol version or credentials vary by client and server, and a
// condition on them takes none of these requests.
func clientHeader(client uint8, name string) (string, bool) {
	switch {
	case strings.EqualFold(name, "Content-Type"):
		if client == clientMessage || client == clientSSEMessage {
			return "application/json", true
		}
	case strings.EqualFold(name, "Accept"):
		switch client {
		case clientMessage:
			return "application/json, text/event-stream", true
		case clientStream:
			return "text/event-stream", true
		}
	}
	return "", false
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
	g := ix.gateway(gateway.Namespace, gateway.Name)
	if g == nil {
		return Routed{}, false
	}
	req.Host = lower(req.Host)
	l := g.receiver(port, protocol, req.Host)
	if l == nil {
		return Routed{}, false
	}
	rt := l.route(&req, nil)
	out := Routed{Rule: -1, Match: -1}
	if rt.ok {
		out = rt.win.routed()
	}
	out.MayTake = routedAll(rt.may)
	if rt.crowded != nil {
		out.MayTake = append(out.MayTake, rt.crowded.routed())
	}
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
// It names the route through route (see ref) rather than holding an
// ObjectRef: the index holds one per route of the snapshot.
type routeEntry struct {
	route   *gwv1.HTTPRoute
	matches []matchEntry
	// home is the group the route was first filed under in a listener's
	// routing map, with that listener and hostname key: a request to that
	// hostname on that listener starts there without a map look-up (see
	// Attachment.entry). nil when the route was filed nowhere.
	home     *routeGroup
	homeL    *listenerEntry
	homeHost string
	// memo is the route's Attachment when NewIndexAttaching worked it out
	// while filing the route and it was a simple one (see attachMemo).
	memo attachMemo
}

// attachMemo is an Attachment of one origin and no diagnostics, whose
// origin's listener receives its requests itself (Attachment.recv), the
// common case, in the few words that rebuild it (see Attachment.fromMemo):
// that listener (its Gateway is l.gw), the host and the parentRef index.
// ok reports whether there is one. It is made per route: it is kept small.
type attachMemo struct {
	l           *listenerEntry
	host        string
	parent      int32
	fromAddress bool
	ok          bool
}

// ref names the route in results and messages.
func (e *routeEntry) ref() model.ObjectRef {
	return model.ObjectRef{Kind: KindHTTPRoute, Namespace: e.route.Namespace, Name: e.route.Name}
}

// matchEntry is one match of a rule, with what precedence compares.
//
// The counts are int32 (rule and match indexes, condition counts, a path
// length: a route would need gigabytes to overflow them), so that the
// entry, made per match of every route in the snapshot, takes 88 bytes
// rather than 104.
type matchEntry struct {
	rule, match int32
	// rawLen is the length of the PathPrefix as written.
	rawLen         int32
	headers, query int32
	typ            gwv1.PathMatchType
	// value is the Exact path, the PathPrefix with its trailing "/" dropped
	// ("" for the root), or the RegularExpression.
	value  string
	method string
	re     *regexp.Regexp // nil when the expression does not compile
	// clients has bit s set when the header conditions take the requests
	// of the MCP client header set s (Request.client), worked out once:
	// set only for a match with header and no query conditions.
	clients uint8
	// src holds the header and query conditions, for requests that carry
	// headers or query parameters (RouteRequest).
	src *gwv1.HTTPRouteMatch
}

// cand is a match of an attached route, a candidate for requests.
type cand struct {
	r *routeEntry
	m *matchEntry
}

func (c cand) routed() Routed {
	return Routed{Route: c.r.ref(), Rule: int(c.m.rule), Match: int(c.m.match)}
}

// describe names the rule and match for messages.
func (c cand) describe() string {
	s := c.routed().String()
	if c.m.match >= 0 {
		s += " (matches[" + strconv.Itoa(int(c.m.match)) + "]: "
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
		s += ", " + strconv.Itoa(int(c.m.headers)) + " header and " + strconv.Itoa(int(c.m.query)) + " query conditions"
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
		return m.clients&(1<<req.client) != 0
	}
	for _, h := range m.src.Headers {
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
	for _, q := range m.src.QueryParams {
		v, ok := req.Query[string(q.Name)]
		if !ok || !valueMatches((*gwv1.HeaderMatchType)(q.Type), q.Value, v) {
			return false
		}
	}
	return true
}

// clientsMet returns the header sets of MCP client requests (a bit for
// each, see Request.client) that meet every one of the header conditions
// hs. Each condition is read once, its expression compiled once.
func clientsMet(hs []gwv1.HTTPHeaderMatch) uint8 {
	met := uint8(0)
	for s := clientPlain + 1; s < clientSets; s++ {
		met |= 1 << s
	}
	for _, h := range hs {
		var re *regexp.Regexp
		var bad bool
		for s := clientPlain + 1; s < clientSets; s++ {
			if met&(1<<s) == 0 {
				continue
			}
			v, ok := clientHeader(s, string(h.Name))
			switch {
			case !ok:
			case h.Type == nil || *h.Type == gwv1.HeaderMatchExact:
				ok = v == h.Value
			case *h.Type != gwv1.HeaderMatchRegularExpression || len(h.Value) > 1024:
				ok = false
			default:
				if re == nil && !bad {
					var err error
					// As valueMatches reads it: unanchored, and taken to
					// match when it does not compile.
					re, err = regexp.Compile(h.Value)
					bad = err != nil
				}
				ok = bad || re.MatchString(v)
			}
			if !ok {
				met &^= 1 << s
			}
		}
	}
	return met
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

// init compiles the matches of every rule of r (defaulted:
// DefaultRules, DefaultMatches). Match types other than Exact, PathPrefix
// and RegularExpression are left out: the CRD refuses them. The matches
// are appended to block, which is returned. e must be zero (fileRoutes
// makes the entries afresh): only its route and matches are set, rather
// than the whole entry written over, which costs a write barrier per
// pointer while the garbage collector runs.
func (e *routeEntry) init(r *gwv1.HTTPRoute, block []matchEntry) []matchEntry {
	e.route = r
	rules := DefaultRules(r)
	start := len(block)
	for ri := range rules {
		ms := DefaultMatches(rules[ri])
		for mi := range ms {
			hm := &ms[mi]
			typ, value := gwv1.PathMatchPathPrefix, "/"
			if p := hm.Path; p != nil {
				if p.Type != nil {
					typ = *p.Type
				}
				if p.Value != nil {
					value = *p.Value
				}
			}
			m := matchEntry{rule: int32(ri), match: int32(mi), typ: typ, value: value, headers: int32(len(hm.Headers)), query: int32(len(hm.QueryParams)), src: hm}
			if len(rules[ri].Matches) == 0 {
				m.match = -1
			}
			if hm.Method != nil {
				m.method = string(*hm.Method)
			}
			if m.headers > 0 && m.query == 0 {
				m.clients = clientsMet(hm.Headers)
			}
			switch typ {
			case gwv1.PathMatchExact:
			case gwv1.PathMatchPathPrefix:
				m.rawLen = int32(len(value))
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
			block = append(block, m)
		}
	}
	e.matches = block[start:len(block):len(block)]
	return block
}

// routeGroup is the matches of the routes attached to a listener under one
// route hostname ("" for routes without hostnames). They are not sorted: a
// request looks at the few that match its path (through the indexes of a
// large group) and takes the first by precedence.
type routeGroup struct {
	cands []cand
	// one holds the first candidate: most groups have one.
	one [1]cand
	// big holds the RegularExpression matches, apart (their precedence is
	// implementation-specific), and indexes cands when the group is large
	// (a scan is as fast otherwise); nil for the many groups, made per
	// route, that need neither.
	big *groupIndex
	// methods reports whether a match has a method condition, header
	// conditions some MCP client requests meet, or is a RegularExpression:
	// requests for one path may then route differently by method (and the
	// headers that come with it).
	methods bool
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
	return cmp.Or(
		-cmp.Compare(len(a.m.value), len(b.m.value)),
		-cmp.Compare(a.m.rawLen, b.m.rawLen),
		-cmp.Compare(boolRank(a.m.method != ""), boolRank(b.m.method != "")),
		-cmp.Compare(a.m.headers, b.m.headers),
		-cmp.Compare(a.m.query, b.m.query),
		compareCreation(a.r.route.CreationTimestamp.Time, b.r.route.CreationTimestamp.Time),
		compareRouteNames(a.r.route, b.r.route),
		cmp.Compare(a.m.rule, b.m.rule),
		cmp.Compare(a.m.match, b.m.match),
	)
}

// compareCreation orders two routes' creation times, the older first. A
// route without one (a manifest never applied) is not created yet: once it
// is, it is the newest, so it comes after every route that has one; two
// routes without one are told apart by name.
func compareCreation(a, b time.Time) int {
	switch az, bz := a.IsZero(), b.IsZero(); {
	case az && bz:
		return 0
	case az:
		return 1
	case bz:
		return -1
	}
	return a.Compare(b)
}

// compareRouteNames orders two routes "alphabetically by
// {namespace}/{name}", as the string: "team-x/o" comes before "team/r",
// since "-" sorts before "/", though "team" sorts before "team-x".
func compareRouteNames(a, b *gwv1.HTTPRoute) int {
	if a.Namespace == b.Namespace {
		return strings.Compare(a.Name, b.Name)
	}
	n := min(len(a.Namespace), len(b.Namespace))
	if c := strings.Compare(a.Namespace[:n], b.Namespace[:n]); c != 0 {
		return c
	}
	// One namespace is a prefix of the other: rare enough to build the
	// strings.
	return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finish sorts the RegularExpression matches of the group and indexes it
// when large; fileUnder lists the groups that need it (and has set
// methods), most groups have one plain match and need nothing.
func (g *routeGroup) finish() {
	if g.big != nil {
		slices.SortFunc(g.big.regex, func(a, b cand) int {
			return cmp.Or(compareRouteNames(a.r.route, b.r.route), cmp.Compare(a.m.rule, b.m.rule), cmp.Compare(a.m.match, b.m.match))
		})
		if len(g.big.regex) > smallGroup {
			g.big.indexRegex()
		}
	}
	if len(g.cands) <= smallGroup {
		return
	}
	// The matches of one key are chained through next from the last one
	// filed, so that the index costs one map entry per key and no sort.
	x := g.big
	if x == nil {
		x = new(groupIndex)
	}
	x.next, x.indexed = make([]int32, len(g.cands)), true
	for i, c := range g.cands {
		rank := typeRank(c.m.typ)
		if x.last[rank] == nil {
			x.last[rank] = make(map[string]int32)
		}
		prev, ok := x.last[rank][c.m.value]
		if !ok {
			prev = -1
		}
		x.next[i] = prev
		x.last[rank][c.m.value] = int32(i)
		if n := len(c.m.value); n < 63 {
			x.lens[rank] |= 1 << n
		}
	}
	// The first by precedence of each chain, for the requests of MCP
	// clients: each route's URL check routes a few of them, and a scan of
	// the chain for each would cost routes × routes when many routes share
	// a host and path. A chain's matches with query conditions, or header
	// conditions a header set does not meet, take none of its requests; of
	// the others, those without a method condition take every method, and
	// those with one only theirs.
	// (Each chain's result depends on that chain alone: the order the
	// heads are taken in does not matter.)
	g.big = x
	x.plain = make(map[int32]*chainBest, len(x.last[0])+len(x.last[1]))
	for _, last := range x.last {
		for _, head := range last {
			x.plain[head] = g.chainBest(head)
		}
	}
}

// chainBest is, for each header set of an MCP client's requests
// (Request.client, clientPlain for none), the first by precedence of the
// matches of a chain of a large group that take such a request without
// query parameters.
type chainBest struct {
	sets [clientSets]setBest
}

// setBest is chainBest for one header set: any among the matches without
// a method condition, byMethod among those with one, for each method; -1
// for none.
type setBest struct {
	any      int32
	byMethod []methodBest
}

type methodBest struct {
	method string
	at     int32
}

// chainBest works out the chainBest of the chain that starts at head.
func (g *routeGroup) chainBest(head int32) *chainBest {
	cb := &chainBest{}
	for s := range cb.sets {
		cb.sets[s].any = -1
	}
	for i := head; i >= 0; i = g.big.next[i] {
		c := g.cands[i]
		for s := range cb.sets {
			if c.m.headers > 0 || c.m.query > 0 {
				if c.m.clients&(1<<s) == 0 {
					continue
				}
			}
			sb := &cb.sets[s]
			if c.m.method == "" {
				if sb.any < 0 || comparePrecedence(c, g.cands[sb.any]) < 0 {
					sb.any = i
				}
				continue
			}
			// At most the nine methods of HTTPMethod, however long the chain.
			k := slices.IndexFunc(sb.byMethod, func(b methodBest) bool { return b.method == c.m.method })
			switch {
			case k < 0:
				sb.byMethod = append(sb.byMethod, methodBest{c.m.method, i})
			case comparePrecedence(c, g.cands[sb.byMethod[k].at]) < 0:
				sb.byMethod[k].at = i
			}
		}
	}
	return cb
}

// groupIndex indexes the matches of a large group by match type and value
// (the Exact path, the trimmed PathPrefix), when indexed; and holds the
// group's RegularExpression matches.
type groupIndex struct {
	regex   []cand
	indexed bool
	// rePrefix indexes regex, when it holds more than smallGroup matches,
	// by the literal prefix every path a match takes starts with
	// (regexp.LiteralPrefix of the anchored expression), so that a request
	// is tested only against the matches its path can meet: reLens are the
	// prefixes' lengths, ascending, and reFree the matches with none (an
	// expression starting with ".*", or one that does not compile). When
	// more than maxFreeRegex have none, crowded is the first of the others:
	// the check tests maxFreeRegex and withholds the URL (see routing).
	rePrefix map[string][]int32
	reLens   []int
	reFree   []int32
	crowded  *cand
	// last gives, by type rank, the index in cands of the last match of
	// each value; next[i] is the index of the match of the same type and
	// value before cands[i], -1 for none.
	last [2]map[string]int32
	next []int32
	// plain gives, by the start of each chain, the first of its matches by
	// precedence for the requests of MCP clients, which carry no headers
	// but those a header set names (see chainBest).
	plain map[int32]*chainBest
	// lens has bit n set, by type rank, when some value is n bytes long
	// (n < 63): a path is looked up under each of its prefixes, and most
	// lengths have no value at all.
	lens [2]uint64
}

// typeRank ranks the match types of groupIndex.
func typeRank(t gwv1.PathMatchType) int32 {
	if t == gwv1.PathMatchExact {
		return 0
	}
	return 1
}

// lookup returns the index in cands of the last match of type typ (Exact
// or PathPrefix) and value, the start of its chain in big.next; -1 for
// none.
func (g *routeGroup) lookup(typ gwv1.PathMatchType, value string) int32 {
	rank := typeRank(typ)
	x := g.big
	if n := len(value); n < 63 && x.lens[rank]&(1<<n) == 0 {
		return -1
	}
	if at, found := x.last[rank][value]; found {
		return at
	}
	return -1
}

// maxFreeRegex is the most RegularExpression matches without a literal
// prefix a request is tested against on one group: each may take any path,
// so more would make the check of every URL on the listener proportional to
// them (and the check of all URLs quadratic).
const maxFreeRegex = 64

// maxPrefixedRegex is the most RegularExpression matches with a literal
// prefix a request is tested against on one group, among those whose prefix
// its path starts with: routes sharing a prefix ("/p/[0-9]+x1", "/p/[0-9]+x2",
// ...) could otherwise make the check of every URL under it proportional to
// them. A request past it is withheld, as one past maxFreeRegex is.
const maxPrefixedRegex = 256

// indexRegex fills rePrefix, reLens, reFree and crowded (see groupIndex).
func (x *groupIndex) indexRegex() {
	x.rePrefix = make(map[string][]int32)
	for i, c := range x.regex {
		prefix := ""
		if c.m.re != nil {
			prefix, _ = c.m.re.LiteralPrefix()
		}
		if prefix == "" {
			x.reFree = append(x.reFree, int32(i))
			continue
		}
		if _, seen := x.rePrefix[prefix]; !seen {
			x.reLens = append(x.reLens, len(prefix))
		}
		x.rePrefix[prefix] = append(x.rePrefix[prefix], int32(i))
	}
	slices.Sort(x.reLens)
	x.reLens = slices.Compact(x.reLens)
	if len(x.reFree) > maxFreeRegex {
		x.crowded = &x.regex[x.reFree[maxFreeRegex]]
		x.reFree = x.reFree[:maxFreeRegex]
	}
}

// mayTakeIndexed returns the RegularExpression matches of an indexed group
// that may take the request, in the group's order: those whose literal
// prefix the path starts with, and those without one. When more than
// maxPrefixedRegex have a prefix the path starts with, only that many (the
// shortest prefixes first) are tested, and crowded is the first of the
// others, which may take it untested.
func (x *groupIndex) mayTakeIndexed(req *Request, may []cand) (_ []cand, crowded *cand) {
	var at []int32
	for _, i := range x.reFree {
		if x.regex[i].m.mayTake(req) {
			at = append(at, i)
		}
	}
	tested := 0
	for _, n := range x.reLens {
		if n > len(req.Path) {
			break
		}
		for _, i := range x.rePrefix[req.Path[:n]] {
			if tested == maxPrefixedRegex {
				crowded = &x.regex[i]
				break
			}
			tested++
			if x.regex[i].m.mayTake(req) {
				at = append(at, i)
			}
		}
		if crowded != nil {
			break
		}
	}
	slices.Sort(at)
	for _, i := range at {
		may = append(may, x.regex[i])
	}
	return may, crowded
}

// regexCands returns the RegularExpression matches of the group.
func (g *routeGroup) regexCands() []cand {
	if g.big == nil {
		return nil
	}
	return g.big.regex
}

// best returns the match among cands that takes the request and comes
// first by precedence.
func best(cands []cand, req *Request) (cand, bool) {
	var b cand
	found := false
	for _, c := range cands {
		if c.m.takesRequest(req) && (!found || comparePrecedence(c, b) < 0) {
			b, found = c, true
		}
	}
	return b, found
}

// bestOf is best among the cands of the chain of the large group g that
// starts at i (see groupIndex): for a plain request, from what finish
// worked out, in constant time.
func (g *routeGroup) bestOf(i int32, req *Request) (cand, bool) {
	if i < 0 {
		return cand{}, false
	}
	if cb := g.big.plain[i]; cb != nil && len(req.Headers) == 0 && len(req.Query) == 0 {
		sb := &cb.sets[req.client]
		at := sb.any
		for _, b := range sb.byMethod {
			if b.method == req.Method && (at < 0 || comparePrecedence(g.cands[b.at], g.cands[at]) < 0) {
				at = b.at
			}
		}
		if at < 0 {
			return cand{}, false
		}
		if c := g.cands[at]; c.m.takesRequest(req) {
			return c, true
		}
		// Not reached: every match of a chain takes the paths it is
		// looked up for. The scan below is the reference.
	}
	var b cand
	found := false
	for ; i >= 0; i = g.big.next[i] {
		if c := g.cands[i]; c.m.takesRequest(req) && (!found || comparePrecedence(c, b) < 0) {
			b, found = c, true
		}
	}
	return b, found
}

// route returns the match of the group that takes the request, the
// RegularExpression matches that may take it instead, and one that may take
// it untested (see crowdedFor), or nil.
func (g *routeGroup) route(req *Request) (cand, []cand, *cand, bool) {
	var may []cand
	var crowded *cand
	if g.big != nil {
		crowded = g.big.crowded
	}
	if g.big != nil && g.big.rePrefix != nil {
		var c *cand
		if may, c = g.big.mayTakeIndexed(req, may); c != nil && crowded == nil {
			crowded = c
		}
	} else {
		for _, c := range g.regexCands() {
			if c.m.mayTake(req) {
				may = append(may, c)
			}
		}
	}
	if g.big == nil || !g.big.indexed {
		c, ok := best(g.cands, req)
		return c, may, crowded, ok
	}
	path := req.Path
	if c, ok := g.bestOf(g.lookup(gwv1.PathMatchExact, path), req); ok {
		return c, may, crowded, true
	}
	// The prefixes a path is under, element by element, longest first: the
	// path itself (unless it ends in "/"), then the path up to each "/".
	if !strings.HasSuffix(path, "/") {
		if c, ok := g.bestOf(g.lookup(gwv1.PathMatchPathPrefix, path), req); ok {
			return c, may, crowded, true
		}
	}
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != '/' {
			continue
		}
		if c, ok := g.bestOf(g.lookup(gwv1.PathMatchPathPrefix, path[:i]), req); ok {
			return c, may, crowded, true
		}
	}
	return cand{}, may, crowded, false
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
	// crowded, when not nil, is a RegularExpression match of a group
	// looked at past those tested (more than maxFreeRegex without a literal
	// prefix, or more than maxPrefixedRegex with one the path starts with):
	// it may take the request, untested.
	crowded *cand
	// methodFree reports that no group looked at has a match with a method
	// condition, header conditions an MCP client's requests meet, or a
	// RegularExpression: the request routes the same whatever its method
	// and the headers that come with it.
	methodFree bool
}

// route returns where a request goes on this listener. home, when not nil,
// is l.routing[req.Host], known to the caller (routeEntry.home).
func (l *listenerEntry) route(req *Request, home *routeGroup) routing {
	var out routing
	if l.routing == nil {
		return out
	}
	out.methodFree = true
	first := true
	l.eachGroup(l.routing, req.Host, home, func(g *routeGroup) bool {
		out.methodFree = out.methodFree && !g.methods
		c, may, crowded, ok := g.route(req)
		out.may = append(out.may, may...)
		if crowded != nil && out.crowded == nil {
			out.crowded = crowded
		}
		if first && l.vhosts == nil {
			// Without a listener hostname the intersected hostnames are the
			// route's: the virtual host is the first group.
			out.vhost, out.vhostOK = c, ok
		}
		first = false
		if ok {
			out.win, out.ok = c, true
		}
		return !ok
	})
	if l.vhosts != nil {
		l.eachGroup(l.vhosts, req.Host, nil, func(g *routeGroup) bool {
			out.methodFree = out.methodFree && !g.methods
			out.vhost, _, _, out.vhostOK = g.route(req)
			return false
		})
	}
	return out
}

// eachGroup calls f on the groups of m whose hostname matches host, the
// most specific first (host itself, the wildcards matching it from the
// longest, then ""), until f returns false. home, when not nil, is m[host].
func (l *listenerEntry) eachGroup(m map[string]*routeGroup, host string, home *routeGroup, f func(*routeGroup) bool) {
	g := home
	if g == nil {
		g = m[host]
	}
	if g != nil && host != "" && !f(g) {
		return
	}
	var buf [256]byte
	for i := 1; i < len(host) && l.wildcards; i++ {
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
// admits the route, the route status accepts the parentRef or has no entry
// for it yet), and files
// their matches under each route hostname that the listener serves. Two
// routes of one namespace and name: the one dedupe.Newer prefers.
func (ix *Index) addRoutes(routes []*gwv1.HTTPRoute) {
	if len(routes) == 0 {
		return
	}
	ix.hasRoutes = true
	// kept are the routes that are not nil, all of them in the common case
	// (kept is then routes itself); keptAt[i] is the position in routes of
	// kept[i], nil when that is i.
	kept, keptAt := routes, []int32(nil)
	if slices.Contains(routes, nil) {
		kept, keptAt = make([]*gwv1.HTTPRoute, 0, len(routes)), make([]int32, 0, len(routes))
		for i, r := range routes {
			if r != nil {
				kept, keptAt = append(kept, r), append(keptAt, int32(i))
			}
		}
	}
	pos := func(i int) int {
		if keptAt == nil {
			return i
		}
		return int(keptAt[i])
	}
	// Duplicates (two routes of one namespace and name), which are rare,
	// are looked for with hashes taken while each route is filed, its memory
	// at hand, rather than in a pass of their own; when there are some, the
	// routes are filed again, one per namespace and name (dedupeRoutes).
	h := dedupe.NewHasher()
	hashes := make([]uint64, len(kept))
	// mark tells the listeners a route is already attached to (several
	// parentRefs may select one listener) without a search; it keeps
	// counting when the routes are filed again.
	mark := 0
	filings, entries := ix.fileRoutes(kept, &mark, func(i int, r *gwv1.HTTPRoute) bool {
		hashes[i] = h.Hash(r.Namespace, r.Name)
		return ix.attachEarly != nil && ix.attachEarly(pos(i), r)
	})
	groups := dedupe.Groups(len(kept), func(i int) uint64 { return hashes[i] }, func(i, j int) bool {
		return kept[i].Namespace == kept[j].Namespace && kept[i].Name == kept[j].Name
	})
	if groups != nil {
		ix.duplicateRoutes = true
		for i := range filings {
			filings[i].l.filed = [2]int{}
		}
		filings, entries = ix.fileRoutes(dedupeRoutes(kept), &mark, nil)
	} else if keptAt == nil {
		// Each route has one entry, which AttachAt finds at the route's
		// position.
		ix.entries = entries
	} else {
		ix.entryAt = make([]*routeEntry, len(routes))
		for i, at := range keptAt {
			ix.entryAt[at] = &entries[i]
		}
	}
	var blocks groupBlocks
	var groupsToFinish []*routeGroup
	for i := range filings {
		f := &filings[i]
		l := f.l
		m := &l.routing
		if f.vhost {
			m = &l.vhosts
		}
		if *m == nil {
			*m = make(map[string]*routeGroup, l.filed[boolRank(f.vhost)])
		}
		var g *routeGroup
		e := &entries[f.e]
		groupsToFinish, g = fileUnder(groupsToFinish, &blocks, l, *m, f.key, e)
		if e.home == nil && !f.vhost && f.key != "" {
			e.home, e.homeL, e.homeHost = g, l, f.key
		}
	}
	for _, g := range groupsToFinish {
		g.finish()
	}
}

// fileRoutes works out where each route goes: the listeners it attaches
// to, as Attach does (the parentRef selects the listener, the listener
// carries HTTP and admits the route, the route status accepts the
// parentRef or has no entry for it yet: acceptance.competes), and the route
// hostnames each files it under. It counts the
// filings per listener (listenerEntry.filed) so that the maps can be made at
// their final size, and calls each, when not nil, with every route and its
// position while the route's memory is at hand: when each returns true, the
// route is attached then too (routeEntry.memo).
func (ix *Index) fileRoutes(kept []*gwv1.HTTPRoute, mark *int, each func(int, *gwv1.HTTPRoute) bool) ([]filing, []routeEntry) {
	// The entries and their matches are carved from two blocks, and the
	// groups from a third: one allocation each rather than one per route.
	// The block of matches is sized for one per route, the common case
	// (counting them would read every route once more); when it fills up,
	// the next is larger, and the matches already carved stay where they
	// are.
	entries := make([]routeEntry, len(kept))
	matches := make([]matchEntry, 0, len(kept))
	var keys, hostnames []string
	filings := make([]filing, 0, len(kept)+len(kept)/4)
	// att is the scratch Attachment of the routes attached early.
	var att *Attachment
	for ri, r := range kept {
		early := each != nil && each(ri, r)
		e := &entries[ri]
		matches = e.init(r, matches)
		// seen is what attaching the route found of its parentRefs.
		var seen []parentSeen
		if early {
			if att == nil {
				att = new(Attachment)
			}
			ix.seen = append(ix.seen[:0], make([]parentSeen, len(r.Spec.ParentRefs))...)
			ix.AttachAt(att, r, -1)
			e.memo = att.memo()
			seen = ix.seen
		}
		routeNS := routeNamespace{ix: ix, name: r.Namespace}
		hostnames = appendRouteHostnames(hostnames[:0], r.Spec.Hostnames)
		*mark++
		var repeats parentRepeats
		var statuses parentStatuses
		for pi, ref := range r.Spec.ParentRefs {
			if repeats.repeat(r, pi) {
				continue // filed under the first copy
			}
			key := parentKeyOf(ref, r.Namespace)
			if key.group != GatewayGroup || key.kind != KindGateway {
				continue
			}
			var g *gatewayEntry
			if pi < len(seen) && seen[pi].known {
				if !seen[pi].competes {
					continue
				}
				g = seen[pi].g
			} else if g = ix.gateway(key.namespace, key.name); g == nil || !statuses.acceptance(r, key).competes() {
				continue
			}
			ls := g.selected(key)
			for li := range ls {
				l := &ls[li]
				// A listener whose port, protocol and hostname another one
				// (first by name) has receives no requests: it gets no routes.
				if !l.selectable(key) || l.mark == *mark || !l.receives || !l.mayAdmit(r.Namespace, g.namespace, &routeNS) {
					continue
				}
				keys = routeHostKeys(keys[:0], hostnames, l.hostname)
				if len(keys) == 0 {
					continue
				}
				l.mark = *mark
				for _, k := range keys {
					filings = append(filings, filing{l: l, e: int32(ri), key: k})
				}
				l.filed[0] += len(keys)
				if l.hostname != "" {
					// The intersected hostnames differ from the route's.
					keys, _ = intersect(keys[:0], hostnames, l.hostname)
					for _, k := range keys {
						filings = append(filings, filing{l: l, e: int32(ri), key: k, vhost: true})
					}
					l.filed[1] += len(keys)
				}
			}
		}
	}
	return filings, entries
}

// dedupeRoutes returns the routes without nil ones and with one route per
// namespace and name: where several share them, the one a pass in input
// order keeps (the first, replaced by each later one dedupe.Newer prefers to
// it), in the place of the first. The duplicates are found by sorting
// hashes (dedupe.Groups), which reads memory in order, rather than by a
// hash table probed at random once per route. The routes given are not
// changed.
func dedupeRoutes(routes []*gwv1.HTTPRoute) []*gwv1.HTTPRoute {
	kept := make([]*gwv1.HTTPRoute, 0, len(routes))
	for _, r := range routes {
		if r != nil {
			kept = append(kept, r)
		}
	}
	h := dedupe.NewHasher()
	groups := dedupe.Groups(len(kept), func(i int) uint64 { return h.Hash(kept[i].Namespace, kept[i].Name) }, func(i, j int) bool {
		return kept[i].Namespace == kept[j].Namespace && kept[i].Name == kept[j].Name
	})
	if groups == nil {
		return kept
	}
	drop := make([]bool, len(kept))
	for _, g := range groups {
		keep := g[0]
		for _, i := range g[1:] {
			if dedupe.Newer(kept[i], &kept[i].ObjectMeta, kept[keep], &kept[keep].ObjectMeta) {
				keep = i
			}
			drop[i] = true
		}
		kept[g[0]] = kept[keep]
	}
	n := 0
	for i, r := range kept {
		if !drop[i] {
			kept[n] = r
			n++
		}
	}
	clear(kept[n:])
	return kept[:n]
}

// filing is a route filed on a listener under a hostname, in its routing
// map or (vhost) its virtual-host one.
//
// e is the index of the route's entry among those fileRoutes returns (an
// int32 rather than a pointer: a filing is made per route and listener).
type filing struct {
	l     *listenerEntry
	key   string
	e     int32
	vhost bool
}

// groupBlocks allocates routeGroups a block at a time.
type groupBlocks struct{ free []routeGroup }

func (b *groupBlocks) get() *routeGroup {
	if len(b.free) == 0 {
		b.free = make([]routeGroup, 256)
	}
	g := &b.free[0]
	b.free = b.free[1:]
	g.cands = g.one[:0]
	return g
}

// fileUnder adds the matches of e to the group of m under k, creating it
// when needed, and appends it to groups when it comes to need finish.
func fileUnder(groups []*routeGroup, blocks *groupBlocks, l *listenerEntry, m map[string]*routeGroup, k string, e *routeEntry) ([]*routeGroup, *routeGroup) {
	grp := m[k]
	if grp == nil {
		if IsWildcard(k) {
			l.wildcards = true
		}
		grp = blocks.get()
		m[k] = grp
	}
	listed := len(grp.regexCands()) > 0 || len(grp.cands) > smallGroup
	for mi := range e.matches {
		c := cand{r: e, m: &e.matches[mi]}
		if c.m.typ == gwv1.PathMatchRegularExpression {
			if grp.big == nil {
				grp.big = new(groupIndex)
			}
			grp.big.regex = append(grp.big.regex, c)
			grp.methods = true
		} else {
			grp.cands = append(grp.cands, c)
			grp.methods = grp.methods || c.m.method != "" || c.m.clients != 0
		}
	}
	if !listed && (len(grp.regexCands()) > 0 || len(grp.cands) > smallGroup) {
		groups = append(groups, grp) // to finish
	}
	return groups, grp
}

// appendRouteHostnames appends the route's hostnames in lower case, sorted,
// without duplicates or empty ones.
func appendRouteHostnames(out []string, hostnames []gwv1.Hostname) []string {
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
