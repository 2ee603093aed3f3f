package model_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mcpreg/mcpreg/model"
)

// Converting a ToolHive legacy catalog to the upstream document the registry
// server reads, then validating it. The bare name gets the default namespace;
// ToolHive-only fields go under the publisher extension, keyed by image.
func ExampleConvert() {
	legacy := []byte(`{
	  "version": "1.0.0",
	  "last_updated": "2025-01-01T00:00:00Z",
	  "servers": {
	    "fetch": {
	      "image": "ghcr.io/stackloklabs/gofetch/server:1.0.1",
	      "description": "Fetches a URL and returns its content",
	      "transport": "streamable-http",
	      "tier": "Community",
	      "status": "Active",
	      "tools": ["fetch"]
	    }
	  }
	}`)
	src := model.ObjectRef{Kind: "File", Name: "registry.json"}
	reg, ds := model.Convert(legacy, model.ParseOptions{Source: src}, "2025-06-01T00:00:00Z")
	fmt.Println(len(ds), "diagnostics")
	doc := reg.Encode()
	fmt.Print(string(doc))
	fmt.Println(len(model.ValidateJSON(doc, src)), "problems")
	// Output:
	// 0 diagnostics
	// {
	//   "$schema": "https://raw.githubusercontent.com/stacklok/toolhive-core/main/registry/types/data/upstream-registry.schema.json",
	//   "version": "1.0.0",
	//   "meta": {
	//     "last_updated": "2025-06-01T00:00:00Z"
	//   },
	//   "data": {
	//     "servers": [
	//       {
	//         "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
	//         "name": "io.github.stacklok/fetch",
	//         "description": "Fetches a URL and returns its content",
	//         "version": "1.0.0",
	//         "packages": [
	//           {
	//             "registryType": "oci",
	//             "identifier": "ghcr.io/stackloklabs/gofetch/server:1.0.1",
	//             "transport": {
	//               "type": "streamable-http",
	//               "url": "http://localhost"
	//             }
	//           }
	//         ],
	//         "_meta": {
	//           "io.modelcontextprotocol.registry/publisher-provided": {
	//             "io.github.stacklok": {
	//               "ghcr.io/stackloklabs/gofetch/server:1.0.1": {
	//                 "status": "Active",
	//                 "tier": "Community",
	//                 "tools": [
	//                   "fetch"
	//                 ]
	//               }
	//             }
	//           }
	//         }
	//       }
	//     ]
	//   }
	// }
	// 0 problems
}

// Reading a ToolHive object as a dynamic client returns it: either API
// version, with groupRef a string (v1alpha1) or an object (v1beta1).
func ExampleFromUnstructured() {
	for _, apiVersion := range []string{"toolhive.stacklok.dev/v1alpha1", "toolhive.stacklok.dev/v1beta1"} {
		groupRef := any("engineering")
		if apiVersion == "toolhive.stacklok.dev/v1beta1" {
			groupRef = map[string]any{"name": "engineering"}
		}
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": apiVersion,
			"kind":       "MCPServer",
			"metadata":   map[string]any{"name": "fetch", "namespace": "tools"},
			"spec": map[string]any{
				"image":     "ghcr.io/stackloklabs/gofetch/server:1.0.1",
				"transport": "streamable-http",
				"groupRef":  groupRef,
			},
		}}
		obj, err := model.FromUnstructured(u, u.GroupVersionKind())
		if err != nil {
			fmt.Println(err)
			continue
		}
		s := obj.(*model.MCPServer)
		fmt.Println(apiVersion, s.Namespace, s.Name, s.RemoteType(), s.Spec.GroupRef.Name)
	}
	// Output:
	// toolhive.stacklok.dev/v1alpha1 tools fetch streamable-http engineering
	// toolhive.stacklok.dev/v1beta1 tools fetch streamable-http engineering
}
