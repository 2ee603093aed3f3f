package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/mcpreg/mcpreg/discovery"
	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// runDiscover is the 'discover' verb: it builds the upstream
// registry of the MCP servers the manifests export and prints it.
func runDiscover(e *env, args []string) int {
	var c common
	fs := newFlagSet(e, "discover", "[-f PATH]... [--namespace NS]... [--selector EXPR] [--source-registry FILE]\n"+
		"       [--naming toolhive-operator|toolhive-registry-server] [--toolhive-endpoints] [--endpoint-path TYPE=PATH]...\n"+
		"       [--require-https] [--url-alone-exports] [--require-description]")
	c.register(fs, true, nowLastUpdated)
	var namespaces, endpointPaths stringList
	fs.Var(&namespaces, "namespace", "print only the entries and diagnostics of namespace `NS`, with the names and URLs the\n"+
		"full result gives them; repeatable (default: all)")
	selector := fs.String("selector", "", "label selector `EXPR` for MCP resources, in Kubernetes syntax")
	source := fs.String("source-registry", "", "registry `FILE` (any shape) whose entries discovered servers enrich")
	naming := fs.String("naming", "toolhive-operator", "naming `SCHEME` of new entries: toolhive-operator or toolhive-registry-server")
	fs.Var(&endpointPaths, "endpoint-path", "backend path `TYPE=PATH` per remote type (sse=/sse, streamable-http=/mcp); repeatable")
	toolhiveEndpoints := fs.Bool("toolhive-endpoints", false,
		"route URLs point at ToolHive's proxy endpoints (streamable-http=/mcp, sse=/sse); --endpoint-path overrides one type")
	requireHTTPS := fs.Bool("require-https", false, "refuse http URLs")
	urlAlone := fs.Bool("url-alone-exports", false, "let registry-url alone export a resource (registry-export not required)")
	requireDescription := fs.Bool("require-description", false, "skip servers with no description instead of describing them by kind and name")
	pos, status, ok := parseFlags(fs, args)
	if !ok {
		return status
	}
	if err := c.check(); err != nil {
		return usageError(e, "discover: %v", err)
	}
	for _, ns := range namespaces {
		if err := checkNamespace(ns); ns != "" && err != nil {
			return usageError(e, "discover: %v", err)
		}
	}
	if len(pos) > 0 {
		return usageError(e, "discover: unexpected argument %q (manifests are given with -f)", pos[0])
	}
	scheme, err := discovery.ParseNamingScheme(*naming)
	if err != nil {
		return usageError(e, "discover: --naming: %v", err)
	}
	paths, err := parseEndpointPaths(endpointPaths)
	if err != nil {
		return usageError(e, "discover: %v", err)
	}
	if *toolhiveEndpoints {
		defaults := discovery.ToolHiveEndpointPaths()
		for typ, p := range paths {
			defaults[typ] = p
		}
		paths = defaults
	}
	objs, err := loadObjects(e, c.files)
	if err != nil {
		return usageError(e, "discover: %v", err)
	}
	var ds model.Diagnostics
	var sourceRegistry *model.Registry
	if *source != "" {
		data, err := readInput(e, *source)
		if err != nil {
			return usageError(e, "discover: --source-registry: %v", err)
		}
		reg, d := model.Parse(data, model.ParseOptions{Source: fileRef(*source)})
		ds = append(ds, d...)
		if reg == nil {
			return emit(e, &c, nil, ds)
		}
		sourceRegistry = reg
	}
	lastUpdated, _ := time.Parse(time.RFC3339, c.lastUpdated(e))
	res := discovery.Discover(snapshotOf(objs), discovery.Options{
		Namespaces:         namespaces,
		LabelSelector:      *selector,
		SourceRegistry:     sourceRegistry,
		Naming:             scheme,
		URLAloneExports:    *urlAlone,
		RequireDescription: *requireDescription,
		RequireHTTPS:       *requireHTTPS,
		EndpointPaths:      paths,
		LastUpdated:        lastUpdated,
	})
	ds = append(ds, res.Diagnostics...)
	if res.Registry == nil {
		return emit(e, &c, nil, ds)
	}
	c.stamp(e, res.Registry)
	return emitRegistry(e, &c, res.Registry, ds)
}

// parseEndpointPaths reads --endpoint-path TYPE=PATH flags.
func parseEndpointPaths(flags []string) (map[string]string, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, f := range flags {
		typ, path, ok := strings.Cut(f, "=")
		switch {
		case !ok:
			return nil, fmt.Errorf("--endpoint-path %q: want TYPE=PATH", f)
		case typ != model.TransportSSE && typ != model.TransportStreamableHTTP:
			return nil, fmt.Errorf("--endpoint-path %q: TYPE must be %s or %s", f, model.TransportSSE, model.TransportStreamableHTTP)
		case !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " ?#"):
			return nil, fmt.Errorf("--endpoint-path %q: PATH must start with / and hold no spaces, query or fragment", f)
		}
		if prev, dup := out[typ]; dup && prev != path {
			return nil, fmt.Errorf("--endpoint-path: two paths for %s (%q and %q)", typ, prev, path)
		}
		out[typ] = path
	}
	return out, nil
}

// snapshotOf turns decoded manifests (namespaces already defaulted by
// loadObjects) into a discovery snapshot.
func snapshotOf(o *manifest.Objects) discovery.Snapshot {
	return discovery.Snapshot{
		MCPServers:        o.MCPServers,
		MCPRemoteProxies:  o.MCPRemoteProxies,
		VirtualMCPServers: o.VirtualMCPServers,
		MCPServerEntries:  o.MCPServerEntries,
		MCPGroups:         o.MCPGroups,
		Services:          o.Services,
		Namespaces:        o.Namespaces,
		Gateways:          o.Gateways,
		HTTPRoutes:        o.HTTPRoutes,
		ReferenceGrants:   o.ReferenceGrants,
	}
}
