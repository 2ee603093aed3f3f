package discovery

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// The generators of Gateway API objects for the properties. Names come from
// small pools so that references often resolve (and sometimes do not).
// Every rule's path is unique to its route and rule ("/<ns>/<route>/<i>"),
// so two rules never build the same URL and no entry's remote URL can
// collide with another's through routes: the namespace-locality property
// stays exact (a route URL given to a resource of another namespace cannot
// knock out a URL of the first namespace's resources).

var (
	propServiceNames = []string{"svc-0", "svc-1", "svc-2", "svc-3"}
	propGatewayNames = []string{"gw-0", "gw-1"}
	propRouteNames   = []string{"r-0", "r-1", "r-2"}
	propGatewayNS    = append([]string{"infra"}, propNamespaces...)
)

func ptrTo[T any](v T) *T { return &v }

// likely draws true three times out of four (rapid favours small indexes,
// so rather more often).
func likely(t *rapid.T, label string) bool {
	return rapid.SampledFrom([]bool{true, true, true, false}).Draw(t, label)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// drawPtr draws nil or one of the values.
func drawPtr[T any](t *rapid.T, label string, values ...T) *T {
	i := rapid.IntRange(-1, len(values)-1).Draw(t, label)
	if i < 0 {
		return nil
	}
	return ptrTo(values[i])
}

func genNamespace(t *rapid.T) *corev1.Namespace {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: rapid.SampledFrom(propNamespaces).Draw(t, "nsName")}}
	if v := rapid.SampledFrom([]string{"", "true", "false"}).Draw(t, "expose"); v != "" {
		ns.Labels = map[string]string{"expose": v}
	}
	return ns
}

func genListener(t *rapid.T) gwv1.Listener {
	l := gwv1.Listener{
		Name:     gwv1.SectionName(rapid.SampledFrom([]string{"https", "http", "alt"}).Draw(t, "listenerName")),
		Protocol: rapid.SampledFrom([]gwv1.ProtocolType{gwv1.HTTPSProtocolType, gwv1.HTTPSProtocolType, gwv1.HTTPProtocolType, gwv1.TCPProtocolType}).Draw(t, "protocol"),
		Port:     rapid.SampledFrom([]gwv1.PortNumber{443, 80, 8443}).Draw(t, "port"),
		Hostname: drawPtr(t, "listenerHostname", gwv1.Hostname("*.example.com"), "mcp.example.com", "*.com", "other.org"),
	}
	if l.Protocol == gwv1.TCPProtocolType {
		// The API server refuses a TCP listener with a hostname. One on a
		// port of the HTTP listeners takes them out (they carry nothing);
		// most TCP listeners have a port of their own.
		l.Hostname = nil
		l.Port = rapid.SampledFrom([]gwv1.PortNumber{5432, 5432, 443}).Draw(t, "tcpPort")
	}
	switch rapid.IntRange(0, 4).Draw(t, "allowedRoutes") {
	case 0: // unset: Same
	case 1:
		l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}
	case 2:
		l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromSame)}}
	case 3:
		l.AllowedRoutes = &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{
			From:     ptrTo(gwv1.NamespacesFromSelector),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"expose": "true"}},
		}}
	case 4:
		l.AllowedRoutes = &gwv1.AllowedRoutes{
			Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)},
			Kinds:      []gwv1.RouteGroupKind{{Kind: "GRPCRoute"}},
		}
	}
	return l
}

