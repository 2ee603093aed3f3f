package merge

import (
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/model"
)

// Options are the settings of ForRegistry that the MCPRegistry does not hold.
type Options struct {
	// Strategy settles conflicts; StrategyPrefix when empty.
	Strategy Strategy
	// DefaultNamespace is the namespace of legacy and list entries without
	// one; model.DefaultNamespace when empty.
	DefaultNamespace string
	// LastUpdated is written as meta.last_updated.
	LastUpdated time.Time
	// MaxOutputBytes is the size limit of the output ConfigMap;
	// MaxConfigMapSize when 0.
	MaxOutputBytes int
	// MaxMetaSize is the size limit on an entry's publisher-provided
	// _meta (see Input.MaxMetaSize).
	MaxMetaSize int
}

// HasConfigMapSource reports whether a registry entry reads ConfigMaps.
func HasConfigMapSource(c *model.MCPRegistryConfig) bool {
	return c.ConfigMapRef != nil || c.ConfigMapSelector != nil
}

// ConfigMapEntry finds the entry of reg to merge: the one named entry, or,
// when entry is "", the only entry with a ConfigMap source. The error says
// why none fits, listing the candidates.
func ConfigMapEntry(reg *model.MCPRegistry, entry string) (int, error) {
	ref := model.Ref(model.KindMCPRegistry, &reg.ObjectMeta)
	var candidates []string
	var at []int
	for i := range reg.Spec.Registries {
		c := &reg.Spec.Registries[i]
		if entry != "" && c.Name == entry {
			if !HasConfigMapSource(c) {
				return -1, fmt.Errorf("%s: entry %q has no ConfigMap source (configMapRef or configMapSelector)", ref, entry)
			}
			return i, nil
		}
		if HasConfigMapSource(c) {
			candidates = append(candidates, fmt.Sprintf("%q", c.Name))
			at = append(at, i)
		}
	}
	switch {
	case entry != "":
		return -1, fmt.Errorf("%s has no entry %q (entries with a ConfigMap source: %s)", ref, entry, orNone(candidates))
	case len(at) == 1:
		return at[0], nil
	case len(at) == 0:
		return -1, fmt.Errorf("%s has no entry with a ConfigMap source (configMapRef or configMapSelector)", ref)
	}
	return -1, fmt.Errorf("%s has %d entries with a ConfigMap source (%s); name one", ref, len(at), strings.Join(candidates, ", "))
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// ForRegistry merges the ConfigMaps an MCPRegistry entry selects (or names)
// from the snapshot configMaps, applying the entry's format, key and filter,
// and renders the output ConfigMap (OutputConfigMap) when a registry results,
// holding the document as compact JSON and a newline: the reader of the file
// is ToolHive's registry server, and compact JSON of registry entries takes
// about 40% fewer bytes than indented, which matters under the 1 MiB a
// ConfigMap holds.
// entry may be "" when exactly one entry has a ConfigMap source. The error is
// for an entry that cannot be merged at all (missing, several candidates, no
// ConfigMap source, or both configMapRef and configMapSelector); everything
// about the data is a diagnostic on the MCPRegistry or a ConfigMap.
func ForRegistry(reg *model.MCPRegistry, entry string, configMaps []*corev1.ConfigMap, opts Options) (Result, error) {
	i, err := ConfigMapEntry(reg, entry)
	if err != nil {
		return Result{}, err
	}
	c := &reg.Spec.Registries[i]
	owner := model.Ref(model.KindMCPRegistry, &reg.ObjectMeta)
	if c.ConfigMapRef != nil && c.ConfigMapSelector != nil {
		return Result{}, fmt.Errorf("%s: entry %q sets both configMapRef and configMapSelector; exactly one source is allowed", owner, c.Name)
	}
	field := fmt.Sprintf("spec.registries[%d]", i)
	in := Input{
		Owner:            owner,
		OwnerField:       field,
		Namespace:        reg.Namespace,
		ConfigMaps:       configMaps,
		DefaultNamespace: opts.DefaultNamespace,
		Strategy:         opts.Strategy,
		Filter:           c.Filter,
		LastUpdated:      opts.LastUpdated,
		MaxMetaSize:      opts.MaxMetaSize,
	}
	if c.ConfigMapSelector != nil {
		in.Selector = c.ConfigMapSelector.LabelSelector()
		in.Key = c.ConfigMapSelector.Key
	} else {
		in.Name = c.ConfigMapRef.Name
		in.Key = c.ConfigMapRef.Key
		if in.Name == "" {
			return Result{Diagnostics: model.Diagnostics{model.Errorf(model.ReasonInvalidSelector, owner, field+".configMapRef.name",
				"entry %q: configMapRef has no name", c.Name)}}, nil
		}
	}
	format, err := model.ParseFormat(c.Format)
	if err != nil {
		return Result{Diagnostics: model.Diagnostics{model.Errorf(model.ReasonUnknownFormat, owner, field+".format",
			"entry %q: %v", c.Name, err)}}, nil
	}
	in.Format = format
	res, doc := merge(in, true)
	if res.Registry != nil {
		cm, ds := outputConfigMap(reg, c.Name, doc, res.Hash, opts.MaxOutputBytes)
		res.ConfigMap = cm
		if len(ds) > 0 {
			res.Diagnostics = append(res.Diagnostics, ds...)
			res.Diagnostics.Sort()
		}
	}
	return res, nil
}
