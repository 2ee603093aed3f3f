package model_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/model"
)

// The shipped shapes: ToolHive v0.10's v1alpha1 with every field and source
// type, and v0.47's v1beta1 with configYAML.
const (
	shippedV1alpha1 = "../testdata/merge/toolhive-v0.10-shipped/mcpregistry.yaml"
	shippedV1beta1  = "../testdata/merge/toolhive-v1beta1-config-yaml/mcpregistry.yaml"
)

func readManifest(t *testing.T, path string) []byte {
	t.Helper()
	y, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	j, err := yaml.YAMLToJSON(y)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func decodeRegistry(t *testing.T, path string) *model.MCPRegistry {
	t.Helper()
	obj, err := model.DecodeToolHive(readManifest(t, path))
	if err != nil {
		t.Fatal(err)
	}
	reg, ok := obj.(*model.MCPRegistry)
	if !ok {
		t.Fatalf("decoded %T", obj)
	}
	return reg
}

func TestMCPRegistryV1alpha1Shipped(t *testing.T) {
	reg := decodeRegistry(t, shippedV1alpha1)
	s := reg.Spec
	if s.DisplayName != "Company MCP registry" || !s.EnforceServers || reg.UsesConfigYAML() {
		t.Errorf("top level: %q %v configYAML=%v", s.DisplayName, s.EnforceServers, reg.UsesConfigYAML())
	}
	for name, raw := range map[string]json.RawMessage{"podTemplateSpec": s.PodTemplateSpec, "databaseConfig": s.DatabaseConfig, "authConfig": s.AuthConfig} {
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil || len(v) == 0 {
			t.Errorf("%s not kept: %s (%v)", name, raw, err)
		}
	}
	if !strings.Contains(string(s.DatabaseConfig), `"dbAppUserPasswordSecretRef"`) || !strings.Contains(string(s.AuthConfig), `"issuerUrl"`) {
		t.Errorf("opaque fields lost members: %s %s", s.DatabaseConfig, s.AuthConfig)
	}
	if len(s.Registries) != 4 {
		t.Fatalf("registries: %d", len(s.Registries))
	}
	core, git, api, pvc := s.Registries[0], s.Registries[1], s.Registries[2], s.Registries[3]
	if core.ConfigMapRef == nil || core.ConfigMapRef.Name != "core-mcp-servers" || core.ConfigMapRef.Key != "registry.json" ||
		core.Format != "toolhive" || core.SyncPolicy.Interval != "5m" || core.Filter.Names.Exclude[0] != "*-deprecated" {
		t.Errorf("configMapRef entry: %+v", core)
	}
	if git.Git == nil || git.Git.Repository != "https://github.com/example/mcp-registry.git" || git.Git.Auth == nil ||
		git.Git.Auth.Username != "git" || git.Git.Auth.PasswordSecretRef.Name != "git-credentials" || git.Git.Auth.PasswordSecretRef.Key != "token" {
		t.Errorf("git entry: %+v %+v", git.Git, git.Git.Auth)
	}
	if api.API == nil || api.API.Endpoint != "https://registry.modelcontextprotocol.io" {
		t.Errorf("api entry: %+v", api.API)
	}
	if pvc.PVCRef == nil || pvc.PVCRef.ClaimName != "registry-data" || pvc.PVCRef.Path != "prod/registry.json" {
		t.Errorf("pvcRef entry: %+v", pvc.PVCRef)
	}
	for i, want := range []string{"configMapRef", "git", "api", "pvcRef"} {
		if got := s.Registries[i].SourceTypes(); len(got) != 1 || got[0] != want {
			t.Errorf("entry %d source types %v, want [%s]", i, got, want)
		}
	}
	// Encoding gives the object back, member for member.
	var in, out map[string]any
	if err := json.Unmarshal(readManifest(t, shippedV1alpha1), &in); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(reg)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	delete(out, "status") // the snapshot writes an empty status
	if m, ok := out["metadata"].(map[string]any); ok {
		delete(m, "creationTimestamp")
	}
	if diff := cmp.Diff(in, out); diff != "" {
		t.Errorf("round trip (-manifest +encoded):\n%s", diff)
	}
}

func TestMCPRegistryV1beta1Shipped(t *testing.T) {
	reg := decodeRegistry(t, shippedV1beta1)
	s := reg.Spec
	if !reg.UsesConfigYAML() || !strings.Contains(s.ConfigYAML, "sources:") || len(s.Volumes) != 1 || len(s.VolumeMounts) != 1 ||
		s.PGPassSecretRef == nil || s.PGPassSecretRef.Key != ".pgpass" || len(s.ImagePullSecrets) != 1 || len(s.Registries) != 0 {
		t.Errorf("v1beta1 spec: %+v", s)
	}
	// ToolHive v0.47 serves v1alpha1 with the same schema: the shape, not
	// only the apiVersion, is recognised.
	reg.APIVersion = "toolhive.stacklok.dev/v1alpha1"
	if !reg.UsesConfigYAML() {
		t.Error("v1alpha1 with configYAML not recognised")
	}
}

// TestAsMCPRegistry reads the registry as clients hand it: typed, typed
// without TypeMeta, unstructured, unstructured without apiVersion and kind.
func TestAsMCPRegistry(t *testing.T) {
	want := decodeRegistry(t, shippedV1alpha1)
	gvk := schema.GroupVersionKind{Group: "toolhive.stacklok.dev", Version: "v1alpha1", Kind: "MCPRegistry"}

	got, err := model.AsMCPRegistry(want, schema.GroupVersionKind{})
	if err != nil || got != want {
		t.Errorf("typed: %v, %v", got == want, err)
	}
	bare := want.DeepCopy()
	bare.TypeMeta = metav1.TypeMeta{}
	got, err = model.AsMCPRegistry(bare, gvk)
	if err != nil || got.APIVersion != "toolhive.stacklok.dev/v1alpha1" || got.Kind != "MCPRegistry" || bare.Kind != "" {
		t.Errorf("typed without TypeMeta: %+v %v (input changed: %q)", got.TypeMeta, err, bare.Kind)
	}

	var u unstructured.Unstructured
	if err := u.UnmarshalJSON(readManifest(t, shippedV1alpha1)); err != nil {
		t.Fatal(err)
	}
	got, err = model.AsMCPRegistry(&u, schema.GroupVersionKind{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unstructured (-typed +unstructured):\n%s", diff)
	}
	u.SetAPIVersion("")
	u.SetKind("")
	got, err = model.AsMCPRegistry(&u, gvk)
	if err != nil || got.APIVersion != "toolhive.stacklok.dev/v1alpha1" || got.Name != "company-registry" {
		t.Errorf("unstructured with caller GVK: %+v %v", got.TypeMeta, err)
	}

	// A typed object with half a TypeMeta is still an MCPRegistry; an
	// unstructured one without either and no GVK cannot be told.
	half := want.DeepCopy()
	half.Kind = ""
	if got, err := model.AsMCPRegistry(half, schema.GroupVersionKind{}); err != nil || got != half {
		t.Errorf("typed without kind: %v", err)
	}
	if _, err := model.AsMCPRegistry(&u, schema.GroupVersionKind{}); err == nil {
		t.Error("unstructured without apiVersion, kind or GVK accepted")
	}

	// Not an MCPRegistry: errors, never a panic or a silent empty result.
	other := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}}}
	for name, obj := range map[string]runtime.Object{
		"ConfigMap": other, "nil": nil, "nil typed": (*model.MCPRegistry)(nil), "other type": &metav1.Status{},
	} {
		if got, err := model.AsMCPRegistry(obj, gvk); err == nil {
			t.Errorf("%s: accepted as %+v", name, got)
		}
	}
	bad := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "toolhive.stacklok.dev/v1alpha1", "kind": "MCPRegistry",
		"metadata": map[string]any{"name": "x"}, "spec": map[string]any{"registries": "not a list"}}}
	if _, err := model.AsMCPRegistry(bad, schema.GroupVersionKind{}); err == nil || !strings.Contains(err.Error(), "MCPRegistry /x") {
		t.Errorf("malformed spec: %v", err)
	}
}

