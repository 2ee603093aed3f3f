package urlbuild

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpreg/mcpreg/internal/golden"
)

// TestAttachIntoReuse: one Attachment reused through AttachInto for every
// route of every golden case, one after another, and URLs appended to one
// reused slice, give what a fresh Attach and RuleURLs give for each route:
// nothing of a previous route leaks into the next.
func TestAttachIntoReuse(t *testing.T) {
	var reused Attachment
	var buf []URL
	for _, dir := range golden.Cases(t, goldenDir) {
		objs := golden.LoadObjects(t, dir)
		ix := NewIndex(objs.Gateways, objs.Namespaces)
		for _, route := range objs.HTTPRoutes {
			fresh := ix.Attach(route)
			ix.AttachInto(&reused, route)
			if d := cmp.Diff(fresh.Origins, reused.Origins, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s %s: origins (-Attach +AttachInto):\n%s", dir, route.Name, d)
			}
			if d := cmp.Diff(fresh.Diagnostics, reused.Diagnostics, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("%s %s: diagnostics (-Attach +AttachInto):\n%s", dir, route.Name, d)
			}
			for i := range DefaultRules(route) {
				for _, opts := range []RuleOptions{{}, {EndpointPath: "/mcp"}, {EndpointPath: "/sse", Backend: 1}} {
					want, wantDs := fresh.RuleURLs(i, opts)
					prefix := len(buf)
					before := slices.Clone(buf)
					got, gotDs := reused.AppendRuleURLs(buf, i, opts)
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
	if len(buf) == 0 {
		t.Fatal("the golden cases gave no URL")
	}
}
