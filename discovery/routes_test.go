package discovery

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	gwv1beta1 "sigs.k8s.io/gateway-api/apis/v1beta1"

	"github.com/mcpreg/mcpreg/internal/dnsname"
	"github.com/mcpreg/mcpreg/model"
	"github.com/mcpreg/mcpreg/urlbuild"
)

// TestExampleRoute: the example HTTPRoute (testdata/discovery/example-route)
// gives https://mcp.example.com/servers/my-mcp-server for the MCPServer the
// route leads to, with the route as the remote's provenance; with ToolHive's
// endpoint path, the external path that reaches /mcp through the route's
// ReplacePrefixMatch.
func TestExampleRoute(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	for _, tt := range []struct {
		endpoint map[string]string
		want     string
	}{
		{nil, "https://mcp.example.com/servers/my-mcp-server"},
		{map[string]string{model.TransportStreamableHTTP: "/mcp"}, "https://mcp.example.com/servers/my-mcp-server/mcp"},
	} {
		opts.EndpointPaths = tt.endpoint
		res := Discover(snap, opts)
		want := []Entry{{
			Name:      "dev.stacklok.toolhive/production.my-mcp-server",
			Resources: []model.ObjectRef{{Kind: model.KindMCPServer, Namespace: "production", Name: "my-mcp-server"}},
			Remotes: []Remote{{
				Type:     model.TransportStreamableHTTP,
				URL:      tt.want,
				Resource: model.ObjectRef{Kind: model.KindMCPServer, Namespace: "production", Name: "my-mcp-server"},
				Via:      model.ObjectRef{Kind: "HTTPRoute", Namespace: "production", Name: "my-mcp-server-route"},
			}},
		}}
		if d := cmp.Diff(want, res.Entries, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Server" }, cmp.Ignore())); d != "" {
			t.Errorf("endpoint %v: entries (-want +got):\n%s", tt.endpoint, d)
		}
		if rs := res.Registry.Servers[0].Remotes(); len(rs) != 1 || rs[0].URL != tt.want {
			t.Errorf("endpoint %v: remotes %v", tt.endpoint, rs)
		}
	}
}

// TestGrantIndex: what a ReferenceGrant opens to an HTTPRoute backendRef,
// v1 and v1beta1 alike (Gateway API ReferenceGrant: from {group, kind,
// namespace}, to {group, kind, optional name}, in the referent's namespace).
func TestGrantIndex(t *testing.T) {
	grant := func(ns, fromGroup, fromKind, fromNS, toGroup, toKind, toName string) *gwv1.ReferenceGrant {
		g := &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "g-" + fromNS + "-" + toName}}
		g.Spec.From = []gwv1.ReferenceGrantFrom{{Group: gwv1.Group(fromGroup), Kind: gwv1.Kind(fromKind), Namespace: gwv1.Namespace(fromNS)}}
		to := gwv1.ReferenceGrantTo{Group: gwv1.Group(toGroup), Kind: gwv1.Kind(toKind)}
		if toName != "" {
			to.Name = ptrTo(gwv1.ObjectName(toName))
		}
		g.Spec.To = []gwv1.ReferenceGrantTo{to}
		return g
	}
	const gw = gwv1.GroupName
	v1 := []*gwv1.ReferenceGrant{
		grant("mcp", gw, "HTTPRoute", "apps", "", "Service", "svc-a"),
		grant("mcp", gw, "HTTPRoute", "all", "", "Service", ""),
		grant("mcp", gw, "GRPCRoute", "grpc", "", "Service", ""),
		grant("mcp", gw, "HTTPRoute", "secrets", "", "Secret", ""),
		grant("mcp", gw, "HTTPRoute", "coregroup", "core", "Service", ""),
		grant("mcp", "example.com", "HTTPRoute", "othergroup", "", "Service", ""),
		grant("apps", gw, "HTTPRoute", "misplaced", "", "Service", ""),
	}
	v1beta1 := []*gwv1beta1.ReferenceGrant{(*gwv1beta1.ReferenceGrant)(grant("mcp", gw, "HTTPRoute", "beta", "", "Service", "svc-b"))}
	ix := indexGrants(append(v1, ReferenceGrantsFromV1beta1(append(v1beta1, nil))...))
	for _, tt := range []struct {
		routeNS, svcNS, svc string
		want                bool
	}{
		{"mcp", "mcp", "anything", true}, // same namespace: no grant needed
		{"apps", "mcp", "svc-a", true},
		{"apps", "mcp", "svc-b", false}, // the grant names svc-a only
		{"all", "mcp", "svc-b", true},
		{"beta", "mcp", "svc-b", true}, // v1beta1
		{"beta", "mcp", "svc-a", false},
		{"grpc", "mcp", "svc-a", false},       // from GRPCRoutes
		{"secrets", "mcp", "svc-a", false},    // to Secrets
		{"coregroup", "mcp", "svc-a", false},  // "core" is not the core group ""
		{"othergroup", "mcp", "svc-a", false}, // HTTPRoute of another group
		{"misplaced", "mcp", "svc-a", false},  // the grant is in apps, not mcp
		{"nobody", "mcp", "svc-a", false},
	} {
		if got := ix.permits(tt.routeNS, tt.svcNS, tt.svc); got != tt.want {
			t.Errorf("route in %s -> Service %s/%s: %v, want %v", tt.routeNS, tt.svcNS, tt.svc, got, tt.want)
		}
	}
}

