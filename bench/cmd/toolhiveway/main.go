// Command toolhiveway is the baseline of the command-level comparison: what a
// command doing ToolHive's registry server's work over ConfigMap manifests
// costs. It reads the JSON ConfigMap manifests under a directory, keeps those
// in the namespace whose labels match, decodes each one's registry data into
// toolhive-core's UpstreamRegistry, concatenates the servers, applies the
// name filter and writes the document indented to stdout, all with
// encoding/json, as ToolHive's code does.
//
// It settles no conflicts (a name defined twice is written twice) and
// validates nothing: a baseline that does less work than mcpreg merge.
//
//	toolhiveway -f DIR -namespace NS -selector k=v [-key K] [-exclude G]... [-now RFC3339]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gobwas/glob"
	upstreamv0 "github.com/modelcontextprotocol/registry/pkg/api/v0"
	thtypes "github.com/stacklok/toolhive-core/registry/types"
	corev1 "k8s.io/api/core/v1"
)

type patterns []string

func (p *patterns) String() string     { return strings.Join(*p, ",") }
func (p *patterns) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	dir := flag.String("f", "", "directory of JSON ConfigMap manifests")
	ns := flag.String("namespace", "", "namespace of the ConfigMaps")
	sel := flag.String("selector", "", "label selector k=v[,k=v...]")
	key := flag.String("key", "registry.json", "ConfigMap key holding registry data")
	now := flag.String("now", "", "RFC3339 meta.last_updated (default: the current time)")
	var include, exclude patterns
	flag.Var(&include, "include", "name glob to keep; repeatable")
	flag.Var(&exclude, "exclude", "name glob to drop; repeatable")
	flag.Parse()
	if err := run(*dir, *ns, *sel, *key, *now, include, exclude); err != nil {
		fmt.Fprintln(os.Stderr, "toolhiveway:", err)
		os.Exit(1)
	}
}

func run(dir, ns, sel, key, now string, include, exclude []string) error {
	want := map[string]string{}
	for _, kv := range strings.Split(sel, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("selector %q: want k=v[,k=v...]", sel)
		}
		want[k] = v
	}
	updated := time.Now().UTC()
	if now != "" {
		t, err := time.Parse(time.RFC3339, now)
		if err != nil {
			return err
		}
		updated = t.UTC()
	}
	f, err := newFilter(include, exclude)
	if err != nil {
		return err
	}
	var files []string
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(files)
	var servers []upstreamv0.ServerJSON
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var cm corev1.ConfigMap
		if err := json.Unmarshal(b, &cm); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if cm.Kind != "ConfigMap" || cm.Namespace != ns || !matches(cm.Labels, want) {
			continue
		}
		data, ok := cm.Data[key]
		if !ok {
			continue
		}
		var reg thtypes.UpstreamRegistry
		if err := json.Unmarshal([]byte(data), &reg); err != nil {
			return fmt.Errorf("ConfigMap %s: %w", cm.Name, err)
		}
		servers = append(servers, reg.Data.Servers...)
	}
	kept := servers[:0]
	for _, s := range servers {
		if f.keep(s.Name) {
			kept = append(kept, s)
		}
	}
	out := thtypes.UpstreamRegistry{
		Schema:  thtypes.UpstreamRegistrySchemaURL,
		Version: "1.0.0",
		Meta:    thtypes.UpstreamMeta{LastUpdated: updated.Format(time.RFC3339)},
		Data:    thtypes.UpstreamData{Servers: kept},
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

func matches(labels, want map[string]string) bool {
	for k, v := range want {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// filter is the name filter of ToolHive's registry server: exclude wins, then
// any include must match; a pattern is checked with filepath.Match and
// matched with gobwas/glob without separators, so "*" crosses "/". Patterns
// are compiled once (ToolHive compiles them for every server), which makes
// the baseline faster, never slower.
type filter struct{ include, exclude []glob.Glob }

func newFilter(include, exclude []string) (*filter, error) {
	f := &filter{}
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

func (f *filter) keep(name string) bool {
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
