package discovery

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/model"
)

// snapshotObjects lists every object of snap with the GVK a client would
// list it as.
func snapshotObjects(snap Snapshot) (objs []runtime.Object, gvks []schema.GroupVersionKind) {
	th := func(kind string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: model.ToolHiveGroup, Version: "v1beta1", Kind: kind}
	}
	gw := func(kind string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: gwv1.GroupName, Version: "v1", Kind: kind}
	}
	core := func(kind string) schema.GroupVersionKind { return schema.GroupVersionKind{Version: "v1", Kind: kind} }
	add := func(o runtime.Object, gvk schema.GroupVersionKind) {
		objs, gvks = append(objs, o), append(gvks, gvk)
	}
	for _, o := range snap.MCPServers {
		add(o, th(model.KindMCPServer))
	}
	for _, o := range snap.MCPRemoteProxies {
		add(o, th(model.KindMCPRemoteProxy))
	}
	for _, o := range snap.VirtualMCPServers {
		add(o, th(model.KindVirtualMCPServer))
	}
	for _, o := range snap.MCPServerEntries {
		add(o, th(model.KindMCPServerEntry))
	}
	for _, o := range snap.MCPGroups {
		add(o, th(model.KindMCPGroup))
	}
	for _, o := range snap.Services {
		add(o, core("Service"))
	}
	for _, o := range snap.Namespaces {
		add(o, core("Namespace"))
	}
	for _, o := range snap.Gateways {
		add(o, gw("Gateway"))
	}
	for _, o := range snap.HTTPRoutes {
		add(o, gw("HTTPRoute"))
	}
	for _, o := range snap.ReferenceGrants {
		add(o, gw("ReferenceGrant"))
	}
	return objs, gvks
}

// clientForms returns obj the ways clients hand it out: unstructured with
// TypeMeta, unstructured without it (wrapped in Kinded), and for gateway-api
// kinds the v1beta1 type.
func clientForms(t *testing.T, obj runtime.Object, gvk schema.GroupVersionKind) map[string]any {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetGroupVersionKind(gvk)
	bare := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(m)}
	delete(bare.Object, "apiVersion")
	delete(bare.Object, "kind")
	forms := map[string]any{
		"unstructured":        u,
		"bare unstructured":   Kinded{Object: bare, GVK: gvk},
		"pointer to a Kinded": &Kinded{Object: bare, GVK: gvk},
	}
	switch o := obj.(type) {
	case *gwv1.Gateway:
		forms["v1beta1"] = (*gwv1beta1.Gateway)(o)
	case *gwv1.HTTPRoute:
		forms["v1beta1"] = (*gwv1beta1.HTTPRoute)(o)
	case *gwv1.ReferenceGrant:
		forms["v1beta1"] = (*gwv1beta1.ReferenceGrant)(o)
	}
	return forms
}

// TestInputsAsClientsHandThem: for every object of the golden cases, the
// watch mapping answers the same for the object in every form a client hands
// it out, and a snapshot filled with Add from those forms discovers the same
// registry.
func TestInputsAsClientsHandThem(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "discovery", "*"))
	if len(dirs) == 0 {
		t.Fatal("no golden cases")
	}
	for _, dir := range dirs {
		snap, opts := loadCase(t, dir)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			objs, gvks := snapshotObjects(snap)
			var fromU Snapshot
			for i, obj := range objs {
				want := affectedByChange(t, snap, opts, nil, obj)
				for form, in := range clientForms(t, obj, gvks[i]) {
					got, err := AffectedBy(snap, opts, in)
					if err != nil {
						t.Fatalf("%s %s: %v", gvks[i].Kind, form, err)
					}
					if d := cmp.Diff(want, got); d != "" {
						t.Errorf("%s as %s: AffectedBy differs (-typed +%s):\n%s", gvks[i].Kind, form, form, d)
					}
					if form == "bare unstructured" {
						if err := fromU.Add(in); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			want, got := Discover(snap, opts), Discover(fromU, opts)
			if (want.Registry == nil) != (got.Registry == nil) {
				t.Fatalf("registry %v, from unstructured %v", want.Registry, got.Registry)
			}
			if want.Registry != nil && string(want.Registry.Encode()) != string(got.Registry.Encode()) {
				d := cmp.Diff(string(want.Registry.Encode()), string(got.Registry.Encode()))
				t.Errorf("Discover of a snapshot filled from unstructured objects differs:\n%s", d)
			}
			if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
				t.Errorf("diagnostics differ:\n%s", d)
			}
		})
	}
}

