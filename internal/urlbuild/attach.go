package urlbuild

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
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

// String renders scheme://host[:port].
func (o Origin) String() string { return string(o.appendTo(nil)) }

// appendTo appends scheme://host[:port] to b.
func (o Origin) appendTo(b []byte) []byte {
	b = append(b, o.Scheme...)
	b = append(b, "://"...)
	b = append(b, o.Host...)
	if !(o.Scheme == "http" && o.Port == 80 || o.Scheme == "https" && o.Port == 443) {
		b = append(b, ':')
		b = strconv.AppendInt(b, int64(o.Port), 10)
	}
	return b
}

func (o Origin) compare(p Origin) int {
	return cmp.Or(
		cmp.Compare(o.Scheme, p.Scheme),
		cmp.Compare(o.Host, p.Host),
		cmp.Compare(o.Port, p.Port),
		cmp.Compare(o.Gateway.Namespace, p.Gateway.Namespace),
		cmp.Compare(o.Gateway.Name, p.Gateway.Name),
		cmp.Compare(o.Listener, p.Listener),
		cmp.Compare(o.ParentIndex, p.ParentIndex),
	)
}

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

	route *gwv1.HTTPRoute
	ix    *Index
	// entry is the route's entry in the index when AttachAt found it: its
	// home group spares the URL checks a look-up.
	entry *routeEntry
	// recv is the listener that receives the requests of the origin of
	// Gateway recvG (nil: none is known), host recvHost, port recvPort and
	// scheme https or not: Attach works it out for a route of one origin,
	// so that checking its URLs needs no look-up. The origin is kept apart
	// from Origins, which the caller may change.
	recv  *listenerEntry
	recvG *gatewayEntry
	// recvVia is the listener the origin came from.
	recvVia   *listenerEntry
	recvHost  string
	recvPort  gwv1.PortNumber
	recvHTTPS bool
	// twins are the origins the compaction of Origins dropped that come
	// from another Gateway than the origin of the same scheme, host and
	// port that stands for them: a client may reach either Gateway for
	// that host (DNS decides), so a URL is checked through each.
	twins []Origin
	// originBuf holds the origin of a route with one, the common case, so
	// that an Attachment usually takes one allocation (and a small one: it
	// is made per route).
	originBuf [1]Origin
}

// Attach resolves the parentRefs of route against the index: the Gateway,
// the listeners the route attaches to, the route status, and the origin of
// each listener (see the package documentation for the rules). A nil route
// gives an empty Attachment.
func (ix *Index) Attach(route *gwv1.HTTPRoute) *Attachment {
	a := new(Attachment)
	ix.AttachInto(a, route)
	return a
}

// AttachInto is [Index.Attach] writing into a, which it first resets: what
// a held is replaced, and the memory of its Diagnostics is reused. A caller
// resolving many routes one after another, that keeps nothing of an
// Attachment past the next route, needs one Attachment for all of them.
func (ix *Index) AttachInto(a *Attachment, route *gwv1.HTTPRoute) {
	ix.AttachAt(a, route, -1)
}

// AttachAt is AttachInto for the route at position i of the routes given to
// NewIndex (any other i, such as -1, for a route not known to be there):
// the Attachment then holds the route's entry in the index, so that its URL
// checks start from the route's own group rather than looking it up. A
// route that is not the one at i is attached as by AttachInto.
func (ix *Index) AttachAt(a *Attachment, route *gwv1.HTTPRoute, i int) {
	if route == nil {
		*a = Attachment{ix: ix, Diagnostics: a.Diagnostics[:0]}
		return
	}
	// a is reset field by field rather than as a whole: this runs per
	// route, and zeroing the whole struct, pointers and all, costs a
	// write barrier per pointer while the garbage collector runs. Route is
	// set here for both ways below; originBuf is written before Origins
	// shows it.
	a.Route = model.ObjectRef{Kind: KindHTTPRoute, Namespace: route.Namespace, Name: route.Name}
	a.Origins, a.Diagnostics = nil, a.Diagnostics[:0]
	a.route, a.ix, a.entry, a.twins = route, ix, nil, nil
	a.recv, a.recvG, a.recvVia, a.recvHost, a.recvPort, a.recvHTTPS = nil, nil, nil, "", 0, false
	if ix != nil {
		if e := ix.entryOf(i); e != nil && e.route == route {
			a.entry = e
			if e.memo.ok {
				a.fromMemo(&e.memo)
				return
			}
		}
	}
	if len(route.Spec.ParentRefs) == 0 {
		msg := "spec.parentRefs is empty: the route attaches to no Gateway"
		if route.Spec.UseDefaultGateways != "" && route.Spec.UseDefaultGateways != gwv1.GatewayDefaultScopeNone {
			msg += fmt.Sprintf(" (useDefaultGateways %q is not supported: default Gateways are not resolved)", route.Spec.UseDefaultGateways)
		}
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonParentNotFound, a.Route, "spec.parentRefs", "%s", model.Text(msg)))
		return
	}
	var sc *attachScratch
	if ix != nil {
		sc, _ = ix.scratch.Get().(*attachScratch)
	}
	if sc == nil {
		sc = &attachScratch{hosts: make([]string, 0, 4), via: make([]originSource, 0, 4)}
	}
	st := attachState{a: a, hosts: sc.hosts[:0], via: sc.via[:0]}
	a.Origins = a.originBuf[:0]
	var repeats parentRepeats
	for i, ref := range route.Spec.ParentRefs {
		if repeats.repeat(route, i) {
			continue
		}
		ix.attachParent(&st, i, ref)
	}
	st.keepReachable()
	slices.SortFunc(a.Origins, Origin.compare)
	// One origin per scheme://host:port: several listeners of one port may
	// give the same (listeners with one hostname conflict; a Gateway
	// reached through two parentRefs), and the first stands for them. The
	// same origin through another Gateway is kept apart as a twin: the URL
	// must work through it too.
	a.Origins = compactOrigins(a, a.Origins)
	if len(a.Diagnostics) > 0 {
		a.Diagnostics.Sort() // most routes have none
	}
	// The scratch goes back cleared: it must not keep Gateways alive.
	clear(st.via)
	sc.hosts, sc.via = st.hosts[:0], st.via[:0]
	if ix != nil {
		ix.scratch.Put(sc)
	}
}

