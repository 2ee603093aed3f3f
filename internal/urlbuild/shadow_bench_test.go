package urlbuild

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
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
	r := acceptedRoute(gwv1.ParentReference{Name: "gw", Namespace: ptr(gwv1.Namespace("infra"))})
	for i := range hosts {
		r.Spec.Hostnames = append(r.Spec.Hostnames, gwv1.Hostname(fmt.Sprintf("h%d.example.com", i)))
	}
	return gw, r
}

// manyPortsCase is manyListenersCase with the listeners on distinct ports
// (1000 and up), as the API server admits them: every (host, listener) pair
// gives a URL.
func manyPortsCase(hosts, listeners int) (*gwv1.Gateway, *gwv1.HTTPRoute) {
	gw, r := manyListenersCase(hosts, listeners)
	for i := range listeners {
		gw.Spec.Listeners[i].Port = gwv1.PortNumber(1000 + i)
	}
	return gw, r
}

// shadowURLs indexes the case (with the route, so that every URL's requests
// are routed) and builds the route's URLs, with the attachment's
// diagnostics.
func shadowURLs(gw *gwv1.Gateway, r *gwv1.HTTPRoute) ([]URL, model.Diagnostics) {
	ix := NewIndex([]*gwv1.Gateway{gw}, nil, r)
	a := ix.Attach(r)
	urls, _ := a.RuleURLs(0, RuleOptions{Transport: TransportStreamableHTTP})
	return urls, a.Diagnostics
}

// BenchmarkManyListeners: hostnames × listeners (manyPortsCase) from 100 ×
// 100 to 600 × 600; the time per op should grow with the product, not
// faster.
func BenchmarkManyListeners(b *testing.B) {
	for _, n := range []int{100, 300, 600} {
		gw, r := manyPortsCase(n, n)
		b.Run(fmt.Sprintf("%dx%d", n, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if urls, _ := shadowURLs(gw, r); len(urls) != n*n+1 {
					b.Fatalf("%d URLs", len(urls))
				}
			}
		})
	}
}

// TestManyListenersBounded is the regression test of the adversarial case
// (1000 hostnames, 1000 listeners of one port and hostname; it took 24 s and
// 894 MB when each origin searched all listeners). The conflicting listeners
// carry no requests, the first by name saying so for all; h0 gets its URL
// through the exact
// listener; and the CPU time stays far below the old figure — a generous
// bound for a shared machine.
func TestManyListenersBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("adversarial size")
	}
	gw, r := manyListenersCase(1000, 1000)
	start := processCPU()
	urls, ds := shadowURLs(gw, r)
	if used := processCPU() - start; used > 5*time.Second {
		t.Errorf("1000 hostnames × 1000 listeners took %v of CPU", used)
	}
	if len(urls) != 1 || urls[0].URL != "https://h0.example.com/mcp" || urls[0].Origin.Listener != "exact" {
		t.Fatalf("URLs %v, want https://h0.example.com/mcp through listener exact", urls)
	}
	// The first listener by name stands for those it conflicts with.
	conflicts := 0
	for _, d := range ds {
		if d.Reason == model.ReasonListenerNotReady && strings.Contains(d.Message, `listener "l0"`) &&
			strings.Contains(d.Message, `shares port, protocol and hostname with listener "l1"`) {
			conflicts++
		}
	}
	if conflicts != 1 || len(ds) != 1 {
		t.Errorf("want one ListenerNotReady diagnostic, for l0 naming the conflict; got %d of %d: %v", conflicts, len(ds), ds[:min(len(ds), 3)])
	}
}

// TestManyPortsBounded is the admissible form of the adversarial case: 300
// hostnames × 300 wildcard listeners on distinct ports give 300 × 300 URLs
// (plus h0 through the exact listener), each found with constant work.
func TestManyPortsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("adversarial size")
	}
	const n = 300
	gw, r := manyPortsCase(n, n)
	start := processCPU()
	urls, ds := shadowURLs(gw, r)
	if used := processCPU() - start; used > 5*time.Second {
		t.Errorf("%d hostnames × %d listeners took %v of CPU", n, n, used)
	}
	if len(urls) != n*n+1 || len(ds) != 0 {
		t.Fatalf("%d URLs and diagnostics %v, want %d and none", len(urls), ds[:min(len(ds), 3)], n*n+1)
	}
	for _, u := range urls {
		if want := fmt.Sprintf("https://%s:%d/mcp", u.Origin.Host, u.Origin.Port); u.Origin.Listener != "exact" && u.URL != want {
			t.Fatalf("%s through listener %s, want %s", u.URL, u.Origin.Listener, want)
		}
	}
}

// TestRepeatedParentRefsBounded: a route repeating one parentRef (which the
// HTTPRoute CRD refuses and a manifest may hold) gives the URLs and
// diagnostics of the parentRef written once, and each copy costs no pass
// over the Gateway's listeners: 1000 copies on a Gateway of 1000 listeners
// on distinct ports allocated 386 MB (a million origins) and took 18 s
// through the CLI. The bound is on bytes allocated, not on time.
func TestRepeatedParentRefsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("adversarial size")
	}
	const n = 1000
	gw, once := manyPortsCase(1, n)
	wantURLs, wantDs := shadowURLs(gw, once)
	if len(wantURLs) != n+1 || len(wantDs) != 0 {
		t.Fatalf("the parentRef written once: %d URLs and diagnostics %v, want %d and none", len(wantURLs), wantDs, n+1)
	}
	_, r := manyPortsCase(1, n)
	ref := r.Spec.ParentRefs[0]
	for range n - 1 {
		r.Spec.ParentRefs = append(r.Spec.ParentRefs, ref)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	urls, ds := shadowURLs(gw, r)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("%d copies of one parentRef × %d listeners allocated %d MB", n, n, got>>20)
	}
	if len(ds) != 0 || len(urls) != len(wantURLs) {
		t.Fatalf("%d URLs and diagnostics %v, want %d and none", len(urls), ds[:min(len(ds), 3)], len(wantURLs))
	}
	for i := range urls {
		if urls[i].URL != wantURLs[i].URL || urls[i].Origin != wantURLs[i].Origin {
			t.Fatalf("URL %d is %s through %+v, want %s through %+v", i, urls[i].URL, urls[i].Origin, wantURLs[i].URL, wantURLs[i].Origin)
		}
	}
}
