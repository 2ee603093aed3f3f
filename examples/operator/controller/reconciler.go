// Package controller is a working controller-runtime reconciler for
// ToolHive's MCPRegistry (toolhive.stacklok.dev/v1alpha1, read as
// unstructured, so no ToolHive Go types are needed) built on mcpreg's merge
// package: it selects the ConfigMaps each entry names or selects, merges
// them (incrementally: a reconcile reads again only the ConfigMaps that
// changed since the last, through merge.Incremental), server-side applies the
// output ConfigMap with a controller ownerReference, writes status conditions and records Events from the
// merge's diagnostics. ConfigMap watches are mapped to the MCPRegistries they
// affect with merge.AffectedByChange, so an update that changes nothing a
// merge reads enqueues nothing.
package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// MCPRegistryGVK is the kind the reconciler serves: ToolHive v0.10's
// MCPRegistry, whose spec.registries[] entries name ConfigMaps
// (configMapRef) or select them by label (configMapSelector).
var MCPRegistryGVK = schema.GroupVersionKind{Group: model.ToolHiveGroup, Version: "v1alpha1", Kind: model.KindMCPRegistry}

// FieldOwner is the server-side apply field manager of the output ConfigMaps
// and the status writes.
const FieldOwner = "mcpreg-example-operator"

// Reconciler merges the ConfigMaps of each MCPRegistry entry into its output
// ConfigMap.
type Reconciler struct {
	// Client reads through the manager's cache and writes to the API server.
	Client client.Client
	// APIReader reads the API server directly: a status write that lost a
	// race re-reads the object there, since the cache may still be behind.
	APIReader client.Reader
	// Recorder records Events from the merge's Warning and Error
	// diagnostics, on the object each is about.
	Recorder events.EventRecorder
	// Options are the merge options; LastUpdated is set at each reconcile.
	Options merge.Options
	// Now is the clock; time.Now when nil.
	Now func() time.Time

	// merges are the incremental merges of the entries, kept between
	// reconciles.
	merges merges

	// beforeStatusWrite, when set, runs before each status write attempt
	// (tests use it to lose a race on purpose).
	beforeStatusWrite func(attempt int)
}

