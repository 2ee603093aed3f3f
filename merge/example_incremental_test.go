package merge_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/merge"
)

// An operator keeps one Incremental per source and feeds it the ConfigMap
// events of its informer; each Result reads only what changed and is what
// Merge of the same ConfigMaps returns. Here a second team's ConfigMap
// brings a conflicting name (both copies are renamed by the prefix rule),
// then is relabelled out of the selection, which restores the name.
func ExampleIncremental() {
	labels := map[string]string{"mcp.example.com/catalog": "shared"}
	cm := func(name string, labels map[string]string, server string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "catalogs", Labels: labels},
			Data: map[string]string{"registry.json": `{"version": "1.0.0",
				"meta": {"last_updated": "2025-01-01T00:00:00Z"},
				"data": {"servers": [{"name": "` + server + `", "description": "` + name + `'s copy", "version": "1.0.0"}]}}`},
		}
	}
	src := merge.Source{Namespace: "catalogs", Selector: &metav1.LabelSelector{MatchLabels: labels}}
	inc := merge.NewIncremental(src, merge.Options{LastUpdated: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	show := func(event string) {
		res := inc.Result()
		fmt.Printf("%s: %d sources,", event, len(res.Sources))
		for _, s := range res.Registry.Servers {
			fmt.Printf(" %s", s.Name())
		}
		fmt.Println()
	}

	inc.Update(cm("team-a", labels, "com.example/search")) // informer: add
	show("add team-a")
	inc.Update(cm("team-b", labels, "com.example/search"))
	show("add team-b")
	inc.Update(cm("team-b", nil, "com.example/search")) // update: the label is gone
	show("relabel team-b")
	inc.Remove("catalogs", "team-a") // delete
	show("delete team-a")
	// Output:
	// add team-a: 1 sources, com.example/search
	// add team-b: 2 sources, team-a/search team-b/search
	// relabel team-b: 1 sources, com.example/search
	// delete team-a: 0 sources,
}
