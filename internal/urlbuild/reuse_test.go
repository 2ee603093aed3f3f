package urlbuild

import (
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/internal/golden"
)

// TestAttachReuse: Attach reuses its scratch space from route to route,
// AttachInto reuses the Attachment it is given, and AppendRuleURLs appends
// to a slice it is given. Attaching every route of every golden case twice,
// one after another, the second time into one Attachment for all routes, and
// appending URLs to one reused slice, give what the first Attach and
// RuleURLs give for each route: nothing of a previous route leaks into the
// next.
func TestAttachReuse(t *testing.T) {
	var buf []URL
	var shared Attachment
	for _, dir := range golden.Cases(t, goldenDir) {
		objs := golden.LoadObjects(t, dir)
		for _, ix := range []*Index{NewIndex(objs.Gateways, objs.Namespaces), NewIndex(objs.Gateways, objs.Namespaces, objs.HTTPRoutes...)} {
			testAttachReuse(t, dir, ix, objs.HTTPRoutes, &shared, &buf)
		}
	}
	if len(buf) == 0 {
		t.Fatal("the golden cases gave no URL")
	}
}

func testAttachReuse(t *testing.T, dir string, ix *Index, routes []*gwv1.HTTPRoute, shared *Attachment, bufp *[]URL) {
	buf := *bufp
	defer func() { *bufp = buf }()
	{
		first := make([]*Attachment, len(routes))
		for i, route := range routes {
			first[i] = ix.Attach(route)
		}
		for ri, route := range routes {
			fresh, reused := first[ri], shared
			ix.AttachInto(reused, route)
			if d := cmp.Diff(fresh.Origins, reused.Origins, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s %s: origins (-first +again):\n%s", dir, route.Name, d)
			}
			if d := cmp.Diff(fresh.Diagnostics, reused.Diagnostics, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s %s: diagnostics (-first +again):\n%s", dir, route.Name, d)
			}
			for i := range DefaultRules(route) {
				for _, opts := range []RuleOptions{{}, {EndpointPath: "/mcp"}, {EndpointPath: "/sse", Backend: 1}} {
					want, wantDs := fresh.RuleURLs(i, opts)
					prefix := len(buf)
					before := slices.Clone(buf)
					got, gotDs := reused.AppendRuleURLs(buf, reused.Origins, i, opts)
					if !slices.Equal(before, got[:prefix]) {
						t.Errorf("%s %s rule %d %+v: AppendRuleURLs changed what dst held", dir, route.Name, i, opts)
					}
					if d := cmp.Diff(want, got[prefix:], cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s %s rule %d %+v: URLs (-RuleURLs +AppendRuleURLs):\n%s", dir, route.Name, i, opts, d)
					}
					if d := cmp.Diff(wantDs, gotDs, cmpopts.EquateEmpty()); d != "" {
						t.Errorf("%s %s rule %d %+v: diagnostics (-RuleURLs +AppendRuleURLs):\n%s", dir, route.Name, i, opts, d)
					}
					// Keep what was appended, so that later appends go after it.
					buf = got
				}
			}
		}
	}
}

// TestAttachConcurrent: an Index is safe for concurrent use, its scratch
// space included: routes attached from several goroutines at once give what
// they give one at a time (run with -race).
func TestAttachConcurrent(t *testing.T) {
	for _, dir := range golden.Cases(t, goldenDir) {
		objs := golden.LoadObjects(t, dir)
		ix := NewIndex(objs.Gateways, objs.Namespaces)
		want := make([]*Attachment, len(objs.HTTPRoutes))
		for i, route := range objs.HTTPRoutes {
			want[i] = ix.Attach(route)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4*len(objs.HTTPRoutes))
		for range 4 {
			wg.Go(func() {
				for i, route := range objs.HTTPRoutes {
					got := ix.Attach(route)
					if d := cmp.Diff(want[i].Origins, got.Origins, cmpopts.EquateEmpty()); d != "" {
						errs <- dir + " " + route.Name + ": " + d
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}
