package discovery

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// TestConformanceRequests replays, for each case built from the Gateway API
// v1.6.3 conformance suite (testdata/discovery/conformance-*), the requests
// that conformance test sends and the backend it expects, against
// urlbuild's request routing over the case's objects. The cases' want files
// (TestGolden) show what discovery publishes from the same objects.
//
// requests.txt: "X=namespace/gateway port" names a Gateway; then
// "X [host] METHOD path[?query] [Header=value...] -> namespace/service"
// (or "-> 404"). Without a host the request goes to the Gateway's first
// status address, as the conformance suite's do.
func TestConformanceRequests(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "testdata", "discovery", "conformance-*"))
	if len(dirs) < 12 {
		t.Fatalf("%d conformance cases, want 12", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			objs := golden.LoadObjects(t, dir)
			ix := urlbuild.NewIndex(objs.Gateways, objs.Namespaces, objs.HTTPRoutes...)
			routes := map[types.NamespacedName]*gwv1.HTTPRoute{}
			for _, r := range objs.HTTPRoutes {
				routes[types.NamespacedName{Namespace: r.Namespace, Name: r.Name}] = r
			}
			addresses := map[types.NamespacedName]string{}
			for _, g := range objs.Gateways {
				if len(g.Status.Addresses) > 0 {
					addresses[types.NamespacedName{Namespace: g.Namespace, Name: g.Name}] = g.Status.Addresses[0].Value
				}
			}
			data, err := os.ReadFile(filepath.Join(dir, "requests.txt"))
			if err != nil {
				t.Fatal(err)
			}
			type gw struct {
				name types.NamespacedName
				port int32
			}
			gws := map[string]gw{}
			n := 0
			for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
				f := strings.Fields(line)
				if alias, def, ok := strings.Cut(f[0], "="); ok {
					ns, name, _ := strings.Cut(def, "/")
					port, _ := strconv.Atoi(f[1])
					gws[alias] = gw{types.NamespacedName{Namespace: ns, Name: name}, int32(port)}
					continue
				}
				g, ok := gws[f[0]]
				if !ok {
					t.Fatalf("%q: unknown Gateway %s", line, f[0])
				}
				f = f[1:]
				host := addresses[g.name]
				if !isMethod(f[0]) {
					host, f = f[0], f[1:]
					if h, _, ok := strings.Cut(host, ":"); ok {
						host = h
					}
				}
				arrow := len(f) - 2
				u, err := url.Parse(f[1])
				if err != nil {
					t.Fatal(err)
				}
				req := urlbuild.Request{Host: host, Method: f[0], Path: u.Path}
				for k, v := range u.Query() {
					if req.Query == nil {
						req.Query = map[string]string{}
					}
					req.Query[k] = v[0]
				}
				for _, h := range f[2:arrow] {
					k, v, _ := strings.Cut(h, "=")
					if req.Headers == nil {
						req.Headers = map[string]string{}
					}
					req.Headers[k] = v
				}
				want := f[arrow+1]
				got := "404"
				if routed, ok := ix.RouteRequest(g.name, g.port, gwv1.HTTPProtocolType, req); ok {
					r := routes[types.NamespacedName{Namespace: routed.Route.Namespace, Name: routed.Route.Name}]
					b := urlbuild.DefaultBackendRef(urlbuild.DefaultRules(r)[routed.Rule].BackendRefs[0].BackendRef, r.Namespace)
					got = string(*b.Namespace) + "/" + string(b.Name)
				}
				if got != want {
					t.Errorf("%s: got %s, want %s", line, got, want)
				}
				n++
			}
			if n == 0 {
				t.Error("no requests")
			}
		})
	}
}

func isMethod(s string) bool {
	switch s {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// TestGoldenShowsRoutingReasons: every reason of request routing appears in
// a golden case's diagnostics.
func TestGoldenShowsRoutingReasons(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "discovery", "*", "want-diagnostics.txt"))
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, r := range []model.Reason{model.ReasonGatewayNotReady, model.ReasonListenerNotReady, model.ReasonShadowedByRoute, model.ReasonMethodNotRouted} {
		if !strings.Contains(all.String(), " "+string(r)+" ") {
			t.Errorf("no golden case shows %s", r)
		}
	}
}
