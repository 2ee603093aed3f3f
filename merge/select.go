package merge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/mcpreg/mcpreg/internal/labelsel"
	"github.com/mcpreg/mcpreg/model"
)

// GeneratedByLabel marks the ConfigMaps the library renders (OutputConfigMap)
// with the value GeneratedByValue, or Options.GeneratedBy. Selection never
// picks a ConfigMap carrying this label with any non-empty value, whatever
// its other labels, so a merge cannot feed on its own output or another
// generator's, however each names itself.
const (
	GeneratedByLabel = "toolhive.stacklok.dev/generated-by"
	GeneratedByValue = "mcpreg"
)

// IsGenerated reports whether a ConfigMap is the output of a merge or other
// registry storage owned by an MCPRegistry: it carries GeneratedByLabel, with any
// value (the empty one too), or its controller ownerReference is an MCPRegistry (as
// ToolHive's own registry storage ConfigMap is). Such ConfigMaps hold merged
// data and are never selected by a label selector.
func IsGenerated(cm *corev1.ConfigMap) bool {
	if cm == nil {
		return false
	}
	// Any value, the empty one included: the label's presence is the mark.
	if _, ok := cm.Labels[GeneratedByLabel]; ok {
		return true
	}
	for _, o := range cm.OwnerReferences {
		if o.Controller != nil && *o.Controller && o.Kind == model.KindMCPRegistry &&
			strings.HasPrefix(o.APIVersion, model.ToolHiveGroup+"/") {
			return true
		}
	}
	return false
}

// Selector converts a ConfigMap selector into a labels.Selector. An empty
// selector (no matchLabels and no matchExpressions) is an error: it would
// select every ConfigMap of the namespace.
func Selector(ls *metav1.LabelSelector) (labels.Selector, error) {
	if ls == nil || len(ls.MatchLabels) == 0 && len(ls.MatchExpressions) == 0 {
		return nil, errEmptySelector
	}
	sel, err := metav1.LabelSelectorAsSelector(ls)
	if err != nil {
		return nil, err
	}
	// A selector may list many values, and every ConfigMap of the
	// namespace is matched against it.
	return labelsel.Fast(sel), nil
}

type selectorError string

func (e selectorError) Error() string { return string(e) }

const errEmptySelector = selectorError("the selector is empty (no matchLabels and no matchExpressions); it would select every ConfigMap of the namespace")

// selectSources returns the ConfigMaps to merge in merge order. ok is false
// when an Error diagnostic stops the merge.
func (m *merger) selectSources(snapshot []*corev1.ConfigMap) (cms []*corev1.ConfigMap, ok bool) {
	in := &m.in
	if in.Selector != nil && in.Name != "" {
		m.ds = append(m.ds, model.Errorf(model.ReasonInvalidSelector, m.owner, m.ownerField(""),
			"both a label selector and a ConfigMap name are set; choose one"))
		return nil, false
	}
	switch {
	case in.Selector != nil:
		sel, err := Selector(in.Selector)
		if err != nil {
			m.ds = append(m.ds, model.Errorf(model.ReasonInvalidSelector, m.owner, m.ownerField("configMapSelector"),
				"invalid selector: %v", err))
			return nil, false
		}
		// The copies of one ConfigMap are settled before the selector is
		// asked: a snapshot holding an older copy that carried the labels and
		// a newer one that no longer does must not merge the stale copy.
		var inNamespace []*corev1.ConfigMap
		for _, cm := range snapshot {
			if cm != nil && cm.Namespace == in.Namespace {
				inNamespace = append(inNamespace, cm)
			}
		}
		var generated []string
		kept, dds := dedupe(inNamespace, func(cm *corev1.ConfigMap) bool { return sel.Matches(labels.Set(cm.Labels)) })
		m.ds = append(m.ds, dds...)
		for _, cm := range kept {
			if sel.Matches(labels.Set(cm.Labels)) {
				if IsGenerated(cm) {
					// Bounded by the number of ConfigMaps given.
					generated = append(generated, cm.Name)
					continue
				}
				cms = append(cms, cm)
			}
		}
		sortConfigMaps(cms)
		switch {
		case len(cms) == 0 && len(generated) > 0:
			slices.Sort(generated)
			generated = slices.Compact(generated)
			m.ds = append(m.ds, model.Warningf(model.ReasonNoConfigMapsSelected, m.owner, m.ownerField("configMapSelector"),
				"selector %q in namespace %q matches only ConfigMaps this library generated (%s), which are never merged; the registry is empty",
				sel.String(), in.Namespace, model.Text(capNames(generated, 5))))
		case len(cms) == 0:
			m.ds = append(m.ds, model.Warningf(model.ReasonNoConfigMapsSelected, m.owner, m.ownerField("configMapSelector"),
				"no ConfigMap in namespace %q matches selector %q; the registry is empty", in.Namespace, sel.String()))
		}
	case in.Name != "":
		for _, cm := range snapshot {
			if cm != nil && cm.Namespace == in.Namespace && cm.Name == in.Name {
				cms = append(cms, cm)
			}
		}
		var dds model.Diagnostics
		cms, dds = dedupe(cms, nil)
		m.ds = append(m.ds, dds...)
		if len(cms) == 0 {
			m.ds = append(m.ds, model.Warningf(model.ReasonNoConfigMapsSelected, m.owner, m.ownerField("configMapRef"),
				"ConfigMap %s/%s not found; the registry is empty", in.Namespace, in.Name))
		}
	default:
		for _, cm := range snapshot {
			if cm != nil {
				cms = append(cms, cm)
			}
		}
		var dds model.Diagnostics
		cms, dds = dedupe(cms, nil)
		m.ds = append(m.ds, dds...)
		if len(cms) == 0 {
			m.ds = append(m.ds, model.Warningf(model.ReasonNoConfigMapsSelected, m.owner, m.ownerField(""),
				"no ConfigMap given; the registry is empty"))
		}
	}
	return cms, true
}

