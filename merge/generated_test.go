package merge

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// TestGeneratedBy: Options.GeneratedBy labels the output ConfigMap; a
// ConfigMap carrying the label with any value is never selected, so neither
// this merge's earlier output (under another value) nor another generator's
// is read back; a value the API server would refuse is an error.
func TestGeneratedBy(t *testing.T) {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: testNS, UID: "0b7c7a52-3d1e-4a36-9a7e-2f1d0c3b4a51"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	earlier := configMap("earlier", map[string]string{}, upstreamDoc(testServer{Name: "io.ex/old", ID: "o"}))
	for k, v := range regLabels {
		earlier.Labels[k] = v
	}
	earlier.Labels[GeneratedByLabel] = "someone-else"
	cms := []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"})),
		earlier,
	}
	res, err := ForRegistry(reg, "", cms, Options{LastUpdated: now, GeneratedBy: "my-operator"})
	if err != nil || res.ConfigMap == nil {
		t.Fatalf("no ConfigMap: %v %v", err, res.Diagnostics)
	}
	if got := res.ConfigMap.Labels[GeneratedByLabel]; got != "my-operator" {
		t.Errorf("label %s = %q, want my-operator", GeneratedByLabel, got)
	}
	if got := names(res); len(got) != 1 || got[0] != "io.ex/aa" {
		t.Errorf("servers %s, want only io.ex/aa (the labelled ConfigMap must not be selected)", got)
	}
	def, err := ForRegistry(reg, "", cms, Options{LastUpdated: now})
	if err != nil || def.ConfigMap == nil || def.ConfigMap.Labels[GeneratedByLabel] != GeneratedByValue {
		t.Errorf("default label: %v %v", err, def.ConfigMap)
	}
	if _, err := ForRegistry(reg, "", cms, Options{GeneratedBy: "not a label value"}); err == nil {
		t.Error("an invalid GeneratedBy was accepted")
	}
	// The empty value is a value: the label's presence marks the ConfigMap.
	earlier.Labels[GeneratedByLabel] = ""
	if !IsGenerated(earlier) {
		t.Error("a ConfigMap labelled generated-by with the empty value is not taken as generated")
	}
	res, err = ForRegistry(reg, "", cms, Options{LastUpdated: now})
	if got := names(res); err != nil || len(got) != 1 || got[0] != "io.ex/aa" {
		t.Errorf("empty generated-by value: servers %s, err %v; want only io.ex/aa", got, err)
	}
}
