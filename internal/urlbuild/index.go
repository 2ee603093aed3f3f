package urlbuild

import (
	"cmp"
	"net/netip"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/labelsel"
)

// Index holds Gateways by namespace/name and Namespace labels by name, with
// everything a route lookup needs worked out once: listener defaults, parsed
// label selectors, usable status addresses. Build it once per snapshot with
// [NewIndex]; looking a route up is then independent of the number of
// Gateways. An Index is read-only after construction and safe to share
// between goroutines.
type Index struct {
	gateways   map[nsName]*gatewayEntry
	namespaces map[string]labels.Set
	// hasRoutes reports whether NewIndex was given HTTPRoutes to route
	// requests over (see routing.go).
	hasRoutes bool
	// duplicateRoutes reports whether two of those routes share a namespace
	// and name (see DuplicateRoutes).
	duplicateRoutes bool
	// entries[i] is the entry of the i-th route given to NewIndex when
	// none of them was nil; otherwise entryAt[i] is (nil for a nil route).
	// Both are nil when there were duplicates, whose entries are not one
	// per position (see entryOf).
	entries []routeEntry
	entryAt []*routeEntry
	// scratch holds *attachScratch values for Attach to reuse from route to
	// route; a pool keeps an Index safe for concurrent use.
	scratch sync.Pool
	// attachEarly, when not nil, says which routes NewIndexAttaching
	// attaches while filing them (see routeEntry.memo); only read during
	// construction.
	attachEarly func(int, *gwv1.HTTPRoute) bool
	// seen is, during construction only, what attaching a route early
	// found of its parentRefs, by index, for filing it (see parentSeen).
	seen []parentSeen
}

// parentSeen is what attaching a route found of one of its parentRefs: the
// Gateway it names and whether the route competes for requests there
// (acceptance.competes); known when attaching got that far.
type parentSeen struct {
	g               *gatewayEntry
	competes, known bool
}

type nsName struct{ namespace, name string }

// gatewayEntry is one Gateway, pre-digested. Its strings (namespace,
// name, listener names and hostnames, addresses) are copies held together in
// one block for the index (see stringBlock), as every route reads them.
type gatewayEntry struct {
	gw              *gwv1.Gateway
	namespace, name string
	listeners       []listenerEntry
	addrs           gatewayAddresses
	// notReady says why the Gateway's status conditions show it is not
	// Accepted or not Programmed; "" when they do not.
	notReady string
	// byHostname indexes the listeners by (port, protocol, hostname) so that
	// finding the one that receives a host costs a few lookups whatever the
	// number of listeners (see receiver).
	byHostname map[portProtocol]map[string]*listenerEntry
	// single is, per port and protocol with one listener, that listener.
	single map[portProtocol]*listenerEntry
}

// portProtocol is where listeners compete for requests: requests to one port
// and protocol go to the listener whose hostname ("" any, "*.x" a wildcard)
// matches the request's host most specifically.
type portProtocol struct {
	port     int32
	protocol gwv1.ProtocolType
}

