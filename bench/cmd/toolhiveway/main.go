// Command toolhiveway is the baseline of the command-level comparison: what a
// command doing ToolHive's registry server's work over ConfigMap manifests
// costs. It reads the JSON ConfigMap manifests under a directory, keeps those
// in the namespace whose labels match, decodes each one's registry data into
// toolhive-core's UpstreamRegistry, concatenates the servers, applies the
// name filter of ToolHive's registry server and writes the document indented
// to stdout, all with encoding/json, as ToolHive's code does (package thway).
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

	corev1 "k8s.io/api/core/v1"

	"github.com/mcpreg/mcpreg/bench/thway"
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
	f, err := thway.NewFilter(include, exclude)
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
	m := thway.NewMerger(f)
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
		if err := m.Add("ConfigMap "+cm.Name, []byte(data)); err != nil {
			return err
		}
	}
	out := m.Registry(updated)
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func matches(labels, want map[string]string) bool {
	for k, v := range want {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
