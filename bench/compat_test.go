package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpreg/mcpreg/bench/gen"
	"github.com/mcpreg/mcpreg/model"
)

// The compatibility test: the same ToolHive legacy catalog, converted by
// ToolHive's converter and by mcpreg, must give the same server entries,
// compared as decoded JSON values (so member order and number formatting do
// not count), matched by name.
//
// The deliberate differences, each handled explicitly below:
//
//  1. Names without "/". ToolHive keeps an explicit "name" that has no
//     namespace as it is (BuildReverseDNSName only namespaces the catalog key,
//     when "name" is empty); the upstream name pattern rejects it, so mcpreg
//     prefixes io.github.stacklok/ (docs/compatibility.md). The test applies
//     the prefix to ToolHive's bare names and checks that exactly the
//     catalog's bare names needed it.
//  2. Order. ToolHive's converter ranges over Go maps, so its order is random;
//     mcpreg emits container servers, then remote servers, then the groups'
//     own servers, each sorted by key. The test matches entries by name and
//     checks separately that mcpreg's output does not depend on input order.
//  3. Groups. ToolHive's converter ignores "groups"; mcpreg converts their
//     servers too, so that a server listed only in a group is not lost. The
//     test expects, for a group's servers, what ToolHive's converter gives for
//     them as top-level entries; a group repeating a top-level entry
//     unchanged adds nothing.
//  4. tool_definitions. ToolHive decodes them into mcp.Tool and marshals them
//     again, which adds "annotations": {} and normalises input schemas; mcpreg
//     passes the catalog's JSON through unchanged (raw JSON stays raw:
//     docs/decisions.md). The test checks that mcpreg's lists are the
//     catalog's, then compares both after one mcp.Tool round trip.
//
// Anything else that differs is a failure. compat_edge_test.go has the
// deliberate differences a valid catalog does not show (document version,
// per-entry failures where ToolHive fails the whole catalog or panics, two
// entries with one name) and the reported bugs.

// compatCatalogs are the catalogs compared: the default one and larger ones
// with other seeds, so that rarer field combinations occur.
var compatCatalogs = []gen.CatalogOptions{
	gen.DefaultCatalog,
	{Seed: 2, Containers: 40, Remotes: 20, GroupOnly: 2, BareNames: 1},
	{Seed: 3, Containers: 150, Remotes: 60, GroupOnly: 6, BareNames: 5},
}

func TestCompatCatalog(t *testing.T) {
	shapes := map[string]int{}
	values := map[string]map[string]bool{}
	total, leaves := 0, 0
	for _, opts := range compatCatalogs {
		t.Run(fmt.Sprintf("seed=%d/servers=%d", opts.Seed, opts.Containers+opts.Remotes+opts.GroupOnly), func(t *testing.T) {
			n, l := compareCatalog(t, opts, shapes, values)
			total += n
			leaves += l
		})
	}
	t.Logf("compared %d servers, %d scalar values, %d distinct field paths", total, leaves, len(shapes))
	checkCoverage(t, shapes, values)
}