// parentRepeats finds the parentRefs of a route that repeat an earlier one
// (the same reference once defaulted). The HTTPRoute CRD refuses them, but
// a manifest may hold them: each would give the origins and diagnostics of
// the first again, its origins dropped as the same as the first's, at the
// cost of a pass over the Gateway's listeners. 1000 copies of one parentRef
// to a Gateway of 1000 listeners took 18 s and 386 MB.
type parentRepeats struct {
	// keys holds the references read, for a route with more than
	// manyParentRefs of them; fewer are compared with each other.
	keys map[parentKey]struct{}
}

// manyParentRefs is the number of parentRefs above which parentRepeats
// keeps a map. The CRD allows 32.
const manyParentRefs = 8

// repeat reports whether parentRef i of route is the same reference as one
// before it. It is called for each i in order.
func (p *parentRepeats) repeat(route *gwv1.HTTPRoute, i int) bool {
	refs := route.Spec.ParentRefs
	if len(refs) < 2 {
		return false
	}
	key := parentKeyOf(refs[i], route.Namespace)
	if len(refs) <= manyParentRefs {
		for _, ref := range refs[:i] {
			if parentKeyOf(ref, route.Namespace) == key {
				return true
			}
		}
		return false
	}
	if p.keys == nil {
		p.keys = make(map[parentKey]struct{}, len(refs))
	}
	if _, seen := p.keys[key]; seen {
		return true
	}
	p.keys[key] = struct{}{}
	return false
}

// compactOrigins keeps the first of each run of sorted origins of one
// scheme, host and port, appending to a.twins those of the run on other
// Gateways than the first's (one per Gateway).
func compactOrigins(a *Attachment, os []Origin) []Origin {
	if len(os) < 2 {
		return os
	}
	kept := os[:1]
	for _, o := range os[1:] {
		k := &kept[len(kept)-1]
		if o.Scheme != k.Scheme || o.Host != k.Host || o.Port != k.Port {
			kept = append(kept, o)
			continue
		}
		if o.Gateway == k.Gateway {
			continue
		}
		if n := len(a.twins); n > 0 && a.twins[n-1].Gateway == o.Gateway && a.twins[n-1].Host == o.Host &&
			a.twins[n-1].Scheme == o.Scheme && a.twins[n-1].Port == o.Port {
			continue
		}
		a.twins = append(a.twins, o)
	}
	clear(os[len(kept):])
	return kept
}

// twinsOf returns the twins of origin o (see Attachment.twins).
func (a *Attachment) twinsOf(o Origin) []Origin {
	if len(a.twins) == 0 {
		return nil
	}
	var out []Origin
	for _, t := range a.twins {
		if t.Scheme == o.Scheme && t.Host == o.Host && t.Port == o.Port && t.Gateway != o.Gateway {
			out = append(out, t)
		}
	}
	return out
}

// attachScratch is the scratch space of one Attach: hostname intersections
// and the listener each origin came from.
type attachScratch struct {
	hosts []string
	via   []originSource
}

// manyListeners is the number of listeners above which attachParent keeps
// hostname intersections per listener hostname.
const manyListeners = 8

// intersection is a listener's hostname intersected with a route's.
type intersection struct {
	hosts       []string
	anyHost, ok bool
}

// receiving drops the candidates that share port, protocol and hostname
// with another candidate, the first such listener by name, which stands for
// them: listeners of one hostname conflict and carry nothing, and one
// diagnostic says so for all of them rather than hostnames × listeners.
func (g *gatewayEntry) receiving(cs []candidate) []candidate {
	if len(cs) < 2 {
		return cs
	}
	var in map[*listenerEntry]bool
	if len(cs) > manyListeners {
		in = make(map[*listenerEntry]bool, len(cs))
		for _, c := range cs {
			in[c.l] = true
		}
	}
	isCandidate := func(l *listenerEntry) bool {
		if in != nil {
			return in[l]
		}
		return slices.ContainsFunc(cs, func(c candidate) bool { return c.l == l })
	}
	kept := make([]candidate, 0, len(cs))
	for _, c := range cs {
		if rep := g.byHostname[portProtocol{c.l.port, c.l.protocol}][c.l.hostname]; rep != c.l && isCandidate(rep) {
			continue
		}
		kept = append(kept, c)
	}
	return kept
}