// TestGrantDuplicates: two copies of one grant (concatenated manifests):
// one is used, the same whatever the order, so a stale permissive copy
// cannot widen the current one.
func TestGrantDuplicates(t *testing.T) {
	narrow := &gwv1.ReferenceGrant{ObjectMeta: metav1.ObjectMeta{Namespace: "mcp", Name: "g", Generation: 2}}
	narrow.Spec.From = []gwv1.ReferenceGrantFrom{{Group: gwv1.GroupName, Kind: "HTTPRoute", Namespace: "apps"}}
	narrow.Spec.To = []gwv1.ReferenceGrantTo{{Kind: "Service", Name: ptrTo(gwv1.ObjectName("svc-a"))}}
	wide := narrow.DeepCopy()
	wide.Generation = 1
	wide.Spec.To[0].Name = nil
	for _, order := range [][]*gwv1.ReferenceGrant{{narrow, wide}, {wide, narrow}} {
		ix := indexGrants(order)
		if !ix.permits("apps", "mcp", "svc-a") || ix.permits("apps", "mcp", "svc-b") {
			t.Errorf("the newer grant (generation 2, svc-a only) must be the one used")
		}
	}
}

// TestControllerOwner: only a controller ownerReference to an MCP kind of
// group toolhive.stacklok.dev (any version) ties a Service to a resource.
func TestControllerOwner(t *testing.T) {
	yes, no := ptrTo(true), ptrTo(false)
	for _, tt := range []struct {
		name string
		refs []metav1.OwnerReference
		want mcpOwner
		why  string
	}{
		{"v1alpha1 server", []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPServer", Name: "s", UID: "u", Controller: yes}},
			mcpOwner{kind: "MCPServer", name: "s", uid: "u"}, ""},
		{"v1beta1 proxy after another owner", []metav1.OwnerReference{
			{APIVersion: "v1", Kind: "ConfigMap", Name: "c"},
			{APIVersion: "toolhive.stacklok.dev/v1beta1", Kind: "MCPRemoteProxy", Name: "p", Controller: yes}},
			mcpOwner{kind: "MCPRemoteProxy", name: "p"}, ""},
		{"virtual", []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "VirtualMCPServer", Name: "v", Controller: yes}},
			mcpOwner{kind: "VirtualMCPServer", name: "v"}, ""},
		{"none", nil, mcpOwner{}, "it has no ownerReferences"},
		{"not controller", []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPServer", Name: "s", Controller: no}},
			mcpOwner{}, "its ownerReference to MCPServer s is not controller: true"},
		{"controller unset", []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "r"}},
			mcpOwner{}, "none of its ownerReferences has controller: true"},
		{"other group", []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "MCPServer", Name: "s", Controller: yes}},
			mcpOwner{}, "its controller ownerReference is MCPServer s (apiVersion example.com/v1)"},
		{"group only", []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev", Kind: "MCPServer", Name: "s", Controller: yes}},
			mcpOwner{}, "its controller ownerReference is MCPServer s (apiVersion toolhive.stacklok.dev)"},
		{"other kind", []metav1.OwnerReference{{APIVersion: "toolhive.stacklok.dev/v1alpha1", Kind: "MCPGroup", Name: "g", Controller: yes}},
			mcpOwner{}, "its controller ownerReference is MCPGroup g (apiVersion toolhive.stacklok.dev/v1alpha1)"},
	} {
		got, why, ok := controllerOwner(&corev1.Service{ObjectMeta: metav1.ObjectMeta{OwnerReferences: tt.refs}})
		if got != tt.want || why != tt.why || ok != (tt.why == "") {
			t.Errorf("%s: %+v %q %v; want %+v %q", tt.name, got, why, ok, tt.want, tt.why)
		}
	}
}