// compareCatalog converts one catalog both ways and compares every entry. It
// returns the number of entries and of scalar values compared, and adds what
// ToolHive's output exercised to shapes and values.
func compareCatalog(t *testing.T, opts gen.CatalogOptions, shapes map[string]int, values map[string]map[string]bool) (int, int) {
	data := gen.ToolHiveCatalog(opts)

	up, err := toolhiveConvert(data)
	if err != nil {
		t.Fatalf("ToolHive: %v", err)
	}
	reg, ds := model.Parse(data, model.ParseOptions{Format: model.FormatToolHive})
	if reg == nil {
		t.Fatalf("mcpreg: no registry: %v", ds)
	}
	if len(ds) != 0 {
		t.Errorf("mcpreg: a clean catalog gave diagnostics:\n%v", ds)
	}

	// The document members ToolHive copies.
	if reg.Version != up.Version || reg.LastUpdated != up.Meta.LastUpdated || reg.Schema != up.Schema {
		t.Errorf("document: mcpreg has version %q, last_updated %q, $schema %q; ToolHive %q, %q, %q",
			reg.Version, reg.LastUpdated, reg.Schema, up.Version, up.Meta.LastUpdated, up.Schema)
	}

	// What mcpreg should produce: ToolHive's entries with differences 1 and 3 applied.
	thTop := toolhiveServers(t, up)
	for _, s := range thTop {
		shapePaths(shapes, "$", s)
		collectValues(values, s)
	}
	bare := 0
	namespaceBare := func(s any) {
		if n := nameOf(s); !strings.Contains(n, "/") {
			s.(map[string]any)["name"] = model.DefaultNamespace + "/" + n // difference 1
			bare++
		}
	}
	for _, s := range thTop {
		namespaceBare(s)
	}
	if bare != opts.BareNames {
		t.Errorf("ToolHive left %d names bare; the catalog has %d names without \"/\"", bare, opts.BareNames)
	}
	want := byName(t, "ToolHive", thTop)
	groupOnly := 0
	for _, s := range toolhiveGroupConvert(t, data) { // difference 3
		namespaceBare(s)
		if top, ok := want[nameOf(s)]; ok {
			if d := cmp.Diff(top, s); d != "" {
				t.Errorf("catalog: group repeats %q with changes (-top +group):\n%s", nameOf(s), d)
			}
			continue
		}
		want[nameOf(s)] = s
		groupOnly++
	}
	if groupOnly != opts.GroupOnly {
		t.Errorf("ToolHive gives %d servers listed only in groups; the catalog has %d", groupOnly, opts.GroupOnly)
	}

	gotList := mcpregServers(t, reg)
	got := byName(t, "mcpreg", gotList)
	if wn, gn := sortedKeys(want), sortedKeys(got); !slices.Equal(wn, gn) {
		t.Errorf("server names differ (-ToolHive +mcpreg):\n%s", cmp.Diff(wn, gn))
	}

	inputs := catalogInputs(t, data)
	leaves := 0
	for _, name := range sortedKeys(want) {
		g, ok := got[name]
		if !ok {
			continue
		}
		w := want[name]
		// Difference 4: mcpreg's tool_definitions are the catalog's bytes.
		for key, e := range toolHiveExtensions(g) {
			defs, ok := e.(map[string]any)["tool_definitions"]
			if !ok {
				continue
			}
			if d := cmp.Diff(inputs[key]["tool_definitions"], defs); d != "" {
				t.Errorf("%s: tool_definitions are not the catalog's (-catalog +mcpreg):\n%s", name, d)
			}
		}
		normalizeToolDefinitions(t, w)
		normalizeToolDefinitions(t, g)
		if d := cmp.Diff(w, g); d != "" {
			t.Errorf("%s differs (-ToolHive +mcpreg):\n%s", name, d)
		}
		leaves += countLeaves(w)
	}

	// Difference 2: mcpreg's order is fixed, and what it emits (after
	// Finish sorts by name) does not depend on the order of catalog members.
	if names := namesOf(gotList); !slices.Equal(names, mcpregOrder(t, data)) {
		t.Errorf("mcpreg order is not container, remote, then group servers by key:\n%v", names)
	}
	rev, ds2 := model.Parse(reverseMembers(t, data), model.ParseOptions{Format: model.FormatToolHive})
	if rev == nil || !slices.Equal(ds, ds2) {
		t.Fatalf("mcpreg: the catalog with members reversed gives %v", ds2)
	}
	model.Finish(reg, model.ObjectRef{})
	model.Finish(rev, model.ObjectRef{})
	if !bytes.Equal(rev.Encode(), reg.Encode()) {
		t.Errorf("mcpreg output depends on the order of catalog members:\n%s", lineDiff(reg.Encode(), rev.Encode()))
	}
	return len(want), leaves
}

