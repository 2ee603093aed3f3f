package discovery

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// namedAnnotations are the only annotations whose values may reach output.
var namedAnnotations = map[string]bool{
	AnnotationExport: true, AnnotationURL: true, AnnotationDescription: true, AnnotationTier: true,
	AnnotationTitle: true, AnnotationVersion: true, AnnotationName: true,
}

// withExtra returns a copy of snap where every MCP resource and HTTPRoute
// has more annotations and labels, drawn by add.
func withExtra(snap Snapshot, add func(m *metav1.ObjectMeta)) Snapshot {
	out := Snapshot{Services: snap.Services, Namespaces: snap.Namespaces, Gateways: snap.Gateways, ReferenceGrants: snap.ReferenceGrants}
	for _, r := range snap.HTTPRoutes {
		c := r.DeepCopy()
		add(&c.ObjectMeta)
		out.HTTPRoutes = append(out.HTTPRoutes, c)
	}
	for _, s := range snap.MCPServers {
		c := *s
		c.ObjectMeta = *s.ObjectMeta.DeepCopy()
		add(&c.ObjectMeta)
		out.MCPServers = append(out.MCPServers, &c)
	}
	for _, p := range snap.MCPRemoteProxies {
		c := *p
		c.ObjectMeta = *p.ObjectMeta.DeepCopy()
		add(&c.ObjectMeta)
		out.MCPRemoteProxies = append(out.MCPRemoteProxies, &c)
	}
	for _, v := range snap.VirtualMCPServers {
		c := *v
		c.ObjectMeta = *v.ObjectMeta.DeepCopy()
		add(&c.ObjectMeta)
		out.VirtualMCPServers = append(out.VirtualMCPServers, &c)
	}
	return out
}

// TestOnlyNamedAnnotationsReachOutput: adding any annotation or label not
// listed in docs/compatibility.md, including look-alikes of the named keys,
// changes neither the output nor the diagnostics, and their values never
// appear in the output.
func TestOnlyNamedAnnotationsReachOutput(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		snap, opts := genSnapshot(t), genOptions(t)
		keys := rapid.SliceOfN(rapid.SampledFrom([]string{
			AnnotationPrefix + "registry-secret", AnnotationPrefix + "registry-urls", "Toolhive.stacklok.dev/registry-url",
			AnnotationURL + " ", " " + AnnotationDescription, "example.com/registry-url", "registry-url", "description",
			"kubectl.kubernetes.io/last-applied-configuration", AnnotationPrefix + "sync-trigger", "app",
		}), 1, 5).Draw(t, "keys")
		marker := "LEAK" + rapid.StringMatching(`[a-z]{6}`).Draw(t, "marker")
		extra := withExtra(snap, func(m *metav1.ObjectMeta) {
			if m.Annotations == nil {
				m.Annotations = map[string]string{}
			}
			if m.Labels == nil {
				m.Labels = map[string]string{}
			}
			for i, k := range keys {
				if namedAnnotations[k] {
					t.Fatalf("key %q is a named annotation", k)
				}
				m.Annotations[k] = fmt.Sprintf("https://%s.example.com/%d", marker, i)
				m.Labels[fmt.Sprintf("extra-%d", i)] = marker
			}
		})
		a, b := Discover(snap, opts), Discover(extra, opts)
		if !bytes.Equal(encodeResult(a), encodeResult(b)) {
			t.Fatalf("other annotations changed the output:\n%s\n%s", encodeResult(a), encodeResult(b))
		}
		if !bytes.Equal(diagnosticsText(a.Diagnostics), diagnosticsText(b.Diagnostics)) {
			t.Fatalf("other annotations changed the diagnostics")
		}
		if bytes.Contains(encodeResult(b), []byte(marker)) {
			t.Fatalf("a value of another annotation reached the output")
		}
	})
}

// TestRefusedURLsNeverReachOutput: URLs with user information, a javascript:
// or file: scheme, or control characters are never published, by any kind of
// resource under any options; credentials appear neither in the output nor in
// diagnostics.
func TestRefusedURLsNeverReachOutput(t *testing.T) {
	bad := []string{
		"https://admin:hunter2@mcp.example.com/x",
		"https://hunter2@mcp.example.com/x",
		"https://mcp.example.com:hunter2@evil.example/x",
		"javascript:alert('hunter2')",
		"JAVASCRIPT://mcp.example.com/%0Aalert(1)",
		"javascript://mcp.example.com/x",
		"file:///etc/hunter2",
		"file://mcp.example.com/etc/passwd",
		"https://mcp.example.com/x\r\nSet-Cookie: hunter2",
		"https://mcp.example.com/x\x00hunter2",
		"https://mcp.example.com/x\u2028hunter2",
		"https://mcp.example.com/x\x1b[31mhunter2",
		"https://mcp.example.com/x\thunter2",
	}
	kinds := []string{model.KindMCPServer, model.KindMCPRemoteProxy, model.KindVirtualMCPServer}
	for _, u := range bad {
		for _, kind := range kinds {
			for _, urlAlone := range []bool{false, true} {
				meta := metav1.ObjectMeta{Namespace: "ns", Name: "x", Annotations: map[string]string{
					AnnotationURL: u, AnnotationDescription: "d",
				}}
				if !urlAlone {
					meta.Annotations[AnnotationExport] = "true"
				}
				var snap Snapshot
				switch kind {
				case model.KindMCPServer:
					snap.MCPServers = []*model.MCPServer{{ObjectMeta: meta}}
				case model.KindMCPRemoteProxy:
					snap.MCPRemoteProxies = []*model.MCPRemoteProxy{{ObjectMeta: meta}}
				default:
					snap.VirtualMCPServers = []*model.VirtualMCPServer{{ObjectMeta: meta}}
				}
				res := Discover(snap, Options{URLAloneExports: urlAlone, LastUpdated: testTime})
				if len(res.Registry.Servers) != 0 {
					t.Errorf("%s with URL %q was exported:\n%s", kind, u, res.Registry.Encode())
				}
				if len(res.Diagnostics.WithReason(model.ReasonInvalidURL)) != 1 {
					t.Errorf("%s with URL %q: diagnostics %v", kind, u, res.Diagnostics)
				}
				for _, d := range res.Diagnostics {
					if strings.Contains(d.String(), "hunter2") && strings.Contains(u, "@") {
						t.Errorf("%s with URL %q: credentials in a diagnostic: %s", kind, u, d)
					}
					if strings.ContainsAny(d.String(), "\r\n\x00\x1b\t\u2028") {
						t.Errorf("%s with URL %q: raw control character in a diagnostic: %q", kind, u, d)
					}
				}
			}
		}
	}
}