func genGateway(t *rapid.T) *gwv1.Gateway {
	g := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{
		Namespace: rapid.SampledFrom(propGatewayNS).Draw(t, "gwNamespace"),
		Name:      rapid.SampledFrom(propGatewayNames).Draw(t, "gwName"),
	}}
	if likely(t, "openListener") {
		// One listener most routes can attach to.
		g.Spec.Listeners = append(g.Spec.Listeners, gwv1.Listener{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
			AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}})
	}
	for range rapid.IntRange(0, 2).Draw(t, "listeners") {
		g.Spec.Listeners = append(g.Spec.Listeners, genListener(t))
	}
	for range rapid.IntRange(0, 2).Draw(t, "addresses") {
		// An address is what a route without hostnames needs.
		g.Status.Addresses = append(g.Status.Addresses, rapid.SampledFrom([]gwv1.GatewayStatusAddress{
			{Type: ptrTo(gwv1.HostnameAddressType), Value: "gw.example.com"},
			{Type: ptrTo(gwv1.HostnameAddressType), Value: "lb.example.com"},
			{Type: ptrTo(gwv1.IPAddressType), Value: "192.0.2.1"},
			{Value: "2001:db8::1"},
		}).Draw(t, "address"))
	}
	return g
}

// mcpMetas lists the MCP resources of a snapshot as (kind, metadata).
func mcpMetas(snap *Snapshot) (kinds []string, metas []*metav1.ObjectMeta) {
	for _, s := range snap.MCPServers {
		kinds, metas = append(kinds, model.KindMCPServer), append(metas, &s.ObjectMeta)
	}
	for _, p := range snap.MCPRemoteProxies {
		kinds, metas = append(kinds, model.KindMCPRemoteProxy), append(metas, &p.ObjectMeta)
	}
	for _, v := range snap.VirtualMCPServers {
		kinds, metas = append(kinds, model.KindVirtualMCPServer), append(metas, &v.ObjectMeta)
	}
	return kinds, metas
}

// genService draws a Service, mostly controlled by an MCP resource of snap
// (in its namespace, with its UID), else by something of the pools genMeta
// uses, or by nothing.
func genService(t *rapid.T, snap *Snapshot) *corev1.Service {
	s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{
		Namespace: rapid.SampledFrom(propNamespaces).Draw(t, "svcNamespace"),
		Name:      rapid.SampledFrom(propServiceNames).Draw(t, "svcName"),
	}}
	kinds, metas := mcpMetas(snap)
	if len(metas) > 0 && likely(t, "ownedByExisting") {
		i := rapid.IntRange(0, len(metas)-1).Draw(t, "owner")
		s.Namespace = metas[i].Namespace
		s.OwnerReferences = []metav1.OwnerReference{{
			APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: kinds[i], Name: metas[i].Name, UID: metas[i].UID,
			Controller: rapid.SampledFrom([]*bool{ptrTo(true), ptrTo(true), ptrTo(true), ptrTo(false), nil}).Draw(t, "controller"),
		}}
		return s
	}
	kind := rapid.SampledFrom([]string{model.KindMCPServer, model.KindMCPServer, model.KindMCPRemoteProxy, model.KindVirtualMCPServer, "Deployment", ""}).Draw(t, "ownerKind")
	if kind == "" {
		return s
	}
	apiVersion := rapid.SampledFrom([]string{"toolhive.stacklok.dev/v1alpha1", "toolhive.stacklok.dev/v1beta1", "example.com/v1"}).Draw(t, "ownerAPIVersion")
	if kind == "Deployment" {
		apiVersion = "apps/v1"
	}
	s.OwnerReferences = []metav1.OwnerReference{{
		APIVersion: apiVersion,
		Kind:       kind,
		Name:       rapid.SampledFrom([]string{"x", "y", "web", "web-2"}).Draw(t, "ownerName"),
		UID:        typesUID(rapid.SampledFrom([]string{"", "u1", "u2"}).Draw(t, "ownerUID")),
		Controller: rapid.SampledFrom([]*bool{ptrTo(true), ptrTo(false), nil}).Draw(t, "controller"),
	}}
	return s
}

