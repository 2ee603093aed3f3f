package merge

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

func TestValidateMCPRegistry(t *testing.T) {
	sel := func(l map[string]string) *model.ConfigMapSelector { return &model.ConfigMapSelector{MatchLabels: l} }
	good := model.MCPRegistryConfig{Name: "teams", ConfigMapSelector: sel(regLabels), SyncPolicy: &model.SyncPolicy{Interval: "5m"}}
	tests := []struct {
		name    string
		entries []model.MCPRegistryConfig
		want    []string // "field: type" of each error, in order
	}{
		{"valid", []model.MCPRegistryConfig{good,
			{Name: "core", ConfigMapRef: cmRef("core", "servers.json"), Format: "upstream"},
			{Name: "git", Git: &model.GitSource{Repository: "https://x"}, Format: "toolhive"},
			{Name: "api", API: &model.APISource{Endpoint: "https://x"}},
			{Name: "pvc", PVCRef: &model.PVCSource{ClaimName: "registry-data", Path: "prod/registry.json"}},
			{Name: "exprs", ConfigMapSelector: &model.ConfigMapSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: metav1.LabelSelectorOpExists}}}},
		}, nil},
		{"no entries", nil, []string{"spec.registries: Required value"}},
		{"no source", []model.MCPRegistryConfig{{Name: "x"}}, []string{"spec.registries[0]: Required value"}},
		{"two sources", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: sel(regLabels), Git: &model.GitSource{}}}, []string{"spec.registries[0]: Invalid value"}},
		{"pvcRef and git", []model.MCPRegistryConfig{{Name: "x", PVCRef: &model.PVCSource{ClaimName: "c"}, Git: &model.GitSource{Repository: "https://x"}}}, []string{"spec.registries[0]: Invalid value"}},
		{"empty selector", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: sel(nil)}}, []string{"spec.registries[0].configMapSelector: Required value"}},
		{"bad selector", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: &model.ConfigMapSelector{
			MatchLabels:      map[string]string{"bad key!": "v"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "Like"}},
		}}}, []string{"spec.registries[0].configMapSelector.matchLabels: Invalid value", "spec.registries[0].configMapSelector.matchExpressions[0].operator: Invalid value"}},
		{"duplicate names", []model.MCPRegistryConfig{good, good}, []string{"spec.registries[1].name: Duplicate value"}},
		{"missing name", []model.MCPRegistryConfig{{ConfigMapSelector: sel(regLabels)}}, []string{"spec.registries[0].name: Required value"}},
		{"ref without name, bad key", []model.MCPRegistryConfig{{Name: "x", ConfigMapRef: cmRef("", "a/b")}},
			[]string{"spec.registries[0].configMapRef.name: Required value", "spec.registries[0].configMapRef.key: Invalid value"}},
		{"bad format and interval", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: sel(regLabels), Format: "yaml", SyncPolicy: &model.SyncPolicy{Interval: "daily"}}},
			[]string{"spec.registries[0].format: Unsupported value", "spec.registries[0].syncPolicy.interval: Invalid value"}},
		{"negative interval", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: sel(regLabels), SyncPolicy: &model.SyncPolicy{Interval: "-5m"}}},
			[]string{"spec.registries[0].syncPolicy.interval: Invalid value"}},
		{"bad filter patterns", []model.MCPRegistryConfig{{Name: "x", ConfigMapSelector: sel(regLabels), Filter: &model.RegistryFilter{
			Names: &model.IncludeExclude{Include: []string{"ok/*", "["}, Exclude: []string{"{"}},
		}}}, []string{"spec.registries[0].filter.names.include[1]: Invalid value"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := &model.MCPRegistry{Spec: model.MCPRegistrySpec{Registries: tt.entries}}
			errs := ValidateMCPRegistry(reg)
			var got []string
			for _, e := range errs {
				got = append(got, e.Field+": "+e.Type.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s\n(%v)", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), errs)
			}
		})
	}
}

// TestValidateMCPRegistryV1beta1: the configYAML shape has no entries to
// check; it needs configYAML.
func TestValidateMCPRegistryV1beta1(t *testing.T) {
	reg := &model.MCPRegistry{TypeMeta: metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1beta1", Kind: "MCPRegistry"},
		Spec: model.MCPRegistrySpec{ConfigYAML: "sources: []\n"}}
	if errs := ValidateMCPRegistry(reg); len(errs) != 0 {
		t.Errorf("valid v1beta1: %v", errs)
	}
	reg.Spec.ConfigYAML = ""
	if errs := ValidateMCPRegistry(reg); len(errs) != 1 || errs[0].Field != "spec.configYAML" {
		t.Errorf("v1beta1 without configYAML: %v", errs)
	}
}
