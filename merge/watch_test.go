package merge

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

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

// TestPropertyAffectedByChangeCoversMerges: for a random change of one
// ConfigMap of a random snapshot, every source whose merge differs before and
// after (document or diagnostics) is in AffectedByChange's result, and in
// AffectedBy's for the old or the new state. Over-approximation is allowed;
// missing a source is the bug.
func TestPropertyAffectedByChangeCoversMerges(t *testing.T) {
	owner := func(name string) model.ObjectRef {
		return model.ObjectRef{APIVersion: DefaultAPIVersion, Kind: model.KindMCPRegistry, Namespace: testNS, Name: name, UID: "u-" + name}
	}
	sources := []Source{
		{Owner: owner("all"), Entry: "teams", Namespace: testNS, Selector: regSelector},
		{Owner: owner("all"), Entry: "red", Namespace: testNS, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"reg": "true", "team": "red"}}},
		{Owner: owner("ref"), Entry: "one", Namespace: testNS, Name: "cm-1", Key: "servers.json"},
		{Owner: owner("expr"), Entry: "not-blue", Namespace: testNS, Selector: &metav1.LabelSelector{
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"blue"}}}}},
	}
	docs := []string{
		upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"}),
		upstreamDoc(testServer{Name: "io.ex/aa", ID: "b"}, testServer{Name: "io.ex/bb", ID: "c"}),
		`{"servers": [{"name": "cc", "image": "ghcr.io/ex/cc:1"}]}`,
		"not json",
	}
	genCM := func(t *rapid.T, name string) *corev1.ConfigMap {
		cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, Labels: map[string]string{}}, Data: map[string]string{}}
		if rapid.Bool().Draw(t, "reg") {
			cm.Labels["reg"] = "true"
		}
		if team := rapid.SampledFrom([]string{"", "red", "blue"}).Draw(t, "team"); team != "" {
			cm.Labels["team"] = team
		}
		if rapid.Bool().Draw(t, "generated") {
			cm.Labels[GeneratedByLabel] = GeneratedByValue
		}
		for _, key := range []string{model.DefaultRegistryKey, "servers.json", "notes"} {
			if rapid.Bool().Draw(t, "has "+key) {
				cm.Data[key] = rapid.SampledFrom(docs).Draw(t, key)
			}
		}
		return cm
	}
	rapid.Check(t, func(t *rapid.T) {
		names := []string{"cm-0", "cm-1", "cm-2"}
		var before []*corev1.ConfigMap
		for _, n := range names {
			if rapid.Bool().Draw(t, "exists "+n) {
				before = append(before, genCM(t, n))
			}
		}
		name := rapid.SampledFrom(names).Draw(t, "changed")
		var old, new *corev1.ConfigMap
		var after []*corev1.ConfigMap
		for _, cm := range before {
			if cm.Name == name {
				old = cm
			} else {
				after = append(after, cm)
			}
		}
		if old == nil || rapid.Bool().Draw(t, "keep") {
			new = genCM(t, name)
			if old != nil && rapid.Bool().Draw(t, "small change") {
				// Change one thing only: often nothing the merge reads.
				new = old.DeepCopy()
				switch rapid.IntRange(0, 2).Draw(t, "what") {
				case 0:
					new.Annotations = map[string]string{"note": "x"}
				case 1:
					new.Data["notes"] = "changed"
				case 2:
					new.Labels["team"] = "red"
				}
			}
			after = append(after, new)
		}
		got := AffectedByChange(sources, old, new)
		perObject := append(AffectedBy(sources, old), AffectedBy(sources, new)...)
		has := func(list []Affected, s Source) bool {
			return slices.ContainsFunc(list, func(a Affected) bool { return a.Owner == s.Owner && slices.Contains(a.Entries, s.Entry) })
		}
		for _, s := range sources {
			a, b := Merge(s, before, Options{LastUpdated: now}), Merge(s, after, Options{LastUpdated: now})
			// Messages aside: a MissingKey message lists the keys the
			// ConfigMap has, which a change of another key alters without
			// changing what the merge reads.
			if string(a.Document()) == string(b.Document()) && cmp.Equal(withoutMessages(a.Diagnostics), withoutMessages(b.Diagnostics)) {
				continue
			}
			if !has(got, s) {
				t.Fatalf("the merge of %s entry %q changed, but AffectedByChange(%v -> %v) = %v", s.Owner, s.Entry, old, new, got)
			}
			if !has(perObject, s) {
				t.Fatalf("the merge of %s entry %q changed, but AffectedBy of either state = %v", s.Owner, s.Entry, perObject)
			}
		}
	})
}

func withoutMessages(ds model.Diagnostics) model.Diagnostics {
	out := slices.Clone(ds)
	for i := range out {
		out[i].Message = ""
	}
	return out
}
