package discovery

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

var propNamespaces = []string{"a", "b", "c"}

// maybe draws one of the values or, with the empty key "", no annotation.
func maybe(t *rapid.T, ann map[string]string, key string, values ...string) {
	v := rapid.SampledFrom(append([]string{"\x00absent"}, values...)).Draw(t, key)
	if v != "\x00absent" {
		ann[key] = v
	}
}

// genMeta draws the metadata of an MCP resource. Every value that could tie
// two namespaces together (URLs, name overrides) is drawn from a pool of its
// own namespace, so that the locality property is exact.
func genMeta(t *rapid.T, ns string) metav1.ObjectMeta {
	ann := map[string]string{}
	maybe(t, ann, AnnotationExport, "true", "true", "true", "True", "false", "")
	maybe(t, ann, AnnotationURL,
		"https://"+ns+".example.com/0", "https://"+ns+".example.com/1", "https://"+ns+".example.com/2",
		"HTTPS://"+strings.ToUpper(ns)+".EXAMPLE.com/1", "http://"+ns+".example.com/3",
		"https://user:hunter2@"+ns+".example.com/", "javascript:alert(1)", "file:///etc/passwd",
		"https://"+ns+".example.com/\x07", "https://"+ns+".example.com/#x", "not a url")
	maybe(t, ann, AnnotationDescription, "Described", "", strings.Repeat("long description ", 8))
	maybe(t, ann, AnnotationTitle, "Title", "", strings.Repeat("long title ", 12))
	maybe(t, ann, AnnotationVersion, "1.2.3", "v1", "latest", "2.0.0-rc.1")
	maybe(t, ann, AnnotationTier, "Official", "Community", "gold")
	maybe(t, ann, AnnotationName, "com."+ns+"/s", "com."+ns+"/t", "com."+ns+"/s-2", "bad")
	return metav1.ObjectMeta{
		Namespace:   ns,
		Name:        rapid.SampledFrom([]string{"x", "y", "web", "web-2"}).Draw(t, "name"),
		UID:         typesUID(rapid.SampledFrom([]string{"", "u1", "u2"}).Draw(t, "uid")),
		Labels:      map[string]string{"team": rapid.SampledFrom([]string{"red", "blue"}).Draw(t, "team")},
		Annotations: ann,
	}
}

// genResource draws an MCP resource of kind 0 (MCPServer), 1
// (MCPRemoteProxy) or 2 (VirtualMCPServer) in namespace ns.
func genResource(t *rapid.T, kind int, ns string) any {
	meta := genMeta(t, ns)
	switch kind {
	case 0:
		s := &model.MCPServer{ObjectMeta: meta}
		s.Spec.Image = rapid.SampledFrom([]string{"", "reg.io/" + ns + "/img:1", "reg.io/" + ns + "/img:2", "reg.io/" + ns + "/img", "other/" + ns}).Draw(t, "image")
		s.Spec.Transport = rapid.SampledFrom([]string{"", "stdio", "sse", "streamable-http", "http"}).Draw(t, "transport")
		s.Spec.ProxyMode = rapid.SampledFrom([]string{"", "sse", "streamable-http"}).Draw(t, "proxyMode")
		return s
	case 1:
		p := &model.MCPRemoteProxy{ObjectMeta: meta}
		p.Spec.RemoteURL = rapid.SampledFrom([]string{"", "https://remote-" + ns + ".example/mcp", "https://remote-" + ns + ".example/other"}).Draw(t, "remoteURL")
		p.Spec.Transport = rapid.SampledFrom([]string{"", "sse", "streamable-http"}).Draw(t, "transport")
		return p
	}
	return &model.VirtualMCPServer{ObjectMeta: meta}
}

