package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/mcpreg/mcpreg/internal/testenv"
	"github.com/mcpreg/mcpreg/merge"
	"github.com/mcpreg/mcpreg/model"
)

// The tests run against a real API server (kube-apiserver and etcd, through
// envtest) with ToolHive v0.10's CRDs, the MCPRegistry CRD carrying the
// configMapSelector extension. Each test works in a namespace of its own.
func TestMain(m *testing.M) { os.Exit(testenv.Main(m)) }

const (
	registryLabel = "toolhive.stacklok.dev/registry"
	wait          = 60 * time.Second // the machine running the tests may be busy
)

// harness is a manager running the reconciler, with what it enqueued and
// reconciled on record.
type harness struct {
	env *testenv.Env
	c   client.Client // direct, uncached
	ns  string

	mu         sync.Mutex
	observed   []observation
	reconciled map[types.NamespacedName]int
}

type observation struct {
	old, new *corev1.ConfigMap
	enqueued []reconcile.Request
}

// counting wraps the reconciler to count reconciles per registry.
type counting struct {
	r *Reconciler
	h *harness
}

func (c counting) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	c.h.mu.Lock()
	c.h.reconciled[req.NamespacedName]++
	c.h.mu.Unlock()
	return c.r.Reconcile(ctx, req)
}

func start(t *testing.T) *harness {
	t.Helper()
	env := testenv.Shared(t, testenv.ToolHiveV010)
	h := &harness{env: env, c: env.Client, ns: namespace(t, env.Client), reconciled: map[types.NamespacedName]int{}}
	mgr, err := ctrl.NewManager(env.Config, ctrl.Options{
		Scheme:  testenv.Scheme(),
		Metrics: metricsserver.Options{BindAddress: "0"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &Reconciler{
		Client:    mgr.GetClient(),
		APIReader: mgr.GetAPIReader(),
		Recorder:  mgr.GetEventRecorder(FieldOwner),
	}
	handler := &ConfigMapHandler{Reader: mgr.GetClient(), Observe: func(old, new *corev1.ConfigMap, reqs []reconcile.Request) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.observed = append(h.observed, observation{old, new, reqs})
	}}
	skip := true // every test starts a manager with the same controller name
	if err := build(mgr, handler, counting{r, h}, crcontroller.Options{SkipNameValidation: &skip}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	return h
}

var nsCount struct {
	sync.Mutex
	n int
}

// namespace creates a namespace for one test (envtest has no namespace
// controller, so namespaces are never deleted; names stay unique).
func namespace(t *testing.T, c client.Client) string {
	nsCount.Lock()
	nsCount.n++
	name := fmt.Sprintf("t%d-%s", nsCount.n, strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-")))
	nsCount.Unlock()
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "-")
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := c.Create(context.Background(), ns); err != nil {
		t.Fatal(err)
	}
	return name
}

func configMap(ns, name string, labels map[string]string, servers ...string) *corev1.ConfigMap {
	var items []string
	for _, s := range servers {
		items = append(items, fmt.Sprintf(`{"name": %q, "image": "ghcr.io/example/%s:1"}`, s, s))
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Data:       map[string]string{"registry.json": `{"servers": [` + strings.Join(items, ", ") + `]}`},
	}
}

// registry is an MCPRegistry with one entry per source given: a label map
// (configMapSelector) or a ConfigMap name (configMapRef).
func registry(ns, name string, sources ...any) *unstructured.Unstructured {
	var entries []any
	for i, s := range sources {
		e := map[string]any{"name": fmt.Sprintf("entry-%d", i)}
		switch s := s.(type) {
		case map[string]string:
			ml := map[string]any{}
			for k, v := range s {
				ml[k] = v
			}
			e["configMapSelector"] = map[string]any{"matchLabels": ml}
		case string:
			e["configMapRef"] = map[string]any{"name": s, "key": "registry.json"}
		}
		entries = append(entries, e)
	}
	u := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"registries": entries}}}
	u.SetGroupVersionKind(MCPRegistryGVK)
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

func (h *harness) create(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		if err := h.c.Create(context.Background(), o); err != nil {
			t.Fatalf("creating %T %s: %v", o, o.GetName(), err)
		}
	}
}

