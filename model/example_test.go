package model_test

import (
	"fmt"

	"github.com/mcpreg/mcpreg/model"
)

// Parse detects the shape and converts the list shorthand to upstream
// entries; names without a namespace get io.github.stacklok.
func ExampleParse() {
	data := []byte(`{"servers": [{"name": "github-mcp", "image": "ghcr.io/github/mcp-server:latest", "description": "GitHub"}]}`)
	reg, ds := model.Parse(data, model.ParseOptions{})
	fmt.Println(len(ds), reg.Servers[0].Name(), reg.Servers[0].PackageIdentifiers("oci"))
	// Output: 0 io.github.stacklok/github-mcp [ghcr.io/github/mcp-server:latest]
}

// ValidateJSON names the server and the rule it breaks.
func ExampleValidateJSON() {
	doc := []byte(`{"version": "1.0.0", "meta": {"last_updated": "2025-01-01T00:00:00Z"},
	  "data": {"servers": [{"name": "io.github.acme/tool", "description": "ok", "version": "1.0.0",
	    "remotes": [{"type": "stdio", "url": "https://tool.acme.dev"}]}]}}`)
	for _, d := range model.ValidateJSON(doc, model.ObjectRef{Kind: "File", Name: "registry.json"}) {
		fmt.Println(d)
	}
	// Output: error InvalidEntry File/registry.json data.servers[0].remotes[0].type: server "io.github.acme/tool": remotes[0].type is "stdio"; a remote must be "streamable-http" or "sse"
}