// genSnapshot draws a snapshot of MCP resources in propNamespaces, and of
// Gateway API objects around them (genGatewayAPI).
func genSnapshot(t *rapid.T) Snapshot {
	var snap Snapshot
	n := rapid.IntRange(0, 14).Draw(t, "resources")
	for i := 0; i < n; i++ {
		ns := rapid.SampledFrom(propNamespaces).Draw(t, "namespace")
		switch r := genResource(t, rapid.IntRange(0, 2).Draw(t, "kind"), ns).(type) {
		case *model.MCPServer:
			snap.MCPServers = append(snap.MCPServers, r)
		case *model.MCPRemoteProxy:
			snap.MCPRemoteProxies = append(snap.MCPRemoteProxies, r)
		case *model.VirtualMCPServer:
			snap.VirtualMCPServers = append(snap.VirtualMCPServers, r)
		}
	}
	genGatewayAPI(t, &snap)
	return snap
}

// propSource is a source registry with entries per namespace.
func propSource(t *rapid.T) *model.Registry {
	if !rapid.Bool().Draw(t, "withSource") {
		return nil
	}
	var items []string
	for _, ns := range propNamespaces {
		items = append(items,
			fmt.Sprintf(`{"name":"io.test/%s-img","image":"reg.io/%s/img:1","description":"Image of %s","tier":"Official"}`, ns, ns, ns),
			fmt.Sprintf(`{"name":"io.test/%s-remote","url":"https://remote-%s.example/mcp","transport":"sse","description":"Remote of %s"}`, ns, ns, ns))
	}
	reg, ds := model.Parse([]byte(`{"servers":[`+strings.Join(items, ",")+`]}`), model.ParseOptions{})
	if reg == nil || len(ds) > 0 {
		t.Fatalf("source registry: %v", ds)
	}
	return reg
}

func genOptions(t *rapid.T) Options {
	return Options{
		SourceRegistry:     propSource(t),
		Naming:             NamingScheme(rapid.IntRange(0, 1).Draw(t, "naming")),
		URLAloneExports:    rapid.Bool().Draw(t, "urlAlone"),
		RequireDescription: rapid.Bool().Draw(t, "requireDescription"),
		RequireHTTPS:       rapid.Bool().Draw(t, "requireHTTPS"),
		LabelSelector:      rapid.SampledFrom([]string{"", "", "team=red"}).Draw(t, "labelSelector"),
		EndpointPaths: rapid.SampledFrom([]map[string]string{
			nil, {model.TransportStreamableHTTP: "/mcp", model.TransportSSE: "/sse"},
		}).Draw(t, "endpointPaths"),
		LastUpdated: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

func shuffled(t *rapid.T, s Snapshot) Snapshot {
	return Snapshot{
		MCPServers:        rapid.Permutation(s.MCPServers).Draw(t, "servers"),
		MCPRemoteProxies:  rapid.Permutation(s.MCPRemoteProxies).Draw(t, "proxies"),
		VirtualMCPServers: rapid.Permutation(s.VirtualMCPServers).Draw(t, "virtual"),
		MCPGroups:         rapid.Permutation(s.MCPGroups).Draw(t, "groups"),
		MCPServerEntries:  rapid.Permutation(s.MCPServerEntries).Draw(t, "entries"),
		Services:          rapid.Permutation(s.Services).Draw(t, "services"),
		Namespaces:        rapid.Permutation(s.Namespaces).Draw(t, "namespaces"),
		Gateways:          rapid.Permutation(s.Gateways).Draw(t, "gateways"),
		HTTPRoutes:        rapid.Permutation(s.HTTPRoutes).Draw(t, "routes"),
		ReferenceGrants:   rapid.Permutation(s.ReferenceGrants).Draw(t, "grants"),
	}
}

// TestPropertyPermutation: the same snapshot in any order gives
// byte-identical output, diagnostics and provenance.
func TestPropertyPermutation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		a := Discover(snap, opts)
		b := Discover(shuffled(t, snap), opts)
		if !bytes.Equal(encodeResult(a), encodeResult(b)) {
			t.Fatalf("registry differs:\n%s\n%s", encodeResult(a), encodeResult(b))
		}
		if !bytes.Equal(diagnosticsText(a.Diagnostics), diagnosticsText(b.Diagnostics)) {
			t.Fatalf("diagnostics differ:\n%s\n%s", diagnosticsText(a.Diagnostics), diagnosticsText(b.Diagnostics))
		}
		for i := range a.Entries {
			if !slices.Equal(a.Entries[i].Resources, b.Entries[i].Resources) || !slices.Equal(a.Entries[i].Remotes, b.Entries[i].Remotes) {
				t.Fatalf("provenance of %s differs", a.Entries[i].Name)
			}
		}
	})
}

