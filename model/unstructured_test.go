package model_test

import (
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

// toolHiveManifests are objects a real API server accepts (ToolHive v0.10
// CRDs for v1alpha1, v0.47 for v1beta1), one per kind and version.
var toolHiveManifests = []string{`
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPServer
metadata:
  name: github
  namespace: prod
  uid: 0b6c6a53-51a8-4a4a-9f57-3f0c5f6b1c11
  generation: 3
  creationTimestamp: "2026-01-02T03:04:05Z"
  labels: {team: a}
  annotations: {toolhive.stacklok.dev/registry-export: "true"}
  finalizers: [toolhive.stacklok.dev/finalizer]
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: owner, uid: 7d1e0c4e-4f0b-4c55-8f1e-5b7e0f9d2a10, controller: true, blockOwnerDeletion: false}
spec: {image: "ghcr.io/github/github-mcp-server:v1", transport: stdio, proxyMode: sse, port: 8080, groupRef: eng}
`, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPServer
metadata: {name: fetch, namespace: prod}
spec: {image: "ghcr.io/stackloklabs/gofetch/server:1.0", transport: streamable-http, proxyPort: 8080, mcpPort: 8081, groupRef: {name: eng}}
`, `
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRemoteProxy
metadata: {name: notion, namespace: prod}
spec:
  remoteURL: https://mcp.notion.com/mcp
  transport: streamable-http
  port: 8080
  groupRef: eng
  oidcConfig: {type: kubernetes}
`, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPRemoteProxy
metadata: {name: notion, namespace: prod}
spec: {remoteUrl: "https://mcp.notion.com/mcp", transport: sse, proxyPort: 8080, groupRef: {name: eng}}
`, `
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: VirtualMCPServer
metadata: {name: all, namespace: prod}
spec: {config: {groupRef: eng}, incomingAuth: {type: anonymous}}
`, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: VirtualMCPServer
metadata: {name: all, namespace: prod}
spec: {groupRef: {name: eng}, incomingAuth: {type: anonymous}}
`, `
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPGroup
metadata: {name: eng, namespace: prod}
spec: {description: Engineering tools}
`, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPServerEntry
metadata: {name: context7, namespace: prod, generation: 2}
spec:
  remoteUrl: https://mcp.context7.com/mcp
  transport: streamable-http
  groupRef: {name: eng}
  allowPrivateEndpoint: false
  externalAuthConfigRef: {name: exchange}
  headerForward:
    addPlaintextHeaders: {X-Team: eng}
    addHeadersFromSecret:
    - headerName: X-Api-Key
      valueSecretRef: {name: context7, key: api-key}
  caBundleRef:
    configMapRef: {name: ca, key: ca.crt, optional: true}
`, `
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPServerEntry
metadata: {name: internal, namespace: prod}
spec: {remoteUrl: "http://tools.prod.svc.cluster.local:8080/sse", transport: sse, groupRef: {name: eng}, allowPrivateEndpoint: true}
`}

func unstructuredOf(t testing.TB, doc string) *unstructured.Unstructured {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(j); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestFromUnstructuredMatchesJSON: reading the unstructured map directly
// gives what the JSON decoder gives, for every kind and both API versions,
// and with the caller's GVK when TypeMeta is empty.
func TestFromUnstructuredMatchesJSON(t *testing.T) {
	for _, doc := range toolHiveManifests {
		u := unstructuredOf(t, doc)
		t.Run(u.GetAPIVersion()+"/"+u.GetKind()+"/"+u.GetName(), func(t *testing.T) {
			j, _ := yaml.YAMLToJSON([]byte(doc))
			want, err := model.DecodeToolHive(j)
			if err != nil {
				t.Fatal(err)
			}
			got, err := model.FromUnstructured(u, schema.GroupVersionKind{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("FromUnstructured differs from the JSON decoder (-json +unstructured):\n%s", d)
			}
			// The same object as a typed lister returns it: no TypeMeta.
			gvk := u.GroupVersionKind()
			bare := u.DeepCopy()
			bare.SetAPIVersion("")
			bare.SetKind("")
			got, err = model.FromUnstructured(bare, gvk)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("with the caller's GVK (-json +unstructured):\n%s", d)
			}
			// Through ToolHiveObject, and from a typed object of another Go
			// type (as the operator's own types would be).
			got, err = model.ToolHiveObject(u, schema.GroupVersionKind{})
			if err != nil || cmp.Diff(want, got) != "" {
				t.Errorf("ToolHiveObject(unstructured) = %v, %v", got, err)
			}
			if same, err := model.ToolHiveObject(want, schema.GroupVersionKind{}); err != nil || same != want {
				t.Errorf("ToolHiveObject(snapshot type) = %v, %v; want it unchanged", same, err)
			}
		})
	}
}

// foreignServer stands for a ToolHive Go type the library does not import.
type foreignServer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Image    string `json:"image"`
		GroupRef struct {
			Name string `json:"name"`
		} `json:"groupRef"`
	} `json:"spec"`
}

