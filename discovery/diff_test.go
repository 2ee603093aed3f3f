package discovery

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mcpreg/mcpreg/model"
)

func testRegistry(t *testing.T, servers string) *model.Registry {
	t.Helper()
	reg, ds := model.Parse([]byte(`{"data":{"servers":`+servers+`}}`), model.ParseOptions{})
	if reg == nil || len(ds) > 0 {
		t.Fatal(ds)
	}
	return reg
}

func TestDiff(t *testing.T) {
	prev := testRegistry(t, `[
		{"name":"a/kept","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/kept"}]},
		{"name":"a/changed","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/old"},{"type":"sse","url":"https://x/same"}]},
		{"name":"a/retyped","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/t"}]},
		{"name":"a/described","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/d"}]},
		{"name":"a/removed","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/r"}]}
	]`)
	next := testRegistry(t, `[
		{"name":"a/added","description":"d","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://x/n"}]},
		{"name":"a/described","description":"new","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/d"}]},
		{"name":"a/retyped","description":"d","version":"1.0.0","remotes":[{"type":"streamable-http","url":"https://x/t"}]},
		{"name":"a/changed","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/same"},{"type":"sse","url":"https://x/new"}]},
		{"name":"a/kept","description":"d","version":"1.0.0","remotes":[{"type":"sse","url":"https://x/kept"}]}
	]`)
	next.LastUpdated = "2030-01-01T00:00:00Z"
	want := Changes{
		Added:   []string{"a/added"},
		Removed: []string{"a/removed"},
		Changed: []string{"a/changed", "a/described", "a/retyped"},
		AddedRemotes: []RemoteChange{
			{"a/added", "streamable-http", "https://x/n"},
			{"a/changed", "sse", "https://x/new"},
			{"a/retyped", "streamable-http", "https://x/t"},
		},
		RemovedRemotes: []RemoteChange{
			{"a/changed", "sse", "https://x/old"},
			{"a/removed", "sse", "https://x/r"},
			{"a/retyped", "sse", "https://x/t"},
		},
	}
	got := Diff(prev, next)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
	if got.Empty() {
		t.Errorf("Empty() on changes")
	}
	if c := Diff(prev, prev); !c.Empty() {
		t.Errorf("Diff of a registry with itself: %+v", c)
	}
	back := Diff(next, prev)
	if !cmp.Equal(back.Added, want.Removed) || !cmp.Equal(back.Removed, want.Added) ||
		!cmp.Equal(back.AddedRemotes, want.RemovedRemotes) || !cmp.Equal(back.RemovedRemotes, want.AddedRemotes) {
		t.Errorf("Diff is not symmetric: %+v", back)
	}
	fromNil := Diff(nil, prev)
	if d := cmp.Diff([]string{"a/changed", "a/described", "a/kept", "a/removed", "a/retyped"}, fromNil.Added, cmpopts.EquateEmpty()); d != "" || len(fromNil.AddedRemotes) != 6 {
		t.Errorf("Diff(nil, prev): %+v", fromNil)
	}
	if c := Diff(nil, nil); !c.Empty() {
		t.Errorf("Diff(nil, nil) = %+v", c)
	}
}

// TestDiffAfterDiscovery: discovery output diffed against itself after a
// change of one annotation reports exactly that entry and its remotes.
func TestDiffAfterDiscovery(t *testing.T) {
	snap, opts := loadCase(t, "../testdata/discovery/kind-mcpremoteproxy")
	before := Discover(snap, opts)
	changed := *snap.MCPRemoteProxies[0]
	changed.Annotations = map[string]string{}
	for k, v := range snap.MCPRemoteProxies[0].Annotations {
		changed.Annotations[k] = v
	}
	changed.Annotations[AnnotationURL] = "https://mcp.example.com/crm-v2"
	snap.MCPRemoteProxies = append([]*model.MCPRemoteProxy{&changed}, snap.MCPRemoteProxies[1:]...)
	after := Discover(snap, opts)
	want := Changes{
		Changed:        []string{"dev.stacklok.toolhive/proxies.crm"},
		AddedRemotes:   []RemoteChange{{"dev.stacklok.toolhive/proxies.crm", "streamable-http", "https://mcp.example.com/crm-v2"}},
		RemovedRemotes: []RemoteChange{{"dev.stacklok.toolhive/proxies.crm", "streamable-http", "https://mcp.example.com/crm"}},
	}
	if d := cmp.Diff(want, Diff(before.Registry, after.Registry)); d != "" {
		t.Errorf("Diff (-want +got):\n%s", d)
	}
}
