package merge

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// Source is one merge, as plain values: which ConfigMaps to read, how to read
// them, how to settle conflicts and what to keep. It is what Merge, the watch
// mapping (AffectedBy, AffectedByChange), the sync decision (SyncInputFor)
// and the output ConfigMap (OutputConfigMap) take, so a consumer may keep
// its settings anywhere: flags, its own resource, a server's configuration.
// SourcesFor builds the sources of an MCPRegistry.
//
// The ConfigMaps are chosen by Selector (label-selected in Namespace, in
// name order), by Name (that one ConfigMap of Namespace), or, when both are
// unset, are all the ConfigMaps given to Merge, in the order given (the
// priority order). Selector and Name together are an InvalidSelector error.
type Source struct {
	// Owner is the object the merge is done for, such as the MCPRegistry,
	// with its APIVersion and UID when known: watch results name it (what a
	// reconcile request needs), the output ConfigMap's ownerReference points
	// at it, and diagnostics about the merge as a whole (InvalidSelector,
	// NoConfigMapsSelected, ConflictError, PartialSyncFailure,
	// InvalidFilter) are about it. When Kind is empty, a stand-in is used:
	// Kind "ConfigMapSelector" named by the selector, or the named
	// ConfigMap, or Kind "ConfigMapList" for explicit ConfigMaps.
	Owner model.ObjectRef
	// Entry names the source inside Owner (an MCPRegistry's
	// spec.registries[].name); "" for a source of its own.
	Entry string
	// Field is the path of the source's settings inside Owner, such as
	// "spec.registries[0]"; diagnostics about the selector, the format and
	// the filter use it as their field prefix.
	Field string

	// Namespace is where Selector or Name look; ConfigMaps of other
	// namespaces are never used then.
	Namespace string
	// Selector chooses ConfigMaps of Namespace by label. An empty selector
	// is an InvalidSelector error: it would select every ConfigMap.
	Selector *metav1.LabelSelector
	// Name chooses the one ConfigMap of Namespace with that name.
	Name string
	// Key is the ConfigMap key holding registry data; model.DefaultRegistryKey
	// when empty. It is read from data, else binaryData.
	Key string
	// Format forces a registry shape; model.FormatAuto detects it. A value
	// model.ParseFormat refuses is an UnknownFormat error.
	Format model.Format
	// Filter is applied after merging and renaming; nil keeps everything.
	Filter *model.RegistryFilter
	// Strategy settles conflicts; Options.Strategy when empty. A value
	// ParseStrategy refuses is a ConflictError: a misconfigured strategy
	// must not pick one silently.
	Strategy Strategy
	// Interval is the sync interval ("5m", "1h"); "" means sync on change
	// and on manual request only. Only the sync decision reads it.
	Interval string
}

// Options are the settings of a merge that are not about its sources.
type Options struct {
	// Strategy settles the conflicts of a Source that sets none (an
	// MCPRegistry has no field for it); StrategyPrefix when empty.
	Strategy Strategy
	// DefaultNamespace is the namespace given to legacy and list entries
	// without one; model.DefaultNamespace when empty.
	DefaultNamespace string
	// LastUpdated is written as meta.last_updated (RFC 3339, UTC); the
	// caller's clock, since the library reads none.
	LastUpdated time.Time
	// MaxOutputBytes is the size limit of the output ConfigMap;
	// MaxConfigMapSize when 0.
	MaxOutputBytes int
	// GeneratedBy is the value of GeneratedByLabel on the output ConfigMap
	// ForRegistry renders, naming the controller that writes it;
	// GeneratedByValue when empty. Selection skips ConfigMaps with any value
	// of the label, so changing it never makes a merge read its earlier
	// output.
	GeneratedBy string
	// MaxMetaSize is the size limit, in bytes, on an entry's
	// publisher-provided _meta as model.PublisherMetaSize measures it; an
	// entry over it is dropped with MetaTooLarge. 0 means
	// model.DefaultMaxMetaSize (ToolHive's registry server's default);
	// negative turns the check off.
	MaxMetaSize int
	// Parallel, when set, runs the reading of the selected ConfigMaps, which
	// are independent of each other: it must call read(i) once for each i
	// in [0, n) and return when all calls have returned, and may make them
	// concurrently (the library starts no goroutine itself). Each call
	// parses, validates and normalises one ConfigMap; combining them stays
	// sequential. The result does not depend on it. nil reads one
	// ConfigMap after another.
	Parallel func(n int, read func(i int))
}
