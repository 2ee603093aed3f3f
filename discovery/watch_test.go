package discovery

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/model"
)

// entryByResource maps each resource of a result to its entry as output:
// the server's JSON and the remotes' provenance.
func entryByResource(res Result) map[model.ObjectRef]string {
	m := map[model.ObjectRef]string{}
	for _, e := range res.Entries {
		fp := string(e.Server.AppendJSON(nil)) + fmt.Sprint(e.Remotes)
		for _, r := range e.Resources {
			m[r] = fp
		}
	}
	return m
}

// changedResources lists the resources whose entry differs between two
// results (present in one only, or different), sorted.
func changedResources(a, b Result) []model.ObjectRef {
	ea, eb := entryByResource(a), entryByResource(b)
	var out []model.ObjectRef
	for r, fp := range ea {
		if eb[r] != fp {
			out = append(out, r)
		}
	}
	for r := range eb {
		if _, ok := ea[r]; !ok {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, compareRefs)
	return out
}

// change is one drawn watch event and the snapshots around it.
type change struct {
	old, new      any
	before, after Snapshot
}

// pick draws create (no old), update (old and a new of its name) or delete
// (no new) on one list of the snapshot, and returns the list after it.
func pick[T any](t *rapid.T, list []T, gen func() T, rename func(new, old T)) (old, new T, after []T, hasOld, hasNew bool) {
	op := rapid.SampledFrom([]string{"create", "update", "delete"}).Draw(t, "op")
	if len(list) == 0 {
		op = "create"
	}
	after = slices.Clone(list)
	if op == "create" {
		new = gen()
		return old, new, append(after, new), false, true
	}
	i := rapid.IntRange(0, len(list)-1).Draw(t, "index")
	old = list[i]
	after = slices.Delete(after, i, i+1)
	if op == "delete" {
		return old, new, after, true, false
	}
	new = gen()
	rename(new, old)
	return old, new, append(after, new), true, true
}

// genChange draws a change of one object of snap, of any kind AffectedBy
// knows.
func genChange(t *rapid.T, snap Snapshot) change {
	c := change{before: snap, after: snap}
	var hasOld, hasNew bool
	meta := func(m *metav1.ObjectMeta, o *metav1.ObjectMeta) { m.Namespace, m.Name = o.Namespace, o.Name }
	switch rapid.SampledFrom([]string{"Gateway", "HTTPRoute", "HTTPRoute", "Service", "Service", "ReferenceGrant", "ReferenceGrant/v1beta1",
		"Namespace", "MCPServer", "MCPRemoteProxy", "VirtualMCPServer", "MCPServerEntry"}).Draw(t, "kind") {
	case "Gateway":
		var o, n *gwv1.Gateway
		o, n, c.after.Gateways, hasOld, hasNew = pick(t, snap.Gateways, func() *gwv1.Gateway { return genGateway(t) },
			func(n, o *gwv1.Gateway) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "HTTPRoute":
		var o, n *gwv1.HTTPRoute
		o, n, c.after.HTTPRoutes, hasOld, hasNew = pick(t, snap.HTTPRoutes, func() *gwv1.HTTPRoute { return genRoute(t, &snap) },
			func(n, o *gwv1.HTTPRoute) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "Service":
		var o, n *corev1.Service
		o, n, c.after.Services, hasOld, hasNew = pick(t, snap.Services, func() *corev1.Service { return genService(t, &snap) },
			func(n, o *corev1.Service) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "ReferenceGrant":
		var o, n *gwv1.ReferenceGrant
		o, n, c.after.ReferenceGrants, hasOld, hasNew = pick(t, snap.ReferenceGrants, func() *gwv1.ReferenceGrant { return genGrant(t) },
			func(n, o *gwv1.ReferenceGrant) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "ReferenceGrant/v1beta1":
		// The same, handed to AffectedBy as the v1beta1 type.
		var o, n *gwv1.ReferenceGrant
		o, n, c.after.ReferenceGrants, hasOld, hasNew = pick(t, snap.ReferenceGrants, func() *gwv1.ReferenceGrant { return genGrant(t) },
			func(n, o *gwv1.ReferenceGrant) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = (*gwv1beta1.ReferenceGrant)(o), (*gwv1beta1.ReferenceGrant)(n)
	case "Namespace":
		var o, n *corev1.Namespace
		o, n, c.after.Namespaces, hasOld, hasNew = pick(t, snap.Namespaces, func() *corev1.Namespace { return genNamespace(t) },
			func(n, o *corev1.Namespace) {
				n.Name = o.Name
				if likely(t, "flipExpose") {
					// The change that matters: admitted by a Selector
					// listener, or no longer.
					n.Labels = map[string]string{"expose": "true"}
					if o.Labels["expose"] == "true" {
						n.Labels["expose"] = "false"
					}
				}
			})
		c.old, c.new = o, n
	case "MCPServer":
		var o, n *model.MCPServer
		o, n, c.after.MCPServers, hasOld, hasNew = pick(t, snap.MCPServers, func() *model.MCPServer {
			return genResource(t, 0, rapid.SampledFrom(propNamespaces).Draw(t, "ns")).(*model.MCPServer)
		}, func(n, o *model.MCPServer) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "MCPRemoteProxy":
		var o, n *model.MCPRemoteProxy
		o, n, c.after.MCPRemoteProxies, hasOld, hasNew = pick(t, snap.MCPRemoteProxies, func() *model.MCPRemoteProxy {
			return genResource(t, 1, rapid.SampledFrom(propNamespaces).Draw(t, "ns")).(*model.MCPRemoteProxy)
		}, func(n, o *model.MCPRemoteProxy) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "VirtualMCPServer":
		var o, n *model.VirtualMCPServer
		o, n, c.after.VirtualMCPServers, hasOld, hasNew = pick(t, snap.VirtualMCPServers, func() *model.VirtualMCPServer {
			return genResource(t, 2, rapid.SampledFrom(propNamespaces).Draw(t, "ns")).(*model.VirtualMCPServer)
		}, func(n, o *model.VirtualMCPServer) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	case "MCPServerEntry":
		var o, n *model.MCPServerEntry
		o, n, c.after.MCPServerEntries, hasOld, hasNew = pick(t, snap.MCPServerEntries, func() *model.MCPServerEntry {
			ns := rapid.SampledFrom(propNamespaces).Draw(t, "ns")
			return &model.MCPServerEntry{ObjectMeta: genMeta(t, ns), Spec: model.MCPServerEntrySpec{
				RemoteURL: rapid.SampledFrom([]string{"https://" + ns + ".example.com/0", "https://" + ns + ".example.com/1",
					"http://10.0.0.1/mcp", "https://169.254.169.254/", "not a url"}).Draw(t, "remoteUrl"),
				Transport:            rapid.SampledFrom([]string{"sse", "streamable-http", ""}).Draw(t, "transport"),
				AllowPrivateEndpoint: rapid.Bool().Draw(t, "allowPrivate"),
				GroupRef:             &model.GroupRef{Name: "g"},
			}}
		}, func(n, o *model.MCPServerEntry) { meta(&n.ObjectMeta, &o.ObjectMeta) })
		c.old, c.new = o, n
	}
	// Absent states are untyped nil, or typed nil pointers, as callers pass
	// either.
	if !hasOld && rapid.Bool().Draw(t, "untypedOld") {
		c.old = nil
	}
	if !hasNew && rapid.Bool().Draw(t, "untypedNew") {
		c.new = nil
	}
	return c
}

// TestPropertyAffectedByCoversChanges (AffectedBy's contract): for a random
// change of a random snapshot, every resource whose entry differs between
// Discover before and after is in AffectedBy's result, whichever of the two
// snapshots the caller holds. (Over-approximation is allowed; missing one is
// the bug.)
func TestPropertyAffectedByCoversChanges(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		opts.Namespaces = genWatchNamespaces(t)
		c := genChange(t, snap)
		changed := changedResources(Discover(c.before, opts), Discover(c.after, opts))
		view := c.before
		if rapid.Bool().Draw(t, "viewAfter") {
			view = c.after
		}
		got := affectedByChange(t, view, opts, c.old, c.new)
		for _, r := range changed {
			if !slices.Contains(got, r) {
				t.Fatalf("the entry of %s changed, but AffectedBy(%T -> %T) = %v", r, c.old, c.new, got)
			}
		}
		if !slices.IsSortedFunc(got, compareRefs) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("result not sorted or not unique: %v", got)
		}
	})
}

// genWatchNamespaces draws Options.Namespaces for the watch properties:
// mostly none, else one or two namespaces. A restricted result is the full
// one restricted, so a change in another namespace may change it (a name or
// a URL that namespace's resources claim too).
func genWatchNamespaces(t *rapid.T) []string {
	if rapid.IntRange(0, 2).Draw(t, "restricted") > 0 {
		return nil
	}
	return rapid.SliceOfNDistinct(rapid.SampledFrom(propNamespaces), 1, 2, func(s string) string { return s }).Draw(t, "namespaces")
}

// TestAffectedByNothing: changes discovery does not read map to no
// resource: a Namespace update that keeps its labels, absent states, a
// group, an unknown kind, a route that is not exported; and nothing at all
// when the options do not compile.
func TestAffectedByNothing(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "cross-namespace-parents"))
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a", Labels: map[string]string{"expose": "true"}}}
	same := ns.DeepCopy()
	same.Annotations = map[string]string{"note": "labels unchanged"}
	for _, tt := range []struct {
		name     string
		old, new any
	}{
		{"namespace labels unchanged", ns, same},
		{"both absent", nil, nil},
		{"typed nil", (*gwv1.Gateway)(nil), (*gwv1.Gateway)(nil)},
		{"group", nil, &model.MCPGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "g"}}},
		{"config map", &corev1.ConfigMap{}, &corev1.ConfigMap{}},
		{"route not exported", nil, &gwv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "team-a", Name: "new"},
			Spec: gwv1.HTTPRouteSpec{Rules: []gwv1.HTTPRouteRule{{BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{
				BackendObjectReference: gwv1.BackendObjectReference{Name: "mcp-a-proxy"}}}}}}}}},
	} {
		if got := affectedByChange(t, snap, opts, tt.old, tt.new); len(got) != 0 {
			t.Errorf("%s: %v", tt.name, got)
		}
	}
	if got := affectedByChange(t, snap, Options{LabelSelector: "a in ("}, nil, ns); got != nil {
		t.Errorf("bad selector: %v", got)
	}
}