func (f *foreignServer) DeepCopyObject() runtime.Object { c := *f; return &c }

func TestToolHiveObjectForeignType(t *testing.T) {
	f := &foreignServer{ObjectMeta: metav1.ObjectMeta{Name: "s", Namespace: "ns"}}
	f.Spec.Image = "ghcr.io/x/y:1"
	f.Spec.GroupRef.Name = "eng"
	if _, err := model.ToolHiveObject(f, schema.GroupVersionKind{}); err == nil {
		t.Fatal("a typed object with no TypeMeta and no GVK converted")
	}
	gvk := schema.GroupVersionKind{Group: model.ToolHiveGroup, Version: "v1beta1", Kind: model.KindMCPServer}
	obj, err := model.ToolHiveObject(f, gvk)
	if err != nil {
		t.Fatal(err)
	}
	s := obj.(*model.MCPServer)
	if s.Name != "s" || s.Spec.Image != "ghcr.io/x/y:1" || s.Group() != "eng" || s.Kind != model.KindMCPServer || s.APIVersion != "toolhive.stacklok.dev/v1beta1" {
		t.Errorf("got %+v", s)
	}
}

func TestFromUnstructuredErrors(t *testing.T) {
	server := schema.GroupVersionKind{Group: model.ToolHiveGroup, Version: "v1alpha1", Kind: model.KindMCPServer}
	tests := []struct {
		name string
		obj  map[string]any
		gvk  schema.GroupVersionKind
		want string
	}{
		{"empty TypeMeta, no GVK", map[string]any{"metadata": map[string]any{"name": "x"}}, schema.GroupVersionKind{}, "no apiVersion and kind"},
		{"foreign kind", map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}, schema.GroupVersionKind{}, "not a ToolHive kind"},
		{"unknown ToolHive kind", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPToolConfig"}, schema.GroupVersionKind{}, "not one the library reads"},
		{"kind disagrees with GVK", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPGroup"}, server, "not the"},
		{"wrong field type", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPServer",
			"metadata": map[string]any{"name": "x", "namespace": "ns"}, "spec": map[string]any{"image": int64(3)}}, schema.GroupVersionKind{}, "spec.image: want a string, got a number"},
		{"port out of range", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPServer",
			"spec": map[string]any{"proxyPort": int64(1 << 40)}}, schema.GroupVersionKind{}, "spec.proxyPort"},
		{"bad label", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPGroup",
			"metadata": map[string]any{"labels": map[string]any{"a": true}}}, schema.GroupVersionKind{}, "metadata.labels[a]"},
		{"bad groupRef", map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPServerEntry",
			"spec": map[string]any{"groupRef": []any{}}}, schema.GroupVersionKind{}, "spec.groupRef: want a string or an object, got an array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, err := model.FromUnstructured(&unstructured.Unstructured{Object: tt.obj}, tt.gvk)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("FromUnstructured = %v, %v; want an error containing %q", obj, err, tt.want)
			}
		})
	}
	if _, err := model.FromUnstructured(nil, server); err == nil {
		t.Error("nil object converted")
	}
	if _, err := model.ToolHiveObject(struct{}{}, server); err == nil {
		t.Error("a struct{} converted")
	}
}

