package discovery

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/internal/manifest"
	"github.com/mcpreg/mcpreg/model"
)

// testTime is the meta.last_updated and lastTransitionTime of golden output.
var testTime = time.Date(2025, 10, 15, 10, 30, 0, 0, time.UTC)

// snapshotOf is the snapshot of decoded manifests, as a caller builds it.
func snapshotOf(o *manifest.Objects) Snapshot {
	return Snapshot{
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

// caseOptions is a golden case's options.json. The source registry is a file
// of the case, in any shape model.Parse reads.
type caseOptions struct {
	Namespaces         []string `json:"namespaces"`
	LabelSelector      string   `json:"labelSelector"`
	Naming             string   `json:"naming"`
	URLAloneExports    bool     `json:"urlAloneExports"`
	RequireDescription bool     `json:"requireDescription"`
	RequireHTTPS       bool     `json:"requireHTTPS"`
	SourceRegistry     string   `json:"sourceRegistry"`
	// EndpointPaths is Options.EndpointPaths: remote type to backend path.
	EndpointPaths map[string]string `json:"endpointPaths"`
}

// loadCase reads a golden case directory: its snapshot and options.
func loadCase(t *testing.T, dir string) (Snapshot, Options) {
	t.Helper()
	snap := snapshotOf(golden.LoadObjects(t, dir))
	opts := Options{LastUpdated: testTime}
	data, err := os.ReadFile(filepath.Join(dir, "options.json"))
	if os.IsNotExist(err) {
		return snap, opts
	}
	if err != nil {
		t.Fatal(err)
	}
	var co caseOptions
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&co); err != nil {
		t.Fatalf("%s/options.json: %v", dir, err)
	}
	opts.Namespaces = co.Namespaces
	opts.LabelSelector = co.LabelSelector
	opts.URLAloneExports = co.URLAloneExports
	opts.RequireDescription = co.RequireDescription
	opts.RequireHTTPS = co.RequireHTTPS
	opts.EndpointPaths = co.EndpointPaths
	if opts.Naming, err = ParseNamingScheme(co.Naming); err != nil {
		t.Fatal(err)
	}
	if co.SourceRegistry != "" {
		raw, err := os.ReadFile(filepath.Join(dir, co.SourceRegistry))
		if err != nil {
			t.Fatal(err)
		}
		reg, ds := model.Parse(raw, model.ParseOptions{Source: model.ObjectRef{Kind: "File", Name: co.SourceRegistry}})
		if reg == nil || len(ds) > 0 {
			t.Fatalf("%s: source registry: %v", dir, ds)
		}
		opts.SourceRegistry = reg
	}
	return snap, opts
}

// diagnosticsText renders diagnostics one per line, as the CLI does.
func diagnosticsText(ds model.Diagnostics) []byte {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// encodeResult is a result's registry as the CLI prints it, or "null".
func encodeResult(r Result) []byte {
	if r.Registry == nil {
		return []byte("null\n")
	}
	return r.Registry.Encode()
}

// reversed returns a snapshot with every list in reverse order.
func reversed(s Snapshot) Snapshot {
	rev := func(n int, swap func(i, j int)) {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			swap(i, j)
		}
	}
	out := Snapshot{
		MCPServers:        append([]*model.MCPServer(nil), s.MCPServers...),
		MCPRemoteProxies:  append([]*model.MCPRemoteProxy(nil), s.MCPRemoteProxies...),
		VirtualMCPServers: append([]*model.VirtualMCPServer(nil), s.VirtualMCPServers...),
		MCPGroups:         append([]*model.MCPGroup(nil), s.MCPGroups...),
		MCPServerEntries:  slices.Clone(s.MCPServerEntries),
		Services:          slices.Clone(s.Services),
		Namespaces:        slices.Clone(s.Namespaces),
		Gateways:          slices.Clone(s.Gateways),
		HTTPRoutes:        slices.Clone(s.HTTPRoutes),
		ReferenceGrants:   slices.Clone(s.ReferenceGrants),
	}
	rev(len(out.MCPServers), func(i, j int) { out.MCPServers[i], out.MCPServers[j] = out.MCPServers[j], out.MCPServers[i] })
	rev(len(out.MCPRemoteProxies), func(i, j int) {
		out.MCPRemoteProxies[i], out.MCPRemoteProxies[j] = out.MCPRemoteProxies[j], out.MCPRemoteProxies[i]
	})
	rev(len(out.VirtualMCPServers), func(i, j int) {
		out.VirtualMCPServers[i], out.VirtualMCPServers[j] = out.VirtualMCPServers[j], out.VirtualMCPServers[i]
	})
	rev(len(out.MCPGroups), func(i, j int) { out.MCPGroups[i], out.MCPGroups[j] = out.MCPGroups[j], out.MCPGroups[i] })
	slices.Reverse(out.MCPServerEntries)
	slices.Reverse(out.Services)
	slices.Reverse(out.Namespaces)
	slices.Reverse(out.Gateways)
	slices.Reverse(out.HTTPRoutes)
	slices.Reverse(out.ReferenceGrants)
	return out
}