// genGrant draws a ReferenceGrant from HTTPRoutes (mostly) of one namespace
// to Services of another.
func genGrant(t *rapid.T) *gwv1.ReferenceGrant {
	g := &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{
		Namespace: rapid.SampledFrom(propNamespaces).Draw(t, "grantNamespace"),
		Name:      rapid.SampledFrom([]string{"g-0", "g-1"}).Draw(t, "grantName"),
	}}
	g.Spec.From = []gwv1.ReferenceGrantFrom{{
		Group:     gwv1.GroupName,
		Kind:      gwv1.Kind(rapid.SampledFrom([]string{"HTTPRoute", "HTTPRoute", "GRPCRoute"}).Draw(t, "fromKind")),
		Namespace: gwv1.Namespace(rapid.SampledFrom(propNamespaces).Draw(t, "fromNamespace")),
	}}
	to := gwv1.ReferenceGrantTo{Kind: "Service"}
	if n := rapid.SampledFrom(append([]string{""}, propServiceNames...)).Draw(t, "toName"); n != "" {
		to.Name = ptrTo(gwv1.ObjectName(n))
	}
	g.Spec.To = []gwv1.ReferenceGrantTo{to}
	return g
}

// genRoute draws an HTTPRoute, mostly exported, with its status; its
// parentRefs and backendRefs mostly name Gateways and Services of snap.
func genRoute(t *rapid.T, snap *Snapshot) *gwv1.HTTPRoute {
	ns := rapid.SampledFrom(propNamespaces).Draw(t, "routeNamespace")
	name := rapid.SampledFrom(propRouteNames).Draw(t, "routeName")
	r := &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Generation: 1}}
	if v := rapid.SampledFrom([]string{"true", "true", "true", "True", "false", "\x00absent"}).Draw(t, "routeExport"); v != "\x00absent" {
		r.Annotations = map[string]string{AnnotationExport: v}
	}
	for range rapid.IntRange(0, 2).Draw(t, "parentRefs") + boolInt(likely(t, "hasParent")) {
		p := gwv1.ParentReference{
			Name:        gwv1.ObjectName(rapid.SampledFrom(propGatewayNames).Draw(t, "parentName")),
			Namespace:   drawPtr(t, "parentNamespace", append([]gwv1.Namespace{"infra"}, "a", "b")...),
			SectionName: drawPtr(t, "sectionName", gwv1.SectionName("https"), "http"),
		}
		if len(snap.Gateways) > 0 && likely(t, "parentExists") {
			g := rapid.SampledFrom(snap.Gateways).Draw(t, "parent")
			p.Name, p.Namespace = gwv1.ObjectName(g.Name), ptrTo(gwv1.Namespace(g.Namespace))
			if likely(t, "anySection") {
				p.SectionName = nil
			}
		}
		r.Spec.ParentRefs = append(r.Spec.ParentRefs, p)
		if likely(t, "accepted") {
			r.Status.Parents = append(r.Status.Parents, gwv1.RouteParentStatus{
				ParentRef:      p,
				ControllerName: "example.com/c",
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted",
					ObservedGeneration: rapid.Int64Range(0, 1).Draw(t, "observedGeneration")}},
			})
		}
	}
	r.Spec.Hostnames = rapid.SliceOfNDistinct(rapid.SampledFrom([]gwv1.Hostname{"mcp.example.com", "*.example.com", "other.org"}), 0, 2,
		func(h gwv1.Hostname) gwv1.Hostname { return h }).Draw(t, "hostnames")
	for i := range rapid.IntRange(0, 2).Draw(t, "rules") + boolInt(likely(t, "hasRule")) {
		path := fmt.Sprintf("/%s/%s/%d", ns, name, i)
		rule := gwv1.HTTPRouteRule{}
		switch rapid.IntRange(0, 5).Draw(t, "match") {
		case 0: // type unset: PathPrefix
			rule.Matches = []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Value: ptrTo(path)}}}
		case 1:
			rule.Matches = []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: ptrTo(gwv1.PathMatchExact), Value: ptrTo(path)}}}
		case 2:
			rule.Matches = []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: ptrTo(gwv1.PathMatchRegularExpression), Value: ptrTo(path + ".*")}}}
		default:
			rule.Matches = []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Type: ptrTo(gwv1.PathMatchPathPrefix), Value: ptrTo(path)}}}
		}
		if rapid.Bool().Draw(t, "rewrite") {
			rule.Filters = []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{
				Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptrTo("/")},
			}}}
		}
		for range rapid.IntRange(0, 2).Draw(t, "backendRefs") + boolInt(likely(t, "hasBackend")) {
			b := gwv1.HTTPBackendRef{BackendRef: gwv1.BackendRef{
				BackendObjectReference: gwv1.BackendObjectReference{
					Name:      gwv1.ObjectName(rapid.SampledFrom(propServiceNames).Draw(t, "backendName")),
					Namespace: drawPtr(t, "backendNamespace", append([]gwv1.Namespace{}, "a", "b", "c")...),
					Port:      ptrTo(gwv1.PortNumber(8080)),
				},
				Weight: drawPtr(t, "weight", int32(0), 1, 2),
			}}
			if len(snap.Services) > 0 && likely(t, "backendExists") {
				pool := snap.Services
				if local := slices.DeleteFunc(slices.Clone(snap.Services), func(s *corev1.Service) bool { return s.Namespace != ns }); len(local) > 0 && likely(t, "localBackend") {
					pool = local
				}
				svc := rapid.SampledFrom(pool).Draw(t, "backend")
				b.Name, b.Namespace = gwv1.ObjectName(svc.Name), ptrTo(gwv1.Namespace(svc.Namespace))
				if svc.Namespace == ns && likely(t, "implicitNamespace") {
					b.Namespace = nil
				}
			}
			if rapid.SampledFrom([]bool{false, false, false, false, false, false, false, false, false, true}).Draw(t, "otherKind") {
				b.Kind = ptrTo(gwv1.Kind("ServiceImport"))
				b.Group = ptrTo(gwv1.Group("multicluster.x-k8s.io"))
			}
			rule.BackendRefs = append(rule.BackendRefs, b)
		}
		r.Spec.Rules = append(r.Spec.Rules, rule)
	}
	return r
}