// listenerEntry is one listener with its allowedRoutes defaulted
// (DefaultAllowedRoutes) and its selector parsed.
type listenerEntry struct {
	name     string
	port     int32
	protocol gwv1.ProtocolType
	// hostname is the lower-cased listener hostname; "" means any.
	hostname string
	// scheme is "http" or "https"; "" for protocols that cannot carry an
	// HTTPRoute (TLS, TCP, UDP, implementation-specific).
	scheme string
	from   gwv1.FromNamespaces
	// selector is the parsed namespace selector when from is Selector; nil
	// when it does not parse (selectorErr says why).
	selector    labels.Selector
	selectorErr string
	// allowsHTTPRoute reports whether allowedRoutes.kinds (defaulted) holds
	// {gateway.networking.k8s.io, HTTPRoute}; kinds is their text for messages.
	allowsHTTPRoute bool
	kinds           string
	// notReady says why the listener carries no requests: its
	// status.listeners entry says so (listenerNotReady), or it conflicts
	// with another listener (conflicted: one of the same port, protocol and
	// hostname, or a TCP listener of its port); "" when neither.
	notReady   string
	conflicted bool
	// notConflicted is set when the listener's status.listeners entry
	// holds Conflicted=False: the controller programmed it beside the
	// other listeners of its port, whatever their protocols.
	notConflicted bool
	// routing is what the HTTPRoutes attached to the listener match, by
	// route hostname (see routing.go); nil when none is attached.
	routing map[string]*routeGroup
	// vhosts is the same by hostname intersected with the listener's (the
	// virtual-host reading); nil when the listener has no hostname, where
	// the two are the same.
	vhosts map[string]*routeGroup
	// wildcards reports whether routing or vhosts has a wildcard hostname
	// key, so that a lookup tries the host's wildcards only then.
	wildcards bool
	// receives reports whether the listener is the one that receives the
	// requests of its port, protocol and hostname (the first by name).
	receives bool
	// alone and peers are the Gateway's single and byHostname entries for
	// the listener's port and protocol, so that finding the listener that
	// receives a host on them (receiverFrom) needs no look-up by port.
	alone *listenerEntry
	peers map[string]*listenerEntry
	// gw is the listener's Gateway.
	gw *gatewayEntry
	// mark and filed are NewIndex's scratch space (see addRoutes): filed
	// counts the routes filed in routing and vhosts.
	mark  int
	filed [2]int
}

// gatewayAddresses are a Gateway's status.addresses sorted into what a URL
// can use (GatewayStatus.Addresses, GatewayStatusAddress).
type gatewayAddresses struct {
	// count is the number of status addresses, usable or not; zero means the
	// Gateway has not been given an address yet.
	count int
	// hostnames are the precise Hostname addresses, in status order.
	hostnames []string
	// ips are the IPAddress addresses formatted as URL hosts (IPv6 in
	// brackets), in status order.
	ips []string
	// all lists every address as "Type value" for messages.
	all string
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
	return NewIndexAttaching(gateways, namespaces, routes, nil)
}

// NewIndexAttaching is [NewIndex] that also resolves the parentRefs of the
// routes for which attach returns true, each while the index files it and
// its memory is at hand, rather than when [Index.AttachAt] is later asked
// for it, a pass over the routes later, when a large snapshot's routes have
// long left the cache. AttachAt at the route's position then gives the same
// Attachment without reading the route's parentRefs, hostnames or status
// again (when the route has one origin and no diagnostic, the common case;
// otherwise it works the Attachment out as usual). attach may be nil; it is
// called once for each route that is not nil, with its position in routes,
// in order, during construction only: a caller may note what it learns of
// the route then, while its memory is at hand.
func NewIndexAttaching(gateways []*gwv1.Gateway, namespaces []*corev1.Namespace, routes []*gwv1.HTTPRoute, attach func(int, *gwv1.HTTPRoute) bool) *Index {
	ix := &Index{
		gateways:   make(map[nsName]*gatewayEntry, len(gateways)),
		namespaces: make(map[string]labels.Set, len(namespaces)),
	}
	var sb stringBlock
	sb.grow(gateways)
	for _, gw := range gateways {
		if gw == nil {
			continue
		}
		k := nsName{gw.Namespace, gw.Name}
		old, ok := ix.gateways[k]
		if ok && !dedupe.Newer(gw, &gw.ObjectMeta, old.gw, &old.gw.ObjectMeta) {
			continue
		}
		g := newGatewayEntry(gw, &sb)
		if ok {
			delete(ix.gateways, k) // so that the key is the new entry's copy
		}
		ix.gateways[nsName{g.namespace, g.name}] = g
	}
	chosen := make(map[string]*corev1.Namespace, len(namespaces))
	for _, ns := range namespaces {
		if ns == nil {
			continue
		}
		if old, ok := chosen[ns.Name]; ok && !dedupe.Newer(ns, &ns.ObjectMeta, old, &old.ObjectMeta) {
			continue
		}
		chosen[ns.Name] = ns
		ix.namespaces[ns.Name] = namespaceLabels(ns)
	}
	ix.attachEarly = attach
	ix.addRoutes(routes)
	ix.attachEarly, ix.seen = nil, nil
	return ix
}

