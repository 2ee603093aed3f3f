package bench

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	goccyjson "github.com/goccy/go-json"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/bench/thway"
	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// The side-by-side merge of the README's Performance section: the same
// ConfigMaps merged (a) by mcpreg, the way an operator calls it, and (b) the
// way ToolHive's registry server handles a file source, with (c) json.Valid
// over the same bytes as the floor. This file holds the data and both
// pipelines; the benchmarks are in scale_bench_test.go and the tests that the
// two agree in scale_compat_test.go.

// scaleNamespace is the namespace of the MCPRegistry and the ConfigMaps.
const scaleNamespace = "toolhive-system"

// scaleNow is the merge's meta.last_updated.
var scaleNow = time.Date(2025, time.September, 1, 12, 0, 0, 0, time.UTC)

// scaleLabels mark the ConfigMaps the MCPRegistry selects.
var scaleLabels = map[string]string{"toolhive.stacklok.dev/registry": "teams"}

// scaleData is one generated data set, as the operator's informer cache
// holds it.
type scaleData struct {
	opts gen.ScaleOptions
	// cms are the ConfigMaps, the registry data under data["registry.json"].
	cms []*corev1.ConfigMap
	// raw are the same bytes as []byte, for the json.Valid floor.
	raw [][]byte
	// size is the number of bytes of registry data over all ConfigMaps, and
	// servers the number of entries.
	size    int64
	servers int
	// registry is the MCPRegistry whose entry selects the ConfigMaps and
	// filters names with gen.ScaleExclude.
	registry *model.MCPRegistry
}

func newScaleData(o gen.ScaleOptions) *scaleData {
	d := &scaleData{opts: o, registry: scaleRegistry()}
	for _, f := range gen.UpstreamFiles(o) {
		d.cms = append(d.cms, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: f.Name, Namespace: scaleNamespace, Labels: scaleLabels, ResourceVersion: "1"},
			Data:       map[string]string{model.DefaultRegistryKey: string(f.Data)},
		})
		d.raw = append(d.raw, f.Data)
		d.size += int64(len(f.Data))
		d.servers += f.Servers
	}
	return d
}

func scaleRegistry() *model.MCPRegistry {
	return &model.MCPRegistry{
		TypeMeta:   metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPRegistry"},
		ObjectMeta: metav1.ObjectMeta{Name: "teams", Namespace: scaleNamespace, UID: "6f1c9a52-3d0b-4b8e-9a51-0c2f4e7d8b13"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name:              "teams",
			ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: scaleLabels},
			Filter:            &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: gen.ScaleExclude}},
		}}},
	}
}

// scaleSets are the data sets, each generated once per process (the default
// one takes a few seconds).
var scaleSets = map[string]func() *scaleData{
	// The README's merge benchmark: 100 ConfigMaps, 100,000 servers, compact as
	// they must be to fit in a ConfigMap.
	"100k": sync.OnceValue(func() *scaleData { return newScaleData(gen.DefaultScale) }),
	// The same written indented, as hand-maintained files are (over the
	// ConfigMap limit at this size, but a merge must not depend on layout).
	"100k-indented": sync.OnceValue(func() *scaleData {
		o := gen.DefaultScale
		o.Indent = true
		return newScaleData(o)
	}),
	// A tenth of it, for tests and quick profiles.
	"10k": sync.OnceValue(func() *scaleData {
		return newScaleData(gen.ScaleOptions{Seed: 2, Files: 10, Servers: 10_000, Shared: 20})
	}),
}

// mcpregMerge is (a): what an operator does on every reconcile of the
// MCPRegistry — merge.ForRegistry over the ConfigMap snapshot — and the
// document it writes, the data of the output ConfigMap.
func mcpregMerge(d *scaleData) (merge.Result, string, error) {
	return mcpregMergeWith(d, nil)
}

// mcpregMergeWith is mcpregMerge with Options.Parallel set to parallel.
func mcpregMergeWith(d *scaleData, parallel func(n int, read func(i int))) (merge.Result, string, error) {
	res, err := merge.ForRegistry(d.registry, "teams", d.cms, merge.Options{LastUpdated: scaleNow, Parallel: parallel})
	if err != nil {
		return res, "", err
	}
	if res.ConfigMap == nil {
		return res, "", fmt.Errorf("no output ConfigMap: %v", res.Diagnostics.WithSeverity(model.SeverityError))
	}
	return res, res.ConfigMap.Data[merge.OutputKey], nil
}

// toolhiveMerge is (b): ToolHive's registry server's way with a file source,
// applied to every selected ConfigMap — encoding/json into toolhive-core's
// UpstreamRegistry, the servers concatenated, the name filter (package thway)
// over the decoded names, encoding/json out. It settles no conflicts (a name defined
// twice is served twice) and validates nothing.
func toolhiveMerge(d *scaleData) ([]byte, error) {
	f, err := thway.NewFilter(nil, d.registry.Spec.Registries[0].Filter.Names.Exclude)
	if err != nil {
		return nil, err
	}
	m := thway.NewMerger(f)
	for _, cm := range d.cms {
		if err := m.Add("ConfigMap "+cm.Name, []byte(cm.Data[model.DefaultRegistryKey])); err != nil {
			return nil, err
		}
	}
	return json.Marshal(m.Registry(scaleNow))
}

// validFloor is (c): json.Valid over the same bytes.
func validFloor(d *scaleData) error {
	for i, b := range d.raw {
		if !json.Valid(b) {
			return fmt.Errorf("ConfigMap %s is not JSON", d.cms[i].Name)
		}
	}
	return nil
}

// validFast is (d): goccy/go-json's Valid over the same bytes, a validating
// scan several times faster than encoding/json's: the floor a merge that
// must read every byte cannot beat by much.
func validFast(d *scaleData) error {
	for i, b := range d.raw {
		if !goccyjson.Valid(b) {
			return fmt.Errorf("ConfigMap %s is not JSON", d.cms[i].Name)
		}
	}
	return nil
}