// catalogInputs indexes the catalog's entries (top-level and in groups) by
// image or URL, the keys of ToolHive's extension map.
func catalogInputs(t *testing.T, data []byte) map[string]map[string]any {
	t.Helper()
	var c struct {
		Servers       map[string]map[string]any `json:"servers"`
		RemoteServers map[string]map[string]any `json:"remote_servers"`
		Groups        []struct {
			Servers       map[string]map[string]any `json:"servers"`
			RemoteServers map[string]map[string]any `json:"remote_servers"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	add := func(entries map[string]map[string]any, field string) {
		for _, e := range entries {
			k, _ := e[field].(string)
			out[k] = e
		}
	}
	add(c.Servers, "image")
	add(c.RemoteServers, "url")
	for _, g := range c.Groups {
		add(g.Servers, "image")
		add(g.RemoteServers, "url")
	}
	return out
}

// mcpregOrder is the order model's legacy conversion emits (model/legacy.go):
// containers, remotes, then the groups' servers not seen before, each by key.
func mcpregOrder(t *testing.T, data []byte) []string {
	t.Helper()
	var c struct {
		Servers       map[string]struct{ Name string } `json:"servers"`
		RemoteServers map[string]struct{ Name string } `json:"remote_servers"`
		Groups        []struct {
			Servers       map[string]struct{ Name string } `json:"servers"`
			RemoteServers map[string]struct{ Name string } `json:"remote_servers"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	var out []string
	seen := map[string]bool{}
	add := func(m map[string]struct{ Name string }) {
		for _, k := range sortedKeys(m) {
			n := m[k].Name
			if n == "" {
				n = k
			}
			if !strings.Contains(n, "/") {
				n = model.DefaultNamespace + "/" + n
			}
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	add(c.Servers)
	add(c.RemoteServers)
	for _, g := range c.Groups {
		add(g.Servers)
		add(g.RemoteServers)
	}
	return out
}

// reverseMembers re-encodes a catalog with every object member of the top
// level, of "servers" and "remote_servers" and of each group in reverse key
// order.
func reverseMembers(t *testing.T, data []byte) []byte {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	writeReversed := func(raw json.RawMessage) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		keys := sortedKeys(m)
		slices.Reverse(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(m[k])
		}
		b.WriteByte('}')
	}
	b.WriteByte('{')
	keys := sortedKeys(top)
	slices.Reverse(keys)
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		switch k {
		case "servers", "remote_servers":
			writeReversed(top[k])
		case "groups":
			var groups []map[string]json.RawMessage
			if err := json.Unmarshal(top[k], &groups); err != nil {
				t.Fatal(err)
			}
			b.WriteByte('[')
			for gi, g := range groups {
				if gi > 0 {
					b.WriteByte(',')
				}
				b.WriteByte('{')
				gkeys := sortedKeys(g)
				slices.Reverse(gkeys)
				for j, gk := range gkeys {
					if j > 0 {
						b.WriteByte(',')
					}
					kb, _ := json.Marshal(gk)
					b.Write(kb)
					b.WriteByte(':')
					if gk == "servers" || gk == "remote_servers" {
						writeReversed(g[gk])
					} else {
						b.Write(g[gk])
					}
				}
				b.WriteByte('}')
			}
			b.WriteByte(']')
		default:
			b.Write(top[k])
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// collectValues records the values of a few enumerated fields, so the
// coverage check can ask for each transport and status.
func collectValues(values map[string]map[string]bool, s any) {
	add := func(field string, v any) {
		str, ok := v.(string)
		if !ok {
			return
		}
		if values[field] == nil {
			values[field] = map[string]bool{}
		}
		values[field][str] = true
	}
	m := s.(map[string]any)
	for _, p := range asList(m["packages"]) {
		add("packages.transport.type", p.(map[string]any)["transport"].(map[string]any)["type"])
	}
	for _, r := range asList(m["remotes"]) {
		add("remotes.type", r.(map[string]any)["type"])
	}
	for _, e := range toolHiveExtensions(s) {
		add("status", e.(map[string]any)["status"])
		add("tier", e.(map[string]any)["tier"])
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// checkCoverage fails when the compared catalogs did not exercise a field of
// the conversion: the test is only as good as the data it compares.
func checkCoverage(t *testing.T, shapes map[string]int, values map[string]map[string]bool) {
	const ext = "$._meta." + model.PublisherProvidedKey + "." + model.ToolHivePublisher + ".*."
	want := []string{
		"$.$schema", "$.name", "$.title", "$.description", "$.version", "$.repository.url", "$.repository.source",
		"$.packages[].registryType", "$.packages[].identifier", "$.packages[].transport.type", "$.packages[].transport.url",
		"$.packages[].environmentVariables[].name", "$.packages[].environmentVariables[].description",
		"$.packages[].environmentVariables[].isRequired", "$.packages[].environmentVariables[].isSecret",
		"$.packages[].environmentVariables[].default",
		"$.remotes[].type", "$.remotes[].url", "$.remotes[].headers[].name", "$.remotes[].headers[].description",
		"$.remotes[].headers[].isRequired", "$.remotes[].headers[].isSecret", "$.remotes[].headers[].default",
		"$.remotes[].headers[].choices[]",
		ext + "status", ext + "tier", ext + "tools[]", ext + "tags[]", ext + "overview", ext + "stateless", ext + "proxy_port",
		ext + "metadata.stars", ext + "metadata.last_updated", ext + "metadata.kubernetes.kind", ext + "metadata.kubernetes.uid",
		ext + "custom_metadata.license", ext + "custom_metadata.rating", ext + "custom_metadata.maintainers[]",
		ext + "permissions.name", ext + "permissions.read[]", ext + "permissions.write[]", ext + "permissions.privileged",
		ext + "permissions.network.outbound.allow_host[]", ext + "permissions.network.outbound.allow_port[]",
		ext + "permissions.network.outbound.insecure_allow_all",
		ext + "args[]", ext + "docker_tags[]",
		ext + "provenance.sigstore_url", ext + "provenance.repository_uri", ext + "provenance.repository_ref",
		ext + "provenance.signer_identity", ext + "provenance.runner_environment", ext + "provenance.cert_issuer",
		ext + "provenance.attestation.predicate_type", ext + "provenance.attestation.predicate.buildDefinition.buildType",
		ext + "oauth_config.issuer", ext + "oauth_config.authorize_url", ext + "oauth_config.token_url",
		ext + "oauth_config.client_id", ext + "oauth_config.scopes[]", ext + "oauth_config.use_pkce",
		ext + "oauth_config.oauth_params.prompt", ext + "oauth_config.callback_port", ext + "oauth_config.resource",
		ext + "env_vars[].name", ext + "env_vars[].description", ext + "env_vars[].required", ext + "env_vars[].default",
		ext + "tool_definitions[].name", ext + "tool_definitions[].inputSchema.type",
		ext + "tool_definitions[].annotations.readOnlyHint",
	}
	for _, p := range want {
		if shapes[p] == 0 {
			t.Errorf("coverage: no compared entry has %s", p)
		}
	}
	wantValues := map[string][]string{
		"packages.transport.type": {"stdio", "sse", "streamable-http"},
		"remotes.type":            {"sse", "streamable-http"},
		"status":                  {"Active", "active", "Deprecated"},
		"tier":                    {"Official", "Community"},
	}
	for field, vs := range wantValues {
		for _, v := range vs {
			if !values[field][v] {
				t.Errorf("coverage: no compared entry has %s %q", field, v)
			}
		}
	}
}

func namesOf(servers []any) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = nameOf(s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
