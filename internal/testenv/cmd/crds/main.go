// Command crds prints, as one multi-document YAML stream, the
// CustomResourceDefinitions the repository's tests install in a real API
// server: ToolHive's CRDs of one release, with v0.10's MCPRegistry extended by
// the configMapSelector source (testenv.MCPRegistrySelectorCRD), and, unless
// -toolhive-only, the Gateway API standard channel. Apply them to a
// development cluster to run the examples against it:
//
//	cd internal/testenv && go run ./cmd/crds | kubectl apply --server-side -f -
//
// The CRDs are read from the module cache (downloaded through the module
// proxy when missing), so nothing large is kept in the repository.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/mcpreg/mcpreg/internal/testenv"
)

func main() {
	release := flag.String("release", testenv.ToolHiveV010, "ToolHive release whose CRDs to print ("+testenv.ToolHiveV010+" or "+testenv.ToolHiveV047+")")
	toolhiveOnly := flag.Bool("toolhive-only", false, "print ToolHive's CRDs only, not the Gateway API's")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "crds: no arguments expected")
		os.Exit(2)
	}
	if err := write(os.Stdout, *release, *toolhiveOnly); err != nil {
		fmt.Fprintln(os.Stderr, "crds:", err)
		os.Exit(1)
	}
}

// write prints the CRDs of release to w, ToolHive's only when toolhiveOnly.
func write(w io.Writer, release string, toolhiveOnly bool) error {
	crds, err := testenv.CRDs(release)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, crd := range crds {
		if toolhiveOnly && crd.Spec.Group != "toolhive.stacklok.dev" {
			continue
		}
		crd.APIVersion, crd.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
		out, err := yaml.Marshal(crd)
		if err != nil {
			return fmt.Errorf("%s: %w", crd.Name, err)
		}
		b.WriteString("---\n")
		b.Write(out)
	}
	_, err = io.WriteString(w, b.String())
	return err
}
