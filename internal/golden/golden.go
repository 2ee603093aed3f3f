// Package golden compares test output with golden files under testdata/ and
// rewrites them when tests run with -update.
//
// A golden case is a directory of plain input manifests next to the expected
// output and diagnostics, so adding a case needs no Go code.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpreg/mcpreg/internal/manifest"
)

var update = flag.Bool("update", false, "rewrite golden files with the current output")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with the file at path, or writes it with -update. On a
// difference it fails with a go-cmp diff, line by line.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create it): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from the output (-want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

// Cases returns the subdirectories of dir, sorted: one golden case each.
func Cases(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// LoadObjects decodes every .yaml, .yml and .json file directly in dir whose
// name does not start with "want" or "expected" into one snapshot. Namespaced
// objects without a namespace are put in "default", as kubectl apply (and so
// the CLI) does: a case copied from a manifest that leaves the namespace out
// then gives the library and the CLI the same objects.
func LoadObjects(t testing.TB, dir string) *manifest.Objects {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := &manifest.Objects{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || len(name) >= 4 && name[:4] == "want" || len(name) >= 8 && name[:8] == "expected" {
			continue
		}
		switch filepath.Ext(name) {
		case ".yaml", ".yml", ".json":
		default:
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		o, err := manifest.Decode(data, name)
		if err != nil {
			t.Fatal(err)
		}
		all.Append(o)
	}
	all.DefaultNamespace(DefaultNamespace)
	return all
}

// DefaultNamespace is the namespace LoadObjects gives namespaced objects that
// name none: kubectl's with the default context.
const DefaultNamespace = "default"
