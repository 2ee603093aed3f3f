package controller

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// merges keeps one merge.Incremental per MCPRegistry entry across
// reconciles, so that a reconcile reads again only the ConfigMaps that
// changed since the last one (each unchanged ConfigMap the cached client
// lists costs a comparison of UID and resourceVersion) and renders the
// output document only when the sync decision says to write it.
//
// An entry's Incremental is dropped when the MCPRegistry's generation
// changes (its spec, and so the entry's Source, may have changed) and when
// the MCPRegistry is gone. Reconciles of one MCPRegistry never run at once
// (controller-runtime serialises them per object), so the mutex guards the
// map only.
type merges struct {
	mu sync.Mutex
	m  map[types.NamespacedName]*registryMerges
}

// registryMerges are the incremental merges of one MCPRegistry.
type registryMerges struct {
	uid        types.UID
	generation int64
	entries    map[string]*entryMerge
}

// entryMerge is the incremental merge of one entry and the names of the
// ConfigMaps given to it, to remove those that are gone.
type entryMerge struct {
	inc       *merge.Incremental
	namespace string
	given     map[string]bool
}

// forget drops the merges of a deleted MCPRegistry.
func (ms *merges) forget(key types.NamespacedName) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	delete(ms.m, key)
}

// entry returns the incremental merge of one entry of reg, new when reg
// is new, was recreated (another UID) or changed generation.
func (ms *merges) entry(reg *model.MCPRegistry, src merge.Source, opts merge.Options) *entryMerge {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	key := types.NamespacedName{Namespace: reg.Namespace, Name: reg.Name}
	rm := ms.m[key]
	if rm == nil || rm.uid != reg.UID || rm.generation != reg.Generation {
		rm = &registryMerges{uid: reg.UID, generation: reg.Generation, entries: map[string]*entryMerge{}}
		if ms.m == nil {
			ms.m = map[types.NamespacedName]*registryMerges{}
		}
		ms.m[key] = rm
	}
	em := rm.entries[src.Entry]
	if em == nil {
		em = &entryMerge{inc: merge.NewIncremental(src, opts), namespace: reg.Namespace, given: map[string]bool{}}
		rm.entries[src.Entry] = em
	}
	return em
}

// result brings the merge up to date with the ConfigMaps listed in the
// MCPRegistry's namespace and returns it: what merge.Merge returns for them.
// The order of the removals does not matter: a Source's ConfigMaps are
// merged in name order.
func (em *entryMerge) result(cms []*corev1.ConfigMap) merge.Result {
	listed := make(map[string]bool, len(cms))
	for _, cm := range cms {
		listed[cm.Name] = true
		em.inc.Update(cm)
	}
	for name := range em.given {
		if !listed[name] {
			em.inc.Remove(em.namespace, name)
		}
	}
	em.given = listed
	return em.inc.Result()
}

// render is the output ConfigMap of a result, as merge.ForRegistry renders
// it, stamped with now, and the diagnostics of rendering (an OutputTooLarge
// error when the document does not fit in a ConfigMap).
func render(src merge.Source, res *merge.Result, now string, opts merge.Options) (*corev1.ConfigMap, model.Diagnostics, error) {
	// Result.Registry is this Result's own value (its servers are shared
	// with later Results and are not modified), so stamping it is safe.
	res.Registry.LastUpdated = now
	return res.Render(src, opts)
}
