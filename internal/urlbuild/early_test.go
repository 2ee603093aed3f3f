package urlbuild

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// sameAttachment fails t unless got (AttachAt on an index that attached
// some routes early) holds what want (Attach on an index that attached
// none) holds, down to the receiver it keeps for the URL checks, and gives
// the same URLs and diagnostics for every rule.
// It counts in prepared the rules PrepareRule prepared.
func sameAttachment(t *rapid.T, r *gwv1.HTTPRoute, want, got *Attachment, opts []RuleOptions, prepared *int) {
	t.Helper()
	if d := cmp.Diff(want.Route, got.Route); d != "" {
		t.Fatalf("%s/%s route (-Attach +early):\n%s", r.Namespace, r.Name, d)
	}
	if d := cmp.Diff(want.Origins, got.Origins); d != "" {
		t.Fatalf("%s/%s origins (-Attach +early):\n%s", r.Namespace, r.Name, d)
	}
	// got is reused from route to route: its empty Diagnostics are not nil.
	if d := cmp.Diff(want.Diagnostics, got.Diagnostics, cmpopts.EquateEmpty()); d != "" {
		t.Fatalf("%s/%s diagnostics (-Attach +early):\n%s", r.Namespace, r.Name, d)
	}
	type recvOf struct {
		g             any
		recv, via     any
		host          string
		port          int32
		https, hasRcv bool
	}
	recv := func(a *Attachment) recvOf {
		// Listeners and Gateways compared by name: the two indexes hold
		// their own copies.
		var o recvOf
		if a.recvG != nil {
			o.g, o.hasRcv = a.recvG.namespace+"/"+a.recvG.name, true
		}
		if a.recv != nil {
			o.recv = a.recv.name
		}
		if a.recvVia != nil {
			o.via = a.recvVia.name
		}
		o.host, o.port, o.https = a.recvHost, a.recvPort, a.recvHTTPS
		return o
	}
	if w, g := recv(want), recv(got); w != g {
		t.Fatalf("%s/%s receiver %+v, want %+v", r.Namespace, r.Name, g, w)
	}
	for _, o := range opts {
		for ri := range DefaultRules(r) {
			wantURLs, wantDs := want.RuleURLs(ri, o)
			gotURLs, gotDs := got.RuleURLs(ri, o)
			if d := cmp.Diff(wantURLs, gotURLs); d != "" {
				t.Fatalf("%s/%s rule %d %+v URLs (-Attach +early):\n%s", r.Namespace, r.Name, ri, o, d)
			}
			if d := cmp.Diff(wantDs, gotDs); d != "" {
				t.Fatalf("%s/%s rule %d %+v diagnostics (-Attach +early):\n%s", r.Namespace, r.Name, ri, o, d)
			}
			// The rule prepared beforehand gives the same.
			prep := PrepareRule(r, ri, o)
			if prep.ok {
				*prepared++
			}
			prepURLs, prepDs := got.AppendPreparedRuleURLs(nil, got.Origins, ri, o, &prep)
			if d := cmp.Diff(wantURLs, prepURLs); d != "" {
				t.Fatalf("%s/%s rule %d %+v URLs (-Attach +prepared):\n%s", r.Namespace, r.Name, ri, o, d)
			}
			if d := cmp.Diff(wantDs, prepDs); d != "" {
				t.Fatalf("%s/%s rule %d %+v diagnostics (-Attach +prepared):\n%s", r.Namespace, r.Name, ri, o, d)
			}
		}
	}
}

