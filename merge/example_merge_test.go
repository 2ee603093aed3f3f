package merge_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// Merging label-selected ConfigMaps without an MCPRegistry: the settings are
// a plain Source. With the priority strategy the first ConfigMap in name
// order keeps a name both define; the filter runs on the merged names.
func ExampleMerge() {
	labels := map[string]string{"mcp.example.com/catalog": "shared"}
	cm := func(name, servers string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "catalogs", Labels: labels},
			Data: map[string]string{"registry.json": `{"version": "1.0.0",
				"meta": {"last_updated": "2025-01-01T00:00:00Z"},
				"data": {"servers": [` + servers + `]}}`},
		}
	}
	server := func(name, url string) string {
		return `{"name": "` + name + `", "description": "` + name + `", "version": "1.0.0",
			"remotes": [{"type": "streamable-http", "url": "` + url + `"}]}`
	}
	configMaps := []*corev1.ConfigMap{
		cm("b-platform", server("com.example/search", "https://search.example.com/mcp")+","+
			server("com.example/wiki-deprecated", "https://old-wiki.example.com/mcp")),
		cm("a-core", server("com.example/search", "https://search.core.example.com/mcp")),
	}
	src := merge.Source{
		Namespace: "catalogs",
		Selector:  &metav1.LabelSelector{MatchLabels: labels},
		Strategy:  merge.StrategyPriority,
		Filter:    &model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"*-deprecated"}}},
	}
	res := merge.Merge(src, configMaps, merge.Options{LastUpdated: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	for _, s := range res.Registry.Servers {
		fmt.Println(s.Name(), s.Remotes()[0].URL)
	}
	fmt.Println("filtered:", res.Filtered)
	for _, d := range res.Diagnostics {
		fmt.Println(d.Severity, d.Reason, d.Object)
	}
	// Output:
	// com.example/search https://search.core.example.com/mcp
	// filtered: [com.example/wiki-deprecated]
	// Warning ConflictShadowed ConfigMap/catalogs/b-platform
}
