package discovery

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpreg/mcpreg/model"
)

// TestMergeExports checks the merge rules Method 2 relies on: a direct
// registry-url wins over route URLs (ConflictingExport for each different
// one), route URLs alone are all kept, duplicates are merged.
func TestMergeExports(t *testing.T) {
	srv := &resource{ref: model.ObjectRef{Kind: model.KindMCPServer, Namespace: "ns", Name: "s"}}
	proxy := &resource{ref: model.ObjectRef{Kind: model.KindMCPRemoteProxy, Namespace: "ns", Name: "p"}}
	bare := &resource{ref: model.ObjectRef{Kind: model.KindVirtualMCPServer, Namespace: "ns", Name: "v"}}
	route1 := model.ObjectRef{Kind: "HTTPRoute", Namespace: "ns", Name: "r1"}
	route2 := model.ObjectRef{Kind: "HTTPRoute", Namespace: "ns", Name: "r2"}
	direct := candidateURL{url: "https://direct.example/s", source: sourceAnnotation, via: &srv.ref, field: annotationField(AnnotationURL)}
	viaRoute := func(u string, r model.ObjectRef) candidateURL {
		return candidateURL{url: u, source: sourceRoute, via: &r, field: "spec.rules[0]"}
	}
	exports := []export{
		{res: proxy, urls: []candidateURL{viaRoute("https://gw.example/p", route2), viaRoute("https://gw.example/p", route1)}},
		{res: srv, urls: []candidateURL{viaRoute("https://gw.example/s", route1)}},
		{res: bare, annotated: true},
		{res: srv, urls: []candidateURL{direct}, annotated: true, urlAnnotated: true},
		{res: proxy, urls: []candidateURL{viaRoute("https://gw2.example/p", route2)}},
		{res: srv, urls: []candidateURL{viaRoute("https://direct.example/s", route2)}},
	}
	got, ds := mergeExports(exports)
	want := []*merged{
		{res: srv, urls: []candidateURL{direct}},
		{res: proxy, urls: []candidateURL{viaRoute("https://gw.example/p", route1), viaRoute("https://gw2.example/p", route2)}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(merged{}, candidateURL{}, resource{})); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	wantDs := model.Diagnostics{
		model.Warningf(model.ReasonConflictingExport, srv.ref, annotationField(AnnotationURL),
			`URL "https://gw.example/s" from HTTPRoute/ns/r1 spec.rules[0] dropped: the registry-url annotation "https://direct.example/s" takes precedence`),
		model.Warningf(model.ReasonInvalidAnnotationValue, bare.ref, annotationField(AnnotationURL),
			`toolhive.stacklok.dev/registry-export is "true" but there is no toolhive.stacklok.dev/registry-url annotation and no exported HTTPRoute reaches the resource; not exported`),
	}
	ds.Sort()
	wantDs.Sort()
	if diff := cmp.Diff(wantDs, ds); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestResourceLookup checks the owner look-up Method 2 uses: by kind,
// namespace and name, and by UID when both sides have one.
func TestResourceLookup(t *testing.T) {
	snap := Snapshot{MCPServers: []*model.MCPServer{
		{ObjectMeta: metaOf("ns", "with-uid", "uid-1")},
		{ObjectMeta: metaOf("ns", "without-uid", "")},
	}}
	cfg, _ := compile(Options{})
	ix, _ := indexResources(&snap, cfg)
	tests := []struct {
		kind, name, uid string
		found           bool
	}{
		{model.KindMCPServer, "with-uid", "uid-1", true},
		{model.KindMCPServer, "with-uid", "", true},
		{model.KindMCPServer, "with-uid", "uid-2", false},
		{model.KindMCPServer, "without-uid", "uid-3", true},
		{model.KindMCPRemoteProxy, "with-uid", "", false},
		{model.KindMCPServer, "absent", "", false},
	}
	for _, tt := range tests {
		if r := ix.lookup(tt.kind, "ns", tt.name, typesUID(tt.uid)); (r != nil) != tt.found {
			t.Errorf("lookup(%s, ns, %s, %q) = %v; want found %v", tt.kind, tt.name, tt.uid, r, tt.found)
		}
	}
	if r := ix.lookup(model.KindMCPServer, "other", "with-uid", ""); r != nil {
		t.Errorf("lookup crossed namespaces")
	}
}

// TestVersionAnnotationMessages: a registry-version that is too long says
// so, one that is not semantic says that, and both are ignored.
func TestVersionAnnotationMessages(t *testing.T) {
	for _, c := range []struct{ version, says string }{
		{"1.2.3-" + strings.Repeat("a", 260), "characters; the upstream schema allows at most 255"},
		{"v1", "is not a semantic version"},
	} {
		srv := &model.MCPServer{ObjectMeta: metaOf("ns", "s", "uid-1"), Spec: model.MCPServerSpec{Image: "example/s"}}
		srv.Annotations = map[string]string{
			AnnotationExport: "true", AnnotationURL: "https://mcp.example.com/s", AnnotationDescription: "d", AnnotationVersion: c.version,
		}
		res := Discover(Snapshot{MCPServers: []*model.MCPServer{srv}}, Options{})
		var found bool
		for _, d := range res.Diagnostics {
			if d.Reason == model.ReasonInvalidAnnotationValue && d.Field == annotationField(AnnotationVersion) {
				found = strings.Contains(d.Message, c.says)
				if !found {
					t.Errorf("version %.20q: %q does not say %q", c.version, d.Message, c.says)
				}
			}
		}
		if !found {
			t.Errorf("version %.20q: no InvalidAnnotationValue: %v", c.version, res.Diagnostics)
		}
		if res.Registry == nil || len(res.Registry.Servers) != 1 || res.Registry.Servers[0].Version() != "1.0.0" {
			t.Errorf("version %.20q: not ignored: %v", c.version, res.Registry)
		}
	}
}
