package discovery

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// FuzzDiscoverRoutes decodes manifests (the golden cases' as seeds, so
// Gateway API objects in every shape they take there), runs Discover under
// two sets of options and maps a change of every object with AffectedBy:
// nothing panics, and every registry passes the upstream rules.
func FuzzDiscoverRoutes(f *testing.F) {
	for _, c := range []string{"seed-001-route", "seed-002-route", "cross-namespace-grants", "cross-namespace-parents",
		"reason-ambiguous-backends", "reason-backend-not-found", "reason-unsupported-path-match", "route-backend-filters"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "discovery", c, "input.yaml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 16<<10 {
			return // larger manifests add nothing but decoding time
		}
		o, err := manifest.Decode(data, "fuzz")
		if err != nil {
			return
		}
		snap := snapshotOf(o)
		for _, opts := range []Options{
			{},
			{EndpointPaths: map[string]string{model.TransportStreamableHTTP: "/mcp", model.TransportSSE: "/s se"}, RequireHTTPS: true,
				LabelSelector: "team=red", Namespaces: []string{"team", "production"}},
		} {
			res := Discover(snap, opts)
			if ds := model.ValidateJSON(res.Registry.Encode(), model.ObjectRef{Kind: "Fuzz"}); ds.HasErrors() {
				t.Fatalf("invalid output: %v\n%s", ds, res.Registry.Encode())
			}
			var objs []any
			for _, x := range snap.HTTPRoutes {
				objs = append(objs, x)
			}
			for _, x := range snap.Gateways {
				objs = append(objs, x)
			}
			for _, x := range snap.Services {
				objs = append(objs, x)
			}
			for _, x := range snap.ReferenceGrants {
				objs = append(objs, x)
			}
			for _, x := range snap.Namespaces {
				objs = append(objs, x)
			}
			for _, x := range snap.MCPServers {
				objs = append(objs, x)
			}
			for _, x := range objs {
				if _, err := AffectedBy(snap, opts, x); err != nil {
					t.Fatal(err)
				}
				if _, err := AffectedByChange(snap, opts, x, nil); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}