// TestRouteDuplicates: two copies of one route (concatenated manifests):
// one is used whatever the order, the newer by metadata.generation.
func TestRouteDuplicates(t *testing.T) {
	snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", "example-route"))
	newer := snap.HTTPRoutes[0].DeepCopy()
	newer.Generation = 2
	newer.Status.Parents[0].Conditions[0].ObservedGeneration = 2
	newer.Spec.Rules[0].Matches[0].Path.Value = ptrTo("/v2/my-mcp-server")
	for _, routes := range [][]*gwv1.HTTPRoute{{snap.HTTPRoutes[0], newer}, {newer, snap.HTTPRoutes[0]}} {
		s := snap
		s.HTTPRoutes = routes
		res := Discover(s, opts)
		if got := registryURLs(res.Registry); !slices.Equal(got, []string{"https://mcp.example.com/v2/my-mcp-server"}) {
			t.Errorf("URLs %v", got)
		}
	}
}

// TestCheckRouteURL: the fast path of checkRouteURL agrees with CheckURL on
// URLs shaped like urlbuild's (and on anything else it falls back to it).
func TestCheckRouteURL(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		scheme := rapid.SampledFrom([]string{"http", "https", "HTTPS", "ftp"}).Draw(t, "scheme")
		host := rapid.SampledFrom([]string{"mcp.example.com", "192.0.2.1", "[2001:db8::1]", "a_b.example", "xn--bcher-kva.example",
			"MCP.Example.com", "user@mcp.example.com", "[::1", "1.2.3", "-bad.example", "", "[2001:DB8::1]",
			"mcp.0x1f", "mcp.0X1F", "0x1f.example", "mcp.123", "123.example", "a..b", "mcp.example.com.", "a-.example",
			"a.b_c.example", strings.Repeat("a", 64) + ".example", strings.Repeat("a", 63) + ".example", "mcp%2eexample.com"}).Draw(t, "host")
		port := rapid.SampledFrom([]string{"", ":8443", ":0", ":99999", ":", ":+80", ":08", ":65535", ":65536", ":443", ":80", ":123456", ":1"}).Draw(t, "port")
		path := rapid.StringMatching(`(/[a-zA-Z0-9._~!$&'()*+,;=:@%#? \[\]-]{0,12}){0,4}`).Draw(t, "path")
		u := scheme + "://" + host + port + path
		gotU, gotI, gotErr := checkRouteURL(u)
		wantU, wantI, wantErr := CheckURL(u)
		if gotU != wantU || gotI != wantI || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: checkRouteURL %q %v %v, CheckURL %q %v %v", u, gotU, gotI, gotErr, wantU, wantI, wantErr)
		}
	})
}

