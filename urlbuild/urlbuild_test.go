package urlbuild

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/types"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/golden"
	core "github.com/mcpreg/mcpreg/internal/urlbuild"
)

// TestSameAsImplementation: for every route of every golden case, with and
// without the snapshot's routes to route over, Attach, RuleURLs, RouteURLs,
// RulePaths and RouteRequest give what the implementation gives, field for
// field (nil and empty alike), and RuleURLs reads Origins as the caller
// left them.
func TestSameAsImplementation(t *testing.T) {
	cases := golden.Cases(t, "../testdata/urlbuild")
	if len(cases) == 0 {
		t.Fatal("no golden case")
	}
	for _, dir := range cases {
		objs := golden.LoadObjects(t, dir)
		for _, withRoutes := range []bool{false, true} {
			var routes []*gwv1.HTTPRoute
			if withRoutes {
				routes = objs.HTTPRoutes
			}
			ix, cix := NewIndex(objs.Gateways, objs.Namespaces, routes...), core.NewIndex(objs.Gateways, objs.Namespaces, routes...)
			for _, route := range objs.HTTPRoutes {
				a, ca := ix.Attach(route), cix.Attach(route)
				check(t, dir+" "+route.Name+" Attach", []any{a.Route, a.Origins == nil, a.Diagnostics}, []any{ca.Route, ca.Origins == nil, ca.Diagnostics})
				check(t, dir+" "+route.Name+" Origins", a.Origins, originsOf(ca.Origins))
				for i := range DefaultRules(route) {
					for _, opts := range []RuleOptions{{}, {EndpointPath: "/mcp", Transport: TransportStreamableHTTP}, {EndpointPath: "/sse", Backend: 1, Transport: TransportSSE}} {
						urls, ds := a.RuleURLs(i, opts)
						curls, cds := ca.RuleURLs(i, core.RuleOptions(opts))
						check(t, dir+" "+route.Name+" RuleURLs", []any{urls == nil, urls, ds}, []any{curls == nil, urlsOf(curls), cds})
						urls, ds = RouteURLs(ix, route, i, opts)
						curls, cds = core.RouteURLs(cix, route, i, core.RuleOptions(opts))
						check(t, dir+" "+route.Name+" RouteURLs", []any{urls == nil, urls, ds}, []any{curls == nil, urlsOf(curls), cds})
						paths, ds := RulePaths(route, i, opts)
						cpaths, cds := core.RulePaths(route, i, core.RuleOptions(opts))
						var want []RulePath
						if cpaths != nil {
							want = make([]RulePath, 0, len(cpaths))
						}
						for _, p := range cpaths {
							want = append(want, RulePath(p))
						}
						check(t, dir+" "+route.Name+" RulePaths", []any{paths == nil, paths, ds}, []any{cpaths == nil, want, cds})
					}
				}
				for _, o := range a.Origins {
					for _, m := range []string{"GET", "POST"} {
						gw := types.NamespacedName(o.Gateway)
						protocol := gwv1.HTTPProtocolType
						if o.Scheme == "https" {
							protocol = gwv1.HTTPSProtocolType
						}
						req := Request{Host: o.Host, Method: m, Path: "/"}
						r, ok := ix.RouteRequest(gw, int32(o.Port), protocol, req)
						cr, cok := cix.RouteRequest(gw, int32(o.Port), protocol, core.Request{Host: req.Host, Method: req.Method, Path: req.Path})
						check(t, dir+" "+route.Name+" RouteRequest", []any{r, ok, r.String()}, []any{routedOf(cr), cok, cr.String()})
					}
					check(t, dir+" "+route.Name+" Origin.String", o.String(), core.Origin(o).String())
				}
				// RuleURLs reads Origins as the caller left them.
				if len(a.Origins) > 0 {
					a.Origins = a.Origins[:0]
					if urls, _ := a.RuleURLs(0, RuleOptions{}); len(urls) != 0 {
						t.Errorf("%s %s: URLs %v for an attachment whose origins were removed", dir, route.Name, urls)
					}
				}
			}
		}
	}
}

func originsOf(os []core.Origin) []Origin {
	var out []Origin
	if os != nil {
		out = make([]Origin, 0, len(os))
	}
	for _, o := range os {
		out = append(out, Origin(o))
	}
	return out
}

func check(t *testing.T, what string, got, want any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s (-implementation +public):\n%s", what, d)
	}
}
