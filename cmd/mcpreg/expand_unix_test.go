//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestExpandSkipsPipes: a named pipe called like a manifest inside a -f
// directory is not opened (the read would wait for a writer forever).
func TestExpandSkipsPipes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.yaml"), []byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	files, err := expand(dir)
	if want := []string{filepath.Join(dir, "a.yaml")}; err != nil || !slices.Equal(files, want) {
		t.Errorf("expand(%s) = %q, %v; want %q", dir, files, err, want)
	}
}
