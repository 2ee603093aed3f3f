package model_test

import (
	"encoding/json"

	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/model"
)

func decodeYAML(t *testing.T, y string) any {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := model.DecodeToolHive(j)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// TestBothAPIVersions: v1alpha1 spells groupRef as a string and remoteURL;
// v1beta1 uses {name} and remoteUrl. Both give the same snapshot.
func TestBothAPIVersions(t *testing.T) {
	alpha := decodeYAML(t, `
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRemoteProxy
metadata: {name: notion, namespace: ns}
spec: {remoteURL: "https://mcp.notion.com/mcp", groupRef: team}
`).(*model.MCPRemoteProxy)
	beta := decodeYAML(t, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPRemoteProxy
metadata: {name: notion, namespace: ns}
spec: {remoteUrl: "https://mcp.notion.com/mcp", groupRef: {name: team}, transport: sse}
`).(*model.MCPRemoteProxy)
	if alpha.Spec.RemoteURL != beta.Spec.RemoteURL || alpha.Group() != "team" || beta.Group() != "team" {
		t.Errorf("alpha %+v beta %+v", alpha.Spec, beta.Spec)
	}
	if alpha.RemoteType() != model.TransportStreamableHTTP || beta.RemoteType() != model.TransportSSE {
		t.Errorf("remote types %s %s", alpha.RemoteType(), beta.RemoteType())
	}

	s := decodeYAML(t, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPServer
metadata: {name: fetch, namespace: ns}
spec: {image: "ghcr.io/x/fetch:1", groupRef: {name: g}}
`).(*model.MCPServer)
	if s.EffectiveTransport() != model.TransportStdio || s.RemoteType() != model.TransportStreamableHTTP || s.Group() != "g" {
		t.Errorf("MCPServer defaults: %s %s %s", s.EffectiveTransport(), s.RemoteType(), s.Group())
	}
	s.Spec.ProxyMode = "sse"
	if s.RemoteType() != model.TransportSSE {
		t.Errorf("stdio with proxyMode sse: %s", s.RemoteType())
	}

	v := decodeYAML(t, `
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: VirtualMCPServer
metadata: {name: v, namespace: ns}
spec: {config: {groupRef: eng}}
`).(*model.VirtualMCPServer)
	if v.Group() != "eng" || v.RemoteType() != model.TransportStreamableHTTP {
		t.Errorf("VirtualMCPServer group %q", v.Group())
	}

	if obj := decodeYAML(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n"); obj != nil {
		t.Errorf("foreign kind decoded as %T", obj)
	}
}

func TestFromUnstructured(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "toolhive.stacklok.dev/v1alpha1",
		"kind":       "MCPServer",
		"metadata":   map[string]any{"name": "github", "namespace": "prod", "uid": "1234"},
		"spec":       map[string]any{"image": "ghcr.io/github/github-mcp-server:v1", "transport": "sse", "groupRef": "eng"},
	}}
	s, err := model.MCPServerFromUnstructured(u)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "github" || string(s.UID) != "1234" || s.Spec.Image != "ghcr.io/github/github-mcp-server:v1" || s.RemoteType() != "sse" || s.Group() != "eng" {
		t.Errorf("got %+v", s)
	}
	if _, err := model.MCPGroupFromUnstructured(u); err == nil {
		t.Error("an MCPServer converted as MCPGroup")
	}
	reg := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "toolhive.stacklok.dev/v1alpha1",
		"kind":       "MCPRegistry",
		"metadata":   map[string]any{"name": "r", "namespace": "ns"},
		"spec": map[string]any{"registries": []any{map[string]any{
			"name":              "teams",
			"configMapSelector": map[string]any{"matchLabels": map[string]any{"a": "b"}},
			"filter":            map[string]any{"names": map[string]any{"include": []any{"x*"}}},
		}}},
	}}
	r, err := model.MCPRegistryFromUnstructured(reg)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Spec.Registries[0]; got.ConfigMapSelector.MatchLabels["a"] != "b" || got.Filter.Names.Include[0] != "x*" {
		t.Errorf("got %+v", got)
	}
}

