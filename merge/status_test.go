package merge

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/model"
)

var statusNow = metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))

// checkConditions fails unless conds pass apimachinery's own validation and
// keep messages within the bound.
func checkConditions(t interface {
	Helper()
	Fatalf(string, ...any)
}, conds []metav1.Condition) {
	t.Helper()
	if errs := metav1validation.ValidateConditions(conds, field.NewPath("status", "conditions")); len(errs) > 0 {
		t.Fatalf("invalid conditions %+v: %v", conds, errs)
	}
	for _, c := range conds {
		if len(c.Message) > model.MaxMessageLength {
			t.Fatalf("condition %s message of %d bytes", c.Type, len(c.Message))
		}
	}
}

func TestConditions(t *testing.T) {
	teams := Source{Entry: "teams", Namespace: testNS, Selector: regSelector}
	good := mergeIn(testInput{Namespace: testNS, Selector: regSelector, LastUpdated: now, ConfigMaps: []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"})),
	}})
	partial := mergeIn(testInput{Namespace: testNS, Selector: regSelector, LastUpdated: now, ConfigMaps: []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"})),
		configMap("b", regLabels, "not json"),
	}})
	conflict := mergeIn(testInput{Namespace: testNS, Selector: regSelector, Strategy: StrategyError, LastUpdated: now, ConfigMaps: []*corev1.ConfigMap{
		configMap("a", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "a"})),
		configMap("b", regLabels, upstreamDoc(testServer{Name: "io.ex/aa", ID: "b"})),
	}})
	upToDate := DecideSync(SyncInput{Interval: "5m", LastSyncHash: "h", CurrentHash: "h", Now: now.Add(time.Minute), LastSyncTime: now})
	changed := DecideSync(SyncInput{LastSyncHash: "h", CurrentHash: "h2"})
	other := teams
	other.Entry = "other"

	tests := []struct {
		name                  string
		outcomes              []Outcome
		synced, degraded      metav1.ConditionStatus
		syncReason, degReason string
		syncMessage           string
	}{
		{"nothing", nil, metav1.ConditionFalse, metav1.ConditionFalse, ReasonNothingToSync, ReasonAllDataMerged, "no source to merge"},
		{"merged", []Outcome{{Source: teams, Result: &good}}, metav1.ConditionTrue, metav1.ConditionFalse, ReasonMerged, ReasonAllDataMerged,
			`entry "teams": merged 1 server from 1 ConfigMap`},
		{"merged on a data change", []Outcome{{Source: teams, Result: &good, Sync: &changed}}, metav1.ConditionTrue, metav1.ConditionFalse,
			SyncReasonSourceDataChanged, ReasonAllDataMerged, `entry "teams": merged 1 server from 1 ConfigMap`},
		{"up to date", []Outcome{{Source: teams, Sync: &upToDate}}, metav1.ConditionTrue, metav1.ConditionFalse,
			SyncReasonUpToDateWithPolicy, ReasonAllDataMerged, `entry "teams": up to date`},
		{"partial", []Outcome{{Source: teams, Result: &partial}}, metav1.ConditionTrue, metav1.ConditionTrue,
			ReasonMerged, string(model.ReasonPartialSyncFailure), `entry "teams": merged 1 server from 2 ConfigMaps`},
		{"conflict error", []Outcome{{Source: teams, Result: &good}, {Source: other, Result: &conflict}}, metav1.ConditionFalse, metav1.ConditionFalse,
			string(model.ReasonConflictError), ReasonAllDataMerged, `entry "other": server "io.ex/aa"`},
		{"sources differ", []Outcome{{Source: teams, Result: &good}, {Source: other, Sync: &upToDate}}, metav1.ConditionTrue, metav1.ConditionFalse,
			ReasonAllSourcesSynced, ReasonAllDataMerged, `entry "teams": merged 1 server from 1 ConfigMap; entry "other": up to date`},
		{"decision without reason", []Outcome{{Source: teams, Sync: &SyncDecision{}}}, metav1.ConditionTrue, metav1.ConditionFalse,
			ReasonNotDecided, ReasonAllDataMerged, `entry "teams": up to date`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conds := Conditions(tt.outcomes, 7, statusNow)
			checkConditions(t, conds)
			if len(conds) != 2 || conds[0].Type != ConditionSynced || conds[1].Type != ConditionDegraded {
				t.Fatalf("conditions %+v", conds)
			}
			s, d := conds[0], conds[1]
			if s.Status != tt.synced || s.Reason != tt.syncReason || !strings.HasPrefix(s.Message, tt.syncMessage) {
				t.Errorf("Synced = %s %s %q, want %s %s %q…", s.Status, s.Reason, s.Message, tt.synced, tt.syncReason, tt.syncMessage)
			}
			if d.Status != tt.degraded || d.Reason != tt.degReason {
				t.Errorf("Degraded = %s %s %q, want %s %s", d.Status, d.Reason, d.Message, tt.degraded, tt.degReason)
			}
			if s.ObservedGeneration != 7 || !s.LastTransitionTime.Equal(&statusNow) {
				t.Errorf("generation %d, time %v", s.ObservedGeneration, s.LastTransitionTime)
			}
		})
	}
}

// TestConditionsValidProperty: whatever the sources and their diagnostics
// (any reason, any entry name, long messages), the conditions pass
// apimachinery's validation and stay within the message bound.
func TestConditionsValidProperty(t *testing.T) {
	reasons := model.Reasons()
	syncReasons := []string{SyncReasonNeverSynced, SyncReasonManualWithChanges, SyncReasonManualNoChanges, SyncReasonFilterChanged,
		SyncReasonSourceDataChanged, SyncReasonIntervalElapsed, SyncReasonErrorParsingInterval, SyncReasonUpToDateWithPolicy, SyncReasonUpToDateNoPolicy}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 5).Draw(t, "sources")
		var outcomes []Outcome
		for range n {
			o := Outcome{Source: Source{Entry: rapid.String().Draw(t, "entry")}}
			if rapid.Bool().Draw(t, "decided") {
				o.Sync = &SyncDecision{Reason: rapid.SampledFrom(syncReasons).Draw(t, "syncReason")}
			}
			if rapid.Bool().Draw(t, "merged") {
				r := &Result{}
				if rapid.Bool().Draw(t, "registry") {
					r.Registry = model.NewRegistry("2025-01-01T00:00:00Z", nil)
				}
				for range rapid.IntRange(0, 3).Draw(t, "diagnostics") {
					r.Diagnostics = append(r.Diagnostics, model.Diagnostic{
						Severity: model.Severity(rapid.IntRange(0, 2).Draw(t, "severity")),
						Reason:   rapid.SampledFrom(reasons).Draw(t, "reason"),
						Message:  strings.Repeat(rapid.String().Draw(t, "message"), rapid.IntRange(1, 400).Draw(t, "repeat")),
					})
				}
				o.Result = r
			}
			outcomes = append(outcomes, o)
		}
		checkConditions(t, Conditions(outcomes, 1, statusNow))
	})
}
