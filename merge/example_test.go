package merge_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// Seed 000's example: two teams define github-mcp; both copies are prefixed
// with their ConfigMap's name, the unique servers keep their names.
func ExampleForRegistry() {
	labels := map[string]string{"toolhive.stacklok.dev/registry": "true"}
	cm := func(name, data string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "toolhive-system", Labels: labels},
			Data:       map[string]string{"registry.json": data},
		}
	}
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "all-teams-registry", Namespace: "toolhive-system"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name:              "team-registries",
			ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: labels},
		}}},
	}
	res, err := merge.ForRegistry(reg, "", []*corev1.ConfigMap{
		cm("team-a-mcp-servers", `{"servers": [
			{"name": "github-mcp", "image": "ghcr.io/github/mcp-server:latest"},
			{"name": "slack-mcp", "image": "ghcr.io/slack/mcp-server:latest"}]}`),
		cm("team-b-mcp-servers", `{"servers": [
			{"name": "github-mcp", "image": "ghcr.io/github/mcp-server:v2"},
			{"name": "snowflake-mcp", "image": "ghcr.io/data/snowflake:latest"}]}`),
	}, merge.Options{LastUpdated: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range res.Registry.Servers {
		fmt.Println(s.Name())
	}
	fmt.Println("output:", res.ConfigMap.Name)
	for _, d := range res.Diagnostics.WithReason(model.ReasonNameConflict) {
		fmt.Println(d.Object.Name, d.Message)
	}
	// Output:
	// io.github.stacklok/slack-mcp
	// io.github.stacklok/snowflake-mcp
	// team-a-mcp-servers/github-mcp
	// team-b-mcp-servers/github-mcp
	// output: all-teams-registry-team-registries-merged
	// team-a-mcp-servers server "io.github.stacklok/github-mcp" is also defined by ConfigMap team-b-mcp-servers; renamed to "team-a-mcp-servers/github-mcp"
	// team-b-mcp-servers server "io.github.stacklok/github-mcp" is also defined by ConfigMap team-a-mcp-servers; renamed to "team-b-mcp-servers/github-mcp"
}

// An operator's ConfigMap watch: which MCPRegistry entries must merge again.
func ExampleConfigMapChange() {
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "platform-only-registry", Namespace: "toolhive-system"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "platform-registries",
			ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: map[string]string{
				"toolhive.stacklok.dev/registry": "true", "team": "platform"}},
		}}},
	}
	old := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "team-c", Namespace: "toolhive-system",
		Labels: map[string]string{"toolhive.stacklok.dev/registry": "true"}}}
	relabelled := old.DeepCopy()
	relabelled.Labels["team"] = "platform"
	for _, a := range merge.ConfigMapChange(old, relabelled, []*model.MCPRegistry{reg}) {
		fmt.Println(a.Registry, a.Entries)
	}
	// Output:
	// MCPRegistry/toolhive-system/platform-only-registry [platform-registries]
}

// The sync decision: a new value of the sync-trigger annotation asks for a sync.
func ExampleDecideSync() {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	d := merge.DecideSync(merge.SyncInput{
		Interval: "5m", LastSyncTime: t0, LastSyncHash: "h", CurrentHash: "h",
		Trigger: "2025-01-01T00:02:00Z", LastTrigger: "", Now: t0.Add(2 * time.Minute),
	})
	fmt.Println(d.Sync, d.Reason, d.RequeueAfter, d.RecordTrigger)
	d = merge.DecideSync(merge.SyncInput{Interval: "5m", LastSyncTime: t0, LastSyncHash: "h", CurrentHash: "h", Now: t0.Add(2 * time.Minute)})
	fmt.Println(d.Sync, d.Reason, d.RequeueAfter)
	// Output:
	// true manual-sync-no-data-changes 5m0s true
	// false up-to-date-with-policy 3m0s
}