// TestPropertyNamespaceLocality: discovery restricted to one namespace
// equals the full result restricted to that namespace (entries built from
// its resources, diagnostics about its objects).
func TestPropertyNamespaceLocality(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		full := Discover(snap, opts)
		for _, ns := range propNamespaces {
			var servers []*model.Server
			for _, e := range full.Entries {
				in := 0
				for _, r := range e.Resources {
					if r.Namespace == ns {
						in++
					}
				}
				if in > 0 && in != len(e.Resources) {
					t.Fatalf("entry %s mixes namespaces: %v", e.Name, e.Resources)
				}
				if in > 0 {
					servers = append(servers, e.Server)
				}
			}
			var ds model.Diagnostics
			for _, d := range full.Diagnostics {
				if d.Object.Namespace == ns {
					ds = append(ds, d)
				}
			}
			o := opts
			o.Namespaces = []string{ns}
			local := Discover(snap, o)
			want := model.NewRegistry(full.Registry.LastUpdated, servers).Encode()
			if !bytes.Equal(local.Registry.Encode(), want) {
				t.Fatalf("namespace %s: restricted discovery\n%s\nfull result restricted\n%s", ns, local.Registry.Encode(), want)
			}
			// A namespace without servers has an EmptyRegistry error of
			// its own, about the options: the full result may have none.
			localDs := local.Diagnostics
			if len(servers) == 0 {
				localDs = slices.DeleteFunc(slices.Clone(localDs), func(d model.Diagnostic) bool { return d.Reason == model.ReasonEmptyRegistry })
			}
			if !bytes.Equal(diagnosticsText(localDs), diagnosticsText(ds)) {
				t.Fatalf("namespace %s: diagnostics\n%s\nwant\n%s", ns, diagnosticsText(localDs), diagnosticsText(ds))
			}
		}
	})
}

// TestPropertyOutput: every output passes the upstream registry rules
// (model.ValidateRegistry), has unique names, and every entry has at least one
// remote, each with a URL CheckURL accepts; the provenance matches the
// registry.
func TestPropertyOutput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		res := Discover(snap, opts)
		if res.Registry == nil {
			t.Fatalf("no registry: %v", res.Diagnostics)
		}
		if ds := model.ValidateJSON(res.Registry.Encode(), model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
			t.Fatalf("invalid output:\n%s\n%s", diagnosticsText(ds), res.Registry.Encode())
		}
		names := map[string]bool{}
		for i, s := range res.Registry.Servers {
			if names[s.Name()] {
				t.Fatalf("name %s twice", s.Name())
			}
			names[s.Name()] = true
			rs := s.Remotes()
			if len(rs) == 0 || len(res.Entries[i].Remotes) == 0 {
				t.Fatalf("entry %s without a remote", s.Name())
			}
			for _, r := range rs {
				if n, _, err := CheckURL(r.URL); err != nil || n != r.URL {
					t.Fatalf("entry %s: remote URL %q: %v", s.Name(), r.URL, err)
				}
				if opts.RequireHTTPS && strings.HasPrefix(r.URL, "http:") {
					t.Fatalf("entry %s: http URL %q under RequireHTTPS", s.Name(), r.URL)
				}
			}
			if res.Entries[i].Server != s {
				t.Fatalf("entries out of step with the registry")
			}
		}
		// The one error good options allow: an empty result, which
		// ToolHive's registry server would refuse.
		errs := res.Diagnostics.WithSeverity(model.SeverityError)
		if len(res.Registry.Servers) == 0 {
			if len(errs) != 1 || errs[0].Reason != model.ReasonEmptyRegistry {
				t.Fatalf("an empty result wants exactly one EmptyRegistry error: %v", errs)
			}
			errs = nil
		}
		if len(errs) > 0 {
			t.Fatalf("error diagnostics with good options: %v", res.Diagnostics)
		}
		if !slices.IsSortedFunc(res.Diagnostics, model.Diagnostic.Compare) {
			t.Fatalf("diagnostics not sorted")
		}
	})
}