func (r *Reconciler) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Reconcile merges every ConfigMap source of one MCPRegistry.
func (r *Reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	logger := log.FromContext(ctx)
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(MCPRegistryGVK)
	if err := r.Client.Get(ctx, req.NamespacedName, u); err != nil {
		// Deleted: its output ConfigMaps go with it (ownerReference).
		if apierrors.IsNotFound(err) {
			r.merges.forget(req.NamespacedName)
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if u.GetDeletionTimestamp() != nil {
		r.merges.forget(req.NamespacedName)
		return ctrl.Result{}, nil
	}
	reg, err := model.MCPRegistryFromUnstructured(u)
	if err != nil {
		// Not an object the library can read: say so on the object rather
		// than retrying a decode that will fail the same way.
		r.Recorder.Eventf(u, nil, corev1.EventTypeWarning, "InvalidSpec", "Reconcile", "%s", model.CapMessage(err.Error(), model.MaxMessageLength))
		return ctrl.Result{}, nil
	}
	now := r.now()
	sources, sourceDiags := merge.SourcesFor(reg)
	r.record(u, sourceDiags)

	var configMaps corev1.ConfigMapList
	if err := r.Client.List(ctx, &configMaps, client.InNamespace(reg.Namespace)); err != nil {
		return ctrl.Result{}, err
	}
	cms := make([]*corev1.ConfigMap, len(configMaps.Items))
	for i := range configMaps.Items {
		cms[i] = &configMaps.Items[i]
	}

	opts := r.Options
	opts.LastUpdated = now
	trigger, lastTrigger := merge.RegistryTrigger(reg)
	var outcomes []merge.Outcome
	var requeue time.Duration
	recordTrigger := false
	for _, src := range sources {
		res := r.merges.entry(reg, src, opts).result(cms)
		if len(sourceDiags) > 0 {
			// What SourcesFor says of the entries it cannot merge is about
			// the same MCPRegistry: reported with each merge, as
			// merge.ForRegistry does.
			res.Diagnostics = append(slices.Clone(res.Diagnostics), sourceDiags...)
			res.Diagnostics.Sort()
		}
		r.record(u, res.Diagnostics)
		var output *corev1.ConfigMap
		if res.Registry != nil {
			output = &corev1.ConfigMap{}
			key := client.ObjectKey{Namespace: src.Namespace, Name: merge.OutputConfigMapName(src.Owner.Name, src.Entry)}
			err := r.Client.Get(ctx, key, output)
			if apierrors.IsNotFound(err) {
				output = nil
			} else if err != nil {
				return ctrl.Result{}, err
			}
		}
		in := merge.SyncInputFor(src, output, res.Hash, now)
		in.Trigger, in.LastTrigger = trigger, lastTrigger
		decision := merge.DecideSync(in)
		// An empty registry is a valid document, but ToolHive's registry
		// server refuses it and keeps serving what it had: the output
		// ConfigMap keeps the previous document instead, and the
		// EmptyRegistry warning is an Event on the MCPRegistry.
		empty := len(res.Diagnostics.WithReason(model.ReasonEmptyRegistry)) > 0
		if decision.Sync && res.Registry != nil && !res.Diagnostics.HasErrors() && !empty {
			// The document is rendered only now, when it is to be written:
			// it is proportional to the whole registry, the rest of an
			// incremental merge to what changed.
			cm, ds, err := render(src, &res, now.UTC().Format(time.RFC3339), opts)
			if err != nil {
				return ctrl.Result{}, fmt.Errorf("rendering the output of entry %q: %w", src.Entry, err)
			}
			if len(ds) > 0 {
				res.Diagnostics = append(res.Diagnostics, ds...)
				res.Diagnostics.Sort()
				r.record(u, ds)
			}
			if !ds.HasErrors() {
				if err := r.Client.Apply(ctx, applyConfiguration(cm), client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
					return ctrl.Result{}, fmt.Errorf("applying %s/%s: %w", cm.Namespace, cm.Name, err)
				}
				logger.V(1).Info("applied output ConfigMap", "configMap", cm.Name, "hash", res.Hash, "reason", decision.Reason)
			}
		}
		recordTrigger = recordTrigger || decision.RecordTrigger
		if decision.RequeueAfter > 0 && (requeue == 0 || decision.RequeueAfter < requeue) {
			requeue = decision.RequeueAfter
		}
		outcomes = append(outcomes, merge.Outcome{Source: src, Result: &res, Sync: &decision})
	}

	conditions := merge.Conditions(outcomes, reg.Generation, metav1.NewTime(now))
	if err := r.writeStatus(ctx, req.NamespacedName, conditions, recordTrigger, trigger); err != nil {
		return ctrl.Result{}, err
	}
	return ctrl.Result{RequeueAfter: requeue}, nil
}

// record turns Warning and Error diagnostics into Events on the object each
// is about (the MCPRegistry, or a ConfigMap that was skipped). Info
// diagnostics, such as a renamed server, stay out of the event stream.
func (r *Reconciler) record(reg *unstructured.Unstructured, ds model.Diagnostics) {
	for _, d := range ds {
		if d.Severity == model.SeverityInfo {
			continue
		}
		ev, ok := model.EventFor(d)
		if !ok {
			continue
		}
		var regarding runtime.Object = &ev.InvolvedObject
		if ev.InvolvedObject.UID == reg.GetUID() {
			regarding = reg
		}
		r.Recorder.Eventf(regarding, nil, ev.Type, ev.Reason, "Merge", "%s", ev.Message)
	}
}

// writeStatus sets the conditions (and the processed manual trigger) on the
// MCPRegistry's status. A write that loses a race with another writer (409
// Conflict) re-reads the object from the API server and tries again.
func (r *Reconciler) writeStatus(ctx context.Context, key client.ObjectKey, conditions []metav1.Condition, recordTrigger bool, trigger string) error {
	attempt := 0
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(MCPRegistryGVK)
		var reader client.Reader = r.Client
		if attempt > 0 && r.APIReader != nil {
			reader = r.APIReader
		}
		if err := reader.Get(ctx, key, u); err != nil {
			return err
		}
		if r.beforeStatusWrite != nil {
			r.beforeStatusWrite(attempt)
		}
		attempt++
		changed, err := setStatus(u, conditions, recordTrigger, trigger)
		if err != nil || !changed {
			return err
		}
		return r.Client.Status().Update(ctx, u, client.FieldOwner(FieldOwner))
	})
}

