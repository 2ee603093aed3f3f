package urlbuild

import (
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
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

// The defaults are applied here rather than trusted to the API server so that
// hand-written manifests and `kubectl get -o yaml` output of objects stored
// before a default existed give the same result as defaulted objects.

// DefaultParentRef returns ref with the CRD defaults applied, in new pointers:
// group "gateway.networking.k8s.io" (ParentReference.Group) and kind "Gateway"
// (ParentReference.Kind) when unset, and the route's namespace when the
// namespace is unset or empty (ParentReference.Namespace: "When unspecified,
// this refers to the local namespace of the Route"). An empty sectionName
// becomes nil ("When unspecified (empty string), this will reference the
// entire resource") and so does port 0, which the CRD's distinctness rules
// treat as unset. A group set to "" stays "": that is the core group.
func DefaultParentRef(ref gwv1.ParentReference, routeNamespace string) gwv1.ParentReference {
	k := parentKeyOf(ref, routeNamespace)
	// One allocation holds every value the pointers point to.
	v := &struct {
		group     gwv1.Group
		kind      gwv1.Kind
		namespace gwv1.Namespace
		section   gwv1.SectionName
		port      gwv1.PortNumber
	}{gwv1.Group(k.group), gwv1.Kind(k.kind), gwv1.Namespace(k.namespace), gwv1.SectionName(k.section), k.port}
	out := gwv1.ParentReference{Group: &v.group, Kind: &v.kind, Namespace: &v.namespace, Name: gwv1.ObjectName(k.name)}
	if k.section != "" {
		out.SectionName = &v.section
	}
	if k.port != 0 {
		out.Port = &v.port
	}
	return out
}

// SameParentRef reports whether a and b name the same parent section once
// defaulted relative to the route's namespace (see [DefaultParentRef]): group,
// kind, namespace, name, sectionName and port all equal. This is how a
// status.parents entry is tied to a spec.parentRefs entry
// (RouteParentStatus.ParentRef: "corresponds with a ParentRef in the spec").
func SameParentRef(a, b gwv1.ParentReference, routeNamespace string) bool {
	return parentKeyOf(a, routeNamespace) == parentKeyOf(b, routeNamespace)
}

// ParentGateway returns the namespace/name of the Gateway a parentRef names,
// with the defaults of [DefaultParentRef]; false when it names something
// other than a Gateway (a Service, a ListenerSet). Watch mapping uses it to
// find the routes a changed Gateway concerns.
func ParentGateway(ref gwv1.ParentReference, routeNamespace string) (types.NamespacedName, bool) {
	k := parentKeyOf(ref, routeNamespace)
	if k.group != GatewayGroup || k.kind != KindGateway {
		return types.NamespacedName{}, false
	}
	return types.NamespacedName{Namespace: k.namespace, Name: k.name}, true
}

// parentKey is a defaulted ParentReference as a comparable value, so that
// matching status entries allocates nothing.
type parentKey struct {
	group, kind, namespace, name, section string
	port                                  int32
}

func parentKeyOf(ref gwv1.ParentReference, routeNamespace string) parentKey {
	k := parentKey{group: GatewayGroup, kind: KindGateway, namespace: routeNamespace, name: string(ref.Name)}
	if ref.Group != nil {
		k.group = string(*ref.Group)
	}
	if ref.Kind != nil {
		k.kind = string(*ref.Kind)
	}
	if ref.Namespace != nil && *ref.Namespace != "" {
		k.namespace = string(*ref.Namespace)
	}
	if ref.SectionName != nil {
		k.section = string(*ref.SectionName)
	}
	if ref.Port != nil {
		k.port = *ref.Port
	}
	return k
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
	from := gwv1.NamespacesFromSame
	var out gwv1.AllowedRoutes
	out.Namespaces = &gwv1.RouteNamespaces{}
	if ar := l.AllowedRoutes; ar != nil {
		if ar.Namespaces != nil {
			if ar.Namespaces.From != nil {
				from = *ar.Namespaces.From
			}
			out.Namespaces.Selector = ar.Namespaces.Selector
		}
		for _, k := range ar.Kinds {
			g := gwv1.Group(GatewayGroup)
			if k.Group != nil {
				g = *k.Group
			}
			out.Kinds = append(out.Kinds, gwv1.RouteGroupKind{Group: ptr(g), Kind: k.Kind})
		}
	}
	out.Namespaces.From = &from
	if len(out.Kinds) == 0 {
		out.Kinds = DefaultRouteKinds(l.Protocol)
	}
	return out
}

// DefaultRouteKinds returns the route kinds the Gateway API pairs with a
// listener protocol when allowedRoutes.kinds is empty: HTTPRoute and
// GRPCRoute for HTTP and HTTPS, TLSRoute for TLS, TCPRoute for TCP, UDPRoute
// for UDP, none for other protocols (implementation-specific).
func DefaultRouteKinds(p gwv1.ProtocolType) []gwv1.RouteGroupKind {
	var kinds []string
	switch p {
	case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
		kinds = []string{KindHTTPRoute, "GRPCRoute"}
	case gwv1.TLSProtocolType:
		kinds = []string{"TLSRoute"}
	case gwv1.TCPProtocolType:
		kinds = []string{"TCPRoute"}
	case gwv1.UDPProtocolType:
		kinds = []string{"UDPRoute"}
	}
	out := make([]gwv1.RouteGroupKind, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, gwv1.RouteGroupKind{Group: ptr(gwv1.Group(GatewayGroup)), Kind: gwv1.Kind(k)})
	}
	return out
}