// TestUnknownInputIsAnError: an input discovery cannot read is an error
// from every entry point, never an empty answer.
func TestUnknownInputIsAnError(t *testing.T) {
	bare := &unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "x", "namespace": "ns"}}}
	tests := []struct {
		name string
		obj  any
		want string
	}{
		{"pod", &corev1.Pod{}, "does not read *v1.Pod"},
		{"plain struct", struct{}{}, "does not read struct {}"},
		{"unstructured without kind", bare, "no apiVersion and kind"},
		{"unstructured of a foreign kind", &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}, "does not read Deployment.apps"},
		{"unknown ToolHive kind", &unstructured.Unstructured{Object: map[string]any{"apiVersion": "toolhive.stacklok.dev/v1beta1", "kind": "MCPToolConfig"}}, "MCPToolConfig"},
		{"Kinded disagreeing with the object", Kinded{Object: &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Service"}},
			GVK: schema.GroupVersionKind{Version: "v1", Kind: "Namespace"}}, "was given as"},
		{"ToolHive field of the wrong type", &unstructured.Unstructured{Object: map[string]any{"apiVersion": "toolhive.stacklok.dev/v1alpha1", "kind": "MCPServer",
			"metadata": map[string]any{"annotations": map[string]any{"a": int64(1)}}}}, "metadata.annotations[a]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := AffectedBy(Snapshot{}, Options{}, tt.obj); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("AffectedBy = %v, %v; want an error containing %q", got, err, tt.want)
			}
			if _, err := AffectedByChange(Snapshot{}, Options{}, tt.obj, nil); err == nil {
				t.Error("AffectedByChange(old) took it")
			}
			var s Snapshot
			if err := s.Add(tt.obj); err == nil {
				t.Error("Snapshot.Add took it")
			}
		})
	}
	// Kinds that no entry depends on are read and map to nothing.
	for _, obj := range []any{&corev1.ConfigMap{}, &model.MCPGroup{}, &model.MCPRegistry{}, nil, (*model.MCPServer)(nil)} {
		if got, err := AffectedBy(Snapshot{}, Options{}, obj); err != nil || len(got) != 0 {
			t.Errorf("AffectedBy(%T) = %v, %v", obj, got, err)
		}
	}
}

// unstructuredResources converts the MCP resources of snap to unstructured
// objects with empty TypeMeta, as a typed lister of unstructured objects
// would return them, with the GVK to read them as.
func unstructuredResources(tb testing.TB, snap Snapshot) []Kinded {
	var out []Kinded
	add := func(obj runtime.Object, kind string) {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, Kinded{Object: &unstructured.Unstructured{Object: m},
			GVK: schema.GroupVersionKind{Group: model.ToolHiveGroup, Version: "v1beta1", Kind: kind}})
	}
	for _, s := range snap.MCPServers {
		add(s, model.KindMCPServer)
	}
	for _, p := range snap.MCPRemoteProxies {
		add(p, model.KindMCPRemoteProxy)
	}
	for _, v := range snap.VirtualMCPServers {
		add(v, model.KindVirtualMCPServer)
	}
	return out
}

// BenchmarkFromUnstructured compares converting the MCP resources of the
// Discover benchmark from unstructured objects (Snapshot.Add, which reads
// each map directly) with Discover over the converted snapshot, in one run:
// the conversion must cost at most half of Discover per object.
func BenchmarkFromUnstructured(b *testing.B) {
	const n = 10000
	snap, src := benchSnapshot(n)
	for _, s := range snap.MCPServers {
		s.UID = types.UID("uid-" + s.Name)
		s.Labels = map[string]string{"app.kubernetes.io/name": s.Name, "team": "a"}
		s.Generation = 3
		s.CreationTimestamp = metav1.NewTime(time.Unix(1700000000, 0))
	}
	in := unstructuredResources(b, snap)
	opts := Options{SourceRegistry: src, LastUpdated: time.Unix(0, 0)}
	// cpu-ns/op is the process CPU time per operation: on a shared machine
	// it measures the work where wall time measures the neighbours.
	b.Run(fmt.Sprintf("convert/%d", len(in)), func(b *testing.B) {
		cpu := processCPU()
		defer func() { b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
		for b.Loop() {
			var s Snapshot
			for _, k := range in {
				if err := s.Add(k); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run(fmt.Sprintf("discover/%d", len(in)), func(b *testing.B) {
		cpu := processCPU()
		defer func() { b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op") }()
		for b.Loop() {
			if res := Discover(snap, opts); len(res.Entries) == 0 {
				b.Fatal("no entries")
			}
		}
	})
}