// TestDeepCopyNoAliasing: changing anything reachable from a copy leaves the
// original as it was, for every snapshot type.
func TestDeepCopyNoAliasing(t *testing.T) {
	for _, doc := range toolHiveManifests {
		u := unstructuredOf(t, doc)
		if u.GetKind() == model.KindMCPRegistry {
			continue
		}
		t.Run(u.GetAPIVersion()+"/"+u.GetKind()+"/"+u.GetName(), func(t *testing.T) {
			obj, err := model.FromUnstructured(u, schema.GroupVersionKind{})
			if err != nil {
				t.Fatal(err)
			}
			orig := obj.(runtime.Object)
			want := orig.DeepCopyObject()
			if d := cmp.Diff(orig, want); d != "" {
				t.Fatalf("copy differs:\n%s", d)
			}
			if orig.GetObjectKind().GroupVersionKind() != u.GroupVersionKind() {
				t.Errorf("GetObjectKind = %v, want %v", orig.GetObjectKind().GroupVersionKind(), u.GroupVersionKind())
			}
			cp := orig.DeepCopyObject()
			scribble(cp)
			if d := cmp.Diff(want, orig); d != "" {
				t.Errorf("mutating the copy changed the original:\n%s", d)
			}
		})
	}
	var nilServer *model.MCPServer
	if nilServer.DeepCopy() != nil || nilServer.DeepCopyObject() != nil {
		t.Error("copy of a nil MCPServer is not nil")
	}
}

// scribble changes every map, slice and pointer reachable from a snapshot
// object in place.
func scribble(obj runtime.Object) {
	meta := func(m *metav1.ObjectMeta) {
		for k := range m.Labels {
			m.Labels[k] = "changed"
		}
		for k := range m.Annotations {
			m.Annotations[k] = "changed"
		}
		for i := range m.Finalizers {
			m.Finalizers[i] = "changed"
		}
		for i := range m.OwnerReferences {
			m.OwnerReferences[i].Name = "changed"
			if c := m.OwnerReferences[i].Controller; c != nil {
				*c = !*c
			}
			if c := m.OwnerReferences[i].BlockOwnerDeletion; c != nil {
				*c = !*c
			}
		}
		m.Name = "changed"
	}
	group := func(g *model.GroupRef) {
		if g != nil {
			g.Name = "changed"
		}
	}
	switch o := obj.(type) {
	case *model.MCPServer:
		meta(&o.ObjectMeta)
		group(o.Spec.GroupRef)
	case *model.MCPRemoteProxy:
		meta(&o.ObjectMeta)
		group(o.Spec.GroupRef)
	case *model.VirtualMCPServer:
		meta(&o.ObjectMeta)
		group(o.Spec.GroupRef)
	case *model.MCPGroup:
		meta(&o.ObjectMeta)
		o.Spec.Description = "changed"
	case *model.MCPServerEntry:
		meta(&o.ObjectMeta)
		group(o.Spec.GroupRef)
		if r := o.Spec.ExternalAuthConfigRef; r != nil {
			r.Name = "changed"
		}
		if h := o.Spec.HeaderForward; h != nil {
			for k := range h.AddPlaintextHeaders {
				h.AddPlaintextHeaders[k] = "changed"
			}
			for i := range h.AddHeadersFromSecret {
				h.AddHeadersFromSecret[i].HeaderName = "changed"
				if r := h.AddHeadersFromSecret[i].ValueSecretRef; r != nil {
					r.Key = "changed"
				}
			}
		}
		if b := o.Spec.CABundleRef; b != nil && b.ConfigMapRef != nil {
			b.ConfigMapRef.Key = "changed"
			if p := b.ConfigMapRef.Optional; p != nil {
				*p = !*p
			}
		}
	}
}