// candidate is a listener the route may attach to, with the hostnames it
// serves for the route.
type candidate struct {
	l       *listenerEntry
	hosts   []string
	anyHost bool
}

// attachState is the work of one Attach: the Attachment being filled, the
// listener each of its origins came from (for keepReachable), and scratch
// space for hostname intersections.
type attachState struct {
	a        *Attachment
	via      []originSource
	hosts    []string
	statuses parentStatuses
}

// originSource is the Gateway and listener an origin came from.
type originSource struct {
	g *gatewayEntry
	l *listenerEntry
}

// parentField is the field path of parentRef i, built only for diagnostics.
func parentField(i int) string { return "spec.parentRefs[" + strconv.Itoa(i) + "]" }

// attachParent resolves parentRef i, appending its origins and diagnostics to
// the Attachment.
func (ix *Index) attachParent(st *attachState, i int, ref gwv1.ParentReference) {
	a := st.a
	route := a.route
	key := parentKeyOf(ref, route.Namespace)
	if key.group != GatewayGroup || key.kind != KindGateway {
		// ParentReference.Kind: Gateway and Service have Core support; only a
		// Gateway listener is an external entry point.
		if key.group == "" && key.kind == KindService {
			a.Diagnostics = append(a.Diagnostics, model.Infof(model.ReasonParentNotFound, a.Route, parentField(i),
				"parentRef is the Service %s/%s (a mesh route), not a Gateway: it gives no external URL", key.namespace, key.name))
		} else {
			a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonParentNotFound, a.Route, parentField(i),
				"parentRef %s/%s is of kind %q in group %q: only Gateways (group %s) give external URLs", key.namespace, key.name, key.kind, key.group, GatewayGroup))
		}
		return
	}
	g := ix.gateway(key.namespace, key.name)
	if g == nil {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonParentNotFound, a.Route, parentField(i),
			"Gateway %s/%s not found", key.namespace, key.name))
		return
	}

	routeNS := routeNamespace{ix: ix, name: route.Namespace}
	var buf [4]candidate
	candidates := buf[:0]
	matched := 0
	// byHostname keeps the intersection per listener hostname on Gateways
	// with many listeners: listeners sharing a hostname share it, so the
	// work is per distinct hostname, not per listener.
	var byHostname map[string]intersection
	ls := g.selected(key)
	for li := range ls {
		l := &ls[li]
		var hosts []string
		var anyHost, ok bool
		if r, hit := byHostname[l.hostname]; hit && l.selectable(key) {
			hosts, anyHost, ok = r.hosts, r.anyHost, r.ok
		} else {
			start := len(st.hosts)
			st.hosts, anyHost, ok = l.matches(st.hosts, key, route.Spec.Hostnames)
			hosts = st.hosts[start:len(st.hosts):len(st.hosts)]
			if len(g.listeners) > manyListeners && l.selectable(key) {
				if byHostname == nil {
					byHostname = make(map[string]intersection)
				}
				byHostname[l.hostname] = intersection{hosts, anyHost, ok}
			}
		}
		if !ok {
			continue
		}
		matched++
		if !l.admits(route.Namespace, g.namespace, &routeNS) {
			continue
		}
		candidates = append(candidates, candidate{l: l, hosts: hosts, anyHost: anyHost})
	}
	if matched == 0 {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonNoMatchingListener, a.Route, parentField(i),
			"Gateway %s/%s has no listener for this parentRef%s: %s", key.namespace, key.name, describeParent(key), model.Text(g.explainNoMatch(key, route.Spec.Hostnames))))
		return
	}
	if len(candidates) == 0 {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonNotAllowedByListeners, a.Route, parentField(i),
			"Gateway %s/%s: no listener for this parentRef%s admits an HTTPRoute from namespace %q: %s",
			key.namespace, key.name, describeParent(key), route.Namespace, model.Text(g.explainNotAllowed(key, route, &routeNS))))
		return
	}

	acc := st.statuses.acceptance(route, key)
	if ix.attachEarly != nil && i < len(ix.seen) {
		// Attaching early, while NewIndexAttaching files the route: the
		// filing needs the same answers.
		ix.seen[i] = parentSeen{g: g, competes: acc.competes(), known: true}
	}
	if !acc.accepted {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonRouteNotAccepted, a.Route, parentField(i),
			"Gateway %s/%s has not accepted the route: %s", key.namespace, key.name, model.Text(acc.detail)))
		return
	}
	if acc.stale {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonStaleRouteStatus, a.Route, parentField(i),
			"status.parents condition Accepted=True was observed at generation %d but metadata.generation is %d: the controller has not processed the latest spec yet; URLs are built from the current spec",
			acc.observed, route.Generation))
	}
	if g.notReady != "" {
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonGatewayNotReady, a.Route, parentField(i),
			"Gateway %s/%s is not ready (%s): it routes no requests, so no URL is built through it", key.namespace, key.name, model.Text(g.notReady)))
		return
	}

	gwName := types.NamespacedName{Namespace: g.namespace, Name: g.name}
	candidates = g.receiving(candidates)
	for _, c := range candidates {
		if c.l.notReady != "" {
			a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonListenerNotReady, a.Route, parentField(i),
				"%s of Gateway %s/%s is not ready (%s): it carries no requests, so no URL is built through it", c.l.describe(), key.namespace, key.name, model.Text(c.l.notReady)))
			continue
		}
		var hbuf [4]chosenHost
		hosts, ds := g.appendHosts(hbuf[:0], c, key, a.Route, i)
		a.Diagnostics = append(a.Diagnostics, ds...)
		for _, h := range hosts {
			a.Origins = append(a.Origins, Origin{
				ParentIndex: i,
				Gateway:     gwName,
				Listener:    gwv1.SectionName(c.l.name),
				Scheme:      c.l.scheme,
				Host:        h.host,
				Port:        c.l.port,
				FromAddress: h.fromAddress,
			})
			st.via = append(st.via, originSource{g: g, l: c.l})
		}
	}
}