// TestPlainAuthority: plainAuthority, which reads the host once, agrees with
// the way it was written before (dnsname.Valid, then its own checks) on
// authorities built from bytes and labels that sit on every edge of the
// rules.
func TestPlainAuthority(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		label := rapid.StringMatching(`[a-zA-Z0-9_.-]{0,5}|0x[0-9]{0,2}|[0-9]{1,3}`)
		parts := rapid.SliceOfN(label, 1, 4).Draw(t, "labels")
		if rapid.IntRange(0, 20).Draw(t, "long") == 0 {
			parts = append(parts, strings.Repeat(rapid.SampledFrom([]string{"a", "1", "-"}).Draw(t, "fill"), rapid.IntRange(60, 260).Draw(t, "n")))
		}
		a := strings.Join(parts, rapid.SampledFrom([]string{".", "", ".."}).Draw(t, "sep"))
		a += rapid.SampledFrom([]string{"", ":8443", ":0", ":80", ":443", ":65535", ":65536", ":", ":x1", ":08", ":123456"}).Draw(t, "port")
		if got, want := plainAuthority(a), plainAuthorityReference(a); got != want {
			t.Fatalf("plainAuthority(%q) = %v, the reference says %v", a, got, want)
		}
	})
}

// plainAuthorityReference is plainAuthority as it was before it read the
// host in one pass: it reports whether a is host[:port] with a lower-case host
// name (not an address: some label has a letter, "-" or "_") that
// dnsname.Valid accepts and a port from 1 to 65535: what checkHost accepts,
// in the common case, without allocating.
func plainAuthorityReference(a string) bool {
	host, port, hasPort := strings.Cut(a, ":")
	if !dnsname.Valid(host) {
		return false
	}
	// named: some byte is not a digit or a dot (else the host is an
	// address, or reads as one); last: where the last label starts.
	named, last := false, 0
	for i := 0; i < len(host); i++ {
		switch c := host[i]; {
		case 'A' <= c && c <= 'Z':
			return false
		case c == '.':
			last = i + 1
		case c < '0' || c > '9':
			named = true
		}
	}
	if !named {
		return false
	}
	// A last label of digits or "0x…" makes the host an IPv4 address to a
	// browser; the full check judges it.
	if l := host[last:]; strings.HasPrefix(l, "0x") || strings.Trim(l, "0123456789") == "" {
		return false
	}
	if !hasPort {
		return true
	}
	// Leading zeros and default ports are normalised by the full check.
	if port == "" || len(port) > 5 || port[0] == '0' || port == "80" || port == "443" {
		return false
	}
	n := 0
	for i := 0; i < len(port); i++ {
		c := port[i]
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n >= 1 && n <= 65535
}

// TestRouteDiagnosticsNameTheRoute: every diagnostic of a route names it,
// with a field path inside it.
func TestRouteDiagnosticsNameTheRoute(t *testing.T) {
	for _, c := range []string{"reason-no-owner", "reason-owner-not-found", "reason-backend-not-found", "reason-ambiguous-backends",
		"reason-ref-not-permitted", "reason-route-not-accepted", "reason-parent-not-found", "reason-unsupported-path-match"} {
		snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", c))
		res := Discover(snap, opts)
		n := 0
		for _, d := range res.Diagnostics {
			if d.Object.Kind != urlbuild.KindHTTPRoute {
				continue
			}
			n++
			if !strings.HasPrefix(d.Field, "spec.") && !strings.HasPrefix(d.Field, "metadata.") {
				t.Errorf("%s: %s: field %q", c, d, d.Field)
			}
			found := slices.ContainsFunc(snap.HTTPRoutes, func(r *gwv1.HTTPRoute) bool {
				return r.Namespace == d.Object.Namespace && r.Name == d.Object.Name
			})
			if !found {
				t.Errorf("%s: %s names no route of the case", c, d)
			}
		}
		if n == 0 {
			t.Errorf("%s: no route diagnostic", c)
		}
	}
}