// TestVirtualMCPServerGroupRefField: the group reference of a
// VirtualMCPServer is read from spec.groupRef (ToolHive v0.47) or
// spec.config.groupRef (v0.10), in both decoders, and GroupRefField names
// the field it came from; the JSON encoding puts it back there.
func TestVirtualMCPServerGroupRefField(t *testing.T) {
	tests := []struct {
		name, spec, group, field string
	}{
		{"v0.10 config", `{config: {groupRef: eng}}`, "eng", "spec.config.groupRef"},
		{"v0.47 spec", `{groupRef: {name: eng}}`, "eng", "spec.groupRef"},
		{"v0.47 both", `{groupRef: {name: eng}, config: {groupRef: other}}`, "eng", "spec.groupRef"},
		{"none", `{config: {}}`, "", "spec.groupRef"},
	}
	for _, tt := range tests {
		y := "apiVersion: toolhive.stacklok.dev/v1alpha1\nkind: VirtualMCPServer\nmetadata: {name: v, namespace: ns}\nspec: " + tt.spec + "\n"
		j, err := yaml.YAMLToJSON([]byte(y))
		if err != nil {
			t.Fatal(err)
		}
		fromJSON := decodeYAML(t, y).(*model.VirtualMCPServer)
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(j); err != nil {
			t.Fatal(err)
		}
		fromMap, err := model.VirtualMCPServerFromUnstructured(u)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := json.Marshal(fromJSON)
		if err != nil {
			t.Fatal(err)
		}
		again, err := model.DecodeToolHive(enc)
		if err != nil {
			t.Fatal(err)
		}
		for how, v := range map[string]*model.VirtualMCPServer{"json": fromJSON, "unstructured": fromMap, "re-encoded": again.(*model.VirtualMCPServer)} {
			if v.Group() != tt.group || v.GroupRefField() != tt.field {
				t.Errorf("%s (%s): group %q from %s; want %q from %s", tt.name, how, v.Group(), v.GroupRefField(), tt.group, tt.field)
			}
		}
	}
}

// TestV1alpha1AsToolHiveV047ServesIt: ToolHive v0.47 serves v1alpha1 with
// v1beta1's schema and no conversion, so an object read through it has
// groupRef {name}, remoteUrl and a VirtualMCPServer's spec.groupRef under
// the v1alpha1 apiVersion; each reads as its v1beta1 form.
func TestV1alpha1AsToolHiveV047ServesIt(t *testing.T) {
	const av = "apiVersion: toolhive.stacklok.dev/v1alpha1\n"
	s := decodeYAML(t, av+"kind: MCPServer\nmetadata: {name: s, namespace: ns}\nspec: {image: x, transport: stdio, proxyMode: sse, proxyPort: 8080, groupRef: {name: g}}\n").(*model.MCPServer)
	p := decodeYAML(t, av+"kind: MCPRemoteProxy\nmetadata: {name: p, namespace: ns}\nspec: {remoteUrl: 'https://r.example/mcp', transport: sse, proxyPort: 8080, groupRef: {name: g}}\n").(*model.MCPRemoteProxy)
	v := decodeYAML(t, av+"kind: VirtualMCPServer\nmetadata: {name: v, namespace: ns}\nspec: {groupRef: {name: g}, incomingAuth: {type: anonymous}}\n").(*model.VirtualMCPServer)
	e := decodeYAML(t, av+"kind: MCPServerEntry\nmetadata: {name: e, namespace: ns}\nspec: {remoteUrl: 'https://r.example/sse', transport: sse, groupRef: {name: g}}\n").(*model.MCPServerEntry)
	if s.Group() != "g" || s.RemoteType() != model.TransportSSE {
		t.Errorf("MCPServer: group %q, remote type %q", s.Group(), s.RemoteType())
	}
	if p.Group() != "g" || p.Spec.RemoteURL != "https://r.example/mcp" || p.RemoteType() != model.TransportSSE {
		t.Errorf("MCPRemoteProxy: %+v", p.Spec)
	}
	if v.Group() != "g" || v.GroupRefField() != "spec.groupRef" {
		t.Errorf("VirtualMCPServer: group %q from %s", v.Group(), v.GroupRefField())
	}
	if e.Group() != "g" || e.RemoteType() != model.TransportSSE || e.Spec.RemoteURL != "https://r.example/sse" {
		t.Errorf("MCPServerEntry: %+v", e.Spec)
	}
}
