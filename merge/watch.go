package merge

import (
	"bytes"
	"cmp"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mcpreg/mcpreg/model"
)

// Affected names an owner to reconcile after a ConfigMap event, and which of
// its sources the event concerns.
type Affected struct {
	// Owner is Source.Owner: its Namespace and Name make the
	// reconcile.Request, its APIVersion and Kind say which controller it is
	// for when several share a watch.
	Owner model.ObjectRef
	// Entries are the Source.Entry values concerned, sorted; "" stands for
	// a source without an entry name.
	Entries []string
}

// AffectedBy maps one ConfigMap to the owners whose sources read it: a
// source reads a ConfigMap of its Namespace that its Selector matches (never
// a generated one, as in selection; an empty or malformed selector matches
// nothing) or that its Name names. A source with neither (an explicit list)
// is never affected: its ConfigMaps are the caller's choice. The result is
// sorted by owner (namespace, name, kind, apiVersion); an owner whose sources
// are listed twice is reported once.
//
// It is the per-object form controller-runtime's
// handler.EnqueueRequestsFromMapFunc calls, once for a created or deleted
// ConfigMap and once each for the old and the new state of an update:
//
//	handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
//		cm, ok := o.(*corev1.ConfigMap)
//		if !ok {
//			return nil
//		}
//		var reqs []reconcile.Request
//		for _, a := range merge.AffectedBy(sourcesOf(ctx), cm) {
//			reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Owner.Namespace, Name: a.Owner.Name}})
//		}
//		return reqs
//	})
//
// where sourcesOf lists the owners from the cache and collects their
// sources (SourcesFor for MCPRegistries). Being called with old and new
// separately, it cannot tell a no-op update (a change of another key, of an
// annotation, of an unrelated label): AffectedByChange can.
func AffectedBy(sources []Source, cm *corev1.ConfigMap) []Affected {
	if cm == nil {
		return nil
	}
	return affected(sources, func(s *Source) bool {
		reads, _ := sourceReads(s)
		return reads != nil && reads(cm)
	})
}

// AffectedByChange maps a ConfigMap event with both states to the owners to
// reconcile: old is the state before (nil on create), new the state after
// (nil on delete). A source is affected when it reads the old or the new
// state (see AffectedBy), unless it reads both and its key holds the same
// data in both, since the merge would then give the same result: a no-op
// update yields nothing. (Only the text of a MissingKey warning, which lists
// the keys a ConfigMap has, can differ then.) A relabelled ConfigMap that leaves a selector
// affects the source, which must drop it.
//
// It fits handler.Funcs, whose UpdateFunc has both states (CreateFunc and
// DeleteFunc pass nil for the missing one):
//
//	handler.Funcs{
//		UpdateFunc: func(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
//			old, _ := e.ObjectOld.(*corev1.ConfigMap)
//			new, _ := e.ObjectNew.(*corev1.ConfigMap)
//			for _, a := range merge.AffectedByChange(sourcesOf(ctx), old, new) {
//				q.Add(reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Owner.Namespace, Name: a.Owner.Name}})
//			}
//		},
//		// CreateFunc: AffectedByChange(sources, nil, e.Object); DeleteFunc: AffectedByChange(sources, e.Object, nil).
//	}
//
// The result is sorted as AffectedBy's.
func AffectedByChange(sources []Source, old, new *corev1.ConfigMap) []Affected {
	if old == nil && new == nil {
		return nil
	}
	return affected(sources, func(s *Source) bool {
		reads, key := sourceReads(s)
		if reads == nil {
			return false
		}
		inOld, inNew := old != nil && reads(old), new != nil && reads(new)
		if inOld && inNew {
			return !sameKey(old, new, key)
		}
		return inOld || inNew
	})
}

// affected groups the sources hit by an event by owner, sorted.
func affected(sources []Source, hit func(*Source) bool) []Affected {
	var out []Affected
	at := map[model.ObjectRef]int{} // linear in the sources, whatever their number
	for i := range sources {
		s := &sources[i]
		if !hit(s) {
			continue
		}
		j, ok := at[s.Owner]
		if !ok {
			j = len(out)
			at[s.Owner] = j
			out = append(out, Affected{Owner: s.Owner})
		}
		if !slices.Contains(out[j].Entries, s.Entry) {
			out[j].Entries = append(out[j].Entries, s.Entry)
		}
	}
	for i := range out {
		slices.Sort(out[i].Entries)
	}
	slices.SortFunc(out, func(a, b Affected) int {
		return cmp.Or(
			strings.Compare(a.Owner.Namespace, b.Owner.Namespace),
			strings.Compare(a.Owner.Name, b.Owner.Name),
			strings.Compare(a.Owner.Kind, b.Owner.Kind),
			strings.Compare(a.Owner.APIVersion, b.Owner.APIVersion),
			strings.Compare(a.Owner.UID, b.Owner.UID),
		)
	})
	return out
}

// sourceReads returns whether the source reads a ConfigMap, and its key; nil
// for a source that reads no ConfigMap by selector or name.
func sourceReads(s *Source) (func(*corev1.ConfigMap) bool, string) {
	key := s.Key
	if key == "" {
		key = model.DefaultRegistryKey
	}
	switch {
	case s.Selector != nil && s.Name != "":
		return nil, key // an InvalidSelector error: merges nothing
	case s.Selector != nil:
		sel, err := Selector(s.Selector)
		if err != nil {
			return nil, key
		}
		return func(cm *corev1.ConfigMap) bool {
			return cm.Namespace == s.Namespace && !IsGenerated(cm) && sel.Matches(labels.Set(cm.Labels))
		}, key
	case s.Name != "":
		return func(cm *corev1.ConfigMap) bool {
			return cm.Namespace == s.Namespace && cm.Name == s.Name
		}, key
	}
	return nil, key
}

// sameKey reports whether key holds the same data in both ConfigMaps, in
// data and in binaryData.
func sameKey(a, b *corev1.ConfigMap, key string) bool {
	da, okA := a.Data[key]
	db, okB := b.Data[key]
	if okA != okB || da != db {
		return false
	}
	ba, okA := a.BinaryData[key]
	bb, okB := b.BinaryData[key]
	return okA == okB && bytes.Equal(ba, bb)
}
