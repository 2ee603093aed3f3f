package merge

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

func TestAffectedByChange(t *testing.T) {
	selReg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "all", Namespace: testNS},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{
			{Name: "teams", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels}},
			{Name: "platform", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: map[string]string{"reg": "true", "team": "platform"}}},
			{Name: "git", Git: &model.GitSource{Repository: "https://x"}},
			{Name: "broken", ConfigMapSelector: &model.ConfigMapSelector{}},
		}},
	}
	refReg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "core", Namespace: testNS},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{
			{Name: "core", ConfigMapRef: cmRef("core-servers", "servers.json")},
		}},
	}
	elsewhere := inNamespace(selReg, "elsewhere")
	registries := []*model.MCPRegistry{refReg, elsewhere, selReg, nil}

	labelled := func(name string, labels map[string]string, data string) *corev1.ConfigMap {
		return configMap(name, labels, data)
	}
	platform := map[string]string{"reg": "true", "team": "platform"}
	gen := labelled("out", map[string]string{"reg": "true", GeneratedByLabel: GeneratedByValue}, "{}")
	core := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "core-servers", Namespace: testNS}, Data: map[string]string{"servers.json": "{}"}}
	coreChanged := core.DeepCopy()
	coreChanged.Data["servers.json"] = `{"servers":[]}`
	coreOtherKey := core.DeepCopy()
	coreOtherKey.Data["notes"] = "x"

	all := model.ObjectRef{APIVersion: DefaultAPIVersion, Kind: "MCPRegistry", Namespace: testNS, Name: "all"}
	coreRef := model.ObjectRef{APIVersion: DefaultAPIVersion, Kind: "MCPRegistry", Namespace: testNS, Name: "core"}
	tests := []struct {
		name     string
		old, new *corev1.ConfigMap
		want     []Affected
	}{
		{"create matching", nil, labelled("a", regLabels, "{}"), []Affected{{all, []string{"teams"}}}},
		{"create matching both entries", nil, labelled("a", platform, "{}"), []Affected{{all, []string{"platform", "teams"}}}},
		{"delete matching", labelled("a", platform, "{}"), nil, []Affected{{all, []string{"platform", "teams"}}}},
		{"create unlabelled", nil, labelled("a", nil, "{}"), []Affected{}},
		{"label removed", labelled("a", regLabels, "{}"), labelled("a", nil, "{}"), []Affected{{all, []string{"teams"}}}},
		{"label added", labelled("a", regLabels, "{}"), labelled("a", platform, "{}"), []Affected{{all, []string{"platform"}}}},
		{"data changed", labelled("a", regLabels, "{}"), labelled("a", regLabels, "[]"), []Affected{{all, []string{"teams"}}}},
		{"nothing the merge reads changed", labelled("a", regLabels, "{}"), labelled("a", map[string]string{"reg": "true", "x": "y"}, "{}"), []Affected{}},
		{"generated ConfigMap", nil, gen, []Affected{}},
		{"other namespace", nil, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "zzz", Labels: regLabels}}, []Affected{}},
		{"configMapRef created", nil, core, []Affected{{coreRef, []string{"core"}}}},
		{"configMapRef key changed", core, coreChanged, []Affected{{coreRef, []string{"core"}}}},
		{"configMapRef other key changed", core, coreOtherKey, []Affected{}},
		{"nil and nil", nil, nil, []Affected{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := AffectedByChange(sourcesOf(registries), tt.old, tt.new)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// Order of sources does not matter; a registry listed twice is one.
			rev := sourcesOf([]*model.MCPRegistry{selReg, nil, selReg, elsewhere, refReg})
			if diff := cmp.Diff(got, AffectedByChange(rev, tt.old, tt.new), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("depends on the order of sources:\n%s", diff)
			}
			// The per-object form, called on each state, finds every owner the
			// update-aware form finds (and more on a no-op update).
			perObject := append(AffectedBy(rev, tt.old), AffectedBy(rev, tt.new)...)
			for _, a := range got {
				for _, e := range a.Entries {
					if !slices.ContainsFunc(perObject, func(b Affected) bool { return b.Owner == a.Owner && slices.Contains(b.Entries, e) }) {
						t.Errorf("AffectedBy misses %s entry %q", a.Owner, e)
					}
				}
			}
		})
	}
}

// sourcesOf collects the sources of MCPRegistries, as a watch mapping would
// from the cache.
func sourcesOf(regs []*model.MCPRegistry) []Source {
	var out []Source
	for _, r := range regs {
		srcs, _ := SourcesFor(r)
		out = append(out, srcs...)
	}
	return out
}

// TestAffectedBy checks the per-object form on plain sources, without an
// MCPRegistry: owners of any kind, a source without an entry name, explicit
// lists never affected.
func TestAffectedBy(t *testing.T) {
	owner := model.ObjectRef{APIVersion: "example.com/v1", Kind: "Catalog", Namespace: testNS, Name: "c", UID: "u"}
	sources := []Source{
		{Owner: owner, Namespace: testNS, Selector: regSelector},
		{Owner: owner, Entry: "named", Namespace: testNS, Name: "a"},
		{Owner: model.ObjectRef{Kind: "Catalog", Namespace: testNS, Name: "list"}, Namespace: testNS},
		{Owner: model.ObjectRef{Kind: "Catalog", Namespace: testNS, Name: "both"}, Namespace: testNS, Name: "a", Selector: regSelector},
	}
	got := AffectedBy(sources, configMap("a", regLabels, "{}"))
	want := []Affected{{Owner: owner, Entries: []string{"", "named"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := AffectedBy(sources, nil); len(got) != 0 {
		t.Errorf("nil ConfigMap: %v", got)
	}
	// A no-op update (another key, an unrelated label) yields nothing.
	old := configMap("a", regLabels, "{}")
	upd := old.DeepCopy()
	upd.Labels = map[string]string{"reg": "true", "x": "y"}
	upd.Data["other"] = "x"
	if got := AffectedByChange(sources, old, upd); len(got) != 0 {
		t.Errorf("no-op update: %v", got)
	}
}

// inNamespace copies an MCPRegistry into another namespace.
func inNamespace(r *model.MCPRegistry, ns string) *model.MCPRegistry {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	var c model.MCPRegistry
	if err := json.Unmarshal(b, &c); err != nil {
		panic(err)
	}
	c.Namespace = ns
	return &c
}
