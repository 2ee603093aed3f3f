package discovery

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/urlbuild"
	"github.com/mcpreg/mcpreg/model"
)

// Index is an incremental watch index: the objects discovery reads, kept up
// to date one watch event at a time, answering AffectedBy and
// AffectedByChange without a Snapshot. It is built once from what the
// listers hold (NewIndex), then told every Add, Update and Delete. Its
// answers are those of the package functions AffectedBy and
// AffectedByChange on a snapshot of the same objects with the same Options;
// the work per event is proportional to what the event affects (the objects
// the answer is drawn from and the resources it names), not to the number
// of objects held.
//
// An Index is a value its caller owns: it starts no goroutine and takes no
// lock. Calls must not overlap; a controller serialises them (one event
// handler, or a mutex of its own). The objects given to it are kept, not
// copied: do not change them afterwards (informer objects are never
// changed in place).
type Index struct {
	cfg *config
	w   *watchIndex
	// store holds the objects by kind, namespace and name.
	store map[model.ObjectRef]any
	// mcp holds the MCP resources (their copies while a question is being
	// answered) as discovery sees them.
	mcp map[model.ObjectRef][]*resource
	// ownedServices counts, per MCP resource, the Service copies it
	// controls, by Service key.
	ownedServices map[model.ObjectRef]map[objectKey]int
	// chosen lists, per Service key, the exported routes with a rule whose
	// URLs go to that Service's controller.
	chosen map[objectKey][]*gwv1.HTTPRoute
	table  *couplingTable
}

// NewIndex builds an index of objs (any input Normalize reads: snapshot
// types, unstructured, v1beta1 gateway-api objects, Kinded) for the
// Discover calls made with opts. A label selector that does not parse, or
// an object that cannot be read, is an error.
func NewIndex(opts Options, objs ...any) (*Index, error) {
	cfg, ds := compile(opts)
	if cfg == nil {
		return nil, fmt.Errorf("options: %s", ds[0].Message)
	}
	ix := &Index{
		cfg:           cfg,
		w:             emptyWatchIndex(cfg),
		store:         map[model.ObjectRef]any{},
		mcp:           map[model.ObjectRef][]*resource{},
		ownedServices: map[model.ObjectRef]map[objectKey]int{},
		chosen:        map[objectKey][]*gwv1.HTTPRoute{},
		table:         newCouplingTable(),
	}
	for i, obj := range objs {
		o, err := Normalize(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d: %w", i, err)
		}
		ix.set(o)
	}
	return ix, nil
}

// Len is the number of objects the index holds.
func (ix *Index) Len() int { return len(ix.store) }

// Get returns the object held under obj's kind, namespace and name (the
// state before a change, for a handler that has only the new one), and
// false when there is none or obj cannot be read.
func (ix *Index) Get(obj any) (any, bool) {
	o, err := Normalize(obj)
	if err != nil {
		return nil, false
	}
	ref, ok := storeRef(o)
	if !ok {
		return nil, false
	}
	held, ok := ix.store[ref]
	return held, ok
}

// Add records a created object (an informer's OnAdd). An object already
// held under the same kind, namespace and name is replaced.
func (ix *Index) Add(obj any) error {
	o, err := Normalize(obj)
	if err != nil {
		return err
	}
	ix.set(o)
	return nil
}

// Update records a changed object (an informer's OnUpdate): new replaces
// what is held under its kind, namespace and name. old is not needed and
// may be nil.
func (ix *Index) Update(old, new any) error {
	if _, err := Normalize(old); err != nil {
		return fmt.Errorf("old object: %w", err)
	}
	return ix.Add(new)
}

// Delete records a deleted object (an informer's OnDelete; unwrap
// cache.DeletedFinalStateUnknown first): what is held under its kind,
// namespace and name is dropped.
func (ix *Index) Delete(obj any) error {
	o, err := Normalize(obj)
	if err != nil {
		return err
	}
	if ref, ok := storeRef(o); ok {
		if prev, held := ix.store[ref]; held {
			ix.removeCopy(prev)
			delete(ix.store, ref)
		}
	}
	return nil
}

// AffectedBy is the package function AffectedBy answered from the index.
func (ix *Index) AffectedBy(obj any) ([]model.ObjectRef, error) {
	return ix.AffectedByChange(nil, obj)
}

