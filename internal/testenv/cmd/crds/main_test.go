package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpreg/mcpreg/internal/testenv"
)

// TestWriteReadsBack: what the command prints reads back as the CRDs the
// tests install, the MCPRegistry one with its configMapSelector extension.
func TestWriteReadsBack(t *testing.T) {
	for _, toolhiveOnly := range []bool{false, true} {
		var b strings.Builder
		if err := write(&b, testenv.ToolHiveV010, toolhiveOnly); err != nil {
			t.Skipf("ToolHive's CRDs are not available: %v", err)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "crds.yaml"), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := testenv.ReadCRDDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		want, err := testenv.CRDs(testenv.ToolHiveV010)
		if err != nil {
			t.Fatal(err)
		}
		names := map[string]bool{}
		for _, crd := range want {
			if !toolhiveOnly || crd.Spec.Group == "toolhive.stacklok.dev" {
				names[crd.Name] = true
			}
		}
		if len(got) != len(names) {
			t.Errorf("toolhiveOnly=%v: %d CRDs read back, want %d", toolhiveOnly, len(got), len(names))
		}
		selector := false
		for _, crd := range got {
			if !names[crd.Name] {
				t.Errorf("toolhiveOnly=%v: unexpected CRD %s", toolhiveOnly, crd.Name)
			}
			if crd.Name == "mcpregistries.toolhive.stacklok.dev" {
				props := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["registries"].Items.Schema.Properties
				_, selector = props["configMapSelector"]
			}
		}
		if !selector {
			t.Errorf("toolhiveOnly=%v: the MCPRegistry CRD has no configMapSelector", toolhiveOnly)
		}
	}
}
