package discovery

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/model"
)

// TestGolden runs every case under testdata/discovery: manifests in, the
// registry (want.json) and the diagnostics (want-diagnostics.txt) out. Each
// case also runs with its objects in reverse order, and its output must pass
// the upstream rules.
func TestGolden(t *testing.T) {
	for _, dir := range golden.Cases(t, filepath.Join("..", "testdata", "discovery")) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			snap, opts := loadCase(t, dir)
			res := Discover(snap, opts)
			golden.Check(t, filepath.Join(dir, "want.json"), encodeResult(res))
			golden.Check(t, filepath.Join(dir, "want-diagnostics.txt"), diagnosticsText(res.Diagnostics))

			rev := Discover(reversed(snap), opts)
			if !bytes.Equal(encodeResult(rev), encodeResult(res)) || !bytes.Equal(diagnosticsText(rev.Diagnostics), diagnosticsText(res.Diagnostics)) {
				t.Errorf("output depends on input order")
			}
			if res.Registry == nil {
				if !res.Diagnostics.HasErrors() {
					t.Errorf("no registry and no error diagnostic")
				}
				return
			}
			if ds := model.ValidateRegistry(res.Registry, model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
				t.Errorf("output breaks the upstream rules:\n%s", diagnosticsText(ds))
			}
			if ds := model.ValidateJSON(res.Registry.Encode(), model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
				t.Errorf("encoded output breaks the upstream rules:\n%s", diagnosticsText(ds))
			}
			checkEntries(t, res)
		})
	}
}

// checkEntries checks the provenance of a result against its registry.
func checkEntries(t *testing.T, res Result) {
	t.Helper()
	if len(res.Entries) != len(res.Registry.Servers) {
		t.Fatalf("%d entries for %d servers", len(res.Entries), len(res.Registry.Servers))
	}
	for i, e := range res.Entries {
		s := res.Registry.Servers[i]
		if e.Server != s || e.Name != s.Name() {
			t.Errorf("entry %d (%s) is not server %d (%s)", i, e.Name, i, s.Name())
		}
		if len(e.Resources) == 0 || len(e.Remotes) == 0 {
			t.Errorf("entry %s: %d resources, %d discovered remotes", e.Name, len(e.Resources), len(e.Remotes))
		}
		for _, r := range e.Remotes {
			found := false
			for _, sr := range s.Remotes() {
				found = found || (sr.Type == r.Type && sr.URL == r.URL)
			}
			if !found {
				t.Errorf("entry %s: remote %s %s is not in the server's remotes", e.Name, r.Type, r.URL)
			}
		}
	}
}

// TestInternalAnalytics checks that the example cluster's internal server
// (an MCPServer in no source registry, exported by its registry-url and
// registry-description) gives exactly this entry, both with registry-export
// "true" and, under URLAloneExports, with registry-url alone: these members,
// in this order, and no others.
func TestInternalAnalytics(t *testing.T) {
	const entry = `{
	  "name": "dev.stacklok.toolhive/mcp-servers.internal-analytics",
	  "description": "Internal analytics MCP server for business metrics",
	  "version": "1.0.0",
	  "remotes": [
	    {
	      "type": "sse",
	      "url": "https://mcp.company.com/analytics"
	    }
	  ]
	}`
	for _, c := range []string{"example-internal-analytics", "example-url-alone"} {
		t.Run(c, func(t *testing.T) {
			snap, opts := loadCase(t, filepath.Join("..", "testdata", "discovery", c))
			res := Discover(snap, opts)
			if len(res.Registry.Servers) != 1 {
				t.Fatalf("got %d servers, want 1", len(res.Registry.Servers))
			}
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(entry)); err != nil {
				t.Fatal(err)
			}
			if got := res.Registry.Servers[0].AppendJSON(nil); !bytes.Equal(got, want.Bytes()) {
				t.Errorf("entry\n got %s\nwant %s", got, want.Bytes())
			}
		})
	}
}
