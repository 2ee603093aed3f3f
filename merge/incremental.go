package merge

import (
	corev1 "k8s.io/api/core/v1"
)

// Incremental keeps the merge of one Source up to date as its ConfigMaps
// change, the way an operator sees them: one created, updated or deleted
// ConfigMap at a time. It holds a snapshot of ConfigMaps, like an informer
// cache, and what the last merge read and settled; Result after one
// ConfigMap changed reads that ConfigMap only and settles again only the
// servers whose name several ConfigMaps define or whose remote URL several
// servers use, so its cost is about that ConfigMap's share of a full merge
// plus a copy of the list of servers, and the hashing of 32 bytes per
// server (see Hash).
//
// Result is always what Merge returns for the same Source, Options and
// snapshot — the ConfigMaps given to Update and not removed, in the order
// they were first given — byte for byte: the document, the hash, the
// diagnostics, the sources and the filtered names. Which ConfigMaps are
// merged is decided on every Result, so a relabelled ConfigMap joins or
// leaves the merge as it would in Merge.
//
// Rendering the document (Result.Document, OutputConfigMap) is not part of
// Result: it is proportional to the whole document, and a caller needs it
// only when the sync decision (SyncInputFor, DecideSync, with Result.Hash)
// says to write. meta.last_updated is Options.LastUpdated as given to
// NewIncremental; a caller that stamps each write with its time sets
// Result.Registry.LastUpdated, a value of that Result alone, before
// rendering (the content hash leaves it out).
//
// A ConfigMap is read again when it is not the object read before and not
// a copy of it with the same UID and resourceVersion, so a reconciler may
// give it every ConfigMap its cached client lists: the unchanged ones cost a
// comparison each. The ConfigMaps given to Update must not be modified
// afterwards (informer caches never modify theirs), and the servers of a
// Result are shared with later Results: do not modify them. An Incremental
// is a value the caller holds and does no I/O; it is not safe for
// concurrent use.
type Incremental struct {
	m *merger
	// cms is the snapshot, by namespace and name, and order the order in
	// which its ConfigMaps were first given.
	cms   map[objectKey]*corev1.ConfigMap
	order []objectKey
	// parts are the parts of the last merge by namespace and name.
	parts map[objectKey]*part
}

type objectKey struct{ namespace, name string }

// NewIncremental returns an Incremental merge of src with opts and an empty
// snapshot. The zero Incremental is that of the zero Source and Options.
func NewIncremental(src Source, opts Options) *Incremental {
	return &Incremental{m: newMerger(src, opts), cms: make(map[objectKey]*corev1.ConfigMap)}
}

// Update adds a ConfigMap to the snapshot or replaces the one of the same
// namespace and name: what an informer's add and update events give.
// Update of nil does nothing. The ConfigMap is read by the next Result, if
// the Source selects it.
func (inc *Incremental) Update(cm *corev1.ConfigMap) {
	if inc == nil || cm == nil {
		return
	}
	if inc.cms == nil {
		inc.cms = make(map[objectKey]*corev1.ConfigMap)
	}
	k := objectKey{cm.Namespace, cm.Name}
	if _, ok := inc.cms[k]; !ok {
		inc.order = append(inc.order, k)
	}
	if p := inc.parts[k]; p != nil && unchanged(p.cm, cm) {
		// Keep the object read, whose data the part's servers alias, and
		// let the copy go.
		cm = p.cm
	}
	inc.cms[k] = cm
}

// Remove takes the ConfigMap of that namespace and name out of the
// snapshot, if it is there: what an informer's delete event gives.
func (inc *Incremental) Remove(namespace, name string) {
	if inc == nil {
		return
	}
	k := objectKey{namespace, name}
	if _, ok := inc.cms[k]; !ok {
		return
	}
	delete(inc.cms, k)
	for i, o := range inc.order {
		if o == k {
			inc.order = append(inc.order[:i], inc.order[i+1:]...)
			break
		}
	}
}

// Result merges the snapshot as Merge would, reading only the ConfigMaps
// that are new or changed since the last Result (through Options.Parallel
// when set).
func (inc *Incremental) Result() Result {
	if inc == nil {
		return Result{}
	}
	if inc.m == nil {
		// The zero value merges as NewIncremental(Source{}, Options{}).
		inc.m = newMerger(Source{}, Options{})
	}
	snapshot := make([]*corev1.ConfigMap, len(inc.order))
	for i, k := range inc.order {
		snapshot[i] = inc.cms[k]
	}
	res := inc.m.run(snapshot, func(cm *corev1.ConfigMap) *part {
		if p := inc.parts[objectKey{cm.Namespace, cm.Name}]; p != nil && unchanged(p.cm, cm) {
			return p
		}
		return nil
	})
	inc.parts = make(map[objectKey]*part, len(inc.m.parts))
	for _, p := range inc.m.parts {
		inc.parts[objectKey{p.cm.Namespace, p.cm.Name}] = p
	}
	return res
}

// unchanged reports whether cm is the ConfigMap old was read from: the same
// object, or a copy with the same UID and resourceVersion, which the API
// server changes on every write. (An informer hands out the same object
// until it changes; a cached client's List hands out copies.)
func unchanged(old, cm *corev1.ConfigMap) bool {
	return old == cm || cm.ResourceVersion != "" && cm.ResourceVersion == old.ResourceVersion && cm.UID == old.UID
}