// dedupe keeps one object per namespace/name, at the position of its first
// occurrence: the newer by resourceVersion, then the greater JSON encoding,
// so that the choice does not depend on the order of the snapshot. Each
// copy it ignores whose data or labels differ from the one kept is a
// DuplicateName warning, as discovery reports copies of other kinds: the
// servers only that copy defines are not merged. matters, when not nil,
// limits the warnings to the objects a selector concerns (either copy
// matching it). A second pass over cms only when it holds copies.
func dedupe(cms []*corev1.ConfigMap, matters func(*corev1.ConfigMap) bool) ([]*corev1.ConfigMap, model.Diagnostics) {
	if len(cms) < 2 {
		return cms, nil
	}
	type key struct{ ns, name string }
	at := make(map[key]int, len(cms))
	out := cms[:0:0]
	dups := false
	for _, cm := range cms {
		k := key{cm.Namespace, cm.Name}
		i, dup := at[k]
		if !dup {
			at[k] = len(out)
			out = append(out, cm)
			continue
		}
		dups = true
		if newer(cm, out[i]) {
			out[i] = cm
		}
	}
	if !dups {
		return out, nil
	}
	var ds model.Diagnostics
	for _, cm := range cms {
		if kept := out[at[key{cm.Namespace, cm.Name}]]; cm != kept {
			ds = append(ds, ignoredCopy(cm, kept, matters)...)
		}
	}
	return out, ds
}

// ignoredCopy is the DuplicateName warning for other, a copy of kept that
// the merge ignores, or nothing when the two hold the same data and labels or
// matters says neither concerns the merge.
func ignoredCopy(other, kept *corev1.ConfigMap, matters func(*corev1.ConfigMap) bool) model.Diagnostics {
	if matters != nil && !matters(other) && !matters(kept) {
		return nil
	}
	if maps.Equal(other.Data, kept.Data) && maps.EqualFunc(other.BinaryData, kept.BinaryData, bytes.Equal) && maps.Equal(other.Labels, kept.Labels) {
		return nil
	}
	ref := model.FullRef("v1", "ConfigMap", &other.ObjectMeta)
	if other.ResourceVersion != kept.ResourceVersion {
		return model.Diagnostics{model.Warningf(model.ReasonDuplicateName, ref, "",
			"ConfigMap %s/%s appears more than once in the snapshot with different content; the copy of resourceVersion %q stands for it, this one (resourceVersion %q) is ignored",
			other.Namespace, other.Name, kept.ResourceVersion, other.ResourceVersion)}
	}
	return model.Diagnostics{model.Warningf(model.ReasonDuplicateName, ref, "",
		"ConfigMap %s/%s appears more than once in the snapshot with different content and the same resourceVersion; the other copy stands for it (the same whatever the input order), this one is ignored",
		other.Namespace, other.Name)}
}

// newer reports whether a should replace b, a version of the same object.
func newer(a, b *corev1.ConfigMap) bool {
	if a.ResourceVersion != b.ResourceVersion {
		ra, errA := strconv.ParseUint(a.ResourceVersion, 10, 64)
		rb, errB := strconv.ParseUint(b.ResourceVersion, 10, 64)
		if errA == nil && errB == nil {
			return ra > rb
		}
		return a.ResourceVersion > b.ResourceVersion
	}
	ja, _ := json.Marshal(a) // ConfigMaps always encode; map keys come out sorted
	jb, _ := json.Marshal(b)
	return bytes.Compare(ja, jb) > 0
}

// sortConfigMaps orders selected ConfigMaps by name, the merge order of a
// selector, so that a priority conflict strategy has a stable, visible order.
func sortConfigMaps(cms []*corev1.ConfigMap) {
	// Names are unique after dedupe: all are in one namespace.
	slices.SortFunc(cms, func(a, b *corev1.ConfigMap) int { return strings.Compare(a.Name, b.Name) })
}

// capNames lists at most n names, quoted, and how many more there are.
func capNames(names []string, n int) string {
	var b strings.Builder
	for i, name := range names {
		if i == n {
			fmt.Fprintf(&b, " and %d more", len(names)-n)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(string(model.Sprintf("%q", name)))
	}
	return b.String()
}
