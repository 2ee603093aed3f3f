package urlbuild

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// manyListenersCase is the adversarial case of listener shadowing: one
// route naming hostnames hosts on a Gateway with listeners HTTPS listeners,
// all "*.example.com" on port 443 (conflicting, as a tenant may write them),
// plus one exact listener for the first host. Every (host, listener) pair
// intersects, so work per pair must stay constant.
func manyListenersCase(hosts, listeners int) (*gwv1.Gateway, *gwv1.HTTPRoute) {
	gw := &gwv1.Gateway{ObjectMeta: metav1.ObjectMeta{Name: "gw", Namespace: "infra"}}
	all := &gwv1.AllowedRoutes{Namespaces: &gwv1.RouteNamespaces{From: ptr(gwv1.NamespacesFromAll)}}
	for i := range listeners {
		gw.Spec.Listeners = append(gw.Spec.Listeners, gwv1.Listener{
			Name: gwv1.SectionName(fmt.Sprintf("l%d", i)), Protocol: gwv1.HTTPSProtocolType, Port: 443,
			Hostname: ptr(gwv1.Hostname("*.example.com")), AllowedRoutes: all,
		})
	}
	gw.Spec.Listeners = append(gw.Spec.Listeners, gwv1.Listener{
		Name: "exact", Protocol: gwv1.HTTPSProtocolType, Port: 443, Hostname: ptr(gwv1.Hostname("h0.example.com")), AllowedRoutes: all,
	})
	ref := gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))}
	r := &gwv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Name: "r", Namespace: "team"},
		Spec: gwv1.HTTPRouteSpec{
			CommonRouteSpec: gwv1.CommonRouteSpec{ParentRefs: []gwv1.ParentReference{ref}},
			Rules:           []gwv1.HTTPRouteRule{{Matches: []gwv1.HTTPRouteMatch{{Path: prefixMatch("/mcp")}}}},
		},
		Status: gwv1.HTTPRouteStatus{RouteStatus: gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{{
			ParentRef: ref, ControllerName: "example.net/c",
			Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}},
		}}}},
	}
	for i := range hosts {
		r.Spec.Hostnames = append(r.Spec.Hostnames, gwv1.Hostname(fmt.Sprintf("h%d.example.com", i)))
	}
	return gw, r
}

// shadowURLs indexes the case (with the route, so that every URL's requests
// are routed) and builds the route's URLs.
func shadowURLs(gw *gwv1.Gateway, r *gwv1.HTTPRoute) []URL {
	ix := NewIndex([]*gwv1.Gateway{gw}, nil, r)
	urls, _ := ix.Attach(r).RuleURLs(0, RuleOptions{Transport: TransportStreamableHTTP})
	return urls
}

// BenchmarkManyListeners: hostnames × listeners from 100 × 100 to 1000 ×
// 1000; the time per op should grow with the product, not faster.
func BenchmarkManyListeners(b *testing.B) {
	for _, n := range []int{100, 300, 1000} {
		gw, r := manyListenersCase(n, n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if urls := shadowURLs(gw, r); len(urls) != n {
					b.Fatalf("%d URLs", len(urls))
				}
			}
		})
	}
}

// TestManyListenersBounded is the regression test of the adversarial case
// (1000 hostnames, 1000 listeners of one port and hostname; it took 24 s and
// 894 MB when each origin searched all listeners): every host gets its one
// URL, through the exact listener for h0, and the CPU time stays far below
// the old figure — a generous bound for a shared machine.
func TestManyListenersBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("adversarial size")
	}
	gw, r := manyListenersCase(1000, 1000)
	start := processCPU()
	urls := shadowURLs(gw, r)
	if used := processCPU() - start; used > 5*time.Second {
		t.Errorf("1000 hostnames × 1000 listeners took %v of CPU", used)
	}
	if len(urls) != 1000 {
		t.Fatalf("%d URLs, want 1000", len(urls))
	}
	for _, u := range urls {
		want := "l0"
		if u.Origin.Host == "h0.example.com" {
			want = "exact"
		}
		if string(u.Origin.Listener) != want {
			t.Errorf("%s through listener %s, want %s", u.URL, u.Origin.Listener, want)
		}
	}
}