// metadataNameLabel is the label the API server sets on every Namespace to
// its name.
const metadataNameLabel = "kubernetes.io/metadata.name"

// namespaceLabels returns the Namespace's labels with
// kubernetes.io/metadata.name set to its name when missing, in a copy only
// when it is.
func namespaceLabels(ns *corev1.Namespace) labels.Set {
	if _, ok := ns.Labels[metadataNameLabel]; ok || ns.Name == "" {
		return labels.Set(ns.Labels)
	}
	l := make(labels.Set, len(ns.Labels)+1)
	for k, v := range ns.Labels {
		l[k] = v
	}
	l[metadataNameLabel] = ns.Name
	return l
}

// entryOf returns the entry of the i-th route given to NewIndex, nil when
// the index does not know it by position.
func (ix *Index) entryOf(i int) *routeEntry {
	switch {
	case i < 0:
		return nil
	case i < len(ix.entries):
		return &ix.entries[i]
	case i < len(ix.entryAt):
		return ix.entryAt[i]
	}
	return nil
}

// DuplicateRoutes reports whether two of the HTTPRoutes given to NewIndex
// share a namespace and name. When they do not, no subset of them has
// duplicates either: a caller that settles duplicates among some of the
// routes (package discovery, among the exported ones) can skip looking.
func (ix *Index) DuplicateRoutes() bool {
	return ix != nil && ix.duplicateRoutes
}

// Gateway returns the indexed Gateway namespace/name, or nil.
func (ix *Index) Gateway(namespace, name string) *gwv1.Gateway {
	if g := ix.gateway(namespace, name); g != nil {
		return g.gw
	}
	return nil
}

func (ix *Index) gateway(namespace, name string) *gatewayEntry {
	if ix == nil {
		return nil
	}
	return ix.gateways[nsName{namespace, name}]
}

// namespaceLabels returns the labels of the named Namespace and whether the
// index holds it.
func (ix *Index) namespaceLabels(name string) (labels.Set, bool) {
	if ix == nil {
		return nil, false
	}
	l, ok := ix.namespaces[name]
	return l, ok
}

func newGatewayEntry(gw *gwv1.Gateway, sb *stringBlock) *gatewayEntry {
	g := &gatewayEntry{
		gw:        gw,
		namespace: sb.copy(gw.Namespace),
		name:      sb.copy(gw.Name),
		listeners: make([]listenerEntry, 0, len(gw.Spec.Listeners)),
	}
	for _, l := range gw.Spec.Listeners {
		e := newListenerEntry(l)
		e.name, e.hostname = sb.copy(e.name), sb.copy(e.hostname)
		g.listeners = append(g.listeners, e)
	}
	// Listeners are kept sorted by name so that messages listing them do not
	// depend on the order the Gateway's author wrote them in.
	slices.SortStableFunc(g.listeners, func(a, b listenerEntry) int {
		return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.port, b.port), cmp.Compare(a.protocol, b.protocol), cmp.Compare(a.hostname, b.hostname))
	})
	g.notReady = gatewayNotReady(gw)
	statuses := listenerStatuses(gw)
	for i := range g.listeners {
		// What the spec says (newListenerEntry), then what the status says.
		g.listeners[i].notReady = joinReasons(g.listeners[i].notReady, listenerNotReady(statuses, g.listeners[i].name))
		g.listeners[i].notConflicted = conflictedFalse(statuses, g.listeners[i].name)
	}
	markSharedPorts(g.listeners)
	g.byHostname = make(map[portProtocol]map[string]*listenerEntry, 2)
	for i := range g.listeners {
		l := &g.listeners[i]
		k := portProtocol{l.port, l.protocol}
		m := g.byHostname[k]
		if m == nil {
			m = make(map[string]*listenerEntry, 2)
			g.byHostname[k] = m
		}
		// Two listeners of one port, protocol and hostname conflict: the
		// API server refuses such a Gateway (hand-written manifests can hold
		// one), and implementations serve neither (Conflicted). Both carry
		// no requests; the first by name stands for both, so that a host
		// they receive is not given to a less specific listener.
		first, ok := m[l.hostname]
		if !ok {
			m[l.hostname] = l
			l.receives = true
			continue
		}
		l.notReady = conflictReason(first.name, l.notReady)
		if !first.conflicted {
			first.notReady = conflictReason(l.name, first.notReady)
		}
		l.conflicted, first.conflicted = true, true
	}
	g.single = make(map[portProtocol]*listenerEntry, len(g.byHostname))
	for i := range g.listeners {
		l := &g.listeners[i]
		if k := (portProtocol{l.port, l.protocol}); l.receives && len(g.byHostname[k]) == 1 {
			g.single[k] = l
		}
	}
	for i := range g.listeners {
		l := &g.listeners[i]
		k := portProtocol{l.port, l.protocol}
		l.alone, l.peers, l.gw = g.single[k], g.byHostname[k], g
	}
	g.addrs = newGatewayAddresses(gw.Status.Addresses)
	for i, h := range g.addrs.hostnames {
		g.addrs.hostnames[i] = sb.copy(h)
	}
	for i, h := range g.addrs.ips {
		g.addrs.ips[i] = sb.copy(h)
	}
	return g
}

