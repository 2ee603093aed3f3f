package discovery

import (
	"cmp"
	"fmt"
	"maps"
	"net/netip"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// AffectedBy is the watch mapping for one object, as
// handler.EnqueueRequestsFromMapFunc calls it: AffectedByChange(snap, opts,
// nil, obj). obj is the object as created, as it now is, or as it was
// deleted; the answer is the same for all three.
func AffectedBy(snap Snapshot, opts Options, obj any) ([]model.ObjectRef, error) {
	return AffectedByChange(snap, opts, nil, obj)
}

// AffectedByChange is the watch mapping: the MCP resources whose registry
// entries may differ when one object changes from old to new, for a
// controller to map a watch event to the work it causes (what an update
// handler has). old is the object before the change (nil on creation), new
// after it (nil on deletion). Both are read by Normalize, so unstructured
// objects, v1beta1 gateway-api objects and Kinded values are accepted; an
// object Normalize cannot read is an error, never an empty answer. By kind:
//
//   - *gwv1.Gateway: the resources reached by the exported HTTPRoutes whose
//     parentRefs name it;
//   - *gwv1.HTTPRoute: the resources reached by the route, before and after,
//     and, exported or not, those reached by the exported routes that share
//     a parent Gateway with it (its rules may take their requests);
//   - *corev1.Service: its MCP owners by ownerReference, before and after;
//   - *gwv1.ReferenceGrant: the resources
//     reached by exported routes of the namespaces in its spec.from through
//     Services in its namespace, and those reached through such a Service by
//     the exported routes that share a parent Gateway with a route of those
//     namespaces naming the same Service (its rules may take their requests,
//     which arrive only if the reference is permitted);
//   - *corev1.Namespace: when its labels change, the resources reached by
//     the routes in it that attach to a Gateway with a Selector listener,
//     and by the exported routes sharing a parent Gateway with those (allowedRoutes is the one place discovery reads Namespace
//     labels; Options.Namespaces is by name);
//   - *model.MCPServer, *model.MCPRemoteProxy, *model.VirtualMCPServer,
//     *model.MCPServerEntry: the resource itself;
//   - *model.MCPGroup, *model.MCPRegistry, *corev1.ConfigMap: nothing, as
//     no entry depends on them.
//
// The resources a route reaches are, for each rule, the controllers of the
// Service its heaviest backendRef names: a rule's URLs go to that
// backendRef's resource or to none, whatever the other
// backendRefs, the ReferenceGrants and the owners' UIDs say. Entries also
// depend on each other: resources that enrich one
// source-registry entry share it; a remote URL used by two entries stays on
// one; two entries that would share a name get distinct ones. So the result
// is closed under those couplings: a resource is added when it could share a
// name with an affected one (the same candidate name, or the name a
// DuplicateName rename "-2", "-mcpremoteproxy" would come from), a
// source-registry entry, or a URL (the same host and first path segment, or
// the root path, drawn from registry-url annotations, route hostnames,
// parent Gateways' listener hostnames and addresses, match paths and the
// source entries' remotes). The mapping over-approximates, as a watch
// mapping may; it never leaves out a resource whose entry changes.
//
// snap is the cluster as the caller sees it, before or after the change: the
// function looks at the snapshot with both old and new in it, and treats any
// other copy of the changed object it holds (same kind, namespace and name)
// as a state of it too, so either view is right. opts are the options of the
// Discover call the result is for: resources Options.Namespaces or the label
// selector leave out in both states have no entry and are not returned (nor
// is anything when the label selector does not parse). The couplings run
// through the resources the label selector matches in every namespace, as
// Discover settles names and URLs among them all: a change to a resource
// outside Options.Namespaces returns the chosen resources whose name or URL
// it may take or give back. The result is sorted
// (kind, namespace, name), each resource once. The work is linear in the
// size of the snapshot; Index answers the same question per event in time
// proportional to what the event affects.
func AffectedByChange(snap Snapshot, opts Options, old, new any) ([]model.ObjectRef, error) {
	o, err := Normalize(old)
	if err != nil {
		return nil, fmt.Errorf("old object: %w", err)
	}
	n, err := Normalize(new)
	if err != nil {
		return nil, fmt.Errorf("new object: %w", err)
	}
	return affected(snap, opts, o, n), nil
}

// affected is AffectedByChange on normalized objects.
func affected(snap Snapshot, opts Options, old, new any) []model.ObjectRef {
	cfg, _ := compile(opts)
	if cfg == nil {
		return nil
	}
	old, new = present(old), present(new)
	if old == nil && new == nil {
		return nil
	}
	w := newWatchIndex(withObjects(snap, old, new), cfg)
	states := w.states(old, new)
	if old != nil && new != nil && unchangedNamespace(states) {
		return nil
	}
	return w.close(w.seeds(states))
}

// seeds maps the states of a changed object to the resources it concerns
// directly, before the coupling closure.
func (w *watchIndex) seeds(states []any) map[model.ObjectRef]bool {
	seeds := map[model.ObjectRef]bool{}
	add := func(refs []model.ObjectRef) {
		for _, r := range refs {
			seeds[r] = true
		}
	}
	for _, obj := range states {
		switch o := obj.(type) {
		case *gwv1.Gateway:
			for _, r := range w.routesByGateway[objectKey{o.Namespace, o.Name}] {
				add(w.routeOwners(r, nil))
			}
		case *gwv1.HTTPRoute:
			if o.Annotations[AnnotationExport] == "true" {
				add(w.routeOwners(o, nil))
			}
			add(w.peerOwners(o))
		case *corev1.Service:
			for _, or := range o.OwnerReferences {
				if apiGroup(or.APIVersion) == model.ToolHiveGroup && isMCPKind(or.Kind) {
					seeds[model.ObjectRef{Kind: or.Kind, Namespace: o.Namespace, Name: or.Name}] = true
				}
			}
		case *gwv1.ReferenceGrant:
			add(w.grantOwners(o))
		case *corev1.Namespace:
			var gateways map[objectKey]map[objectKey]bool
			for _, r := range w.anyRoutesByNamespace[o.Name] {
				if w.attachesToSelector(r) {
					if r.Annotations[AnnotationExport] == "true" {
						add(w.routeOwners(r, nil))
					}
					gateways = addParentGateways(gateways, r, nil)
				}
			}
			add(w.gatewayOwners(gateways))
		case *model.MCPServer:
			seeds[model.Ref(model.KindMCPServer, &o.ObjectMeta)] = true
		case *model.MCPRemoteProxy:
			seeds[model.Ref(model.KindMCPRemoteProxy, &o.ObjectMeta)] = true
		case *model.VirtualMCPServer:
			seeds[model.Ref(model.KindVirtualMCPServer, &o.ObjectMeta)] = true
		case *model.MCPServerEntry:
			seeds[model.Ref(model.KindMCPServerEntry, &o.ObjectMeta)] = true
		}
	}
	return seeds
}

// unchangedNamespace reports whether states are Namespaces that all carry
// the same labels (an update of an annotation, say): nothing discovery reads
// changed. It is asked only of updates: a Namespace created or deleted
// changes what Selector listeners admit even when a copy of it with the same
// labels is in the snapshot.
func unchangedNamespace(states []any) bool {
	if len(states) < 2 {
		return false
	}
	first, ok := states[0].(*corev1.Namespace)
	if !ok {
		return false
	}
	for _, s := range states[1:] {
		n, ok := s.(*corev1.Namespace)
		if !ok || !labels.Equals(first.Labels, n.Labels) {
			return false
		}
	}
	return true
}

// present turns typed nil pointers (a deleted object's absent state as some
// callers pass it) into nil.
func present(obj any) any {
	if obj == nil {
		return nil
	}
	if v := reflect.ValueOf(obj); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return obj
}

// withObjects returns snap with the given objects added to their lists (the
// lists touched are copied, the others shared): the union of the states
// before and after a change.
func withObjects(snap Snapshot, objs ...any) Snapshot {
	for _, obj := range objs {
		switch o := obj.(type) {
		case *gwv1.Gateway:
			snap.Gateways = append(slices.Clip(snap.Gateways), o)
		case *gwv1.HTTPRoute:
			snap.HTTPRoutes = append(slices.Clip(snap.HTTPRoutes), o)
		case *corev1.Service:
			snap.Services = append(slices.Clip(snap.Services), o)
		case *gwv1.ReferenceGrant:
			snap.ReferenceGrants = append(slices.Clip(snap.ReferenceGrants), o)
		case *corev1.Namespace:
			snap.Namespaces = append(slices.Clip(snap.Namespaces), o)
		case *model.MCPServer:
			snap.MCPServers = append(slices.Clip(snap.MCPServers), o)
		case *model.MCPRemoteProxy:
			snap.MCPRemoteProxies = append(slices.Clip(snap.MCPRemoteProxies), o)
		case *model.VirtualMCPServer:
			snap.VirtualMCPServers = append(slices.Clip(snap.VirtualMCPServers), o)
		case *model.MCPServerEntry:
			snap.MCPServerEntries = append(slices.Clip(snap.MCPServerEntries), o)
		}
	}
	return snap
}

// states returns old, new and every other copy of them the union snapshot
// holds (same kind, namespace and name): each is a state of the changed
// object as far as Discover can tell (it keeps one copy of duplicates).
func (w *watchIndex) states(old, new any) []any {
	var out []any
	seen := map[any]bool{}
	add := func(o any) {
		if o != nil && !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	for _, o := range []any{old, new} {
		if o == nil {
			continue
		}
		add(o)
		switch o := o.(type) {
		case *gwv1.Gateway:
			for _, c := range w.gateways[objectKey{o.Namespace, o.Name}] {
				add(c)
			}
		case *gwv1.HTTPRoute:
			for _, c := range w.routesByKey[objectKey{o.Namespace, o.Name}] {
				add(c)
			}
		case *corev1.Service:
			for _, c := range w.services[objectKey{o.Namespace, o.Name}] {
				add(c)
			}
		case *gwv1.ReferenceGrant:
			for _, c := range w.grants[objectKey{o.Namespace, o.Name}] {
				add(c)
			}
		case *corev1.Namespace:
			for _, c := range w.namespaces[o.Name] {
				add(c)
			}
		}
	}
	return out
}

// watchIndex is the union snapshot indexed for AffectedBy. Every copy of an
// object counts (the union holds the states before and after). Objects can
// be added and removed one at a time (add, remove): the watch Index keeps
// one up to date.
type watchIndex struct {
	snap *Snapshot // nil in an Index
	cfg  *config

	routesByGateway   map[objectKey][]*gwv1.HTTPRoute
	routesByNamespace map[string][]*gwv1.HTTPRoute
	// anyRoutesByNamespace holds every route, exported or not: all take
	// requests on the listeners they attach to.
	anyRoutesByNamespace map[string][]*gwv1.HTTPRoute
	routesByKey          map[objectKey][]*gwv1.HTTPRoute
	services             map[objectKey][]*corev1.Service
	gateways             map[objectKey][]*gwv1.Gateway
	grants               map[objectKey][]*gwv1.ReferenceGrant
	namespaces           map[string][]*corev1.Namespace
}

func emptyWatchIndex(cfg *config) *watchIndex {
	return &watchIndex{
		cfg:                  cfg,
		routesByGateway:      map[objectKey][]*gwv1.HTTPRoute{},
		routesByNamespace:    map[string][]*gwv1.HTTPRoute{},
		anyRoutesByNamespace: map[string][]*gwv1.HTTPRoute{},
		routesByKey:          map[objectKey][]*gwv1.HTTPRoute{},
		services:             map[objectKey][]*corev1.Service{},
		gateways:             map[objectKey][]*gwv1.Gateway{},
		grants:               map[objectKey][]*gwv1.ReferenceGrant{},
		namespaces:           map[string][]*corev1.Namespace{},
	}
}

func newWatchIndex(snap Snapshot, cfg *config) *watchIndex {
	w := emptyWatchIndex(cfg)
	w.snap = &snap
	for _, r := range snap.HTTPRoutes {
		if r != nil {
			w.add(r)
		}
	}
	for _, x := range snap.Services {
		if x != nil {
			w.add(x)
		}
	}
	for _, x := range snap.Gateways {
		if x != nil {
			w.add(x)
		}
	}
	for _, x := range snap.ReferenceGrants {
		if x != nil {
			w.add(x)
		}
	}
	for _, x := range snap.Namespaces {
		if x != nil {
			w.add(x)
		}
	}
	return w
}

// add indexes one copy of a Gateway API or core object (others are ignored).
func (w *watchIndex) add(obj any) {
	switch o := obj.(type) {
	case *gwv1.HTTPRoute:
		k := objectKey{o.Namespace, o.Name}
		w.routesByKey[k] = append(w.routesByKey[k], o)
		w.anyRoutesByNamespace[o.Namespace] = append(w.anyRoutesByNamespace[o.Namespace], o)
		if o.Annotations[AnnotationExport] != "true" {
			return
		}
		w.routesByNamespace[o.Namespace] = append(w.routesByNamespace[o.Namespace], o)
		for _, p := range o.Spec.ParentRefs {
			if g, ok := urlbuild.ParentGateway(p, o.Namespace); ok {
				gk := objectKey{g.Namespace, g.Name}
				w.routesByGateway[gk] = appendRoute(w.routesByGateway[gk], o)
			}
		}
	case *corev1.Service:
		k := objectKey{o.Namespace, o.Name}
		w.services[k] = append(w.services[k], o)
	case *gwv1.Gateway:
		k := objectKey{o.Namespace, o.Name}
		w.gateways[k] = append(w.gateways[k], o)
	case *gwv1.ReferenceGrant:
		k := objectKey{o.Namespace, o.Name}
		w.grants[k] = append(w.grants[k], o)
	case *corev1.Namespace:
		w.namespaces[o.Name] = append(w.namespaces[o.Name], o)
	}
}

// remove forgets one copy added by add (every place it was listed).
func (w *watchIndex) remove(obj any) {
	switch o := obj.(type) {
	case *gwv1.HTTPRoute:
		k := objectKey{o.Namespace, o.Name}
		removeFrom(w.routesByKey, k, o)
		removeFrom(w.anyRoutesByNamespace, o.Namespace, o)
		if o.Annotations[AnnotationExport] != "true" {
			return
		}
		removeFrom(w.routesByNamespace, o.Namespace, o)
		for _, p := range o.Spec.ParentRefs {
			if g, ok := urlbuild.ParentGateway(p, o.Namespace); ok {
				removeFrom(w.routesByGateway, objectKey{g.Namespace, g.Name}, o)
			}
		}
	case *corev1.Service:
		removeFrom(w.services, objectKey{o.Namespace, o.Name}, o)
	case *gwv1.Gateway:
		removeFrom(w.gateways, objectKey{o.Namespace, o.Name}, o)
	case *gwv1.ReferenceGrant:
		removeFrom(w.grants, objectKey{o.Namespace, o.Name}, o)
	case *corev1.Namespace:
		removeFrom(w.namespaces, o.Name, o)
	}
}

// removeFrom drops every occurrence of x from m[k].
func removeFrom[K comparable, T comparable](m map[K][]T, k K, x T) {
	l := slices.DeleteFunc(m[k], func(y T) bool { return y == x })
	if len(l) == 0 {
		delete(m, k)
		return
	}
	m[k] = l
}

// appendRoute appends r unless it is already the last element (a route that
// names one Service or Gateway twice).
func appendRoute(list []*gwv1.HTTPRoute, r *gwv1.HTTPRoute) []*gwv1.HTTPRoute {
	if n := len(list); n > 0 && list[n-1] == r {
		return list
	}
	return append(list, r)
}

// chosenService returns the Service the rule's URLs are for: the one its
// heaviest backendRef of weight > 0 names (the first on ties), as
// ruleBackends.chosen picks it; false when that backendRef is not a core
// Service or no backendRef takes traffic.
func chosenService(r *gwv1.HTTPRoute, rule *gwv1.HTTPRouteRule) (objectKey, bool) {
	best := -1
	var bestWeight int32
	for j := range rule.BackendRefs {
		w := int32(1)
		if p := rule.BackendRefs[j].Weight; p != nil {
			w = *p
		}
		if w > 0 && (best < 0 || w > bestWeight) {
			best, bestWeight = j, w
		}
	}
	if best < 0 {
		return objectKey{}, false
	}
	br := urlbuild.DefaultBackendRef(rule.BackendRefs[best].BackendRef, r.Namespace)
	if *br.Group != "" || string(*br.Kind) != urlbuild.KindService {
		return objectKey{}, false
	}
	return objectKey{string(*br.Namespace), string(br.Name)}, true
}

// serviceOwners lists the controllers of every copy of Service k.
func (w *watchIndex) serviceOwners(k objectKey) []model.ObjectRef {
	var out []model.ObjectRef
	for _, s := range w.services[k] {
		if o, _, ok := controllerOwner(s); ok {
			out = append(out, model.ObjectRef{Kind: o.kind, Namespace: s.Namespace, Name: o.name})
		}
	}
	return out
}

// routeOwners lists the resources the route's rules can give URLs to (see
// AffectedBy); with match set, only through rules whose chosen Service it
// accepts.
func (w *watchIndex) routeOwners(r *gwv1.HTTPRoute, match func(objectKey) bool) []model.ObjectRef {
	var out []model.ObjectRef
	for i := range r.Spec.Rules {
		if k, ok := chosenService(r, &r.Spec.Rules[i]); ok && (match == nil || match(k)) {
			out = append(out, w.serviceOwners(k)...)
		}
	}
	return out
}

// peerOwners lists the resources reached by the exported routes that share
// a parent Gateway with r: requests to their URLs may be taken by r's rules
// (HTTPRoute precedence is over all the routes on a listener).
func (w *watchIndex) peerOwners(r *gwv1.HTTPRoute) []model.ObjectRef {
	var out []model.ObjectRef
	for _, p := range r.Spec.ParentRefs {
		g, ok := urlbuild.ParentGateway(p, r.Namespace)
		if !ok {
			continue
		}
		for _, peer := range w.routesByGateway[objectKey{g.Namespace, g.Name}] {
			if peer != r {
				out = append(out, w.routeOwners(peer, nil)...)
			}
		}
	}
	return out
}

// grantOwners lists the resources a grant can concern: those reached by
// exported routes in a namespace of its spec.from through a Service in the
// grant's namespace, and those reached through such a Service by the
// exported routes sharing a parent Gateway with any route of those
// namespaces that names the same Service: where that route's rule takes
// their requests by precedence, whether it may reference the Service decides
// if the requests arrive.
func (w *watchIndex) grantOwners(g *gwv1.ReferenceGrant) []model.ObjectRef {
	var out []model.ObjectRef
	inGrantNS := func(k objectKey) bool { return k.namespace == g.Namespace }
	for _, from := range g.Spec.From {
		if string(from.Namespace) == g.Namespace {
			continue // no grant is needed within a namespace
		}
		for _, r := range w.routesByNamespace[string(from.Namespace)] {
			out = append(out, w.routeOwners(r, inGrantNS)...)
		}
		var gateways map[objectKey]map[objectKey]bool
		for _, r := range w.anyRoutesByNamespace[string(from.Namespace)] {
			if named := servicesIn(r, g.Namespace); len(named) > 0 {
				gateways = addParentGateways(gateways, r, named)
			}
		}
		out = append(out, w.gatewayOwners(gateways)...)
	}
	return out
}

// addParentGateways records r's parent Gateways in gateways (allocated when
// nil), each with the Services named added to the ones recorded for it
// (named nil: any Service, which a Gateway keeps once given).
func addParentGateways(gateways map[objectKey]map[objectKey]bool, r *gwv1.HTTPRoute, named []objectKey) map[objectKey]map[objectKey]bool {
	if gateways == nil {
		gateways = map[objectKey]map[objectKey]bool{}
	}
	for _, p := range r.Spec.ParentRefs {
		g, ok := urlbuild.ParentGateway(p, r.Namespace)
		if !ok {
			continue
		}
		gk := objectKey{g.Namespace, g.Name}
		set, seen := gateways[gk]
		switch {
		case seen && set == nil: // any Service already
		case named == nil:
			gateways[gk] = nil
		default:
			if set == nil {
				set = make(map[objectKey]bool, len(named))
				gateways[gk] = set
			}
			for _, k := range named {
				set[k] = true
			}
		}
	}
	return gateways
}

// gatewayOwners lists the resources reached by the exported routes of each
// Gateway of gateways, through the rules whose chosen Service is in its set
// (any, for a nil set). Each Gateway's routes are read once however many
// routes of a changed Namespace or grant attach to it: the event costs the
// routes and rules it concerns, not routes × peers. (A route is its own
// peer here; what it reaches through those Services its caller has already
// listed.)
func (w *watchIndex) gatewayOwners(gateways map[objectKey]map[objectKey]bool) []model.ObjectRef {
	var out []model.ObjectRef
	keys := slices.SortedFunc(maps.Keys(gateways), func(a, b objectKey) int {
		return cmp.Or(strings.Compare(a.namespace, b.namespace), strings.Compare(a.name, b.name))
	})
	for _, gk := range keys {
		set := gateways[gk]
		var match func(objectKey) bool
		if set != nil {
			match = func(k objectKey) bool { return set[k] }
		}
		for _, peer := range w.routesByGateway[gk] {
			out = append(out, w.routeOwners(peer, match)...)
		}
	}
	return out
}

// servicesIn lists the Services in namespace ns that rules of r send
// traffic to (the one chosenService picks for each rule): a rule of r can
// serve the requests of another route's URL only if it leads to the same
// Service.
func servicesIn(r *gwv1.HTTPRoute, ns string) []objectKey {
	var out []objectKey
	for i := range r.Spec.Rules {
		if k, ok := chosenService(r, &r.Spec.Rules[i]); ok && k.namespace == ns {
			out = append(out, k)
		}
	}
	return out
}

// attachesToSelector reports whether a parent Gateway of the route (any
// copy) has a listener whose allowedRoutes select namespaces by label.
func (w *watchIndex) attachesToSelector(r *gwv1.HTTPRoute) bool {
	for _, p := range r.Spec.ParentRefs {
		g, ok := urlbuild.ParentGateway(p, r.Namespace)
		if !ok {
			continue
		}
		for _, gw := range w.gateways[objectKey{g.Namespace, g.Name}] {
			for _, l := range gw.Spec.Listeners {
				if *urlbuild.DefaultAllowedRoutes(l).Namespaces.From == gwv1.NamespacesFromSelector {
					return true
				}
			}
		}
	}
	return false
}

// watchResource is what the coupling closure knows of one MCP resource (all
// its copies in the union snapshot). selected is set when the label
// selector matches a copy: the resource then takes part in settling names
// and URLs, whatever its namespace. chosen is set when its namespace is one
// of Options.Namespaces (or there are none): only then is it part of the
// answer. A resource of another namespace still couples: it may take a
// name or a URL from a chosen one, or release it.
type watchResource struct {
	ref      model.ObjectRef
	selected bool
	chosen   bool
	keys     []string
	shapes   []urlShape
}

// urlShape is what two remote URLs must share to be equal, coarsened: the
// host (lower case, without port or brackets) and the first path segment
// ("" for the root path, which may share a URL with any path of the host).
type urlShape struct{ host, first string }

// close returns the chosen resources among seeds and those coupled to them
// (see AffectedBy), sorted.
func (w *watchIndex) close(seeds map[model.ObjectRef]bool) []model.ObjectRef {
	if len(seeds) == 0 {
		return nil
	}
	t := newCouplingTable()
	for _, r := range w.couplings() {
		t.put(r)
	}
	return t.close(seeds)
}

// couplingTable finds the selected resources by coupling key, URL shape and
// URL host. Entries can be added and removed one resource at a time, so the
// watch Index keeps one up to date.
type couplingTable struct {
	res     map[model.ObjectRef]*watchResource
	byKey   map[string]map[model.ObjectRef]*watchResource
	byShape map[urlShape]map[model.ObjectRef]*watchResource
	byHost  map[string]map[model.ObjectRef]*watchResource
}

func newCouplingTable() *couplingTable {
	return &couplingTable{
		res:     map[model.ObjectRef]*watchResource{},
		byKey:   map[string]map[model.ObjectRef]*watchResource{},
		byShape: map[urlShape]map[model.ObjectRef]*watchResource{},
		byHost:  map[string]map[model.ObjectRef]*watchResource{},
	}
}

func putIn[K comparable](m map[K]map[model.ObjectRef]*watchResource, k K, r *watchResource) {
	set := m[k]
	if set == nil {
		set = map[model.ObjectRef]*watchResource{}
		m[k] = set
	}
	set[r.ref] = r
}

func dropFrom[K comparable](m map[K]map[model.ObjectRef]*watchResource, k K, ref model.ObjectRef) {
	if set := m[k]; set != nil {
		delete(set, ref)
		if len(set) == 0 {
			delete(m, k)
		}
	}
}

// put records r, replacing what was recorded for its resource.
func (t *couplingTable) put(r *watchResource) {
	t.drop(r.ref)
	t.res[r.ref] = r
	if !r.selected {
		return // no entry: couples nothing
	}
	for _, k := range r.keys {
		putIn(t.byKey, k, r)
	}
	for _, s := range r.shapes {
		putIn(t.byShape, s, r)
		putIn(t.byHost, s.host, r)
	}
}

// drop forgets the resource.
func (t *couplingTable) drop(ref model.ObjectRef) {
	r := t.res[ref]
	if r == nil {
		return
	}
	delete(t.res, ref)
	for _, k := range r.keys {
		dropFrom(t.byKey, k, ref)
	}
	for _, s := range r.shapes {
		dropFrom(t.byShape, s, ref)
		dropFrom(t.byHost, s.host, ref)
	}
}

// close is the coupling closure of seeds through selected resources, of
// every namespace, and returns the chosen ones among them, sorted: the work
// is proportional to the resources it reaches and the keys and shapes they
// hold.
func (t *couplingTable) close(seeds map[model.ObjectRef]bool) []model.ObjectRef {
	done := map[model.ObjectRef]bool{}
	var queue []*watchResource
	visit := func(r *watchResource) {
		if r.selected && !done[r.ref] {
			done[r.ref] = true
			queue = append(queue, r)
		}
	}
	for ref := range seeds {
		if r := t.res[ref]; r != nil {
			visit(r)
		}
	}
	keysDone := map[string]bool{}
	shapesDone := map[urlShape]bool{}
	for len(queue) > 0 {
		r := queue[0]
		queue = queue[1:]
		for _, k := range r.keys {
			if !keysDone[k] {
				keysDone[k] = true
				for _, o := range t.byKey[k] {
					visit(o)
				}
			}
		}
		for _, s := range r.shapes {
			if shapesDone[s] {
				continue
			}
			shapesDone[s] = true
			if s.first == "" {
				for _, o := range t.byHost[s.host] {
					visit(o)
				}
				continue
			}
			for _, o := range t.byShape[s] {
				visit(o)
			}
			for _, o := range t.byShape[urlShape{s.host, ""}] {
				visit(o)
			}
		}
	}
	var out []model.ObjectRef
	for ref := range done {
		if t.res[ref].chosen {
			out = append(out, ref)
		}
	}
	slices.SortFunc(out, compareRefs)
	return out
}

// couplings computes, for every MCP resource of the union snapshot, its
// selection and its coupling keys and URL shapes.
func (w *watchIndex) couplings() map[model.ObjectRef]*watchResource {
	ix := indexAll(w.snap, w.cfg)
	out := make(map[model.ObjectRef]*watchResource, len(ix))
	for _, r := range ix {
		wr := out[r.ref]
		if wr == nil {
			wr = &watchResource{ref: r.ref}
			out[r.ref] = wr
		}
		w.cfg.addLocalCouplings(wr, r)
	}
	// Route URLs, for every resource a rule can reach.
	for _, routes := range w.routesByNamespace {
		for _, rt := range routes {
			hosts := w.routeHosts(rt)
			for _, rule := range urlbuild.DefaultRules(rt) {
				k, ok := chosenService(rt, &rule)
				if !ok {
					continue
				}
				shapes := ruleShapes(rule, hosts)
				for _, owner := range w.serviceOwners(k) {
					if wr := out[owner]; wr != nil {
						wr.shapes = append(wr.shapes, shapes...)
					}
				}
			}
		}
	}
	return out
}

// addLocalCouplings adds what one copy of a resource says of its entry's
// name and URLs by itself: its selection, name keys, source entry and the
// URLs of its annotations (or, for an MCPServerEntry, its remote).
func (c *config) addLocalCouplings(wr *watchResource, r *resource) {
	wr.selected = wr.selected || r.selected
	wr.chosen = c.chosenNamespace(r.ref.Namespace)
	var names []string
	if v, ok := r.meta.Annotations[AnnotationName]; ok {
		names = append(names, v)
	}
	if src, _, _ := c.source.match(r); src != nil {
		wr.keys = append(wr.keys, "source:"+src.Name())
		names = append(names, src.Name())
		for _, rm := range src.Remotes() {
			wr.shapes = appendShape(wr.shapes, rm.URL)
		}
	}
	names = append(names, c.opts.Naming.Name(r.ref.Namespace, r.ref.Name))
	for _, n := range names {
		wr.keys = appendNameKeys(wr.keys, n)
	}
	if u, ok := r.meta.Annotations[AnnotationURL]; ok {
		wr.shapes = appendShape(wr.shapes, u)
	}
	if r.ref.Kind == model.KindMCPServerEntry {
		// An entry's own remote, when no registry-url replaces it.
		wr.shapes = appendShape(wr.shapes, r.remoteURL)
	}
}

// ruleShapes are the URL shapes a rule's matches give on the hosts.
func ruleShapes(rule gwv1.HTTPRouteRule, hosts []string) []urlShape {
	var shapes []urlShape
	for _, m := range urlbuild.DefaultMatches(rule) {
		typ, value := urlbuild.DefaultPathMatch(m)
		if typ != gwv1.PathMatchPathPrefix && typ != gwv1.PathMatchExact {
			continue // no URL
		}
		for _, h := range hosts {
			shapes = append(shapes, urlShape{h, firstSegment(value)})
		}
	}
	return shapes
}

// indexAll lists every MCP resource copy of snap as a resource (selected
// set as Discover sets it: by the label selector alone), duplicates
// included.
func indexAll(snap *Snapshot, cfg *config) []*resource {
	var all []*resource
	add := func(kind string, m *resource) {
		m.ref.Kind = kind
		m.ref.Namespace, m.ref.Name = m.meta.Namespace, m.meta.Name
		m.selected = cfg.selector.Matches(labels.Set(m.meta.Labels))
		all = append(all, m)
	}
	for _, s := range snap.MCPServers {
		if s != nil {
			add(model.KindMCPServer, &resource{meta: &s.ObjectMeta, image: s.Spec.Image})
		}
	}
	for _, p := range snap.MCPRemoteProxies {
		if p != nil {
			add(model.KindMCPRemoteProxy, &resource{meta: &p.ObjectMeta, remoteURL: p.Spec.RemoteURL})
		}
	}
	for _, v := range snap.VirtualMCPServers {
		if v != nil {
			add(model.KindVirtualMCPServer, &resource{meta: &v.ObjectMeta})
		}
	}
	for _, e := range snap.MCPServerEntries {
		if e != nil {
			add(model.KindMCPServerEntry, &resource{meta: &e.ObjectMeta, remoteURL: e.Spec.RemoteURL})
		}
	}
	return all
}

// appendNameKeys adds the keys under which a candidate entry name meets the
// names it can collide with: itself; when it ends like a rename of
// DuplicateName ("-<kind>" or "-<n>"), the name it would be a rename of;
// the shortened form of an over-long name; and, for long names, their first
// 180 characters (a shortened rename keeps them).
func appendNameKeys(keys []string, name string) []string {
	add := func(n string) {
		keys = append(keys, "name:"+n)
		if base, ok := renamedFrom(n); ok {
			keys = append(keys, "name:"+base)
		}
		if utf8.RuneCountInString(n) >= 180 {
			keys = append(keys, "long:"+string([]rune(n)[:180]))
		}
	}
	add(name)
	if short, cut := fitName(name); cut {
		add(short)
	}
	return keys
}

// renamedFrom returns the name n would be a DuplicateName rename of: n
// without a last "-<digits>" or "-<kind in lower case>".
func renamedFrom(n string) (string, bool) {
	i := strings.LastIndexByte(n, '-')
	if i <= 0 {
		return "", false
	}
	suffix := n[i+1:]
	switch {
	case suffix == "":
		return "", false
	case strings.Trim(suffix, "0123456789") == "",
		suffix == strings.ToLower(model.KindMCPServer),
		suffix == strings.ToLower(model.KindMCPRemoteProxy),
		suffix == strings.ToLower(model.KindVirtualMCPServer),
		suffix == strings.ToLower(model.KindMCPServerEntry):
		return n[:i], true
	}
	return "", false
}

// appendShape adds the shape of a URL as written (an unparsable one adds
// nothing: it is never a remote).
func appendShape(shapes []urlShape, raw string) []urlShape {
	n, _, err := CheckURL(raw)
	if err != nil {
		return shapes
	}
	u, err := url.Parse(n)
	if err != nil {
		return shapes
	}
	return append(shapes, urlShape{host: hostKey(u.Hostname()), first: firstSegment(u.EscapedPath())})
}

// hostKey is the form hosts are compared in: lower case, IP addresses in
// their canonical form, without brackets.
func hostKey(h string) string {
	h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if ip, err := netip.ParseAddr(h); err == nil {
		return ip.String()
	}
	return h
}

// firstSegment is the first segment of a path, "" for the root.
func firstSegment(p string) string {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[:i]
	}
	return p
}

// routeHosts lists the hosts every URL of the route can have: its concrete
// hostnames, and when it has none or a wildcard, its parent Gateways'
// concrete listener hostnames and status addresses.
func (w *watchIndex) routeHosts(r *gwv1.HTTPRoute) []string {
	var hosts []string
	open := len(r.Spec.Hostnames) == 0
	for _, h := range r.Spec.Hostnames {
		if urlbuild.IsWildcard(string(h)) {
			open = true
		} else {
			hosts = append(hosts, hostKey(string(h)))
		}
	}
	if !open {
		return hosts
	}
	for _, p := range r.Spec.ParentRefs {
		g, ok := urlbuild.ParentGateway(p, r.Namespace)
		if !ok {
			continue
		}
		for _, gw := range w.gateways[objectKey{g.Namespace, g.Name}] {
			for _, l := range gw.Spec.Listeners {
				if l.Hostname != nil && !urlbuild.IsWildcard(string(*l.Hostname)) {
					hosts = append(hosts, hostKey(string(*l.Hostname)))
				}
			}
			for _, a := range gw.Status.Addresses {
				hosts = append(hosts, hostKey(a.Value))
			}
		}
	}
	return hosts
}
