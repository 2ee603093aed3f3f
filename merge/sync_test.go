package merge

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// TestDecideSync is the truth table of the sync decision.
func TestDecideSync(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	synced := SyncInput{LastSyncTime: t0, LastSyncHash: "h1", CurrentHash: "h1", Now: t0.Add(time.Minute)}
	with := func(f func(*SyncInput)) SyncInput { in := synced; f(&in); return in }
	tests := []struct {
		name string
		in   SyncInput
		want SyncDecision
	}{
		{"up to date, no policy", synced, SyncDecision{Reason: SyncReasonUpToDateNoPolicy}},
		{"never synced", SyncInput{CurrentHash: "h1", Now: t0}, SyncDecision{Sync: true, Reason: SyncReasonNeverSynced}},
		{"never synced, with interval", SyncInput{Interval: "5m", Now: t0}, SyncDecision{Sync: true, Reason: SyncReasonNeverSynced, RequeueAfter: 5 * time.Minute}},
		{"data changed", with(func(in *SyncInput) { in.CurrentHash = "h2" }), SyncDecision{Sync: true, Reason: SyncReasonSourceDataChanged}},
		{"filter changed", with(func(in *SyncInput) { in.FilterHash = "f2"; in.LastFilterHash = "f1" }), SyncDecision{Sync: true, Reason: SyncReasonFilterChanged}},
		{"filter removed", with(func(in *SyncInput) { in.LastFilterHash = "f1" }), SyncDecision{Sync: true, Reason: SyncReasonFilterChanged}},
		{"manual, nothing to do", with(func(in *SyncInput) { in.Trigger = "t2"; in.LastTrigger = "t1" }),
			SyncDecision{Sync: true, Reason: SyncReasonManualNoChanges, RecordTrigger: true}},
		{"manual with changes", with(func(in *SyncInput) { in.Trigger = "t2"; in.CurrentHash = "h2" }),
			SyncDecision{Sync: true, Reason: SyncReasonManualWithChanges, RecordTrigger: true}},
		{"manual, hash unknown", with(func(in *SyncInput) { in.Trigger = "t2"; in.CurrentHash = "" }),
			SyncDecision{Sync: true, Reason: SyncReasonManualWithChanges, RecordTrigger: true}},
		{"manual already processed", with(func(in *SyncInput) { in.Trigger = "t1"; in.LastTrigger = "t1" }), SyncDecision{Reason: SyncReasonUpToDateNoPolicy}},
		{"interval not elapsed", with(func(in *SyncInput) { in.Interval = "5m" }), SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: 4 * time.Minute}},
		{"interval elapsed, hash known and equal", with(func(in *SyncInput) { in.Interval = "5m"; in.Now = t0.Add(6 * time.Minute) }),
			SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: 5 * time.Minute}},
		{"interval elapsed, hash unknown", with(func(in *SyncInput) { in.Interval = "1h"; in.CurrentHash = ""; in.Now = t0.Add(time.Hour) }),
			SyncDecision{Sync: true, Reason: SyncReasonIntervalElapsed, RequeueAfter: time.Hour}},
		{"interval not elapsed, hash unknown", with(func(in *SyncInput) { in.Interval = "1h"; in.CurrentHash = "" }),
			SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: 59 * time.Minute}},
		{"last sync in the future", with(func(in *SyncInput) { in.Interval = "5m"; in.Now = t0.Add(-time.Hour) }),
			SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: 5 * time.Minute}},
		{"bad interval", with(func(in *SyncInput) { in.Interval = "often" }), SyncDecision{Reason: SyncReasonErrorParsingInterval}},
		{"zero interval", with(func(in *SyncInput) { in.Interval = "0s" }), SyncDecision{Reason: SyncReasonErrorParsingInterval}},
		{"data changed with bad interval", with(func(in *SyncInput) { in.Interval = "often"; in.CurrentHash = "h2" }),
			SyncDecision{Sync: true, Reason: SyncReasonSourceDataChanged}},
	}
	for _, tt := range tests {
		if got := DecideSync(tt.in); got != tt.want {
			t.Errorf("%s: DecideSync = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestSyncInputFor(t *testing.T) {
	last := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &model.RegistryFilter{Names: &model.IncludeExclude{Include: []string{"team-a/*"}}}
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: testNS, UID: "u", Annotations: map[string]string{SyncTriggerAnnotation: "t2"}},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", ConfigMapSelector: &model.ConfigMapSelector{MatchLabels: regLabels}, SyncPolicy: &model.SyncPolicy{Interval: "5m"}, Filter: f,
		}}},
		Status: model.MCPRegistryStatus{LastManualSyncTrigger: "t1"},
	}
	srcs, _ := SourcesFor(reg)
	if len(srcs) != 1 {
		t.Fatalf("sources: %v", srcs)
	}
	now := last.Add(time.Minute)
	// Before the first sync there is no output ConfigMap.
	got := SyncInputFor(srcs[0], nil, "h2", now)
	want := SyncInput{Interval: "5m", CurrentHash: "h2", FilterHash: FilterHash(f), Now: now}
	if got != want {
		t.Errorf("SyncInputFor(nil) = %+v\nwant %+v", got, want)
	}
	if d := DecideSync(got); !d.Sync || d.Reason != SyncReasonNeverSynced {
		t.Errorf("first decision %+v", d)
	}
	// The output ConfigMap records the hashes of the last sync.
	out, _, err := OutputConfigMap(srcs[0], []byte("{}\n"), "h1", 0)
	if err != nil {
		t.Fatal(err)
	}
	got = SyncInputFor(srcs[0], out, "h2", now)
	got.Trigger, got.LastTrigger = RegistryTrigger(reg)
	want = SyncInput{Interval: "5m", LastSyncHash: "h1", CurrentHash: "h2",
		Trigger: "t2", LastTrigger: "t1", FilterHash: FilterHash(f), LastFilterHash: FilterHash(f), Now: now}
	if got != want {
		t.Errorf("SyncInputFor = %+v\nwant %+v", got, want)
	}
	// The same data and filter after the sync: up to date.
	got = SyncInputFor(srcs[0], out, "h1", now)
	if d := DecideSync(got); d.Sync || d.Reason != SyncReasonUpToDateWithPolicy {
		t.Errorf("decision after the sync %+v", d)
	}
	if a, b := RegistryTrigger(nil); a != "" || b != "" {
		t.Error("RegistryTrigger(nil)")
	}
	if FilterHash(nil) != "" || FilterHash(&model.RegistryFilter{Names: &model.IncludeExclude{}}) != "" {
		t.Error("an empty filter has a hash")
	}
	if FilterHash(f) == FilterHash(&model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"team-a/*"}}}) {
		t.Error("include and exclude of the same pattern hash alike")
	}
}
