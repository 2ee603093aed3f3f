package merge

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/model"
)

// SyncTriggerAnnotation is the MCPRegistry annotation a user sets to a new
// value to ask for a sync whatever the interval says.
const SyncTriggerAnnotation = "toolhive.stacklok.dev/sync-trigger"

// Reasons of a SyncDecision. They are CamelCase, so that a decision's reason
// can be a metav1.Condition reason and an Event reason as it is (Conditions
// uses them); ToolHive's operator spells the same cases in kebab-case
// ("never-synced", "up-to-date-with-policy").
const (
	SyncReasonNeverSynced          = "NeverSynced"
	SyncReasonManualWithChanges    = "ManualSyncWithDataChanges"
	SyncReasonManualNoChanges      = "ManualSyncNoDataChanges"
	SyncReasonFilterChanged        = "FilterChanged"
	SyncReasonSourceDataChanged    = "SourceDataChanged"
	SyncReasonIntervalElapsed      = "IntervalElapsed"
	SyncReasonErrorParsingInterval = "ErrorParsingSyncInterval"
	SyncReasonUpToDateWithPolicy   = "UpToDateWithPolicy"
	SyncReasonUpToDateNoPolicy     = "UpToDateNoPolicy"
)

// SyncInput is what the sync decision reads. Times are the caller's; the
// decision never reads a clock.
type SyncInput struct {
	// Interval is syncPolicy.interval ("5m", "1h"); "" means manual sync only.
	Interval string
	// LastSyncTime is the last successful sync; zero when there was none.
	LastSyncTime time.Time
	// LastSyncHash is the content hash of the last sync: HashAnnotation of
	// the output ConfigMap (see SyncInputFor), or ToolHive's
	// status.syncStatus.lastSyncHash for a registry of one entry.
	LastSyncHash string
	// CurrentHash is the hash of the data as it is now (Result.Hash for a
	// ConfigMap source); "" when the caller has not fetched it, as for a
	// git or API source between intervals.
	CurrentHash string
	// Trigger is the value of the SyncTriggerAnnotation; LastTrigger is
	// status.lastManualSyncTrigger, the last value processed.
	Trigger, LastTrigger string
	// FilterHash is FilterHash of the source's filter now; LastFilterHash the
	// one recorded at the last sync (FilterHashAnnotation of the output
	// ConfigMap).
	FilterHash, LastFilterHash string
	// Now is the current time.
	Now time.Time
}

// SyncDecision says whether to sync now, why, and when to look again.
type SyncDecision struct {
	Sync   bool
	Reason string
	// RequeueAfter is when to decide again; 0 means only on the next event.
	RequeueAfter time.Duration
	// RecordTrigger is set when Trigger is a new manual request: after the
	// sync (or at once, for SyncReasonManualNoChanges) the caller stores
	// Trigger as status.lastManualSyncTrigger.
	RecordTrigger bool
}