// without returns list without the element old (by pointer).
func without[T comparable](list []T, old any) []T {
	o, ok := old.(T)
	if !ok {
		return list
	}
	return slices.DeleteFunc(slices.Clone(list), func(e T) bool { return e == o })
}

// applyChange returns snap with old removed (by pointer) and new added.
func applyChange(snap Snapshot, old, new any) Snapshot {
	if g, ok := old.(*gwv1beta1.ReferenceGrant); ok {
		old = (*gwv1.ReferenceGrant)(g)
	}
	snap.Gateways = without(snap.Gateways, old)
	snap.HTTPRoutes = without(snap.HTTPRoutes, old)
	snap.Services = without(snap.Services, old)
	snap.ReferenceGrants = without(snap.ReferenceGrants, old)
	snap.Namespaces = without(snap.Namespaces, old)
	snap.MCPServers = without(snap.MCPServers, old)
	snap.MCPRemoteProxies = without(snap.MCPRemoteProxies, old)
	snap.VirtualMCPServers = without(snap.VirtualMCPServers, old)
	return withObjects(snap, present(new))
}

// TestAffectedBy maps one change of each kind on the golden cases, and
// checks each against what Discover says changed.
func TestAffectedBy(t *testing.T) {
	load := func(c string) (Snapshot, Options) {
		return loadCase(t, filepath.Join("..", "testdata", "discovery", c))
	}
	ref := func(kind, ns, name string) model.ObjectRef {
		return model.ObjectRef{Kind: kind, Namespace: ns, Name: name}
	}
	srv := func(ns, name string) model.ObjectRef { return ref(model.KindMCPServer, ns, name) }

	ex, exOpts := load("example-route")
	gw := ex.Gateways[0].DeepCopy()
	gw.Spec.Listeners[0].Hostname = ptrTo(gwv1.Hostname("other.example.com"))
	route := ex.HTTPRoutes[0]
	svc := ex.Services[0].DeepCopy()
	svc.OwnerReferences = nil

	parents, parentsOpts := load("cross-namespace-parents")
	var teamA *corev1.Namespace
	for _, n := range parents.Namespaces {
		if n.Name == "team-a" {
			teamA = n
		}
	}
	relabelled := teamA.DeepCopy()
	relabelled.Labels["expose"] = "false"

	grants, grantsOpts := load("cross-namespace-grants")
	var specific *gwv1.ReferenceGrant
	for _, g := range grants.ReferenceGrants {
		if g.Name == "apps-to-svc-a" {
			specific = g
		}
	}
	ambiguous, ambiguousOpts := load("reason-ambiguous-backends")
	var serverE *model.MCPServer
	for _, s := range ambiguous.MCPServers {
		if s.Name == "e" {
			serverE = s
		}
	}

	for _, tt := range []struct {
		name     string
		snap     Snapshot
		opts     Options
		old, new any
		want     []model.ObjectRef
	}{
		{"gateway listener renamed", ex, exOpts, ex.Gateways[0], gw, []model.ObjectRef{srv("production", "my-mcp-server")}},
		{"gateway deleted", ex, exOpts, ex.Gateways[0], nil, []model.ObjectRef{srv("production", "my-mcp-server")}},
		{"route deleted", ex, exOpts, route, nil, []model.ObjectRef{srv("production", "my-mcp-server")}},
		{"service loses its owner", ex, exOpts, ex.Services[0], svc, []model.ObjectRef{srv("production", "my-mcp-server")}},
		// team-a/r loses the Gateway whose listener selects namespaces
		// labelled expose=true.
		// The resources of the routes sharing that Gateway may change too:
		// team-a/r's rules compete with theirs for requests while attached.
		{"namespace relabelled", parents, parentsOpts, teamA, relabelled, []model.ObjectRef{srv("infra", "i"), srv("team-a", "a"), srv("team-b", "b"), srv("team-c", "c")}},
		{"namespace deleted", parents, parentsOpts, teamA, (*corev1.Namespace)(nil), []model.ObjectRef{srv("infra", "i"), srv("team-a", "a"), srv("team-b", "b"), srv("team-c", "c")}},
		// The grant opens svc-a to routes from apps: both routes from apps
		// (svc-a and svc-c of per-rule) may change.
		{"grant deleted", grants, grantsOpts, specific, nil, []model.ObjectRef{srv("mcp", "a"), srv("mcp", "c")}},
		{"grant v1beta1", grants, grantsOpts, (*gwv1beta1.ReferenceGrant)(specific), nil, []model.ObjectRef{srv("mcp", "a"), srv("mcp", "c")}},
		// e shares rule 3 with a, but e's backendRef is the heavier: without
		// e the rule's URL goes to no one, not to a.
		{"resource deleted", ambiguous, ambiguousOpts, serverE, nil, []model.ObjectRef{srv("team", "e")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := affectedByChange(t, tt.snap, tt.opts, tt.old, tt.new)
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("AffectedBy (-want +got):\n%s", d)
			}
			after := applyChange(tt.snap, tt.old, tt.new)
			changed := changedResources(Discover(tt.snap, tt.opts), Discover(after, tt.opts))
			if len(changed) == 0 {
				t.Errorf("the change changes no entry: a useless case")
			}
			for _, r := range changed {
				if !slices.Contains(got, r) {
					t.Errorf("the entry of %s changed, but is not in %v", r, got)
				}
			}
			if d := cmp.Diff(got, affectedByChange(t, after, tt.opts, tt.old, tt.new)); d != "" {
				t.Errorf("with the snapshot after the change (-before +after):\n%s", d)
			}
		})
	}
}