// keepReachable drops the origins whose host another listener of the same
// Gateway, port and protocol matches more specifically: requests for that
// host go to that listener (GatewaySpec.Listeners: "a traffic flow MUST be
// able to be assigned to exactly one listener"; Listener.Hostname: "If
// another Listener has an exact match or more specific wildcard entry, the
// Gateway SHOULD return a 421"). When the route is attached to that listener
// too, it gives the URL itself; otherwise the host is dropped with
// NoMatchingListener.
func (st *attachState) keepReachable() {
	a := st.a
	kept := a.Origins[:0]
	// attached holds the listeners the route is attached to, built the first
	// time an origin is shadowed.
	var attached map[*listenerEntry]bool
	var recv, recvVia *listenerEntry
	var recvG *gatewayEntry
	for j, p := range a.Origins {
		src := st.via[j]
		// src.g.shadowedBy(src.l, p.Host), keeping the receiver.
		r := receiverFrom(src.l, p.Host)
		var w *listenerEntry
		if r != nil && r.hostname != src.l.hostname {
			w = r
		}
		if w == nil {
			if len(kept) == j {
				// In place: no copy (and no write barriers) until an
				// origin is dropped, which is rare.
				kept = kept[:j+1]
			} else {
				kept = append(kept, p)
			}
			recv, recvG, recvVia = r, src.g, src.l
			continue
		}
		if attached == nil {
			attached = make(map[*listenerEntry]bool)
			for _, q := range st.via {
				attached[q.l] = true
			}
		}
		if attached[w] {
			continue
		}
		a.Diagnostics = append(a.Diagnostics, model.Warningf(model.ReasonNoMatchingListener, a.Route, parentField(p.ParentIndex),
			"no URL for host %s through %s of Gateway %s: requests for it go to %s, whose hostname %q is more specific than %q, and the route is not attached to that listener",
			p.Host, src.l.describe(), p.Gateway, w.describe(), w.hostname, src.l.hostname))
	}
	clear(a.Origins[len(kept):])
	a.Origins = kept
	if len(kept) == 1 {
		o := kept[0]
		a.recv, a.recvG, a.recvVia, a.recvHost, a.recvPort, a.recvHTTPS = recv, recvG, recvVia, o.Host, o.Port, o.Scheme == "https"
	}
}

// memo returns the attachMemo of a, ok when a has one origin and no
// diagnostics (keepReachable then knows the origin's listeners), and the
// origin's listener receives its requests.
func (a *Attachment) memo() attachMemo {
	if len(a.Origins) != 1 || len(a.Diagnostics) != 0 || len(a.twins) != 0 || a.recvVia == nil || a.recv != a.recvVia || a.recvG != a.recvVia.gw {
		return attachMemo{}
	}
	o := &a.Origins[0]
	return attachMemo{l: a.recvVia, host: o.Host, parent: int32(o.ParentIndex), fromAddress: o.FromAddress, ok: true}
}

// fromMemo fills a, which AttachAt has reset for its route (Route set),
// from the memo of that route: what attaching it again would give.
func (a *Attachment) fromMemo(m *attachMemo) {
	g := m.l.gw
	a.originBuf[0] = Origin{
		ParentIndex: int(m.parent),
		Gateway:     types.NamespacedName{Namespace: g.namespace, Name: g.name},
		Listener:    gwv1.SectionName(m.l.name),
		Scheme:      m.l.scheme,
		Host:        m.host,
		Port:        m.l.port,
		FromAddress: m.fromAddress,
	}
	a.Origins = a.originBuf[:1]
	a.recv, a.recvG, a.recvVia, a.recvHost, a.recvPort, a.recvHTTPS = m.l, g, m.l, m.host, m.l.port, m.l.scheme == "https"
}