// eventually polls f until it returns nil, failing t with its last error
// after the wait.
func eventually(t *testing.T, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(wait)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// output waits for the output ConfigMap of entry-0 of registry name to list
// exactly servers (their names in the merged document), and returns it.
func (h *harness) output(t *testing.T, name string, servers ...string) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{}
	key := types.NamespacedName{Namespace: h.ns, Name: merge.OutputConfigMapName(name, "entry-0")}
	eventually(t, "output ConfigMap of "+name, func() error {
		if err := h.c.Get(context.Background(), key, cm); err != nil {
			return err
		}
		doc := cm.Data[merge.OutputKey]
		for _, s := range servers {
			if !strings.Contains(doc, `"io.github.stacklok/`+s+`"`) && !strings.Contains(doc, `/`+s+`"`) {
				return fmt.Errorf("%s lacks %s: %s", key.Name, s, doc)
			}
		}
		if n := strings.Count(doc, `"packages"`); n != len(servers) {
			return fmt.Errorf("%s has %d servers, want %d: %s", key.Name, n, len(servers), doc)
		}
		return nil
	})
	return cm
}

// sameAsFullMerge checks that the output ConfigMap of entry-0 of registry
// name, which the reconciler keeps up to date incrementally, is what a full
// merge.ForRegistry of the namespace's ConfigMaps as they are now renders,
// stamped with the same time.
func (h *harness) sameAsFullMerge(t *testing.T, name string) {
	t.Helper()
	ctx := context.Background()
	reg, err := model.MCPRegistryFromUnstructured(h.get(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var list corev1.ConfigMapList
	if err := h.c.List(ctx, &list, client.InNamespace(h.ns)); err != nil {
		t.Fatal(err)
	}
	cms := make([]*corev1.ConfigMap, len(list.Items))
	for i := range list.Items {
		cms[i] = &list.Items[i]
	}
	out := &corev1.ConfigMap{}
	if err := h.c.Get(ctx, types.NamespacedName{Namespace: h.ns, Name: merge.OutputConfigMapName(name, "entry-0")}, out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Meta struct {
			LastUpdated time.Time `json:"last_updated"`
		} `json:"meta"`
	}
	if err := json.Unmarshal([]byte(out.Data[merge.OutputKey]), &doc); err != nil {
		t.Fatalf("output of %s: %v", name, err)
	}
	full, err := merge.ForRegistry(reg, "entry-0", cms, merge.Options{LastUpdated: doc.Meta.LastUpdated})
	if err != nil || full.ConfigMap == nil {
		t.Fatalf("ForRegistry(%s): %v, %+v", name, err, full.Diagnostics)
	}
	if diff := cmp.Diff(full.ConfigMap.Data, out.Data); diff != "" {
		t.Errorf("output of %s differs from a full merge (-full +incremental):\n%s", name, diff)
	}
	if diff := cmp.Diff(full.ConfigMap.Annotations, out.Annotations); diff != "" {
		t.Errorf("annotations of the output of %s differ from a full merge (-full +incremental):\n%s", name, diff)
	}
}

func (h *harness) get(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(MCPRegistryGVK)
	if err := h.c.Get(context.Background(), types.NamespacedName{Namespace: h.ns, Name: name}, u); err != nil {
		t.Fatal(err)
	}
	return u
}

func conditions(t *testing.T, u *unstructured.Unstructured) []metav1.Condition {
	t.Helper()
	raw, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	var out []metav1.Condition
	for _, r := range raw {
		var c metav1.Condition
		m, _ := r.(map[string]any)
		if err := fromMap(m, &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// enqueuedFor waits for the handler to see the update of cm to
// resourceVersion rv and returns what it enqueued, sorted.
func (h *harness) enqueuedFor(t *testing.T, name, rv string) []string {
	t.Helper()
	var got []string
	eventually(t, "the watch event of ConfigMap "+name+" at "+rv, func() error {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, o := range h.observed {
			if o.new != nil && o.new.Namespace == h.ns && o.new.Name == name && o.new.ResourceVersion == rv {
				got = []string{}
				for _, r := range o.enqueued {
					got = append(got, r.Name)
				}
				slices.Sort(got)
				return nil
			}
		}
		return fmt.Errorf("not seen yet")
	})
	return got
}

func (h *harness) reconciles(name string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reconciled[types.NamespacedName{Namespace: h.ns, Name: name}]
}

// quiet waits until no reconcile has started for a second.
func (h *harness) quiet(t *testing.T) {
	t.Helper()
	total := func() int {
		h.mu.Lock()
		defer h.mu.Unlock()
		n := 0
		for _, c := range h.reconciled {
			n += c
		}
		return n
	}
	last, since := total(), time.Now()
	eventually(t, "reconciles to settle", func() error {
		if n := total(); n != last {
			last, since = n, time.Now()
		}
		if time.Since(since) < time.Second {
			return fmt.Errorf("%d reconciles so far, still going", last)
		}
		return nil
	})
}

func (h *harness) update(t *testing.T, cm *corev1.ConfigMap, change func(*corev1.ConfigMap)) string {
	t.Helper()
	cur := &corev1.ConfigMap{}
	if err := h.c.Get(context.Background(), client.ObjectKeyFromObject(cm), cur); err != nil {
		t.Fatal(err)
	}
	change(cur)
	if err := h.c.Update(context.Background(), cur); err != nil {
		t.Fatal(err)
	}
	return cur.ResourceVersion
}

func TestOutputConfigMapAppliedWithControllerOwner(t *testing.T) {
	h := start(t)
	h.create(t,
		configMap(h.ns, "team-a", map[string]string{registryLabel: "true"}, "github-mcp", "slack-mcp"),
		configMap(h.ns, "team-b", map[string]string{registryLabel: "true"}, "snowflake-mcp"),
		registry(h.ns, "all-teams", map[string]string{registryLabel: "true"}),
	)
	out := h.output(t, "all-teams", "github-mcp", "slack-mcp", "snowflake-mcp")
	reg := h.get(t, "all-teams")

	refs := out.OwnerReferences
	if len(refs) != 1 || refs[0].UID != reg.GetUID() || refs[0].Kind != "MCPRegistry" || refs[0].Name != "all-teams" ||
		refs[0].APIVersion != MCPRegistryGVK.GroupVersion().String() || refs[0].Controller == nil || !*refs[0].Controller {
		t.Errorf("ownerReferences = %+v, want one controller reference to MCPRegistry all-teams uid %s", refs, reg.GetUID())
	}
	if out.Labels[merge.GeneratedByLabel] == "" {
		t.Errorf("labels = %v, want %s", out.Labels, merge.GeneratedByLabel)
	}
	applied := false
	for _, mf := range out.ManagedFields {
		if mf.Manager == FieldOwner && mf.Operation == metav1.ManagedFieldsOperationApply {
			applied = true
		}
	}
	if !applied {
		t.Errorf("managedFields = %+v, want an Apply by %s", out.ManagedFields, FieldOwner)
	}

	// The status write went through the API server's validation of the
	// CRD's conditions (type and reason patterns, required message).
	eventually(t, "status conditions", func() error {
		conds := conditions(t, h.get(t, "all-teams"))
		synced := meta.FindStatusCondition(conds, merge.ConditionSynced)
		if synced == nil || synced.Status != metav1.ConditionTrue {
			return fmt.Errorf("conditions = %+v, want Synced=True", conds)
		}
		if d := meta.FindStatusCondition(conds, merge.ConditionDegraded); d == nil || d.Status != metav1.ConditionFalse {
			return fmt.Errorf("conditions = %+v, want Degraded=False", conds)
		}
		return nil
	})
}

func TestPartialFailureConditionsAndEvents(t *testing.T) {
	h := start(t)
	bad := configMap(h.ns, "team-broken", map[string]string{registryLabel: "true"})
	bad.Data["registry.json"] = `{"servers": [`
	h.create(t,
		configMap(h.ns, "team-a", map[string]string{registryLabel: "true"}, "github-mcp"),
		bad,
		registry(h.ns, "all-teams", map[string]string{registryLabel: "true"}),
	)
	h.output(t, "all-teams", "github-mcp")
	eventually(t, "Degraded=True PartialSyncFailure", func() error {
		conds := conditions(t, h.get(t, "all-teams"))
		d := meta.FindStatusCondition(conds, merge.ConditionDegraded)
		if d == nil || d.Status != metav1.ConditionTrue || d.Reason != "PartialSyncFailure" || !strings.Contains(d.Message, "team-broken") {
			return fmt.Errorf("conditions = %+v", conds)
		}
		return nil
	})
	eventually(t, "Warning Events", func() error {
		var list eventsv1.EventList
		if err := h.c.List(context.Background(), &list, client.InNamespace(h.ns)); err != nil {
			return err
		}
		var seen []string
		for _, e := range list.Items {
			seen = append(seen, e.Type+" "+e.Reason+" "+e.Regarding.Kind+"/"+e.Regarding.Name)
		}
		for _, want := range []string{"Warning InvalidJSON ConfigMap/team-broken", "Warning PartialSyncFailure MCPRegistry/all-teams"} {
			if !slices.Contains(seen, want) {
				return fmt.Errorf("events %q lack %q", seen, want)
			}
		}
		return nil
	})
}

func TestConfigMapChangeReMergesExactlyTheAffected(t *testing.T) {
	h := start(t)
	cmA := configMap(h.ns, "cm-a", map[string]string{"team": "a"}, "alpha")
	cmB := configMap(h.ns, "cm-b", map[string]string{"team": "b"}, "beta")
	cmC := configMap(h.ns, "cm-c", nil, "gamma")
	h.create(t, cmA, cmB, cmC,
		registry(h.ns, "reg-a", map[string]string{"team": "a"}),
		registry(h.ns, "reg-b", map[string]string{"team": "b"}),
		registry(h.ns, "reg-c", "cm-c"),
	)
	h.output(t, "reg-a", "alpha")
	h.output(t, "reg-b", "beta")
	h.output(t, "reg-c", "gamma")

	// The first reconciles cause more (a registry's own output ConfigMap
	// and status writes wake its watches): let them finish before counting.
	h.quiet(t)
	beforeB, beforeC := h.reconciles("reg-b"), h.reconciles("reg-c")
	rv := h.update(t, cmA, func(cm *corev1.ConfigMap) {
		cm.Data["registry.json"] = `{"servers": [{"name": "alpha", "image": "ghcr.io/example/alpha:1"}, {"name": "alpha-two", "image": "ghcr.io/example/alpha-two:1"}]}`
	})
	if got := h.enqueuedFor(t, "cm-a", rv); !slices.Equal(got, []string{"reg-a"}) {
		t.Errorf("a data change of cm-a enqueued %v, want [reg-a]", got)
	}
	h.output(t, "reg-a", "alpha", "alpha-two")
	rv = h.update(t, cmC, func(cm *corev1.ConfigMap) {
		cm.Data["registry.json"] = `{"servers": [{"name": "gamma-two", "image": "ghcr.io/example/gamma-two:1"}]}`
	})
	if got := h.enqueuedFor(t, "cm-c", rv); !slices.Equal(got, []string{"reg-c"}) {
		t.Errorf("a data change of cm-c (named by configMapRef) enqueued %v, want [reg-c]", got)
	}
	h.output(t, "reg-c", "gamma-two")
	if got := h.reconciles("reg-b"); got != beforeB {
		t.Errorf("reg-b reconciled %d more times, want none: nothing it reads changed", got-beforeB)
	}
	if got := h.reconciles("reg-c"); got == beforeC {
		t.Errorf("reg-c was not reconciled after cm-c changed")
	}
	// The reconciler merges incrementally: what it wrote is a full merge.
	h.sameAsFullMerge(t, "reg-a")
	h.sameAsFullMerge(t, "reg-c")
}

func TestNoOpUpdateEnqueuesNothing(t *testing.T) {
	h := start(t)
	cm := configMap(h.ns, "cm-a", map[string]string{"team": "a"}, "alpha")
	cm.Data["notes.txt"] = "not registry data"
	h.create(t, cm, registry(h.ns, "reg-a", map[string]string{"team": "a"}), registry(h.ns, "reg-ref", "cm-a"))
	h.output(t, "reg-a", "alpha")
	h.output(t, "reg-ref", "alpha")

	for _, tc := range []struct {
		what   string
		change func(*corev1.ConfigMap)
	}{
		{"an annotation", func(cm *corev1.ConfigMap) { cm.Annotations = map[string]string{"note": "touched"} }},
		{"a label no selector reads", func(cm *corev1.ConfigMap) { cm.Labels["owner"] = "someone" }},
		{"another key", func(cm *corev1.ConfigMap) { cm.Data["notes.txt"] = "changed" }},
	} {
		rv := h.update(t, cm, tc.change)
		if got := h.enqueuedFor(t, "cm-a", rv); len(got) != 0 {
			t.Errorf("changing %s enqueued %v, want nothing", tc.what, got)
		}
	}
}

func TestRelabelledConfigMapLeavesTheRegistry(t *testing.T) {
	h := start(t)
	cmA := configMap(h.ns, "cm-a", map[string]string{"team": "a"}, "alpha")
	h.create(t, cmA,
		configMap(h.ns, "cm-a2", map[string]string{"team": "a"}, "alpha-two"),
		configMap(h.ns, "cm-b", map[string]string{"team": "b"}, "beta"),
		registry(h.ns, "reg-a", map[string]string{"team": "a"}),
		registry(h.ns, "reg-b", map[string]string{"team": "b"}),
	)
	h.output(t, "reg-a", "alpha", "alpha-two")
	h.output(t, "reg-b", "beta")

	rv := h.update(t, cmA, func(cm *corev1.ConfigMap) { cm.Labels["team"] = "b" })
	if got := h.enqueuedFor(t, "cm-a", rv); !slices.Equal(got, []string{"reg-a", "reg-b"}) {
		t.Errorf("relabelling cm-a from team=a to team=b enqueued %v, want [reg-a reg-b]", got)
	}
	h.output(t, "reg-a", "alpha-two")
	h.output(t, "reg-b", "alpha", "beta")
	h.sameAsFullMerge(t, "reg-a")
	h.sameAsFullMerge(t, "reg-b")

	// A deleted ConfigMap leaves the incremental merge too.
	if err := h.c.Delete(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: h.ns, Name: "cm-b"}}); err != nil {
		t.Fatal(err)
	}
	h.output(t, "reg-b", "alpha")
	h.sameAsFullMerge(t, "reg-b")
}

// When the last selected ConfigMap goes, the merge is an empty registry:
// the output ConfigMap keeps the previous document (ToolHive's registry
// server would refuse the empty one and keep serving the old anyway), and
// the EmptyRegistry warning becomes an Event on the MCPRegistry.
func TestEmptyRegistryKeepsThePreviousDocument(t *testing.T) {
	h := start(t)
	cm := configMap(h.ns, "only", map[string]string{"team": "solo"}, "alpha")
	h.create(t, cm, registry(h.ns, "solo", map[string]string{"team": "solo"}))
	h.output(t, "solo", "alpha")

	h.update(t, cm, func(cm *corev1.ConfigMap) { cm.Labels["team"] = "gone" })
	eventually(t, "Warning EmptyRegistry", func() error {
		var list eventsv1.EventList
		if err := h.c.List(context.Background(), &list, client.InNamespace(h.ns)); err != nil {
			return err
		}
		for _, e := range list.Items {
			if e.Type == corev1.EventTypeWarning && e.Reason == "EmptyRegistry" && e.Regarding.Kind == "MCPRegistry" && e.Regarding.Name == "solo" {
				return nil
			}
		}
		return fmt.Errorf("%d events, none EmptyRegistry on MCPRegistry/solo", len(list.Items))
	})
	h.quiet(t)
	h.output(t, "solo", "alpha")
}

// A status write that loses a race (409 Conflict: the object changed since
// it was read) is retried on a fresh read, and its conditions, including a
// failure's, pass the API server's validation.
func TestStatusWriteConflictIsRetried(t *testing.T) {
	env := testenv.Shared(t, testenv.ToolHiveV010)
	c := env.Client
	ns := namespace(t, c)
	ctx := context.Background()
	for _, o := range []client.Object{
		configMap(ns, "team-a", map[string]string{registryLabel: "true"}, "github-mcp"),
		configMap(ns, "team-b", map[string]string{registryLabel: "true"}, "github-mcp"),
		registry(ns, "conflicting", map[string]string{registryLabel: "true"}),
	} {
		if err := c.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	var attempts []int
	r := &Reconciler{
		Client:    c,
		APIReader: c,
		Recorder:  discardRecorder{},
		Options:   merge.Options{Strategy: merge.StrategyError}, // both teams define github-mcp: ConflictError
		beforeStatusWrite: func(attempt int) {
			attempts = append(attempts, attempt)
			if attempt > 0 {
				return
			}
			// Another writer changes the object between our read and write.
			u := &unstructured.Unstructured{}
			u.SetGroupVersionKind(MCPRegistryGVK)
			if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "conflicting"}, u); err != nil {
				t.Error(err)
				return
			}
			u.SetAnnotations(map[string]string{"touched-by": "another-writer"})
			if err := c.Update(ctx, u); err != nil {
				t.Error(err)
			}
		},
	}
	if _, err := r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: ns, Name: "conflicting"}}); err != nil {
		t.Fatalf("Reconcile: %v", err)
	}
	if !slices.Equal(attempts, []int{0, 1}) {
		t.Errorf("status write attempts = %v, want [0 1]: one conflict, one retry", attempts)
	}
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(MCPRegistryGVK)
	if err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "conflicting"}, u); err != nil {
		t.Fatal(err)
	}
	synced := meta.FindStatusCondition(conditions(t, u), merge.ConditionSynced)
	if synced == nil || synced.Status != metav1.ConditionFalse || synced.Reason != "ConflictError" {
		t.Errorf("Synced = %+v, want False ConflictError", synced)
	}
	if phase, _, _ := unstructured.NestedString(u.Object, "status", "phase"); phase != "Failed" {
		t.Errorf("status.phase = %q, want Failed", phase)
	}
	if u.GetAnnotations()["touched-by"] != "another-writer" {
		t.Errorf("the other writer's change was lost: annotations %v", u.GetAnnotations())
	}
	out := &corev1.ConfigMap{}
	err := c.Get(ctx, types.NamespacedName{Namespace: ns, Name: merge.OutputConfigMapName("conflicting", "entry-0")}, out)
	if !apierrors.IsNotFound(err) {
		t.Errorf("output ConfigMap after a ConflictError: err = %v, want NotFound (nothing is written)", err)
	}
}

type discardRecorder struct{}

func (discardRecorder) Eventf(_, _ runtime.Object, _, _, _, _ string, _ ...any) {}

func fromMap(m map[string]any, into any) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, into)
}

var _ events.EventRecorder = discardRecorder{}