// TestMCPRegistryDeepCopy: the copy shares no memory with the original.
// Every reference field is set, then the copy is changed everywhere; the
// original must not move.
func TestMCPRegistryDeepCopy(t *testing.T) {
	orig := decodeRegistry(t, shippedV1alpha1)
	orig.Spec.Registries = append(orig.Spec.Registries, model.MCPRegistryConfig{Name: "sel",
		ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: map[string]string{"a": "b"},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: metav1.LabelSelectorOpIn, Values: []string{"v"}}}},
		Filter: &model.RegistryFilter{Tags: &model.IncludeExclude{Include: []string{"t"}}}})
	orig.Labels = map[string]string{"team": "platform"}
	v1beta1 := decodeRegistry(t, shippedV1beta1)
	orig.Spec.Volumes, orig.Spec.VolumeMounts = v1beta1.Spec.Volumes, v1beta1.Spec.VolumeMounts
	orig.Spec.PGPassSecretRef, orig.Spec.ImagePullSecrets = v1beta1.Spec.PGPassSecretRef, v1beta1.Spec.ImagePullSecrets
	now := metav1.Now()
	orig.Status = model.MCPRegistryStatus{
		Conditions:            []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Merged", LastTransitionTime: now}},
		SyncStatus:            &model.SyncStatus{LastSyncTime: &now, LastAttempt: &now, LastSyncHash: "h"},
		APIStatus:             json.RawMessage(`{"phase":"Ready"}`),
		StorageRef:            json.RawMessage(`{"type":"configmap"}`),
		LastAppliedFilterHash: "f",
	}
	before, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	var obj runtime.Object = orig
	c := obj.DeepCopyObject().(*model.MCPRegistry)
	if !reflect.DeepEqual(orig, c) {
		t.Fatal("the copy differs")
	}
	// Change every reference the copy holds.
	c.Labels["x"] = "y"
	c.Spec.PodTemplateSpec[0] = 'X'
	c.Spec.DatabaseConfig[0] = 'X'
	c.Spec.AuthConfig[0] = 'X'
	c.Spec.Volumes[0][0] = 'X'
	c.Spec.VolumeMounts[0][0] = 'X'
	c.Spec.PGPassSecretRef.Key = "x"
	c.Spec.ImagePullSecrets[0].Name = "x"
	for i := range c.Spec.Registries {
		r := &c.Spec.Registries[i]
		r.Name = "x"
		if r.ConfigMapRef != nil {
			r.ConfigMapRef.Name = "x"
		}
		if r.Git != nil {
			r.Git.Repository = "x"
			r.Git.Auth.PasswordSecretRef.Key = "x"
		}
		if r.API != nil {
			r.API.Endpoint = "x"
		}
		if r.PVCRef != nil {
			r.PVCRef.ClaimName = "x"
		}
		if r.SyncPolicy != nil {
			r.SyncPolicy.Interval = "x"
		}
		if r.ConfigMapSelector != nil {
			r.ConfigMapSelector.MatchLabels["a"] = "x"
			r.ConfigMapSelector.MatchExpressions[0].Values[0] = "x"
		}
		if r.Filter != nil {
			if r.Filter.Names != nil {
				r.Filter.Names.Exclude[0] = "x"
			}
			if r.Filter.Tags != nil {
				r.Filter.Tags.Include[0] = "x"
			}
		}
	}
	c.Status.Conditions[0].Reason = "x"
	c.Status.SyncStatus.LastSyncTime.Time = c.Status.SyncStatus.LastSyncTime.AddDate(1, 0, 0)
	c.Status.SyncStatus.LastSyncHash = "x"
	c.Status.APIStatus[0] = 'X'
	c.Status.StorageRef[0] = 'X'
	after, err := json.Marshal(orig)
	if err != nil {
		t.Fatal(err)
	}
	if string(before) != string(after) {
		t.Errorf("changing the copy changed the original:\n%s\n%s", before, after)
	}
	if (*model.MCPRegistry)(nil).DeepCopy() != nil {
		t.Error("DeepCopy(nil)")
	}
	if gvk := c.GetObjectKind().GroupVersionKind(); gvk.Kind != "MCPRegistry" {
		t.Errorf("GetObjectKind: %v", gvk)
	}
}