// matches reports whether the listener is one the parentRef selects and can
// carry the route: name equal to sectionName and port equal to port when set
// (ParentReference.SectionName, ParentReference.Port), protocol HTTP or HTTPS,
// and a hostname intersecting the route's (HTTPRouteSpec.Hostnames). It
// appends the intersection to dst.
func (l *listenerEntry) matches(dst []string, key parentKey, routeHostnames []gwv1.Hostname) ([]string, bool, bool) {
	if !l.selectable(key) {
		return dst, false, false
	}
	n := len(dst)
	dst, anyHost := intersect(dst, routeHostnames, l.hostname)
	return dst, anyHost, anyHost || len(dst) > n
}

// selected returns the listeners of the Gateway a parentRef may select: with
// a sectionName, those of that name (the listeners are sorted by name, so
// they lie together, found by binary search: a route naming its listener
// costs no walk over a Gateway's many); without one, all.
func (g *gatewayEntry) selected(key parentKey) []listenerEntry {
	if key.section == "" {
		return g.listeners
	}
	lo, _ := slices.BinarySearchFunc(g.listeners, key.section, func(l listenerEntry, name string) int {
		return strings.Compare(l.name, name)
	})
	hi := lo
	for hi < len(g.listeners) && g.listeners[hi].name == key.section {
		hi++
	}
	return g.listeners[lo:hi:hi]
}

// selectable reports whether the parentRef selects the listener and it can
// carry an HTTPRoute: matches without the hostnames.
func (l *listenerEntry) selectable(key parentKey) bool {
	return !(key.section != "" && key.section != l.name || key.port != 0 && key.port != l.port ||
		l.scheme == "" || l.port < 1 || l.port > 65535)
}

// mismatch says why matches refuses the listener, not looking at hostnames;
// "" when that is not why.
func (l *listenerEntry) mismatch(key parentKey) string {
	switch {
	case key.section != "" && key.section != l.name:
		return "name is not " + strconv.Quote(key.section)
	case key.port != 0 && key.port != l.port:
		return "port is not " + strconv.Itoa(int(key.port))
	case l.scheme == "":
		return "protocol " + string(l.protocol) + " cannot carry an HTTPRoute"
	case l.port < 1 || l.port > 65535:
		return "port " + strconv.Itoa(int(l.port)) + " is not a valid port"
	}
	return ""
}

// admits reports whether the listener's allowedRoutes admit an HTTPRoute from
// routeNS. AllowedRoutes.Kinds must hold HTTPRoute; RouteNamespaces.From:
// Same is the Gateway's namespace, All any, Selector the namespaces whose
// labels the selector matches — a namespace the index does not hold is not
// selected; None and unknown values admit nothing.
func (l *listenerEntry) admits(routeNS, gatewayNS string, ns *routeNamespace) bool {
	if !l.allowsHTTPRoute {
		return false
	}
	switch l.from {
	case gwv1.NamespacesFromAll:
		return true
	case gwv1.NamespacesFromSame:
		return routeNS == gatewayNS
	case gwv1.NamespacesFromSelector:
		if l.selector == nil {
			return false
		}
		nsLabels, nsKnown := ns.labels()
		return nsKnown && l.selector.Matches(nsLabels)
	}
	return false
}

// mayAdmit is admits for a route that competes for requests, whose status
// says the listener's Gateway accepted it: a Selector listener that admits
// namespaces by labels admits it as well when its Namespace is not in the
// snapshot (a partial dump), since the controller, which knows the labels,
// accepted it. A route's own URLs still need the Namespace (admits): a URL
// is published only on what the snapshot shows.
func (l *listenerEntry) mayAdmit(routeNS, gatewayNS string, ns *routeNamespace) bool {
	if l.admits(routeNS, gatewayNS, ns) {
		return true
	}
	if !l.allowsHTTPRoute || l.from != gwv1.NamespacesFromSelector || l.selector == nil {
		return false
	}
	_, known := ns.labels()
	return !known
}

// routeNamespace is the Namespace of a route, whose labels are looked up
// the first time a listener's allowedRoutes needs them: most listeners
// (Same, All) do not.
type routeNamespace struct {
	ix     *Index
	name   string
	set    labels.Set
	known  bool
	looked bool
}

// labels returns the labels of the Namespace and whether the index holds it.
func (n *routeNamespace) labels() (labels.Set, bool) {
	if !n.looked {
		n.set, n.known = n.ix.namespaceLabels(n.name)
		n.looked = true
	}
	return n.set, n.known
}

