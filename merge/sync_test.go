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
	last := metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	f := &model.RegistryFilter{Names: &model.IncludeExclude{Include: []string{"team-a/*"}}}
	reg := &model.MCPRegistry{
		ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{SyncTriggerAnnotation: "t2"}},
		Spec: model.MCPRegistrySpec{Registries: []model.MCPRegistryConfig{{
			Name: "e", SyncPolicy: &model.SyncPolicy{Interval: "5m"}, Filter: f,
		}}},
		Status: model.MCPRegistryStatus{
			LastManualSyncTrigger: "t1",
			SyncStatus:            &model.SyncStatus{LastSyncTime: &last, LastSyncHash: "h1"},
		},
	}
	now := last.Add(time.Minute)
	got := SyncInputFor(reg, 0, "h2", "f0", now)
	want := SyncInput{Interval: "5m", LastSyncTime: last.Time, LastSyncHash: "h1", CurrentHash: "h2",
		Trigger: "t2", LastTrigger: "t1", FilterHash: FilterHash(f), LastFilterHash: "f0", Now: now}
	if got != want {
		t.Errorf("SyncInputFor = %+v\nwant %+v", got, want)
	}
	if FilterHash(nil) != "" || FilterHash(&model.RegistryFilter{Names: &model.IncludeExclude{}}) != "" {
		t.Error("an empty filter has a hash")
	}
	if FilterHash(f) == FilterHash(&model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"team-a/*"}}}) {
		t.Error("include and exclude of the same pattern hash alike")
	}
}
