// Package thway is ToolHive's way of merging registry data, the baseline
// the benchmarks measure mcpreg against: ToolHive's registry server's
// handling of file sources applied to several registry documents — each
// decoded with encoding/json into toolhive-core's UpstreamRegistry, the
// servers concatenated, its name filter applied, the result encoded with
// encoding/json. It settles no conflicts (a name defined twice is served
// twice) and validates nothing.
package thway

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	"github.com/gobwas/glob"
	upstreamv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
	thtypes "github.com/stacklok/toolhive-core/registry/types"
)

// Merger concatenates registry documents, one at a time.
type Merger struct {
	filter  *Filter
	servers []upstreamv0.ServerJSON
}

// NewMerger returns a Merger that applies f (nil: keeps every server).
func NewMerger(f *Filter) *Merger { return &Merger{filter: f} }

// Add decodes one registry document; name names it in errors.
func (m *Merger) Add(name string, data []byte) error {
	var reg thtypes.UpstreamRegistry
	if err := json.Unmarshal(data, &reg); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	m.servers = append(m.servers, reg.Data.Servers...)
	return nil
}

// Registry is the document of the servers added that the filter keeps. It
// filters in place: call it once, after the last Add.
func (m *Merger) Registry(lastUpdated time.Time) *thtypes.UpstreamRegistry {
	kept := m.servers[:0]
	for _, s := range m.servers {
		if m.filter == nil || m.filter.Keep(s.Name) {
			kept = append(kept, s)
		}
	}
	return &thtypes.UpstreamRegistry{
		Schema:  thtypes.UpstreamRegistrySchemaURL,
		Version: "1.0.0",
		Meta:    thtypes.UpstreamMeta{LastUpdated: lastUpdated.UTC().Format(time.RFC3339)},
		Data:    thtypes.UpstreamData{Servers: kept},
	}
}

// Filter is the name filter of ToolHive's registry server (pkg/filtering):
// exclude wins, then any include must match; a pattern is checked with
// filepath.Match and matched with gobwas/glob without separators, so "*"
// crosses "/". ToolHive compiles each pattern again for
// every server; compiling once, as mcpreg's filter does, makes the baseline
// faster, never slower.
type Filter struct {
	include, exclude []glob.Glob
}

// NewFilter compiles the include and exclude patterns.
func NewFilter(include, exclude []string) (*Filter, error) {
	f := &Filter{}
	for _, side := range []struct {
		patterns []string
		out      *[]glob.Glob
	}{{include, &f.include}, {exclude, &f.exclude}} {
		for _, p := range side.patterns {
			if _, err := filepath.Match(p, "test"); err != nil {
				return nil, fmt.Errorf("pattern %q: %w", p, err)
			}
			g, err := glob.Compile(p)
			if err != nil {
				return nil, fmt.Errorf("pattern %q: %w", p, err)
			}
			*side.out = append(*side.out, g)
		}
	}
	return f, nil
}

// Keep reports whether the filter keeps a server of that name.
func (f *Filter) Keep(name string) bool {
	for _, g := range f.exclude {
		if g.Match(name) {
			return false
		}
	}
	if len(f.include) == 0 {
		return true
	}
	for _, g := range f.include {
		if g.Match(name) {
			return true
		}
	}
	return false
}