// TestAffectedByCouplings: entries depend on each other through shared
// remote URLs and names, and the mapping follows.
func TestAffectedByCouplings(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	// other holds, by annotation, the URL the route gives my-mcp-server, so
	// one of the two loses it (DuplicateRemoteURL) while the route exports.
	other := &model.MCPRemoteProxy{ObjectMeta: metav1.ObjectMeta{Namespace: "staging", Name: "other", Annotations: map[string]string{
		AnnotationExport: "true", AnnotationURL: "https://mcp.example.com/servers/my-mcp-server",
	}}}
	// twin would be named like my-mcp-server's entry (DuplicateName) if
	// its registry-name were taken.
	twin := &model.VirtualMCPServer{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "twin", Annotations: map[string]string{
		AnnotationExport: "true", AnnotationURL: "https://twin.example.com/",
		AnnotationName: "dev.stacklok.toolhive/production.my-mcp-server-2",
	}}}
	// bystander shares nothing.
	bystander := &model.MCPServer{ObjectMeta: metav1.ObjectMeta{Namespace: "staging", Name: "bystander", Annotations: map[string]string{
		AnnotationExport: "true", AnnotationURL: "https://mcp.example.com/other-path",
	}}}
	snap.MCPRemoteProxies = append(snap.MCPRemoteProxies, other)
	snap.VirtualMCPServers = append(snap.VirtualMCPServers, twin)
	snap.MCPServers = append(snap.MCPServers, bystander)
	got := affectedByChange(t, snap, opts, snap.HTTPRoutes[0], nil)
	want := []model.ObjectRef{
		{Kind: model.KindMCPRemoteProxy, Namespace: "staging", Name: "other"},
		{Kind: model.KindMCPServer, Namespace: "production", Name: "my-mcp-server"},
		{Kind: model.KindVirtualMCPServer, Namespace: "elsewhere", Name: "twin"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("AffectedBy (-want +got):\n%s", d)
	}
	// The coupling is real: deleting the route changes other's entry.
	without := snap
	without.HTTPRoutes = nil
	if c := changedResources(Discover(snap, opts), Discover(without, opts)); !slices.Contains(c, want[0]) {
		t.Errorf("changed: %v", c)
	}
	// Options.Namespaces leaves out the resources of other namespaces.
	opts.Namespaces = []string{"production"}
	if d := cmp.Diff(want[1:2], affectedByChange(t, snap, opts, snap.HTTPRoutes[0], nil)); d != "" {
		t.Errorf("restricted to production (-want +got):\n%s", d)
	}
}