// DecideSync decides whether an MCPRegistry entry must sync now. In order:
//
//  1. a new manual trigger (Trigger set and not LastTrigger) syncs, with
//     SyncReasonManualWithChanges when there is something to sync and
//     SyncReasonManualNoChanges when the caller need only record the trigger;
//  2. never synced (no LastSyncHash) syncs;
//  3. a changed filter syncs;
//  4. a known CurrentHash different from LastSyncHash syncs;
//  5. with a valid interval: when CurrentHash is unknown and the interval has
//     elapsed since LastSyncTime, sync (SyncReasonIntervalElapsed); else wait
//     until it elapses (SyncReasonUpToDateWithPolicy). An interval that is not
//     a positive Go duration does not sync (SyncReasonErrorParsingInterval;
//     ValidateMCPRegistry reports it);
//  6. without an interval nothing happens until the next event.
//
// A decision to sync looks again after the interval, when there is one.
func DecideSync(in SyncInput) SyncDecision {
	var interval time.Duration
	intervalOK := false
	if in.Interval != "" {
		if d, err := time.ParseDuration(in.Interval); err == nil && d > 0 {
			interval, intervalOK = d, true
		}
	}
	again := time.Duration(0)
	if intervalOK {
		again = interval
	}
	never := in.LastSyncHash == ""
	filterChanged := in.FilterHash != in.LastFilterHash
	dataChanged := in.CurrentHash != "" && in.CurrentHash != in.LastSyncHash

	if in.Trigger != "" && in.Trigger != in.LastTrigger {
		d := SyncDecision{Sync: true, Reason: SyncReasonManualNoChanges, RequeueAfter: again, RecordTrigger: true}
		if never || filterChanged || dataChanged || in.CurrentHash == "" {
			d.Reason = SyncReasonManualWithChanges
		}
		return d
	}
	switch {
	case never:
		return SyncDecision{Sync: true, Reason: SyncReasonNeverSynced, RequeueAfter: again}
	case filterChanged:
		return SyncDecision{Sync: true, Reason: SyncReasonFilterChanged, RequeueAfter: again}
	case dataChanged:
		return SyncDecision{Sync: true, Reason: SyncReasonSourceDataChanged, RequeueAfter: again}
	case in.Interval == "":
		return SyncDecision{Reason: SyncReasonUpToDateNoPolicy}
	case !intervalOK:
		return SyncDecision{Reason: SyncReasonErrorParsingInterval}
	}
	next := in.LastSyncTime.Add(interval)
	if in.LastSyncTime.IsZero() || !in.Now.Before(next) {
		if in.CurrentHash == "" {
			return SyncDecision{Sync: true, Reason: SyncReasonIntervalElapsed, RequeueAfter: interval}
		}
		return SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: interval}
	}
	// A last sync in the future (clock skew) waits one interval at most.
	return SyncDecision{Reason: SyncReasonUpToDateWithPolicy, RequeueAfter: min(next.Sub(in.Now), interval)}
}

// SyncInputFor fills a SyncInput for a source: its interval and the hash of
// its filter now, and, from output — the source's output ConfigMap as last
// written (OutputConfigMap), nil before the first sync — the content hash
// and filter hash recorded at the last sync (HashAnnotation,
// FilterHashAnnotation). currentHash is the hash of the data as it is now
// (Result.Hash of a fresh merge). The caller adds what neither holds: the
// manual trigger (RegistryTrigger for an MCPRegistry) and, if it keeps one,
// the last sync time.
func SyncInputFor(src Source, output *corev1.ConfigMap, currentHash string, now time.Time) SyncInput {
	in := SyncInput{
		Interval:    src.Interval,
		CurrentHash: currentHash,
		FilterHash:  FilterHash(src.Filter),
		Now:         now,
	}
	if output != nil {
		in.LastSyncHash = output.Annotations[HashAnnotation]
		in.LastFilterHash = output.Annotations[FilterHashAnnotation]
	}
	return in
}

// RegistryTrigger returns the manual sync request of an MCPRegistry: the
// value of its SyncTriggerAnnotation, and the last value processed
// (status.lastManualSyncTrigger), for SyncInput.Trigger and LastTrigger.
func RegistryTrigger(reg *model.MCPRegistry) (trigger, lastProcessed string) {
	if reg == nil {
		return "", ""
	}
	return reg.Annotations[SyncTriggerAnnotation], reg.Status.LastManualSyncTrigger
}

// FilterHash identifies a filter's patterns, to tell when they change: "" for
// no filter (nil or without any pattern), else the SHA-256 hex of its JSON.
func FilterHash(f *model.RegistryFilter) string {
	if f == nil {
		return ""
	}
	empty := func(ie *model.IncludeExclude) bool { return ie == nil || len(ie.Include)+len(ie.Exclude) == 0 }
	if empty(f.Names) && empty(f.Tags) {
		return ""
	}
	b, err := json.Marshal(f)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
