package merge

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

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

// OutputConfigMap renders the ConfigMap an operator writes for a merge of an
// MCPRegistry entry: in the MCPRegistry's namespace, named by
// OutputConfigMapName, the document under OutputKey, labelled
// GeneratedByLabel=GeneratedByValue, annotated with the hash and the entry,
// and with a controller ownerReference to the MCPRegistry (its apiVersion
// from the snapshot's TypeMeta, else DefaultAPIVersion; its UID when the
// snapshot has one), so that it is deleted with it.
//
// doc is the document (ForRegistry writes it compact). When the key and the
// document are more than maxBytes (MaxConfigMapSize when 0), the ConfigMap is
// still returned with an OutputTooLarge error: the API server would refuse it.
func OutputConfigMap(reg *model.MCPRegistry, entry string, doc []byte, hash string, maxBytes int) (*corev1.ConfigMap, model.Diagnostics) {
	return outputConfigMap(reg, entry, string(doc), hash, maxBytes)
}

func outputConfigMap(reg *model.MCPRegistry, entry string, doc string, hash string, maxBytes int) (*corev1.ConfigMap, model.Diagnostics) {
	if maxBytes <= 0 {
		maxBytes = MaxConfigMapSize
	}
	apiVersion := reg.APIVersion
	if apiVersion == "" {
		apiVersion = DefaultAPIVersion
	}
	yes := true
	cm := &corev1.ConfigMap{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{
			Name:        OutputConfigMapName(reg.Name, entry),
			Namespace:   reg.Namespace,
			Labels:      map[string]string{GeneratedByLabel: GeneratedByValue},
			Annotations: map[string]string{HashAnnotation: hash, EntryAnnotation: entry},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion:         apiVersion,
				Kind:               model.KindMCPRegistry,
				Name:               reg.Name,
				UID:                reg.UID,
				Controller:         &yes,
				BlockOwnerDeletion: &yes,
			}},
		},
		Data: map[string]string{OutputKey: doc},
	}
	var ds model.Diagnostics
	if size := len(OutputKey) + len(doc); size > maxBytes {
		ds = append(ds, model.Errorf(model.ReasonOutputTooLarge, model.Ref("ConfigMap", &cm.ObjectMeta), "data["+OutputKey+"]",
			"the merged registry is %d bytes; a ConfigMap holds at most %d", size, maxBytes))
	}
	return cm, ds
}
