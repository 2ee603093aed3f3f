package merge_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// The operator's loop with an Incremental per MCPRegistry entry: each
// ConfigMap event updates it, the hash of the new Result decides whether to
// sync, and only then is the document rendered into the output ConfigMap,
// stamped with the time of the write. An update that leaves the servers as
// they were (here, a new annotation) needs no write.
func ExampleIncremental_sync() {
	reg := &model.MCPRegistry{
		TypeMeta:   metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPRegistry"},
		ObjectMeta: metav1.ObjectMeta{Name: "company", Namespace: "toolhive-system", UID: "5d0c3f0e-6f55-4d3b-9a8e-0f8c5b7e2a11"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "teams",
			ConfigMapRef: &corev1.ConfigMapKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: "team-a"}, Key: "registry.json"},
		}}},
	}
	sources, _ := merge.SourcesFor(reg)
	src := sources[0]
	inc := merge.NewIncremental(src, merge.Options{})

	var output *corev1.ConfigMap // the output ConfigMap as last written
	event := func(what string, cm *corev1.ConfigMap, now time.Time) {
		inc.Update(cm)
		res := inc.Result()
		decision := merge.DecideSync(merge.SyncInputFor(src, output, res.Hash, now))
		fmt.Printf("%s: sync %t (%s)\n", what, decision.Sync, decision.Reason)
		if !decision.Sync || res.Registry == nil {
			return
		}
		res.Registry.LastUpdated = now.UTC().Format(time.RFC3339)
		cm, _, err := res.Render(src, merge.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		output = cm // the operator applies it
	}

	team := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: "team-a", Namespace: "toolhive-system", ResourceVersion: "100"},
		Data: map[string]string{"registry.json": `{"version": "1.0.0", "meta": {"last_updated": "2025-01-01T00:00:00Z"},
			"data": {"servers": [{"name": "com.example/search", "description": "Search", "version": "1.0.0"}]}}`},
	}
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	event("add team-a", team, t0)

	annotated := team.DeepCopy()
	annotated.ResourceVersion = "101"
	annotated.Annotations = map[string]string{"owner": "search-team"}
	event("annotate team-a", annotated, t0.Add(time.Minute))

	edited := annotated.DeepCopy()
	edited.ResourceVersion = "102"
	edited.Data["registry.json"] = `{"version": "1.0.0", "meta": {"last_updated": "2025-01-01T00:00:00Z"},
			"data": {"servers": [{"name": "com.example/search", "description": "Search the intranet", "version": "1.0.1"}]}}`
	event("edit team-a", edited, t0.Add(2*time.Minute))
	fmt.Println(output.Name)
	// Output:
	// add team-a: sync true (NeverSynced)
	// annotate team-a: sync false (UpToDateNoPolicy)
	// edit team-a: sync true (SourceDataChanged)
	// company-teams-merged
}
