package discovery

import (
	"bytes"
	"cmp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// objectKey is the namespace and name of a namespaced object.
type objectKey struct{ namespace, name string }

// newer reports whether object a (metadata am) should replace b (metadata
// bm) when a snapshot lists two objects of one kind, namespace and name
// (which a cluster cannot hold, but concatenated manifests can): the higher
// metadata.generation, then resourceVersion, then UID, and failing those the
// one whose JSON sorts last. It is a total order, so any input order keeps the
// same copy; it is the rule urlbuild.NewIndex applies to Gateways.
func newer(a any, am *metav1.ObjectMeta, b any, bm *metav1.ObjectMeta) bool {
	if c := cmp.Or(
		cmp.Compare(am.Generation, bm.Generation),
		cmp.Compare(len(am.ResourceVersion), len(bm.ResourceVersion)),
		cmp.Compare(am.ResourceVersion, bm.ResourceVersion),
		cmp.Compare(am.UID, bm.UID),
	); c != 0 {
		return c > 0
	}
	return bytes.Compare(encode(a), encode(b)) > 0
}

// indexServices holds the Services of a snapshot by namespace and name, one
// copy of each (see newer).
func indexServices(list []*corev1.Service) map[objectKey]*corev1.Service {
	m := make(map[objectKey]*corev1.Service, len(list))
	for _, s := range list {
		if s == nil {
			continue
		}
		k := objectKey{s.Namespace, s.Name}
		if old, dup := m[k]; dup && !newer(s, &s.ObjectMeta, old, &old.ObjectMeta) {
			continue
		}
		m[k] = s
	}
	return m
}

// grantKey is a pair of namespaces a ReferenceGrant can open: references
// from HTTPRoutes in from to Services in to (the grant's own namespace).
type grantKey struct{ to, from string }

// grantScope is which Services of the target namespace the grants of a
// grantKey open: all of them, or those named.
type grantScope struct {
	all   bool
	names map[string]bool
}

// grantIndex is what the ReferenceGrants of a snapshot allow an HTTPRoute to
// reference across namespaces, worked out once per Discover call.
type grantIndex map[grantKey]*grantScope

// indexGrants reads ReferenceGrants (v1 and v1beta1 alike: the snapshot holds
// both as the v1 type). A grant opens, in its own namespace, the Services
// its spec.to names (group "" — the core group — and kind Service; a name, or
// every Service when the name is unset or empty) to the HTTPRoutes of each
// namespace its spec.from names (group gateway.networking.k8s.io, kind
// HTTPRoute). Entries of other groups or kinds open nothing to an HTTPRoute
// backendRef. Two grants of one namespace and name: one copy is used (see
// newer), so a stale copy cannot widen what the current one allows.
func indexGrants(list []*gwv1.ReferenceGrant) grantIndex {
	byName := make(map[objectKey]*gwv1.ReferenceGrant, len(list))
	for _, g := range list {
		if g == nil {
			continue
		}
		k := objectKey{g.Namespace, g.Name}
		if old, dup := byName[k]; dup && !newer(g, &g.ObjectMeta, old, &old.ObjectMeta) {
			continue
		}
		byName[k] = g
	}
	ix := grantIndex{}
	for _, g := range byName {
		for _, from := range g.Spec.From {
			if string(from.Group) != urlbuild.GatewayGroup || string(from.Kind) != urlbuild.KindHTTPRoute {
				continue
			}
			for _, to := range g.Spec.To {
				if to.Group != "" || string(to.Kind) != urlbuild.KindService {
					continue
				}
				k := grantKey{to: g.Namespace, from: string(from.Namespace)}
				s := ix[k]
				if s == nil {
					s = &grantScope{}
					ix[k] = s
				}
				switch {
				case to.Name == nil || *to.Name == "":
					s.all = true
				default:
					if s.names == nil {
						s.names = map[string]bool{}
					}
					s.names[string(*to.Name)] = true
				}
			}
		}
	}
	return ix
}

// permits reports whether an HTTPRoute in routeNS may reference the Service
// serviceNS/name: always within one namespace, else only when a
// ReferenceGrant in serviceNS allows it (BackendObjectReference.Namespace:
// "Note that when a namespace different than the local namespace is
// specified, a ReferenceGrant object is required in the referent namespace
// to allow that namespace's owner to accept the reference").
func (g grantIndex) permits(routeNS, serviceNS, name string) bool {
	if routeNS == serviceNS {
		return true
	}
	s := g[grantKey{to: serviceNS, from: routeNS}]
	return s != nil && (s.all || s.names[name])
}

// mcpOwner is the MCP resource a Service's controller ownerReference names.
type mcpOwner struct {
	kind, name string
	uid        types.UID
}

// isMCPKind reports whether kind is one of the exported MCP resource kinds.
func isMCPKind(kind string) bool {
	return kind == model.KindMCPServer || kind == model.KindMCPRemoteProxy || kind == model.KindVirtualMCPServer
}

// apiGroup is the group of an apiVersion ("toolhive.stacklok.dev/v1alpha1"
// → "toolhive.stacklok.dev"; "v1" → "", the core group).
func apiGroup(apiVersion string) string {
	g, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// controllerOwner returns the MCP resource a Service belongs to: its
// ownerReference with controller: true, which must name an MCPServer,
// MCPRemoteProxy or VirtualMCPServer of group toolhive.stacklok.dev (any
// version). ToolHive's names for the Services (mcp-<name>-proxy and so on)
// are not consulted: the ownerReference is the rule (SPEC §3.2). When there
// is none, why says what the Service has instead.
func controllerOwner(svc *corev1.Service) (owner mcpOwner, why string, ok bool) {
	var mcpRef *metav1.OwnerReference
	for i := range svc.OwnerReferences {
		o := &svc.OwnerReferences[i]
		isMCP := apiGroup(o.APIVersion) == model.ToolHiveGroup && isMCPKind(o.Kind)
		if o.Controller == nil || !*o.Controller {
			if isMCP && mcpRef == nil {
				mcpRef = o
			}
			continue
		}
		if !isMCP {
			return mcpOwner{}, "its controller ownerReference is " + o.Kind + " " + o.Name + " (apiVersion " + o.APIVersion + ")", false
		}
		return mcpOwner{kind: o.Kind, name: o.Name, uid: o.UID}, "", true
	}
	if mcpRef != nil {
		return mcpOwner{}, "its ownerReference to " + mcpRef.Kind + " " + mcpRef.Name + " is not controller: true", false
	}
	if len(svc.OwnerReferences) == 0 {
		return mcpOwner{}, "it has no ownerReferences", false
	}
	return mcpOwner{}, "none of its ownerReferences has controller: true", false
}