// whyNot says why admits refuses; "" when it does not.
func (l *listenerEntry) whyNot(routeNS, gatewayNS string, ns *routeNamespace) string {
	nsLabels, nsKnown := ns.labels()
	if !l.allowsHTTPRoute {
		return "allowedRoutes.kinds [" + l.kinds + "] does not include " + GatewayGroup + "/" + KindHTTPRoute
	}
	switch l.from {
	case gwv1.NamespacesFromAll:
		return ""
	case gwv1.NamespacesFromSame:
		if routeNS == gatewayNS {
			return ""
		}
		return "allowedRoutes.namespaces.from is Same and the route is not in namespace " + strconv.Quote(gatewayNS)
	case gwv1.NamespacesFromSelector:
		switch {
		case l.selector == nil:
			return l.selectorErr
		case !nsKnown:
			return "allowedRoutes.namespaces.from is Selector and the Namespace " + strconv.Quote(routeNS) + " is not in the snapshot, so its labels are unknown"
		case !l.selector.Matches(labels.Set(nsLabels)):
			return "allowedRoutes.namespaces.selector " + strconv.Quote(l.selector.String()) + " does not select namespace " + strconv.Quote(routeNS)
		}
		return ""
	}
	return "allowedRoutes.namespaces.from " + strconv.Quote(string(l.from)) + " admits no routes"
}

// explainNoMatch says why no listener matched: no listener with the
// sectionName, none on the port, or, listener by listener, the protocol or
// hostname.
func (g *gatewayEntry) explainNoMatch(key parentKey, routeHostnames []gwv1.Hostname) string {
	if len(g.listeners) == 0 {
		return "the Gateway has no listeners"
	}
	var named, onPort []*listenerEntry
	var names []string
	var ports []int
	for li := range g.listeners {
		l := &g.listeners[li]
		names = append(names, strconv.Quote(l.name))
		ports = append(ports, int(l.port))
		if key.section == "" || key.section == l.name {
			named = append(named, l)
		}
	}
	if len(named) == 0 {
		return "no listener is named " + strconv.Quote(key.section) + " (listeners " + strings.Join(names, ", ") + ")"
	}
	for _, l := range named {
		if key.port == 0 || key.port == l.port {
			onPort = append(onPort, l)
		}
	}
	if len(onPort) == 0 {
		if key.section != "" {
			return named[0].describe() + " is not on port " + strconv.Itoa(int(key.port))
		}
		slices.Sort(ports)
		return "no listener is on port " + strconv.Itoa(int(key.port)) + " (ports " + strings.Trim(fmt.Sprint(slices.Compact(ports)), "[]") + ")"
	}
	parts := make([]string, 0, len(onPort))
	hostnameMismatch := false
	for _, l := range onPort {
		why := l.mismatch(key)
		if why == "" {
			hostnameMismatch = true
			why = "hostname " + strconv.Quote(l.hostname) + " does not intersect the route's hostnames"
		}
		parts = append(parts, l.describe()+" "+why)
	}
	s := strings.Join(parts, "; ")
	if hostnameMismatch {
		s += " (route hostnames " + quoteHostnames(routeHostnames) + ")"
	}
	return s
}

// explainNotAllowed lists why each matching listener excluded the route.
func (g *gatewayEntry) explainNotAllowed(key parentKey, route *gwv1.HTTPRoute, ns *routeNamespace) string {
	var parts []string
	for li := range g.listeners {
		l := &g.listeners[li]
		if _, _, ok := l.matches(nil, key, route.Spec.Hostnames); !ok {
			continue
		}
		parts = append(parts, l.describe()+": "+l.whyNot(route.Namespace, g.namespace, ns))
	}
	return strings.Join(parts, "; ")
}

func (l *listenerEntry) describe() string {
	return fmt.Sprintf("listener %q (%s/%d)", l.name, l.protocol, l.port)
}

// describeParent names the parentRef's section selectors for messages that
// already name the Gateway: "" or " (sectionName "x", port 8080)".
func describeParent(k parentKey) string {
	var sel []string
	if k.section != "" {
		sel = append(sel, "sectionName "+strconv.Quote(k.section))
	}
	if k.port != 0 {
		sel = append(sel, "port "+strconv.Itoa(int(k.port)))
	}
	if len(sel) == 0 {
		return ""
	}
	return " (" + strings.Join(sel, ", ") + ")"
}