// AffectedByChange is the package function AffectedByChange answered from
// the index: the held objects stand for the snapshot. It may be asked
// before or after the change is recorded; the index is left as it was.
func (ix *Index) AffectedByChange(old, new any) ([]model.ObjectRef, error) {
	o, err := Normalize(old)
	if err != nil {
		return nil, fmt.Errorf("old object: %w", err)
	}
	n, err := Normalize(new)
	if err != nil {
		return nil, fmt.Errorf("new object: %w", err)
	}
	if o == nil && n == nil {
		return nil, nil
	}
	// The question is asked of the held objects with both states added,
	// as the package function asks it of the snapshot: the states are
	// added as extra copies for the time of the question.
	var added []any
	for _, x := range []any{o, n} {
		if x == nil || ix.holds(x) || (len(added) == 1 && added[0] == x) {
			continue
		}
		ix.addCopy(x)
		added = append(added, x)
	}
	defer func() {
		for _, x := range added {
			ix.removeCopy(x)
		}
	}()
	states := ix.w.states(o, n)
	if o != nil && n != nil && unchangedNamespace(states) {
		return nil, nil
	}
	return ix.table.close(ix.w.seeds(states)), nil
}

// Snapshot returns the held objects as a Snapshot, for Discover or Groups.
// The slices are new; the objects are those given to the index. The order
// of each slice is unspecified (Discover does not depend on it).
func (ix *Index) Snapshot() Snapshot {
	var s Snapshot
	for _, obj := range ix.store {
		s.put(obj)
	}
	return s
}

// storeRef is the key an object is held under; false for kinds the index
// does not hold (ConfigMaps, MCPRegistries).
func storeRef(obj any) (model.ObjectRef, bool) {
	switch o := obj.(type) {
	case *model.MCPServer:
		return model.Ref(model.KindMCPServer, &o.ObjectMeta), true
	case *model.MCPRemoteProxy:
		return model.Ref(model.KindMCPRemoteProxy, &o.ObjectMeta), true
	case *model.VirtualMCPServer:
		return model.Ref(model.KindVirtualMCPServer, &o.ObjectMeta), true
	case *model.MCPServerEntry:
		return model.Ref(model.KindMCPServerEntry, &o.ObjectMeta), true
	case *model.MCPGroup:
		return model.Ref(model.KindMCPGroup, &o.ObjectMeta), true
	case *corev1.Service:
		return model.Ref("Service", &o.ObjectMeta), true
	case *corev1.Namespace:
		return model.Ref("Namespace", &o.ObjectMeta), true
	case *gwv1.Gateway:
		return model.Ref("Gateway", &o.ObjectMeta), true
	case *gwv1.HTTPRoute:
		return model.Ref("HTTPRoute", &o.ObjectMeta), true
	case *gwv1.ReferenceGrant:
		return model.Ref("ReferenceGrant", &o.ObjectMeta), true
	}
	return model.ObjectRef{}, false
}

// holds reports whether obj itself (the same pointer) is the held object.
func (ix *Index) holds(obj any) bool {
	ref, ok := storeRef(obj)
	return ok && ix.store[ref] == obj
}

// set holds o under its key, replacing the previous object.
func (ix *Index) set(o any) {
	ref, ok := storeRef(o)
	if !ok {
		return
	}
	if prev, held := ix.store[ref]; held {
		if prev == o {
			return
		}
		ix.removeCopy(prev)
	}
	ix.store[ref] = o
	ix.addCopy(o)
}

// addCopy indexes one copy of an object and brings the couplings of the
// resources it concerns up to date.
func (ix *Index) addCopy(o any) {
	ix.w.add(o)
	switch x := o.(type) {
	case *corev1.Service:
		if owner, ok := serviceOwner(x); ok {
			m := ix.ownedServices[owner]
			if m == nil {
				m = map[objectKey]int{}
				ix.ownedServices[owner] = m
			}
			m[objectKey{x.Namespace, x.Name}]++
		}
	case *gwv1.HTTPRoute:
		for _, k := range ix.chosenKeys(x) {
			ix.chosen[k] = append(ix.chosen[k], x)
		}
	case *model.MCPGroup:
		return
	default:
		if r := ix.newResource(o); r != nil {
			ix.mcp[r.ref] = append(ix.mcp[r.ref], r)
		}
	}
	ix.recouple(ix.concerned(o))
}

// removeCopy undoes addCopy.
func (ix *Index) removeCopy(o any) {
	concerned := ix.concerned(o)
	ix.w.remove(o)
	switch x := o.(type) {
	case *corev1.Service:
		if owner, ok := serviceOwner(x); ok {
			if m := ix.ownedServices[owner]; m != nil {
				k := objectKey{x.Namespace, x.Name}
				if m[k]--; m[k] <= 0 {
					delete(m, k)
				}
				if len(m) == 0 {
					delete(ix.ownedServices, owner)
				}
			}
		}
	case *gwv1.HTTPRoute:
		for _, k := range ix.chosenKeys(x) {
			removeFrom(ix.chosen, k, x)
		}
	case *model.MCPGroup:
		return
	default:
		if ref, ok := storeRef(o); ok {
			l := ix.mcp[ref]
			for i := len(l) - 1; i >= 0; i-- {
				if l[i].obj == o {
					l = append(l[:i:i], l[i+1:]...)
					break
				}
			}
			if len(l) == 0 {
				delete(ix.mcp, ref)
			} else {
				ix.mcp[ref] = l
			}
		}
	}
	ix.recouple(concerned)
}

