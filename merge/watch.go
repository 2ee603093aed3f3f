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

// Affected names an MCPRegistry and the entries of it that must be merged
// again after a ConfigMap change.
type Affected struct {
	Registry model.ObjectRef
	// Entries are the entry names, sorted.
	Entries []string
}

// ConfigMapChange maps a ConfigMap event to the MCPRegistry entries that must
// reconcile. old is the state before (nil on create), new the state after (nil
// on delete). An entry is affected when the ConfigMap is in the MCPRegistry's
// namespace and its selector matches the old or the new labels (a generated
// ConfigMap never matches, as in selection; an empty or malformed selector
// matches nothing), or its configMapRef names it — unless both states are
// used and the entry's key holds the same data in both, since the merge
// would then give the same result (an update of another key, of an
// annotation, of an unrelated label). The result is sorted by namespace and
// name; a registry listed twice in registries is reported once.
func ConfigMapChange(old, new *corev1.ConfigMap, registries []*model.MCPRegistry) []Affected {
	byRef := map[model.ObjectRef]map[string]bool{}
	for _, reg := range registries {
		if reg == nil {
			continue
		}
		for i := range reg.Spec.Registries {
			c := &reg.Spec.Registries[i]
			if entryAffected(c, reg.Namespace, old, new) {
				ref := model.Ref(model.KindMCPRegistry, &reg.ObjectMeta)
				if byRef[ref] == nil {
					byRef[ref] = map[string]bool{}
				}
				byRef[ref][c.Name] = true
			}
		}
	}
	out := make([]Affected, 0, len(byRef))
	for ref, entries := range byRef {
		a := Affected{Registry: ref}
		for e := range entries {
			a.Entries = append(a.Entries, e)
		}
		slices.Sort(a.Entries)
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b Affected) int {
		return cmp.Or(strings.Compare(a.Registry.Namespace, b.Registry.Namespace), strings.Compare(a.Registry.Name, b.Registry.Name))
	})
	return out
}

func entryAffected(c *model.MCPRegistryConfig, namespace string, old, new *corev1.ConfigMap) bool {
	var uses func(cm *corev1.ConfigMap) bool
	var key string
	switch {
	case c.ConfigMapSelector != nil:
		sel, err := Selector(c.ConfigMapSelector.LabelSelector())
		if err != nil {
			return false
		}
		key = c.ConfigMapSelector.Key
		uses = func(cm *corev1.ConfigMap) bool {
			return cm != nil && cm.Namespace == namespace && !IsGenerated(cm) && sel.Matches(labels.Set(cm.Labels))
		}
	case c.ConfigMapRef != nil:
		name := c.ConfigMapRef.Name
		key = c.ConfigMapRef.Key
		uses = func(cm *corev1.ConfigMap) bool {
			return cm != nil && cm.Namespace == namespace && cm.Name == name
		}
	default:
		return false
	}
	inOld, inNew := uses(old), uses(new)
	if inOld && inNew {
		if key == "" {
			key = model.DefaultRegistryKey
		}
		return !sameKey(old, new, key)
	}
	return inOld || inNew
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
