package discovery

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/dedupe"
	"github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// objectKey is the namespace and name of a namespaced object.
type objectKey struct{ namespace, name string }

// serviceIndex holds the Services of a snapshot by namespace and name, one
// copy of each (see internal/dedupe), with the MCP resource each belongs to. It reads
// each Service once: at scale, every pass over a hundred thousand Services
// is a cache miss or more per Service, so what Method 2 needs of them (their
// keys, their owners) is worked out in that one pass and kept compact.
type serviceIndex struct {
	list []*corev1.Service
	// keys[i] is the namespace and name of list[i], copied into a few
	// blocks of memory so that checking a look-up reads them, not the
	// Service; shadowed[i] is set when another Service of that namespace and
	// name is used instead (see internal/dedupe).
	keys     []objectKey
	shadowed []bool
	// owned[i] reports whether list[i] has an MCP resource as its controller
	// (controllerOwner), and owners[i] is that resource when the resource
	// index holds it (with a matching UID), else nil.
	owned  []bool
	owners []*resource
	// next is the position after the last Service get found; table finds
	// Services by key when that is not the one, built on first need.
	next  int
	table *keyTable
}

// indexServices indexes the Services of a snapshot and finds their MCP
// resources in rix, as Method 2 would for a backendRef to each (controller
// ownerReference, then resourceIndex.lookup in the Service's namespace).
func indexServices(list []*corev1.Service, rix *resourceIndex) *serviceIndex {
	ix := &serviceIndex{
		list:     make([]*corev1.Service, 0, len(list)),
		keys:     make([]objectKey, 0, len(list)),
		shadowed: make([]bool, 0, len(list)),
		owned:    make([]bool, 0, len(list)),
		owners:   make([]*resource, 0, len(list)),
	}
	kh := dedupe.NewHasher()
	hashes := make([]uint64, 0, len(list))
	var names stringArena
	for _, s := range list {
		if s == nil {
			continue
		}
		ix.list = append(ix.list, s)
		ix.keys = append(ix.keys, objectKey{names.copy(s.Namespace), names.copy(s.Name)})
		hashes = append(hashes, kh.Hash(s.Namespace, s.Name))
		o, ok := mcpController(s)
		var owner *resource
		if ok {
			owner = rix.lookup(o.kind, s.Namespace, o.name, o.uid)
		}
		ix.owned = append(ix.owned, ok)
		ix.owners = append(ix.owners, owner)
	}
	ix.shadowed = ix.shadowed[:len(ix.list)]
	groups := dedupe.Groups(len(ix.list), func(i int) uint64 { return hashes[i] }, func(i, j int) bool { return ix.keys[i] == ix.keys[j] })
	for _, g := range groups {
		// The copy used is the one a pass in snapshot order keeps: the
		// first, unless a later one is newer than the one kept so far.
		keep := g[0]
		for _, i := range g[1:] {
			if dedupe.Newer(ix.list[i], &ix.list[i].ObjectMeta, ix.list[keep], &ix.list[keep].ObjectMeta) {
				keep = i
			}
		}
		for _, i := range g {
			ix.shadowed[i] = i != keep
		}
	}
	return ix
}

// get returns the Service namespace/name and its position in ix.list, or
// nil and -1.
//
// Look-ups tend to come in the order of the snapshot (a route per Service,
// listed in the same order), so the Service after the last one found is
// tried first: when it is the one, the look-up costs a comparison instead
// of a probe of a hash table at a random place (which is built only when a
// look-up first needs it).
func (ix *serviceIndex) get(namespace, name string) (*corev1.Service, int) {
	at := -1
	if c := ix.next; c < len(ix.keys) && ix.keys[c].name == name && ix.keys[c].namespace == namespace && !ix.shadowed[c] {
		at = c
	} else {
		if ix.table == nil {
			ix.buildTable()
		}
		at = ix.table.find(ix.table.Hash(namespace, name), func(i int) bool {
			k := &ix.keys[i]
			return k.name == name && k.namespace == namespace
		})
		if at < 0 {
			return nil, -1
		}
	}
	ix.next = at + 1
	return ix.list[at], at
}

// buildTable indexes the Services used by key.
func (ix *serviceIndex) buildTable() {
	ix.table = newKeyTable(len(ix.list))
	for i, k := range ix.keys {
		if !ix.shadowed[i] {
			ix.table.add(ix.table.Hash(k.namespace, k.name), i)
		}
	}
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
// the dedupe rule), so a stale copy cannot widen what the current one allows.
func indexGrants(list []*gwv1.ReferenceGrant) grantIndex {
	byName := make(map[objectKey]*gwv1.ReferenceGrant, len(list))
	for _, g := range list {
		if g == nil {
			continue
		}
		k := objectKey{g.Namespace, g.Name}
		if old, dup := byName[k]; dup && !dedupe.Newer(g, &g.ObjectMeta, old, &old.ObjectMeta) {
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
// are not consulted: the ownerReference is the rule. When there
// is none, why says what the Service has instead.
func controllerOwner(svc *corev1.Service) (owner mcpOwner, why string, ok bool) {
	if owner, ok := mcpController(svc); ok {
		return owner, "", true
	}
	return mcpOwner{}, whyNoOwner(svc), false
}

// mcpController is controllerOwner without the explanation: the MCP
// resource of the first ownerReference with controller: true, if it names
// one.
func mcpController(svc *corev1.Service) (mcpOwner, bool) {
	for i := range svc.OwnerReferences {
		o := &svc.OwnerReferences[i]
		if o.Controller == nil || !*o.Controller {
			continue
		}
		if apiGroup(o.APIVersion) == model.ToolHiveGroup && isMCPKind(o.Kind) {
			return mcpOwner{kind: o.Kind, name: o.Name, uid: o.UID}, true
		}
		return mcpOwner{}, false
	}
	return mcpOwner{}, false
}

// whyNoOwner says what a Service that mcpController finds no MCP resource
// for has instead.
func whyNoOwner(svc *corev1.Service) string {
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
			return "its controller ownerReference is " + o.Kind + " " + o.Name + " (apiVersion " + o.APIVersion + ")"
		}
		return ""
	}
	if mcpRef != nil {
		return "its ownerReference to " + mcpRef.Kind + " " + mcpRef.Name + " is not controller: true"
	}
	if len(svc.OwnerReferences) == 0 {
		return "it has no ownerReferences"
	}
	return "none of its ownerReferences has controller: true"
}
