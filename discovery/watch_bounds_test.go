package discovery

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1b1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/model"
)

// peersSnapshot has n exported HTTPRoutes in namespace "tenant", all on one
// Gateway whose listener admits namespaces by selector, each sending its
// rule across namespaces to the Service of one MCPServer in "backend"; with
// the ReferenceGrant that allows it and the Namespace "tenant". Every route
// is every other's peer.
func peersSnapshot(n int) (Snapshot, *gwv1b1.ReferenceGrant, *corev1.Namespace) {
	controller := true
	from := gwv1.NamespacesFromSelector
	backend := gwv1.Namespace("backend")
	snap := Snapshot{
		Gateways: []*gwv1.Gateway{{ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: "gw"},
			Spec: gwv1.GatewaySpec{Listeners: []gwv1.Listener{{Name: "http", Port: 80, Protocol: gwv1.HTTPProtocolType,
				AllowedRoutes: &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: &from,
					Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"routes": "yes"}}}}}}}}},
		MCPServers: []*model.MCPServer{{ObjectMeta: metav1.ObjectMeta{Namespace: "backend", Name: "mcp", UID: "u-mcp"}}},
		Services: []*corev1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: "backend", Name: "mcp-proxy",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPServer", Name: "mcp", UID: "u-mcp", Controller: &controller}}}}},
	}
	for i := range n {
		snap.HTTPRoutes = append(snap.HTTPRoutes, &gwv1.HTTPRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: "tenant", Name: fmt.Sprintf("r-%d", i), Annotations: map[string]string{AnnotationExport: "true"}},
			Spec: gwv1.HTTPRouteSpec{
				CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{{Name: "gw"}}},
				Rules: []gwv1.HTTPRouteRule{{BackendRefs: []gwv1.HTTPBackendRef{{BackendRef: gwv1.BackendRef{
					BackendObjectReference: gwv1.BackendObjectReference{Namespace: &backend, Name: "mcp-proxy"}}}}}},
			},
		})
	}
	grant := &gwv1b1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: "backend", Name: "tenant-routes"},
		Spec: gwv1b1.ReferenceGrantSpec{
			From: []gwv1b1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "HTTPRoute", Namespace: "tenant"}},
			To:   []gwv1b1.ReferenceGrantTo{{Kind: "Service"}}}}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "tenant", Labels: map[string]string{"routes": "yes"}}}
	return snap, grant, ns
}

// TestManyPeersOfOneGateway is the regression test for the watch mapping
// of a ReferenceGrant or a Namespace whose routes share one Gateway: each
// such route listed the resources of all its peers, routes × peers (4,000
// routes took 21 s for a grant and 5 s for a Namespace); each Gateway's
// routes are now read once per event.
func TestManyPeersOfOneGateway(t *testing.T) {
	const n = 20000
	snap, grant, ns := peersSnapshot(n)
	want := []model.ObjectRef{{Kind: model.KindMCPServer, Namespace: "backend", Name: "mcp"}}
	for _, obj := range []any{grant, ns} {
		done := make(chan []model.ObjectRef, 1)
		go func() {
			refs, err := AffectedBy(snap, Options{}, obj)
			if err != nil {
				t.Error(err)
			}
			done <- refs
		}()
		select {
		case refs := <-done:
			if !slices.Equal(refs, want) {
				t.Errorf("%T: AffectedBy = %v, want %v", obj, refs, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%T: AffectedBy over %d routes of one Gateway did not finish in 30 s", obj, n)
		}
	}
}

// BenchmarkManyPeersOfOneGateway shows the watch mapping of a grant and of
// a Namespace linear in the routes of one Gateway: compare n and 4n.
func BenchmarkManyPeersOfOneGateway(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		snap, grant, ns := peersSnapshot(n)
		for _, c := range []struct {
			name string
			obj  any
		}{{"grant", grant}, {"namespace", ns}} {
			obj := c.obj
			b.Run(fmt.Sprintf("%s/%d", c.name, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := AffectedBy(snap, Options{}, obj); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