// DefaultRules returns the route's rules, or the CRD default when there are
// none: one rule matching PathPrefix "/" (HTTPRouteSpec.Rules). The default
// rule is returned without matches, which [DefaultMatches] turns into that
// PathPrefix "/", so that no field path names a match the object lacks. The
// slice is the route's own when it has rules.
func DefaultRules(route *gwv1.HTTPRoute) []gwv1.HTTPRouteRule {
	if route == nil {
		return nil
	}
	if len(route.Spec.Rules) > 0 {
		return route.Spec.Rules
	}
	return []gwv1.HTTPRouteRule{{}}
}

// DefaultMatches returns the rule's matches, or the default when there are
// none: one PathPrefix "/" match, "which has the effect of matching every
// HTTP request" (HTTPRouteRule.Matches).
func DefaultMatches(rule gwv1.HTTPRouteRule) []gwv1.HTTPRouteMatch {
	if len(rule.Matches) > 0 {
		return rule.Matches
	}
	return []gwv1.HTTPRouteMatch{{Path: &gwv1.HTTPPathMatch{
		Type:  ptr(gwv1.PathMatchPathPrefix),
		Value: ptr("/"),
	}}}
}

// DefaultPathMatch returns the type and value of a match's path with the
// defaults applied: no path is PathPrefix "/" (HTTPRouteMatch.Path), an unset
// type is PathPrefix (HTTPPathMatch.Type), an unset value "/"
// (HTTPPathMatch.Value).
func DefaultPathMatch(m gwv1.HTTPRouteMatch) (gwv1.PathMatchType, string) {
	typ, value := gwv1.PathMatchPathPrefix, "/"
	if m.Path != nil {
		if m.Path.Type != nil {
			typ = *m.Path.Type
		}
		if m.Path.Value != nil {
			value = *m.Path.Value
		}
	}
	return typ, value
}

// DefaultBackendRef returns ref with the CRD defaults applied, in new
// pointers: group "" — the core group — (BackendObjectReference.Group), kind
// Service (BackendObjectReference.Kind), the route's namespace when the
// namespace is unset or empty (BackendObjectReference.Namespace), weight 1
// (BackendRef.Weight). The port is kept as given.
func DefaultBackendRef(ref gwv1.BackendRef, routeNamespace string) gwv1.BackendRef {
	out := gwv1.BackendRef{
		BackendObjectReference: gwv1.BackendObjectReference{
			Group:     ptr(gwv1.Group("")),
			Kind:      ptr(gwv1.Kind(KindService)),
			Name:      ref.Name,
			Namespace: ptr(gwv1.Namespace(routeNamespace)),
		},
		Weight: ptr(int32(1)),
	}
	if ref.Group != nil {
		*out.Group = *ref.Group
	}
	if ref.Kind != nil {
		*out.Kind = *ref.Kind
	}
	if ref.Namespace != nil && *ref.Namespace != "" {
		*out.Namespace = *ref.Namespace
	}
	if ref.Port != nil {
		out.Port = ptr(*ref.Port)
	}
	if ref.Weight != nil {
		*out.Weight = *ref.Weight
	}
	return out
}

func ptr[T any](v T) *T { return &v }