// TestAffectedByOtherNamespace: a result restricted to Options.Namespaces
// settles URLs as the full one does, so a resource of another namespace
// that claims a chosen resource's URL maps to the chosen resource: creating
// it takes the URL away, deleting it gives the URL back.
func TestAffectedByOtherNamespace(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	opts.Namespaces = []string{"production"}
	// claimant comes first (namespace "alpha" before "production"), so it
	// keeps the URL the route gives my-mcp-server.
	claimant := &model.MCPServer{ObjectMeta: metav1.ObjectMeta{Namespace: "alpha", Name: "claimant", Annotations: map[string]string{
		AnnotationExport: "true", AnnotationURL: "https://mcp.example.com/servers/my-mcp-server",
	}}}
	with := snap
	with.MCPServers = append(slices.Clip(snap.MCPServers), claimant)
	mine := model.ObjectRef{Kind: model.KindMCPServer, Namespace: "production", Name: "my-mcp-server"}
	if c := changedResources(Discover(snap, opts), Discover(with, opts)); !slices.Equal(c, []model.ObjectRef{mine}) {
		t.Fatalf("creating %s/%s changed %v, want %v", claimant.Namespace, claimant.Name, c, mine)
	}
	for _, view := range []Snapshot{snap, with} {
		if d := cmp.Diff([]model.ObjectRef{mine}, affectedByChange(t, view, opts, nil, claimant)); d != "" {
			t.Errorf("AffectedBy(claimant) (-want +got):\n%s", d)
		}
	}
	ix, err := NewIndex(opts, allObjects(with)...)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := ix.AffectedByChange(claimant, nil); !slices.Equal(got, []model.ObjectRef{mine}) {
		t.Errorf("Index.AffectedByChange(claimant, nil) = %v, want %v", got, mine)
	}
}

// affectedByChange is AffectedByChange failing the test on an error.
func affectedByChange(t interface {
	Helper()
	Fatalf(string, ...any)
}, snap Snapshot, opts Options, old, new any) []model.ObjectRef {
	t.Helper()
	got, err := AffectedByChange(snap, opts, old, new)
	if err != nil {
		t.Fatalf("AffectedByChange(%T, %T): %v", old, new, err)
	}
	return got
}