// stringBlock copies strings into one block of memory: the strings of the
// Gateways that every route attachment reads, which would otherwise lie
// scattered over the snapshot, a cache miss each when there are many
// Gateways and many routes. The copies are equal to the originals.
type stringBlock struct{ b strings.Builder }

// grow makes room for the strings newGatewayEntry copies.
func (sb *stringBlock) grow(gateways []*gwv1.Gateway) {
	n := 0
	for _, gw := range gateways {
		if gw == nil {
			continue
		}
		n += len(gw.Namespace) + len(gw.Name)
		for _, l := range gw.Spec.Listeners {
			n += len(l.Name)
			if l.Hostname != nil {
				n += len(*l.Hostname)
			}
		}
		for _, a := range gw.Status.Addresses {
			n += len(a.Value) + 2 // IPv6 brackets
		}
	}
	sb.b.Grow(n)
}

// copy returns a copy of s in the block.
func (sb *stringBlock) copy(s string) string {
	if s == "" {
		return ""
	}
	start := sb.b.Len()
	sb.b.WriteString(s)
	return sb.b.String()[start:]
}

// markSharedPorts marks the HTTP and HTTPS listeners that share a port
// with a listener of a conflicting protocol as carrying no requests:
//
//   - a TCP listener: the Gateway API has an implementation that supports
//     TCP listeners accept none of them (they are not distinct), and one
//     that does not ignores the TCP listener, so whether they carry
//     anything depends on the implementation;
//   - for an HTTP listener, an HTTPS or TLS one, and for an HTTPS listener,
//     an HTTP one: plain and TLS traffic on one port conflict, and
//     implementations mark such listeners Conflicted (ProtocolConflict).
//
// Whether such listeners conflict is up to the implementation: a listener
// whose status says Conflicted=False is taken at the controller's word and
// left alone.
//
// ls is sorted by name; the first conflicting listener of the port is the
// one named. One pass over ls, and one more only when a port is shared so.
func markSharedPorts(ls []listenerEntry) {
	type first struct {
		name     string
		protocol gwv1.ProtocolType
	}
	var tcp, plain, secure map[int32]first
	note := func(m *map[int32]first, l *listenerEntry) {
		if *m == nil {
			*m = make(map[int32]first, 1)
		}
		if _, ok := (*m)[l.port]; !ok {
			(*m)[l.port] = first{l.name, l.protocol}
		}
	}
	for i := range ls {
		switch l := &ls[i]; l.protocol {
		case gwv1.TCPProtocolType:
			note(&tcp, l)
		case gwv1.HTTPProtocolType:
			note(&plain, l)
		case gwv1.HTTPSProtocolType, gwv1.TLSProtocolType:
			note(&secure, l)
		}
	}
	if tcp == nil && (plain == nil || secure == nil) {
		return
	}
	for i := range ls {
		l := &ls[i]
		if l.scheme == "" || l.notConflicted {
			continue
		}
		if f, ok := tcp[l.port]; ok {
			l.notReady = tcpPortReason(f.name, l.notReady)
			l.conflicted = true
			continue
		}
		other := plain
		if l.protocol == gwv1.HTTPProtocolType {
			other = secure
		}
		if f, ok := other[l.port]; ok {
			l.notReady = protocolPortReason(f.name, f.protocol, l.notReady)
			l.conflicted = true
		}
	}
}

