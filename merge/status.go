package merge

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/model"
)

// Condition types Conditions sets.
const (
	// ConditionSynced is True when every source's registry is up to date:
	// merged now, or found unchanged by the sync decision. False names the
	// first source that could not be merged and why.
	ConditionSynced = "Synced"
	// ConditionDegraded is True when a merge went through without some of
	// its data: a ConfigMap skipped or entries dropped (PartialSyncFailure),
	// or nothing selected (NoConfigMapsSelected).
	ConditionDegraded = "Degraded"
)

// Condition reasons Conditions uses besides diagnostic reasons and sync
// decision reasons (SyncReason…), all CamelCase as metav1.Condition
// requires.
const (
	// ReasonMerged: the source was merged now.
	ReasonMerged = "Merged"
	// ReasonAllSourcesSynced: several sources are up to date, for
	// different reasons.
	ReasonAllSourcesSynced = "AllSourcesSynced"
	// ReasonMergeFailed: a merge gave no registry without an Error
	// diagnostic to name (not expected; kept so the condition is valid).
	ReasonMergeFailed = "MergeFailed"
	// ReasonAllDataMerged: no source lost data.
	ReasonAllDataMerged = "AllDataMerged"
	// ReasonNothingToSync: there was no source to merge (an MCPRegistry
	// whose entries are all git, api or pvcRef, or of the v1beta1 shape).
	ReasonNothingToSync = "NothingToSync"
	// ReasonNotDecided: a source neither merged nor decided.
	ReasonNotDecided = "NotDecided"
)

// Outcome is what a reconcile did with one Source, for Conditions.
type Outcome struct {
	// Source is the source reconciled; its Entry names it in messages.
	Source Source
	// Result is the merge; nil when the sync decision said not to merge.
	Result *Result
	// Sync is the sync decision; nil when there was none.
	Sync *SyncDecision
}

// Conditions turns what a reconcile did with each source into the
// conditions to write in the owner's status: ConditionSynced and
// ConditionDegraded, in that order, with observedGeneration set to
// generation and lastTransitionTime to now. Types and reasons pass
// apimachinery's metav1 validation (ValidateConditions), messages are at
// most model.MaxMessageLength bytes. Write them with
// k8s.io/apimachinery/pkg/api/meta.SetStatusCondition, which keeps the
// lastTransitionTime of a condition whose status did not change.
//
// Synced is False when a merge gave no registry (its reason is the reason
// of the merge's first Error diagnostic, such as ConflictError or
// InvalidSelector, and its message lists the failed entries); else True,
// with ReasonMerged, the sync decision's reason when the decision skipped
// the merge, or ReasonAllSourcesSynced when sources differ. Without
// outcomes it is False with ReasonNothingToSync.
func Conditions(outcomes []Outcome, generation int64, now metav1.Time) []metav1.Condition {
	synced := metav1.Condition{Type: ConditionSynced, ObservedGeneration: generation, LastTransitionTime: now}
	degraded := metav1.Condition{Type: ConditionDegraded, Status: metav1.ConditionFalse, Reason: ReasonAllDataMerged,
		ObservedGeneration: generation, LastTransitionTime: now}
	if len(outcomes) == 0 {
		synced.Status, synced.Reason = metav1.ConditionFalse, ReasonNothingToSync
		synced.Message = "no source to merge"
		degraded.Message = "no source to merge"
		return []metav1.Condition{synced, degraded}
	}

	var failed, ok, lossy []string
	failReason, okReason, lossReason := "", "", ""
	for _, o := range outcomes {
		entry := entryLabel(o.Source)
		reason, msg, good := outcomeStatus(o)
		if reason == "" {
			reason = ReasonNotDecided // a caller's decision without a reason
		}
		if !good {
			if failReason == "" {
				failReason = reason
			}
			failed = append(failed, entry+msg)
			continue
		}
		switch {
		case okReason == "":
			okReason = reason
		case okReason != reason:
			okReason = ReasonAllSourcesSynced
		}
		ok = append(ok, entry+msg)
		if o.Result != nil {
			for _, d := range o.Result.Diagnostics {
				if d.Reason == model.ReasonPartialSyncFailure || d.Reason == model.ReasonNoConfigMapsSelected {
					if lossReason == "" {
						lossReason = string(d.Reason)
					}
					lossy = append(lossy, entry+d.Message)
					break
				}
			}
		}
	}
	if len(failed) > 0 {
		synced.Status, synced.Reason = metav1.ConditionFalse, failReason
		synced.Message = model.CapMessage(strings.Join(failed, "; "), model.MaxMessageLength)
	} else {
		synced.Status, synced.Reason = metav1.ConditionTrue, okReason
		synced.Message = model.CapMessage(strings.Join(ok, "; "), model.MaxMessageLength)
	}
	if len(lossy) > 0 {
		degraded.Status, degraded.Reason = metav1.ConditionTrue, lossReason
		degraded.Message = model.CapMessage(strings.Join(lossy, "; "), model.MaxMessageLength)
	} else {
		degraded.Message = "every selected ConfigMap was merged in full"
	}
	return []metav1.Condition{synced, degraded}
}

// entryLabel prefixes a source's part of a message.
func entryLabel(s Source) string {
	if s.Entry == "" {
		return ""
	}
	return "entry " + quoteCapped(s.Entry, maxEntryName) + ": "
}

// outcomeStatus is one outcome's reason and message, and whether it is up
// to date.
func outcomeStatus(o Outcome) (reason, msg string, good bool) {
	switch {
	case o.Result != nil && o.Result.Registry == nil:
		for _, d := range o.Result.Diagnostics {
			if d.Severity == model.SeverityError {
				return string(d.Reason), d.Message, false
			}
		}
		return ReasonMergeFailed, "the merge gave no registry", false
	case o.Result != nil:
		reason = ReasonMerged
		if o.Sync != nil && o.Sync.Reason != "" {
			reason = o.Sync.Reason
		}
		return reason, fmt.Sprintf("merged %s from %s", count(len(o.Result.Registry.Servers), "server"), count(len(o.Result.Sources), "ConfigMap")), true
	case o.Sync != nil && !o.Sync.Sync:
		return o.Sync.Reason, "up to date", true
	case o.Sync != nil:
		return o.Sync.Reason, "sync pending", true
	}
	return ReasonNotDecided, "neither merged nor decided", true
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