// TestPropertyAttachEarly: an index that attached a random subset of its
// routes while filing them (NewIndexAttaching) gives, through AttachAt at
// each route's position or at a wrong one, the Attachment and the URLs
// (from each rule as is, and prepared by PrepareRule) that attaching the
// route on an index that attached none gives: for the
// varied parentRefs, listeners, namespaces and addresses of drawWorld, and
// for the competing routes of drawRoutingWorld, with nil routes and
// duplicates mixed in.
func TestPropertyAttachEarly(t *testing.T) {
	memos, prepared := 0, 0
	check := func(t *rapid.T, w world, opts []RuleOptions) {
		routes := slices.Clone(w.routes)
		if rapid.Bool().Draw(t, "nil") {
			routes = slices.Insert(routes, rapid.IntRange(0, len(routes)).Draw(t, "nilAt"), nil)
		}
		if rapid.IntRange(0, 4).Draw(t, "duplicate") == 0 {
			routes = append(routes, rapid.SampledFrom(w.routes).Draw(t, "dupOf").DeepCopy())
		}
		early := make(map[*gwv1.HTTPRoute]bool)
		for _, r := range routes {
			if r != nil && rapid.IntRange(0, 3).Draw(t, "early") > 0 {
				early[r] = true
			}
		}
		var calls []int
		plain := NewIndex(w.gateways, w.namespaces, routes...)
		ix := NewIndexAttaching(w.gateways, w.namespaces, routes, func(i int, r *gwv1.HTTPRoute) bool {
			if routes[i] != r {
				t.Fatalf("attach called with route %d, which is not %s/%s", i, r.Namespace, r.Name)
			}
			calls = append(calls, i)
			return early[r]
		})
		var want []int
		for i, r := range routes {
			if r != nil {
				want = append(want, i)
			}
		}
		if !slices.Equal(calls, want) {
			t.Fatalf("attach called for positions %v, want each route once in order: %v", calls, want)
		}
		// The routing is the same: early attaching only spares the filing
		// some look-ups.
		for _, gw := range w.gateways {
			for _, l := range gw.Spec.Listeners {
				for _, host := range []string{"a.example.com", "b.example.com", "x.b.example.com", "g0.example.com", "g1.example.com", "lb.example.com"} {
					for _, p := range []string{"/", "/a", "/a/b", "/mcp", "/a/mcp", "/srv/x", "/sse", "/messages"} {
						for _, m := range []string{"GET", "POST", "DELETE"} {
							req := Request{Host: host, Method: m, Path: p}
							gn := types.NamespacedName{Namespace: gw.Namespace, Name: gw.Name}
							want, wantOK := plain.RouteRequest(gn, l.Port, l.Protocol, req)
							got, gotOK := ix.RouteRequest(gn, l.Port, l.Protocol, req)
							if d := cmp.Diff(want, got); d != "" || wantOK != gotOK {
								t.Fatalf("%s %s%s on %s/%d: %v (-plain +early):\n%s", m, host, p, gw.Name, l.Port, gotOK, d)
							}
						}
					}
				}
			}
		}
		var at Attachment
		for pos, r := range routes {
			if r == nil {
				continue
			}
			if rapid.IntRange(0, 3).Draw(t, "wrongPosition") == 0 {
				pos = (pos + 1) % len(routes)
			}
			ix.AttachAt(&at, r, pos)
			if at.entry != nil && at.entry.memo.ok {
				memos++
			}
			sameAttachment(t, r, plain.Attach(r), &at, opts, &prepared)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		if rapid.Bool().Draw(t, "routing") {
			rw := drawRoutingWorld(t)
			check(t, world{gateways: rw.gateways, routes: rw.routes}, []RuleOptions{{EndpointPath: rw.endpoint, Transport: rw.transport}})
			return
		}
		check(t, drawWorld(t), []RuleOptions{{}, {EndpointPath: "/mcp", Transport: TransportStreamableHTTP}})
	})
	if memos == 0 {
		t.Error("AttachAt never used a route's memo")
	}
	if prepared == 0 {
		t.Error("PrepareRule never prepared a rule")
	}
}

// TestPropertyReceiverFrom: receiverFrom, which starts from a listener's
// own port and protocol, finds the listener that receiver finds by looking
// the port and protocol up, for the hosts of the pools and the Gateway's
// addresses, on Gateways whose listeners share ports, protocols and
// hostnames.
func TestPropertyReceiverFrom(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := drawWorld(t)
		ix := NewIndex(w.gateways, w.namespaces)
		hosts := append([]string{"", "c.b.example.com", "lb.example.com", "lb.b.example.com"}, hostPool...)
		for _, gw := range w.gateways {
			g := ix.gateway(gw.Namespace, gw.Name)
			for li := range g.listeners {
				l := &g.listeners[li]
				for _, h := range hosts {
					if got, want := receiverFrom(l, h), g.receiver(l.port, l.protocol, h); got != want {
						t.Fatalf("Gateway %s listener %s host %q: receiverFrom %v, receiver %v", gw.Name, l.name, h, got, want)
					}
				}
			}
		}
	})
}

// TestExternalPathSplit: externalPathSplit's two pieces make up what
// ExternalPath returns, and it fails where ExternalPath does, with the same
// error, for every combination of endpoints, matches and rewrites chosen
// to meet at the edges (roots, trailing "/", replacements that are
// prefixes of the endpoint or not, invalid values).
func TestExternalPathSplit(t *testing.T) {
	// Every combination of these paths, match types and filters: a fixed
	// set, so the count of splits below does not depend on a random run.
	paths := []string{"", "/", "/a", "/a/", "/a/b", "/mcp", "/a/mcp", "/x", "/x/", "/x/y", "/x/mcp", "/mcpx", "a", "//a", "/a/../b", "/%2f"}
	var matches []*gwv1.HTTPPathMatch
	matches = append(matches, nil)
	for _, value := range paths {
		matches = append(matches, prefixMatch(value), exactMatch(value),
			&gwv1.HTTPPathMatch{Type: ptr(gwv1.PathMatchRegularExpression), Value: &value})
	}
	filters := []*gwv1.HTTPURLRewriteFilter{nil}
	for _, p := range append([]string{"x"}, paths...) {
		filters = append(filters, replacePrefix(p))
	}
	for _, p := range paths {
		filters = append(filters, replaceFull(p))
	}
	split, cases := 0, 0
	for _, endpoint := range paths {
		for _, match := range matches {
			for _, filter := range filters {
				want, wantErr := ExternalPath(endpoint, match, filter)
				head, tailAt, err := externalPathSplit(endpoint, match, filter)
				if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Fatalf("ExternalPath(%q, %s, %s): error %v, split error %v", endpoint, showMatch(match), showFilter(filter), wantErr, err)
				}
				if err != nil {
					continue
				}
				cases++
				if tailAt < 0 || tailAt > len(endpoint) || head+endpoint[tailAt:] != want {
					t.Fatalf("ExternalPath(%q, %s, %s) = %q, split %q + endpoint[%d:]", endpoint, showMatch(match), showFilter(filter), want, head, tailAt)
				}
				if tailAt < len(endpoint) {
					split++
				}
			}
		}
	}
	// A split that keeps part of the endpoint is the case the function
	// exists for: most valid combinations take it.
	if split < cases/10 {
		t.Errorf("externalPathSplit split %d of %d paths", split, cases)
	}
	t.Logf("%d of %d paths split", split, cases)
}