// setStatus writes the conditions into u's status with
// meta.SetStatusCondition (which keeps the lastTransitionTime of a condition
// whose status did not change), and the phase ToolHive's CRD shows. It
// reports whether anything changed, so that an unchanged status is not
// written (a write would only wake the watchers).
func setStatus(u *unstructured.Unstructured, conditions []metav1.Condition, recordTrigger bool, trigger string) (bool, error) {
	status, _, err := unstructured.NestedMap(u.Object, "status")
	if err != nil {
		return false, err
	}
	if status == nil {
		status = map[string]any{}
	}
	var current []metav1.Condition
	if raw, ok := status["conditions"]; ok {
		b, err := json.Marshal(raw)
		if err == nil {
			err = json.Unmarshal(b, &current)
		}
		if err != nil {
			return false, fmt.Errorf("status.conditions: %w", err)
		}
	}
	changed := false
	for _, c := range conditions {
		if existing := meta.FindStatusCondition(current, c.Type); existing != nil &&
			existing.Status == c.Status && existing.Reason == c.Reason &&
			existing.Message == c.Message && existing.ObservedGeneration == c.ObservedGeneration {
			continue
		}
		meta.SetStatusCondition(&current, c)
		changed = true
	}
	phase, message := "Ready", ""
	if synced := meta.FindStatusCondition(current, merge.ConditionSynced); synced != nil && synced.Status != metav1.ConditionTrue {
		phase, message = "Failed", synced.Message
	}
	if status["phase"] != phase || status["message"] != message {
		status["phase"], status["message"] = phase, message
		changed = true
	}
	if recordTrigger && status["lastManualSyncTrigger"] != trigger {
		status["lastManualSyncTrigger"] = trigger
		changed = true
	}
	if !changed {
		return false, nil
	}
	raw := make([]any, len(current))
	for i := range current {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&current[i])
		if err != nil {
			return false, err
		}
		raw[i] = m
	}
	status["conditions"] = raw
	return true, unstructured.SetNestedMap(u.Object, status, "status")
}

// applyConfiguration is the server-side apply request for the output
// ConfigMap the library rendered: exactly the fields this controller owns.
func applyConfiguration(cm *corev1.ConfigMap) *corev1ac.ConfigMapApplyConfiguration {
	ac := corev1ac.ConfigMap(cm.Name, cm.Namespace).
		WithLabels(cm.Labels).
		WithAnnotations(cm.Annotations).
		WithData(cm.Data)
	for _, o := range cm.OwnerReferences {
		ref := metav1ac.OwnerReference().
			WithAPIVersion(o.APIVersion).WithKind(o.Kind).WithName(o.Name).WithUID(o.UID)
		if o.Controller != nil {
			ref.WithController(*o.Controller)
		}
		if o.BlockOwnerDeletion != nil {
			ref.WithBlockOwnerDeletion(*o.BlockOwnerDeletion)
		}
		ac.WithOwnerReferences(ref)
	}
	return ac
}