// genChain adds a route that works (most of the time: its parts are drawn
// by the generators above, which may still break it): a Service controlled
// by one of the MCP resources of snap, a Gateway with a listener open to all
// namespaces and an address, and an exported, accepted route in the
// resource's namespace from one to the other.
func genChain(t *rapid.T, snap *Snapshot) {
	kinds, metas := mcpMetas(snap)
	if len(metas) == 0 {
		return
	}
	i := rapid.IntRange(0, len(metas)-1).Draw(t, "chainResource")
	svc := genService(t, snap)
	svc.Namespace = metas[i].Namespace
	svc.OwnerReferences = []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: kinds[i], Name: metas[i].Name, UID: metas[i].UID, Controller: ptrTo(true)}}
	snap.Services = append(snap.Services, svc)
	// The route is in the resource's namespace, or in another one with a
	// ReferenceGrant for the Service.
	routeNS := metas[i].Namespace
	if rapid.Bool().Draw(t, "chainCrossNamespace") {
		routeNS = rapid.SampledFrom(propNamespaces).Draw(t, "chainRouteNamespace")
		g := genGrant(t)
		g.Namespace = svc.Namespace
		g.Spec.From[0].Namespace = gwv1.Namespace(routeNS)
		snap.ReferenceGrants = append(snap.ReferenceGrants, g)
	}
	gw := genGateway(t)
	open := gwv1.Listener{Name: "https", Protocol: gwv1.HTTPSProtocolType, Port: 443,
		AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromAll)}}}
	if rapid.Bool().Draw(t, "chainSelector") {
		// Admitted by the labels of the route's namespace.
		open.AllowedRoutes.Namespaces = &gwv1.RouteNamespaces{From: ptrTo(gwv1.NamespacesFromSelector),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"expose": "true"}}}
		ns := genNamespace(t)
		ns.Name = routeNS
		if likely(t, "chainNamespaceSelected") {
			ns.Labels = map[string]string{"expose": "true"}
		}
		snap.Namespaces = append(snap.Namespaces, ns)
	}
	gw.Spec.Listeners = append([]gwv1.Listener{open}, gw.Spec.Listeners...)
	if len(gw.Status.Addresses) == 0 {
		gw.Status.Addresses = []gwv1.GatewayStatusAddress{{Type: ptrTo(gwv1.HostnameAddressType), Value: "gw.example.com"}}
	}
	snap.Gateways = append(snap.Gateways, gw)
	r := genRoute(t, snap)
	r.Namespace = routeNS
	if r.Annotations == nil || likely(t, "chainExported") {
		r.Annotations = map[string]string{AnnotationExport: "true"}
	}
	p := gwv1.ParentReference{Name: gwv1.ObjectName(gw.Name), Namespace: ptrTo(gwv1.Namespace(gw.Namespace))}
	r.Spec.ParentRefs = append(r.Spec.ParentRefs, p)
	r.Status.Parents = append(r.Status.Parents, gwv1.RouteParentStatus{ParentRef: p, ControllerName: "example.com/c",
		Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", ObservedGeneration: 1}}})
	path := fmt.Sprintf("/%s/%s/%d", r.Namespace, r.Name, len(r.Spec.Rules))
	r.Spec.Rules = append(r.Spec.Rules, gwv1.HTTPRouteRule{
		Matches: []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{Value: ptrTo(path)}}},
		Filters: []gwv1.HTTPRouteFilter{{Type: gwv1.HTTPRouteFilterURLRewrite, URLRewrite: &gwv1.HTTPURLRewriteFilter{Path: &gwv1.HTTPPathModifier{Type: gwv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptrTo("/")}}}},
		BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{BackendObjectReference: gwv1.BackendObjectReference{
			Name: gwv1.ObjectName(svc.Name), Namespace: ptrTo(gwv1.Namespace(svc.Namespace)), Port: ptrTo(gwv1.PortNumber(8080))}}}},
	})
	// The paths of genRoute name the route's namespace: redo them for the
	// namespace the chain moved it to.
	for ri := range r.Spec.Rules {
		for mi := range r.Spec.Rules[ri].Matches {
			if m := r.Spec.Rules[ri].Matches[mi].Path; m != nil && m.Value != nil {
				suffix := ""
				if t := m.Type; t != nil && *t == gwv1.PathMatchRegularExpression {
					suffix = ".*"
				}
				m.Value = ptrTo(fmt.Sprintf("/%s/%s/%d%s", r.Namespace, r.Name, ri, suffix))
			}
		}
	}
	snap.HTTPRoutes = append(snap.HTTPRoutes, r)
}

// genGatewayAPI adds Namespaces, Gateways, Services, ReferenceGrants and
// HTTPRoutes to a snapshot: some working chains (genChain), and objects
// drawn more freely around them.
func genGatewayAPI(t *rapid.T, snap *Snapshot) {
	for range rapid.IntRange(0, 2).Draw(t, "chains") + boolInt(likely(t, "hasChain")) {
		genChain(t, snap)
	}
	for range rapid.IntRange(0, 3).Draw(t, "namespaces") {
		snap.Namespaces = append(snap.Namespaces, genNamespace(t))
	}
	for range rapid.IntRange(0, 3).Draw(t, "gateways") {
		snap.Gateways = append(snap.Gateways, genGateway(t))
	}
	for range rapid.IntRange(0, 8).Draw(t, "services") {
		snap.Services = append(snap.Services, genService(t, snap))
	}
	for range rapid.IntRange(0, 3).Draw(t, "grants") {
		snap.ReferenceGrants = append(snap.ReferenceGrants, genGrant(t))
	}
	for range rapid.IntRange(0, 6).Draw(t, "routes") {
		snap.HTTPRoutes = append(snap.HTTPRoutes, genRoute(t, snap))
	}
}