// serviceOwner is the MCP resource controlling a Service copy.
func serviceOwner(s *corev1.Service) (model.ObjectRef, bool) {
	o, ok := mcpController(s)
	if !ok {
		return model.ObjectRef{}, false
	}
	return model.ObjectRef{Kind: o.kind, Namespace: s.Namespace, Name: o.name}, true
}

// chosenKeys lists, once each, the Services an exported route's rules give
// their URLs to.
func (ix *Index) chosenKeys(r *gwv1.HTTPRoute) []objectKey {
	if r.Annotations[AnnotationExport] != "true" {
		return nil
	}
	var out []objectKey
	for i := range r.Spec.Rules {
		if k, ok := chosenService(r, &r.Spec.Rules[i]); ok && !containsKey(out, k) {
			out = append(out, k)
		}
	}
	return out
}

func containsKey(l []objectKey, k objectKey) bool {
	for _, x := range l {
		if x == k {
			return true
		}
	}
	return false
}

// concerned lists the MCP resources whose couplings a copy of o takes part
// in: the resource itself; a Service's controller; the controllers of the
// Services an exported route's rules choose; those of the routes through a
// Gateway (its hostnames and addresses are the routes' hosts).
func (ix *Index) concerned(o any) []model.ObjectRef {
	switch x := o.(type) {
	case *corev1.Service:
		if owner, ok := serviceOwner(x); ok {
			return []model.ObjectRef{owner}
		}
	case *gwv1.HTTPRoute:
		var out []model.ObjectRef
		for _, k := range ix.chosenKeys(x) {
			out = append(out, ix.w.serviceOwners(k)...)
		}
		return out
	case *gwv1.Gateway:
		var out []model.ObjectRef
		for _, r := range ix.w.routesByGateway[objectKey{x.Namespace, x.Name}] {
			for _, k := range ix.chosenKeys(r) {
				out = append(out, ix.w.serviceOwners(k)...)
			}
		}
		return out
	case *corev1.Namespace, *gwv1.ReferenceGrant, *model.MCPGroup:
		return nil
	default:
		if ref, ok := storeRef(o); ok {
			return []model.ObjectRef{ref}
		}
	}
	return nil
}

// newResource is an MCP resource copy as the coupling closure reads it.
func (ix *Index) newResource(o any) *resource {
	var r *resource
	switch x := o.(type) {
	case *model.MCPServer:
		r = &resource{ref: model.Ref(model.KindMCPServer, &x.ObjectMeta), meta: &x.ObjectMeta, image: x.Spec.Image}
	case *model.MCPRemoteProxy:
		r = &resource{ref: model.Ref(model.KindMCPRemoteProxy, &x.ObjectMeta), meta: &x.ObjectMeta, remoteURL: x.Spec.RemoteURL}
	case *model.VirtualMCPServer:
		r = &resource{ref: model.Ref(model.KindVirtualMCPServer, &x.ObjectMeta), meta: &x.ObjectMeta}
	case *model.MCPServerEntry:
		r = &resource{ref: model.Ref(model.KindMCPServerEntry, &x.ObjectMeta), meta: &x.ObjectMeta, remoteURL: x.Spec.RemoteURL}
	default:
		return nil
	}
	r.obj = o
	r.selected = ix.cfg.selector.Matches(labels.Set(r.meta.Labels))
	return r
}

// recouple recomputes the couplings of the resources from what is held, as
// couplings does for a whole snapshot.
func (ix *Index) recouple(refs []model.ObjectRef) {
	for i, ref := range refs {
		if containsRef(refs[:i], ref) {
			continue
		}
		copies := ix.mcp[ref]
		if len(copies) == 0 {
			ix.table.drop(ref)
			continue
		}
		wr := &watchResource{ref: ref}
		for _, r := range copies {
			ix.cfg.addLocalCouplings(wr, r)
		}
		for k := range ix.ownedServices[ref] {
			for _, rt := range ix.chosen[k] {
				hosts := ix.w.routeHosts(rt)
				for _, rule := range urlbuild.DefaultRules(rt) {
					if c, ok := chosenService(rt, &rule); ok && c == k {
						wr.shapes = append(wr.shapes, ruleShapes(rule, hosts)...)
					}
				}
			}
		}
		ix.table.put(wr)
	}
}

func containsRef(l []model.ObjectRef, r model.ObjectRef) bool {
	for _, x := range l {
		if x == r {
			return true
		}
	}
	return false
}
