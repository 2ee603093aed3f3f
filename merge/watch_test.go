package merge

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

func TestConfigMapChange(t *testing.T) {
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
			{Name: "core", ConfigMapRef: &model.ConfigMapKeyRef{Name: "core-servers", Key: "servers.json"}},
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

	all := model.ObjectRef{Kind: "MCPRegistry", Namespace: testNS, Name: "all"}
	coreRef := model.ObjectRef{Kind: "MCPRegistry", Namespace: testNS, Name: "core"}
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
			got := ConfigMapChange(tt.old, tt.new, registries)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// Order of registries does not matter; a registry listed twice is one.
			rev := []*model.MCPRegistry{selReg, nil, selReg, elsewhere, refReg}
			if diff := cmp.Diff(got, ConfigMapChange(tt.old, tt.new, rev)); diff != "" {
				t.Errorf("depends on the order of registries:\n%s", diff)
			}
		})
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
