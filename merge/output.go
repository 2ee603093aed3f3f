package merge

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/naming"
)

// Keys and limits of the output ConfigMap.
const (
	// OutputKey is the data key of the output ConfigMap, the file name the
	// registry server reads when the ConfigMap is mounted.
	OutputKey = model.DefaultRegistryKey
	// HashAnnotation holds the content hash (Hash) of the document, so the
	// operator can tell whether a write would change anything.
	HashAnnotation = "toolhive.stacklok.dev/registry-hash"
	// EntryAnnotation names the MCPRegistry entry the ConfigMap was merged for.
	EntryAnnotation = "toolhive.stacklok.dev/registry-entry"
	// FilterHashAnnotation holds FilterHash of the entry's filter at the
	// merge, to tell a changed filter at the next sync decision.
	FilterHashAnnotation = "toolhive.stacklok.dev/filter-hash"
	// MaxConfigMapSize is the most data a ConfigMap may hold (1 MiB), the
	// limit the API server enforces on the sum of keys and values.
	MaxConfigMapSize = 1 << 20
	// DefaultAPIVersion is the MCPRegistry API version of the ownerReference
	// when the snapshot does not say.
	DefaultAPIVersion = model.ToolHiveGroup + "/v1alpha1"
)

// OutputConfigMapName is the name of the output ConfigMap of an MCPRegistry
// entry: "{registry}-{entry}-merged", made a valid DNS subdomain by
// naming.DNSSubdomain (unchanged when it already is one), so that each entry
// of each MCPRegistry gets its own.
func OutputConfigMapName(registry, entry string) string {
	return naming.DNSSubdomain(registry, entry, "merged")
}

// OutputConfigMap renders the ConfigMap an operator writes for the merge of
// src: in src.Namespace, named OutputConfigMapName(src.Owner.Name,
// src.Entry), the document under OutputKey, labelled
// GeneratedByLabel=GeneratedByValue, and with a controller ownerReference to
// src.Owner (its apiVersion, DefaultAPIVersion when empty), so that it is
// deleted with it.
//
// The ConfigMap is where the per-entry sync state is kept: HashAnnotation
// holds the content hash of the document (Result.Hash), FilterHashAnnotation
// the hash of src.Filter (FilterHash; absent without a filter) and
// EntryAnnotation the entry. One output ConfigMap per entry, each entry's
// hashes on its own ConfigMap: ToolHive's MCPRegistry status has room for
// one hash of each only, for the registry as a whole. SyncInputFor reads
// them back.
//
// doc is the document (ForRegistry writes it compact). When the key and the
// document are more than maxBytes (MaxConfigMapSize when 0), the ConfigMap is
// still returned with an OutputTooLarge error diagnostic: the API server
// would refuse it. An owner without a Kind, Name or UID is an error and no
// ConfigMap: the API server refuses an ownerReference without a UID.
func OutputConfigMap(src Source, doc []byte, hash string, maxBytes int) (*corev1.ConfigMap, model.Diagnostics, error) {
	return outputConfigMap(src, string(doc), hash, maxBytes)
}

// Render renders the output ConfigMap of the result for src, as ForRegistry
// does (see OutputConfigMap): the document as compact JSON and a newline,
// with meta.last_updated as r.Registry holds it, the content hash r.Hash,
// GeneratedByLabel set to opts.GeneratedBy, and the size limit
// opts.MaxOutputBytes. A caller of Incremental renders with it when the sync
// decision says to write, having stamped r.Registry.LastUpdated with the time
// of the write. It is an error when the merge produced no registry (an Error
// diagnostic stopped it), for an owner without a UID, and for an
// opts.GeneratedBy that is not a valid label value.
func (r *Result) Render(src Source, opts Options) (*corev1.ConfigMap, model.Diagnostics, error) {
	if err := checkGeneratedBy(opts); err != nil {
		return nil, nil, err
	}
	if r == nil || r.Registry == nil {
		return nil, nil, fmt.Errorf("output ConfigMap of entry %q: the merge produced no registry to render", src.Entry)
	}
	// One allocation of the exact size (WriteTo grows the builder, which
	// does not zero it, and String does not copy it).
	var doc strings.Builder
	_, _ = r.Registry.WriteTo(&doc)
	doc.WriteByte('\n')
	cm, ds, err := outputConfigMap(src, doc.String(), r.Hash, opts.MaxOutputBytes)
	if err != nil {
		return nil, nil, err
	}
	if opts.GeneratedBy != "" {
		cm.Labels[GeneratedByLabel] = opts.GeneratedBy
	}
	return cm, ds, nil
}

// checkGeneratedBy refuses an Options.GeneratedBy that cannot be a label
// value.
func checkGeneratedBy(opts Options) error {
	if errs := validation.IsValidLabelValue(opts.GeneratedBy); len(errs) > 0 {
		return fmt.Errorf("merge options: GeneratedBy %q is not a valid label value: %s", opts.GeneratedBy, strings.Join(errs, "; "))
	}
	return nil
}

func outputConfigMap(src Source, doc string, hash string, maxBytes int) (*corev1.ConfigMap, model.Diagnostics, error) {
	owner := src.Owner
	switch {
	case owner.Kind == "" || owner.Name == "":
		return nil, nil, fmt.Errorf("output ConfigMap of entry %q: the source has no owner object", src.Entry)
	case owner.UID == "":
		return nil, nil, fmt.Errorf("output ConfigMap of %s entry %q: the owner has no UID (read it from the API server); an ownerReference without one is refused", owner, src.Entry)
	}
	if maxBytes <= 0 {
		maxBytes = MaxConfigMapSize
	}
	apiVersion := owner.APIVersion
	if apiVersion == "" {
		apiVersion = DefaultAPIVersion
	}
	annotations := map[string]string{HashAnnotation: hash, EntryAnnotation: src.Entry}
	if fh := FilterHash(src.Filter); fh != "" {
		annotations[FilterHashAnnotation] = fh
	}
	yes := true
	cm := &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        OutputConfigMapName(owner.Name, src.Entry),
			Namespace:   src.Namespace,
			Labels:      map[string]string{GeneratedByLabel: GeneratedByValue},
			Annotations: annotations,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion:         apiVersion,
				Kind:               owner.Kind,
				Name:               owner.Name,
				UID:                types.UID(owner.UID),
				Controller:         &yes,
				BlockOwnerDeletion: &yes,
			}},
		},
		Data: map[string]string{OutputKey: doc},
	}
	return cm, tooLarge(&cm.ObjectMeta, len(doc), maxBytes), nil
}

// tooLarge is the OutputTooLarge Error of an output ConfigMap whose
// document is docLen bytes, nil when it fits in maxBytes
// (MaxConfigMapSize when 0).
func tooLarge(meta *metav1.ObjectMeta, docLen, maxBytes int) model.Diagnostics {
	if maxBytes <= 0 {
		maxBytes = MaxConfigMapSize
	}
	if size := len(OutputKey) + docLen; size > maxBytes {
		return model.Diagnostics{model.Errorf(model.ReasonOutputTooLarge, model.FullRef("v1", "ConfigMap", meta), "data["+OutputKey+"]",
			"the merged registry is %d bytes; a ConfigMap holds at most %d", size, maxBytes)}
	}
	return nil
}
