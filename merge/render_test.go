package merge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// An Incremental's result rendered with Result.Render is the output
// ConfigMap ForRegistry renders for the same ConfigMaps, and Render refuses
// what it cannot render.
func TestRenderIsForRegistrysOutput(t *testing.T) {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "company", Namespace: testNS, UID: "u-company"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "teams", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels},
		}}},
	}
	cms := []*corev1.ConfigMap{
		configMap("team-a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"}, testServer{Name: "io.ex/bb", ID: "b"})),
		configMap("team-b", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "c"})),
	}
	opts := Options{LastUpdated: now, GeneratedBy: "my-operator"}
	full, err := ForRegistry(reg, "teams", cms, opts)
	if err != nil || full.ConfigMap == nil {
		t.Fatalf("ForRegistry: %v, %v", err, full.Diagnostics)
	}
	sources, _ := SourcesFor(reg)
	inc := NewIncremental(sources[0], opts)
	for _, cm := range cms {
		inc.Update(cm)
	}
	res := inc.Result()
	cm, ds, err := res.Render(sources[0], opts)
	if err != nil || len(ds) != 0 {
		t.Fatalf("Render: %v, %v", err, ds)
	}
	// What Render writes, checked apart from ForRegistry, which renders
	// with it too: the label, the hash, and the document Result.Document
	// prints indented, here compact.
	if got := cm.Labels[GeneratedByLabel]; got != "my-operator" {
		t.Errorf("label %s = %q, want my-operator", GeneratedByLabel, got)
	}
	if got := cm.Annotations[HashAnnotation]; got != full.Hash || got == "" {
		t.Errorf("annotation %s = %q, want %q", HashAnnotation, got, full.Hash)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, full.Document()); err != nil {
		t.Fatal(err)
	}
	if got, want := cm.Data[OutputKey], compact.String()+"\n"; got != want {
		t.Errorf("document:\n got %s\nwant %s", got, want)
	}
	if diff := cmp.Diff(full.ConfigMap, cm); diff != "" {
		t.Errorf("Render differs from ForRegistry's output ConfigMap (-ForRegistry +Render):\n%s", diff)
	}

	for _, tc := range []struct {
		what string
		res  *Result
		src  Source
		opts Options
	}{
		{"no registry", &Result{}, sources[0], opts},
		{"nil result", nil, sources[0], opts},
		{"owner without a UID", &res, Source{Owner: model.ObjectRef{Kind: "MCPRegistry", Namespace: testNS, Name: "company"}, Namespace: testNS, Entry: "teams"}, opts},
		{"GeneratedBy not a label value", &res, sources[0], Options{GeneratedBy: "not a label value"}},
	} {
		if cm, _, err := tc.res.Render(tc.src, tc.opts); err == nil || cm != nil {
			t.Errorf("%s: Render = %v, %v; want an error and no ConfigMap", tc.what, cm, err)
		}
	}
}
