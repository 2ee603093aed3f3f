package discovery_test

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mcpreg/mcpreg/discovery"
)

// Wiring a controller or registry server that lists with a dynamic client:
// the unstructured objects go into a Snapshot as they are, in either
// ToolHive API version, and discovery and group status read them.
func ExampleSnapshot_Add() {
	obj := func(apiVersion, kind, namespace, name string, annotations map[string]any, spec map[string]any) *unstructured.Unstructured {
		meta := map[string]any{"name": name, "namespace": namespace}
		if annotations != nil {
			meta["annotations"] = annotations
		}
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion, "kind": kind, "metadata": meta, "spec": spec,
		}}
	}
	listed := []any{
		obj("toolhive.stacklok.dev/v1beta1", "MCPGroup", "tools", "engineering", nil,
			map[string]any{"description": "Servers for the engineering team"}),
		obj("toolhive.stacklok.dev/v1beta1", "MCPServer", "tools", "fetch",
			map[string]any{
				"toolhive.stacklok.dev/registry-export":      "true",
				"toolhive.stacklok.dev/registry-url":         "https://mcp.example.com/fetch/mcp",
				"toolhive.stacklok.dev/registry-description": "Fetches web pages",
			},
			map[string]any{
				"image":     "ghcr.io/stackloklabs/gofetch/server:1.0.1",
				"transport": "streamable-http",
				"groupRef":  map[string]any{"name": "engineering"},
			}),
		obj("toolhive.stacklok.dev/v1alpha1", "MCPRemoteProxy", "tools", "search",
			map[string]any{
				"toolhive.stacklok.dev/registry-export":      "true",
				"toolhive.stacklok.dev/registry-url":         "https://mcp.example.com/search/mcp",
				"toolhive.stacklok.dev/registry-description": "Searches the intranet",
			},
			map[string]any{
				"remoteURL":  "https://search.internal.example.com/mcp",
				"oidcConfig": map[string]any{"type": "kubernetes"},
				"groupRef":   "engineering",
			}),
	}
	var snap discovery.Snapshot
	if err := snap.Add(listed...); err != nil {
		fmt.Println(err)
		return
	}
	res := discovery.Discover(snap, discovery.Options{LastUpdated: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	for _, e := range res.Entries {
		fmt.Println(e.Name, e.Resources)
	}
	groups := discovery.Groups(snap, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
	for _, g := range groups.Groups {
		fmt.Println(g.Namespace, g.Name, g.Status.Phase, g.Status.Servers, g.Status.RemoteProxies)
	}
	// Output:
	// dev.stacklok.toolhive/tools.fetch [MCPServer/tools/fetch]
	// dev.stacklok.toolhive/tools.search [MCPRemoteProxy/tools/search]
	// tools engineering Ready [fetch] [search]
}
