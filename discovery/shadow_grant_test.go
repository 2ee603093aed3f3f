package discovery

import (
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/mcpreg/mcpreg/model"
)

// shadowingSnapshot is the cluster of a fuzz corpus entry, changed so that
// the older route web/r1, not exported, takes the requests of team/r0's URL
// https://mcp.example.com/mcp by precedence (same hostname, same default
// match) and names r0's backend, Service team/mcp-m0-proxy, across
// namespaces. The snapshot's one ReferenceGrant, in team, opens it to
// routes from team only.
func shadowingSnapshot(t *testing.T) (Snapshot, Options) {
	t.Helper()
	snap, opts := fuzzSnapshot(&fuzzBytes{b: []byte("11102000100100100000000101020000100000000000101000000100100010010000100000000000010100000001")})
	if len(snap.HTTPRoutes) != 2 || snap.HTTPRoutes[1].Name != "r1" || len(snap.ReferenceGrants) != 1 {
		t.Fatalf("fuzzSnapshot changed: %d routes, %d grants", len(snap.HTTPRoutes), len(snap.ReferenceGrants))
	}
	r1 := snap.HTTPRoutes[1].DeepCopy()
	r1.Namespace, r1.Annotations = "web", nil
	snap.HTTPRoutes = []*gwv1.HTTPRoute{snap.HTTPRoutes[0], r1}
	return snap, opts
}

func fromWebGrant() *gwv1.ReferenceGrant {
	return &gwv1.ReferenceGrant{
		ObjectMeta: metav1.ObjectMeta{Namespace: "team", Name: "from-web"},
		Spec: gwv1.ReferenceGrantSpec{
			From: []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "HTTPRoute", Namespace: "web"}},
			To:   []gwv1.ReferenceGrantTo{{Kind: "Service"}},
		},
	}
}

// A rule of another route that takes a URL's requests serves them only if
// the Gateway lets it reach the backend: a backendRef across namespaces
// without a ReferenceGrant gets 500, so the URL is not published.
func TestShadowingRouteNeedsGrant(t *testing.T) {
	snap, opts := shadowingSnapshot(t)
	m0 := model.ObjectRef{Kind: model.KindMCPServer, Namespace: "team", Name: "m0"}

	res := Discover(snap, opts)
	for _, e := range res.Entries {
		if len(e.Remotes) > 0 {
			t.Errorf("entry %s has remotes %v; web/r1 takes their requests and may not reach the Service", e.Name, e.Remotes)
		}
	}
	i := slices.IndexFunc(res.Diagnostics, func(d model.Diagnostic) bool { return d.Reason == model.ReasonShadowedByRoute })
	if i < 0 {
		t.Fatalf("no ShadowedByRoute: %v", res.Diagnostics)
	}
	d := res.Diagnostics[i]
	for _, want := range []string{"HTTPRoute web/r1", "Service team/mcp-m0-proxy", "no ReferenceGrant allows it", "500"} {
		if !strings.Contains(d.Message, want) {
			t.Errorf("ShadowedByRoute message %q does not say %q", d.Message, want)
		}
	}

	// The grant that opens the Service to routes from web: r1 serves the
	// requests, and r0's URL is published.
	granted := snap
	granted.ReferenceGrants = append(slices.Clip(snap.ReferenceGrants), fromWebGrant())
	res = Discover(granted, opts)
	var urls []string
	for _, e := range res.Entries {
		for _, r := range e.Remotes {
			if r.Resource == m0 {
				urls = append(urls, r.URL+" via "+r.Via.String())
			}
		}
	}
	if want := []string{"https://mcp.example.com/mcp via HTTPRoute/team/r0"}; !slices.Equal(urls, want) {
		t.Errorf("with the grant: remotes of m0 %v, want %v", urls, want)
	}

	// The watch mapping sends the grant's creation to m0, whose entry it
	// changes, though no route from web is exported.
	for _, tt := range []struct {
		name     string
		old, new any
	}{{"created", nil, fromWebGrant()}, {"deleted", fromWebGrant(), nil}} {
		base := snap
		if tt.old != nil {
			base = granted
		}
		got, err := AffectedByChange(base, opts, tt.old, tt.new)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(got, m0) {
			t.Errorf("grant %s: AffectedByChange = %v, leaves out %s", tt.name, got, m0)
		}
	}
}