func newListenerEntry(l gwv1.Listener) listenerEntry {
	e := listenerEntry{name: string(l.Name), port: l.Port, protocol: l.Protocol}
	if l.Hostname != nil {
		e.hostname = lower(string(*l.Hostname))
	}
	switch l.Protocol {
	case gwv1.HTTPProtocolType:
		e.scheme = "http"
	case gwv1.HTTPSProtocolType:
		e.scheme = "https"
		if l.TLS != nil {
			if l.TLS.Mode != nil && *l.TLS.Mode == gwv1.TLSModePassthrough {
				e.notReady = passthroughReason
			} else if len(l.TLS.CertificateRefs) == 0 && len(l.TLS.Options) == 0 {
				// Mode Terminate, written or defaulted (ListenerTLSConfig.Mode:
				// +kubebuilder:default=Terminate).
				e.notReady = noCertificateReason
			}
		}
	}
	ar := DefaultAllowedRoutes(l)
	e.from = *ar.Namespaces.From
	if e.from == gwv1.NamespacesFromSelector {
		if ar.Namespaces.Selector == nil {
			// RouteNamespaces.Selector "must be specified when From is set to
			// Selector"; without one nothing is selected.
			e.selectorErr = "allowedRoutes.namespaces.selector is not set"
		} else if sel, err := metav1.LabelSelectorAsSelector(ar.Namespaces.Selector); err != nil {
			e.selectorErr = "allowedRoutes.namespaces.selector does not parse: " + err.Error()
		} else {
			// Matched for every route namespace: values are looked up in a
			// set, whatever their number.
			e.selector = labelsel.Fast(sel)
		}
	}
	var kinds []string
	for _, k := range ar.Kinds {
		if string(*k.Group) == GatewayGroup && k.Kind == KindHTTPRoute {
			e.allowsHTTPRoute = true
		}
		g := string(*k.Group)
		if g == "" {
			g = "core"
		}
		kinds = append(kinds, g+"/"+string(k.Kind))
	}
	e.kinds = strings.Join(kinds, ", ")
	return e
}

func newGatewayAddresses(addrs []gwv1.GatewayStatusAddress) gatewayAddresses {
	a := gatewayAddresses{count: len(addrs)}
	all := make([]string, 0, len(addrs))
	for _, ad := range addrs {
		typ := gwv1.IPAddressType // GatewayStatusAddress.Type: +kubebuilder:default=IPAddress
		if ad.Type != nil && *ad.Type != "" {
			typ = *ad.Type
		}
		all = append(all, string(typ)+" "+ad.Value)
		switch typ {
		case gwv1.HostnameAddressType:
			// A wildcard Hostname address passes the CRD's pattern but names
			// no host a client can connect to.
			if h := lower(ad.Value); ValidHostname(h) {
				a.hostnames = append(a.hostnames, h)
			}
		case gwv1.IPAddressType:
			ip, err := netip.ParseAddr(ad.Value)
			if err != nil || ip.Zone() != "" {
				continue
			}
			if ip.Is4() {
				a.ips = append(a.ips, ip.String())
			} else {
				a.ips = append(a.ips, "["+ip.String()+"]")
			}
		}
	}
	a.all = strings.Join(all, ", ")
	return a
}