func quoteHostnames(hs []gwv1.Hostname) string {
	if len(hs) == 0 {
		return "[]"
	}
	q := make([]string, len(hs))
	for i, h := range hs {
		q[i] = strconv.Quote(string(h))
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// acceptance is what the route status says about one parentRef.
type acceptance struct {
	accepted bool
	// stale: accepted only by conditions observed before metadata.generation;
	// observed is the newest such observedGeneration.
	stale    bool
	observed int64
	// detail explains a refusal.
	detail string
	// pending: status.parents has no entry for the parentRef at all; the
	// Gateway's controller has not reconciled the route yet.
	pending bool
}

// competes reports whether the route takes part in routing on the
// parentRef's listeners when requests for another route's URLs are
// checked: when the status accepts it, and also when the controller has
// not reconciled it yet (pending). Such a route gives no URL of its own
// (RouteNotAccepted), but once the controller catches up, which it does
// without anything else changing, it takes the requests it matches; a URL
// it would take is not one that routes. A route the status refuses
// (Accepted not True) does not compete.
func (a acceptance) competes() bool { return a.accepted || a.pending }

// routeAcceptance looks for status.parents entries whose parentRef is the
// same reference as key, whatever their controllerName (RouteStatus.Parents),
// and reads their Accepted condition (RouteParentStatus.Conditions). Any
// fresh Accepted=True accepts; otherwise a stale one accepts with a warning.
// A condition without observedGeneration (optional in metav1.Condition, so
// 0) is fresh: nothing says which spec it was set for, and generations
// start at 1, so 0 is "not recorded", not "behind".
//
// With indexed, only lists the positions in status.parents of the entries
// for key (see parentStatuses); without, all are looked through.
func routeAcceptance(route *gwv1.HTTPRoute, key parentKey, only []int, indexed bool) acceptance {
	var acc acceptance
	var refusals []string
	n := len(route.Status.Parents)
	if indexed {
		n = len(only)
	}
	for j := range n {
		i := j
		if indexed {
			i = only[j]
		}
		ps := &route.Status.Parents[i]
		if parentKeyOf(ps.ParentRef, route.Namespace) != key {
			continue
		}
		c := meta.FindStatusCondition(ps.Conditions, string(gwv1.RouteConditionAccepted))
		switch {
		case c == nil:
			refusals = append(refusals, fmt.Sprintf("controller %q set no Accepted condition", ps.ControllerName))
		case c.Status == metav1.ConditionTrue:
			if c.ObservedGeneration == 0 || c.ObservedGeneration >= route.Generation {
				return acceptance{accepted: true}
			}
			if !acc.accepted || c.ObservedGeneration > acc.observed {
				acc = acceptance{accepted: true, stale: true, observed: c.ObservedGeneration}
			}
		default:
			refusals = append(refusals, fmt.Sprintf("controller %q set Accepted=%s reason %s: %s", ps.ControllerName, c.Status, c.Reason, c.Message))
		}
	}
	if acc.accepted {
		return acc
	}
	if len(refusals) == 0 {
		return acceptance{pending: true, detail: "status.parents has no entry for this parentRef" + describeParent(key) + " (not reconciled yet, or no controller manages the Gateway)"}
	}
	slices.Sort(refusals)
	return acceptance{detail: strings.Join(refusals, "; ")}
}

// manyStatusParents is how many status.parents entries a route may have
// before its parentRefs find theirs through an index: the Gateway API
// allows 32 of each, but a manifest read without an API server may hold
// thousands, and looking through all of them for each parentRef would take
// their number squared.
const manyStatusParents = 16

// parentStatuses indexes the status.parents of the route read last by the
// parentRef each entry names, for a route with many: routeAcceptance then
// reads only the entries of the parentRef it is asked about.
type parentStatuses struct {
	route *gwv1.HTTPRoute
	byKey map[parentKey][]int
}

// acceptance is routeAcceptance(route, key), through the index when route
// has many status.parents entries.
func (ps *parentStatuses) acceptance(route *gwv1.HTTPRoute, key parentKey) acceptance {
	if len(route.Status.Parents) <= manyStatusParents {
		return routeAcceptance(route, key, nil, false)
	}
	if ps.route != route {
		ps.route, ps.byKey = route, make(map[parentKey][]int, len(route.Status.Parents))
		for i := range route.Status.Parents {
			k := parentKeyOf(route.Status.Parents[i].ParentRef, route.Namespace)
			ps.byKey[k] = append(ps.byKey[k], i)
		}
	}
	return routeAcceptance(route, key, ps.byKey[key], true)
}

// shadowedBy returns the listener of g on l's port and protocol whose
// hostname matches host strictly more specifically than l's, the one that
// receives requests for host; nil when l does.
func (g *gatewayEntry) shadowedBy(l *listenerEntry, host string) *listenerEntry {
	r := receiverFrom(l, host)
	if r == nil || r.hostname == l.hostname {
		return nil
	}
	return r
}

// receiver returns the listener of g on port and protocol that receives
// requests for the precise host: the one whose hostname is host, else the
// one with the longest wildcard matching it, else the one without a
// hostname (GatewaySpec.Listeners; Listener.Hostname). It costs one map
// lookup per label of host, whatever the number of listeners. nil when no
// listener matches.
func (g *gatewayEntry) receiver(port int32, protocol gwv1.ProtocolType, host string) *listenerEntry {
	if l := g.single[portProtocol{port, protocol}]; l != nil {
		return l.receivesAlone(host)
	}
	return receiverAmong(g.byHostname[portProtocol{port, protocol}], host)
}

// receiverFrom is receiver for the port and protocol of l, a listener of
// the Gateway.
func receiverFrom(l *listenerEntry, host string) *listenerEntry {
	if l.alone != nil {
		return l.alone.receivesAlone(host)
	}
	return receiverAmong(l.peers, host)
}

// receivesAlone is receiver for the listener l, the only one (of one
// hostname, if several share it) on its port and protocol: it receives the
// hosts it matches.
func (l *listenerEntry) receivesAlone(host string) *listenerEntry {
	if l.hostname == "" || l.hostname == host || IsWildcard(l.hostname) && wildcardMatches(l.hostname, host) {
		return l
	}
	return nil
}

// receiverAmong is receiver among the listeners of one port and protocol,
// m by hostname.
func receiverAmong(m map[string]*listenerEntry, host string) *listenerEntry {
	if m == nil {
		return nil
	}
	if l := m[host]; l != nil && host != "" {
		return l
	}
	var buf [256]byte
	for i := 1; i < len(host); i++ {
		if host[i] != '.' || i+1 == len(host) {
			continue
		}
		w := append(append(buf[:0], '*'), host[i:]...)
		if l := m[string(w)]; l != nil {
			return l
		}
	}
	return m[""]
}

// firstAddress picks the Gateway address a listener's URL uses: with
// wildcards, the first Hostname address one of them matches; without, the
// first Hostname address, else the first IPAddress. An address that a more
// specific listener on the same port claims is passed over while another
// one is left.
func (g *gatewayEntry) firstAddress(l *listenerEntry, wildcards []string) (string, bool) {
	first := ""
	// The Hostname addresses, then (without wildcards: a wildcard never
	// matches an IP) the IPAddress ones; two passes rather than a list of
	// lists, which would be allocated per route.
	for pass := range 2 {
		list := g.addrs.hostnames
		if pass == 1 {
			if wildcards != nil {
				break
			}
			list = g.addrs.ips
		}
		for _, h := range list {
			if wildcards != nil && !slices.ContainsFunc(wildcards, func(w string) bool { return wildcardMatches(w, h) }) {
				continue
			}
			if g.shadowedBy(l, h) == nil {
				return h, true
			}
			if first == "" {
				first = h
			}
		}
	}
	return first, first != ""
}

// chosenHost is one host a listener gives.
type chosenHost struct {
	host        string
	fromAddress bool
}

// appendHosts appends to out the URL hosts of one attached listener: every valid concrete
// hostname of the intersection; else, when any host goes, the first Hostname
// address then the first IPAddress of the Gateway; else, when only wildcards
// intersect, the first Hostname address one of them matches.
func (g *gatewayEntry) appendHosts(out []chosenHost, c candidate, key parentKey, obj model.ObjectRef, parent int) ([]chosenHost, model.Diagnostics) {
	var ds model.Diagnostics
	n := len(out)
	wildcards := false
	for _, h := range c.hosts {
		if IsWildcard(h) {
			wildcards = true
			continue
		}
		if ValidHostname(h) {
			out = append(out, chosenHost{host: h})
		} else if numericHostname(h) {
			ds = append(ds, model.Warningf(model.ReasonInvalidURL, obj, parentField(parent),
				"hostname %q (from the route or %s) ends in a number, which Gateway API hostnames may not (IPs are not allowed) and a URL reader takes for an IPv4 address: it cannot be a URL host", h, c.l.describe()))
		} else {
			ds = append(ds, model.Warningf(model.ReasonInvalidURL, obj, parentField(parent),
				"hostname %q (from the route or %s) is not a valid hostname and cannot be a URL host", h, c.l.describe()))
		}
	}
	if len(out) > n {
		return out, ds
	}
	// gwRef names the Gateway in the diagnostics, built only for one.
	gwRef := func() string { return key.namespace + "/" + key.name }
	switch {
	case c.anyHost:
		// Prefer an address no more specific listener claims; failing that
		// the first usable one, which keepReachable then judges.
		if h, ok := g.firstAddress(c.l, nil); ok {
			return append(out, chosenHost{host: h, fromAddress: true}), ds
		}
		if g.addrs.count == 0 {
			ds = append(ds, model.Warningf(model.ReasonGatewayAddressPending, obj, parentField(parent),
				"neither the route nor %s of Gateway %s names a hostname, and the Gateway has no status.addresses yet", c.l.describe(), gwRef()))
		} else {
			ds = append(ds, model.Warningf(model.ReasonNoConcreteHostname, obj, parentField(parent),
				"neither the route nor %s of Gateway %s names a hostname, and no status address is a usable Hostname or IPAddress (%s)", c.l.describe(), gwRef(), model.Text(g.addrs.all)))
		}
	case wildcards:
		_, wildcards := SplitHostnames(c.hosts)
		if h, ok := g.firstAddress(c.l, wildcards); ok {
			return append(out, chosenHost{host: h, fromAddress: true}), ds
		}
		if g.addrs.count == 0 {
			ds = append(ds, model.Warningf(model.ReasonGatewayAddressPending, obj, parentField(parent),
				"%s of Gateway %s serves only the wildcard hostnames %s for this route, and the Gateway has no status.addresses yet", c.l.describe(), gwRef(), strings.Join(wildcards, ", ")))
		} else {
			ds = append(ds, model.Warningf(model.ReasonNoConcreteHostname, obj, parentField(parent),
				"%s of Gateway %s serves only the wildcard hostnames %s for this route, and no Hostname address of the Gateway matches them (%s); name a concrete host in spec.hostnames",
				c.l.describe(), gwRef(), strings.Join(wildcards, ", "), model.Text(g.addrs.all)))
		}
	}
	return out, ds
}
