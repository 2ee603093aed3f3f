package merge_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// Two teams define github-mcp; both copies are prefixed
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
		TypeMeta: metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPRegistry"},
		// The UID the API server gave it: the output ConfigMap's
		// ownerReference needs it.
		ObjectMeta: metav1.ObjectMeta{Name: "all-teams-registry", Namespace: "toolhive-system",
			UID: "8b0f3c52-3f51-4a7e-9a34-4f0c7f3f5a10"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "team-registries",
			// The CRD's default: the API server fills it in. It reads both
			// ToolHive shapes, the list data below included.
			Format:            "toolhive",
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

// An operator's ConfigMap watch: which MCPRegistry entries must merge again
// when a ConfigMap is relabelled, and that an update of nothing the merge
// reads enqueues nothing.
func ExampleAffectedByChange() {
	reg := &model.MCPRegistry{
		TypeMeta:   metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPRegistry"},
		ObjectMeta: metav1.ObjectMeta{Name: "platform-only-registry", Namespace: "toolhive-system"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "platform-registries",
			ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: map[string]string{
				"toolhive.stacklok.dev/registry": "true", "team": "platform"}},
		}}},
	}
	sources, _ := merge.SourcesFor(reg)
	old := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "team-c", Namespace: "toolhive-system",
		Labels: map[string]string{"toolhive.stacklok.dev/registry": "true"}}}
	relabelled := old.DeepCopy()
	relabelled.Labels["team"] = "platform"
	for _, a := range merge.AffectedByChange(sources, old, relabelled) {
		fmt.Println(a.Owner.APIVersion, a.Owner, a.Entries)
	}
	annotated := relabelled.DeepCopy()
	annotated.Annotations = map[string]string{"note": "x"}
	fmt.Println(len(merge.AffectedByChange(sources, relabelled, annotated)), "to reconcile after a no-op update")
	// Output:
	// toolhive.stacklok.dev/v1alpha1 MCPRegistry/toolhive-system/platform-only-registry [platform-registries]
	// 0 to reconcile after a no-op update
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
	// true ManualSyncNoDataChanges 5m0s true
	// false UpToDateWithPolicy 3m0s
}

// What a reconcile writes after a merge: the conditions of the MCPRegistry's
// status and a Warning Event on the ConfigMap that could not be read.
func ExampleConditions() {
	reg := &model.MCPRegistry{
		TypeMeta: metav1.TypeMeta{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPRegistry"},
		ObjectMeta: metav1.ObjectMeta{Name: "all-teams-registry", Namespace: "toolhive-system", Generation: 3,
			UID: "8b0f3c52-3f51-4a7e-9a34-4f0c7f3f5a10"},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "team-registries", Format: "toolhive",
			ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: map[string]string{"toolhive.stacklok.dev/registry": "true"}},
		}}},
	}
	cm := func(name, uid, data string) *corev1.ConfigMap {
		return &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "toolhive-system", UID: types.UID(uid),
				Labels: map[string]string{"toolhive.stacklok.dev/registry": "true"}},
			Data: map[string]string{"registry.json": data},
		}
	}
	cms := []*corev1.ConfigMap{
		cm("team-a-mcp-servers", "0d4c6a10-8c7e-4d0e-9a55-3b8f9d2e7c01", `{"servers": [{"name": "github-mcp", "image": "ghcr.io/github/mcp-server:latest"}]}`),
		cm("team-b-mcp-servers", "0d4c6a10-8c7e-4d0e-9a55-3b8f9d2e7c02", `{"servers": [`),
	}
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

	sources, _ := merge.SourcesFor(reg)
	var outcomes []merge.Outcome
	for _, src := range sources {
		res := merge.Merge(src, cms, merge.Options{LastUpdated: now})
		decision := merge.DecideSync(merge.SyncInputFor(src, nil, res.Hash, now))
		outcomes = append(outcomes, merge.Outcome{Source: src, Result: &res, Sync: &decision})
		for _, d := range res.Diagnostics.WithReason(model.ReasonInvalidJSON) {
			if ev, ok := model.EventFor(d); ok {
				fmt.Println(ev.Type, ev.Reason, ev.InvolvedObject.Kind, ev.InvolvedObject.Name, ev.InvolvedObject.UID)
			}
		}
	}
	for _, c := range merge.Conditions(outcomes, reg.Generation, metav1.NewTime(now)) {
		fmt.Printf("%s=%s %s: %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	// Output:
	// Warning InvalidJSON ConfigMap team-b-mcp-servers 0d4c6a10-8c7e-4d0e-9a55-3b8f9d2e7c02
	// Synced=True NeverSynced: entry "team-registries": merged 1 server from 2 ConfigMaps
	// Degraded=True PartialSyncFailure: entry "team-registries": 1 of 2 ConfigMaps could not be merged in full: team-b-mcp-servers (InvalidJSON)
}
