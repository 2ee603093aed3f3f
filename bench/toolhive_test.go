package bench

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stacklok/toolhive-core/mcpcompat/mcp"
	"github.com/stacklok/toolhive-core/registry/converters"
	thtypes "github.com/stacklok/toolhive-core/registry/types"

	"github.com/mcpreg/mcpreg/model"
)

// This file runs both implementations the way their users do and brings the
// results to one comparable form: every server entry decoded with
// encoding/json into `any`, keyed by name.

// toolhiveConvert converts legacy catalog bytes the way ToolHive's registry
// server ingests a ToolHive-format file source: encoding/json into
// types.Registry, then converters.NewUpstreamRegistryFromToolhiveRegistry. A
// panic inside ToolHive is returned as an error, so a test can report it.
func toolhiveConvert(data []byte) (up *thtypes.UpstreamRegistry, err error) {
	defer func() {
		if r := recover(); r != nil {
			up, err = nil, fmt.Errorf("toolhive panicked: %v", r)
		}
	}()
	var reg thtypes.Registry
	if err := json.Unmarshal(data, &reg); err != nil {
		return nil, fmt.Errorf("toolhive cannot decode the catalog: %w", err)
	}
	return converters.NewUpstreamRegistryFromToolhiveRegistry(&reg)
}

// toolhiveGroupConvert converts the entries of every group of a catalog as if
// they were top-level ones: what ToolHive would produce for them if its
// converter did not ignore groups.
func toolhiveGroupConvert(t *testing.T, data []byte) []any {
	t.Helper()
	var reg thtypes.Registry
	if err := json.Unmarshal(data, &reg); err != nil {
		t.Fatalf("toolhive cannot decode the catalog: %v", err)
	}
	var out []any
	for _, g := range reg.Groups {
		up, err := converters.NewUpstreamRegistryFromToolhiveRegistry(&thtypes.Registry{Servers: g.Servers, RemoteServers: g.RemoteServers})
		if err != nil {
			t.Fatalf("toolhive cannot convert group %q: %v", g.Name, err)
		}
		out = append(out, toolhiveServers(t, up)...)
	}
	return out
}

// toolhiveServers returns ToolHive's server entries, each as encoding/json
// writes it, decoded into `any`.
func toolhiveServers(t *testing.T, up *thtypes.UpstreamRegistry) []any {
	t.Helper()
	out := make([]any, 0, len(up.Data.Servers))
	for i := range up.Data.Servers {
		b, err := json.Marshal(&up.Data.Servers[i])
		if err != nil {
			t.Fatalf("toolhive server %q does not marshal: %v", up.Data.Servers[i].Name, err)
		}
		out = append(out, decodeAny(t, b))
	}
	return out
}

// mcpregServers returns mcpreg's server entries decoded into `any`, in
// mcpreg's order.
func mcpregServers(t *testing.T, reg *model.Registry) []any {
	t.Helper()
	out := make([]any, 0, len(reg.Servers))
	for _, s := range reg.Servers {
		out = append(out, decodeAny(t, s.AppendJSON(nil)))
	}
	return out
}

func decodeAny(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("invalid JSON %.200q: %v", b, err)
	}
	return v
}

// nameOf returns the "name" of a decoded server entry.
func nameOf(v any) string {
	m, _ := v.(map[string]any)
	s, _ := m["name"].(string)
	return s
}

// byName indexes decoded entries by name, failing on a repeated name: within
// one implementation's output of a catalog without duplicates each name is
// unique.
func byName(t *testing.T, who string, servers []any) map[string]any {
	t.Helper()
	out := make(map[string]any, len(servers))
	for _, s := range servers {
		n := nameOf(s)
		if _, dup := out[n]; dup {
			t.Errorf("%s: name %q appears twice", who, n)
		}
		out[n] = s
	}
	return out
}

// toolHiveExtensions returns the ToolHive publisher extensions of a decoded
// entry: _meta[publisher-provided][io.github.stacklok], keyed by image or URL.
func toolHiveExtensions(v any) map[string]any {
	m, _ := v.(map[string]any)
	meta, _ := m["_meta"].(map[string]any)
	pp, _ := meta[model.PublisherProvidedKey].(map[string]any)
	ext, _ := pp[model.ToolHivePublisher].(map[string]any)
	return ext
}

// normalizeToolDefinitions re-marshals every tool_definitions list of a
// decoded entry through toolhive-core's mcp.Tool, as ToolHive's converter
// does, so that the content of raw and re-marshalled lists can be compared.
func normalizeToolDefinitions(t *testing.T, v any) {
	t.Helper()
	for key, e := range toolHiveExtensions(v) {
		em, _ := e.(map[string]any)
		defs, ok := em["tool_definitions"]
		if !ok {
			continue
		}
		b, err := json.Marshal(defs)
		if err != nil {
			t.Fatalf("tool_definitions of %q: %v", key, err)
		}
		var tools []mcp.Tool
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatalf("tool_definitions of %q do not decode as mcp.Tool: %v", key, err)
		}
		if b, err = json.Marshal(tools); err != nil {
			t.Fatalf("tool_definitions of %q do not marshal as mcp.Tool: %v", key, err)
		}
		em["tool_definitions"] = decodeAny(t, b)
	}
}

// shapePaths adds to set the path of every value in v, with array indexes
// written "[]" and the keys of the ToolHive extension map (images and URLs)
// written "*", so that the paths say which fields a data set exercises.
func shapePaths(set map[string]int, prefix string, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			seg := k
			if strings.HasSuffix(prefix, "."+model.ToolHivePublisher) {
				seg = "*"
			}
			shapePaths(set, prefix+"."+seg, x[k])
		}
	case []any:
		for _, e := range x {
			shapePaths(set, prefix+"[]", e)
		}
	default:
		set[prefix]++
	}
}

// countLeaves returns the number of scalar values in v.
func countLeaves(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 0
		for _, e := range x {
			n += countLeaves(e)
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += countLeaves(e)
		}
		return n
	}
	return 1
}
