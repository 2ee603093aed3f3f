package controller

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// SetupWithManager registers the reconciler with mgr and wires its watches:
//
//   - MCPRegistries, on a change of spec (generation) or annotations (the
//     manual sync trigger); status writes do not wake it;
//   - the output ConfigMaps it owns, so that one edited or deleted by hand
//     is written again;
//   - every ConfigMap, mapped to the MCPRegistries that read it by
//     merge.AffectedByChange (see ConfigMapHandler).
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return build(mgr, &ConfigMapHandler{Reader: mgr.GetClient()}, r, crcontroller.Options{})
}

// build wires the watches to rec, which is the Reconciler (tests wrap it).
func build(mgr ctrl.Manager, h *ConfigMapHandler, rec reconcile.Reconciler, opts crcontroller.Options) error {
	reg := &unstructured.Unstructured{}
	reg.SetGroupVersionKind(MCPRegistryGVK)
	return ctrl.NewControllerManagedBy(mgr).
		Named("mcpregistry").
		WithOptions(opts).
		For(reg, builder.WithPredicates(predicate.Or(predicate.GenerationChangedPredicate{}, predicate.AnnotationChangedPredicate{}))).
		Owns(&corev1.ConfigMap{}).
		Watches(&corev1.ConfigMap{}, h).
		Complete(rec)
}

// ConfigMapHandler enqueues, for a ConfigMap event, the MCPRegistries whose
// entries read that ConfigMap: merge.AffectedByChange over the sources of
// the MCPRegistries of its namespace (merge.SourcesFor), with both states
// of an update. A registry is enqueued when its selector matches the old or
// the new labels, or its configMapRef names the ConfigMap, unless the key it
// reads holds the same data before and after: an update of an annotation,
// of another key or of an unrelated label enqueues nothing. A ConfigMap
// relabelled out of a selector enqueues the registry, which then drops it.
type ConfigMapHandler struct {
	// Reader lists the MCPRegistries (the manager's cache).
	Reader client.Reader
	// Observe, when set, is told what each event enqueued (tests use it).
	Observe func(old, new *corev1.ConfigMap, enqueued []reconcile.Request)
}

var _ handler.EventHandler = (*ConfigMapHandler)(nil)

// Create handles a new ConfigMap.
func (h *ConfigMapHandler) Create(ctx context.Context, e event.CreateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.enqueue(ctx, nil, asConfigMap(e.Object), q)
}

// Update handles a changed ConfigMap, with both states.
func (h *ConfigMapHandler) Update(ctx context.Context, e event.UpdateEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.enqueue(ctx, asConfigMap(e.ObjectOld), asConfigMap(e.ObjectNew), q)
}

// Delete handles a deleted ConfigMap (its last known state).
func (h *ConfigMapHandler) Delete(ctx context.Context, e event.DeleteEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.enqueue(ctx, asConfigMap(e.Object), nil, q)
}

// Generic handles an event from outside the cluster as a fresh ConfigMap.
func (h *ConfigMapHandler) Generic(ctx context.Context, e event.GenericEvent, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	h.enqueue(ctx, nil, asConfigMap(e.Object), q)
}

func asConfigMap(o client.Object) *corev1.ConfigMap {
	cm, _ := o.(*corev1.ConfigMap)
	return cm
}

func (h *ConfigMapHandler) enqueue(ctx context.Context, old, new *corev1.ConfigMap, q workqueue.TypedRateLimitingInterface[reconcile.Request]) {
	if old == nil && new == nil {
		return
	}
	ns := ""
	if new != nil {
		ns = new.Namespace
	} else {
		ns = old.Namespace
	}
	sources, err := h.sources(ctx, ns)
	if err != nil {
		// The cache lists from memory; an error means it is not ready, and
		// the informer's resync brings the event back.
		log.FromContext(ctx).Error(err, "listing MCPRegistries for a ConfigMap event", "namespace", ns)
		return
	}
	var reqs []reconcile.Request
	for _, a := range merge.AffectedByChange(sources, old, new) {
		req := reconcile.Request{NamespacedName: types.NamespacedName{Namespace: a.Owner.Namespace, Name: a.Owner.Name}}
		reqs = append(reqs, req)
		q.Add(req)
	}
	if h.Observe != nil {
		h.Observe(old, new, reqs)
	}
}

// sources are the merge sources of the MCPRegistries of namespace. Sources
// only ever read ConfigMaps of their own namespace, so the others need not
// be listed.
func (h *ConfigMapHandler) sources(ctx context.Context, namespace string) ([]merge.Source, error) {
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(MCPRegistryGVK.GroupVersion().WithKind(MCPRegistryGVK.Kind + "List"))
	if err := h.Reader.List(ctx, list, client.InNamespace(namespace)); err != nil {
		return nil, err
	}
	var sources []merge.Source
	for i := range list.Items {
		reg, err := model.MCPRegistryFromUnstructured(&list.Items[i])
		if err != nil {
			continue // its own reconcile reports it
		}
		s, _ := merge.SourcesFor(reg)
		sources = append(sources, s...)
	}
	return sources, nil
}
