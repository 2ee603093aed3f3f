package bench

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpreg/mcpreg/model"
)

// Small legacy catalogs at the edges of the format, converted both ways.
// Each case says what is expected: the same entries (sameEntries), one of the
// deliberate differences (a check of mcpreg's own behaviour), or a reported
// bug (knownBugs), which is compared as "same" and skipped while it differs.

// edgeResult is both conversions of one legacy catalog.
type edgeResult struct {
	thErr error
	th    []any // ToolHive's entries, names without "/" namespaced (difference 1)
	reg   *model.Registry
	ds    model.Diagnostics
}

func convertBoth(t *testing.T, in string) edgeResult {
	t.Helper()
	var r edgeResult
	up, err := toolhiveConvert([]byte(in))
	if err != nil {
		r.thErr = err
	} else {
		r.th = toolhiveServers(t, up)
		for _, s := range r.th {
			if n := nameOf(s); !strings.Contains(n, "/") {
				s.(map[string]any)["name"] = model.DefaultNamespace + "/" + n
			}
		}
	}
	r.reg, r.ds = model.Parse([]byte(in), model.ParseOptions{Format: model.FormatToolHive})
	if r.reg == nil {
		t.Fatalf("mcpreg: no registry: %v", r.ds)
	}
	return r
}

// entryDiff compares the entries of both conversions, tool_definitions after
// an mcp.Tool round trip (difference 4); "" when they are the same.
func entryDiff(t *testing.T, r edgeResult) string {
	t.Helper()
	if r.thErr != nil {
		return "ToolHive failed: " + r.thErr.Error()
	}
	got := mcpregServers(t, r.reg)
	for _, s := range append(append([]any{}, r.th...), got...) {
		normalizeToolDefinitions(t, s)
	}
	// Order aside: ToolHive's order follows Go map iteration, so it changes
	// from run to run.
	th := slices.Clone(r.th)
	byNameOrder := func(a, b any) int { return strings.Compare(nameOf(a), nameOf(b)) }
	slices.SortStableFunc(th, byNameOrder)
	slices.SortStableFunc(got, byNameOrder)
	return cmp.Diff(th, got)
}

func sameEntries(t *testing.T, r edgeResult) {
	t.Helper()
	if d := entryDiff(t, r); d != "" {
		t.Errorf("entries differ (-ToolHive +mcpreg):\n%s", d)
	}
	if len(r.ds) != 0 {
		t.Errorf("mcpreg diagnostics: %v", r.ds)
	}
}

// mcpregJSON is mcpreg's conversion as compact JSON.
func mcpregJSON(r edgeResult) string { return string(r.reg.AppendJSON(nil)) }

func wantReasons(t *testing.T, ds model.Diagnostics, want ...model.Reason) {
	t.Helper()
	var got []model.Reason
	for _, d := range ds {
		got = append(got, d.Reason)
	}
	if !cmp.Equal(got, want, cmp.Comparer(func(a, b model.Reason) bool { return a == b })) {
		t.Errorf("diagnostics %v, want reasons %v", ds, want)
	}
}

const (
	img = `"image":"ghcr.io/acme/fetch:1.0.0","description":"Fetch pages"`
	rem = `"url":"https://mcp.example.com/mcp","transport":"streamable-http","description":"Hosted fetch"`
)

func TestCompatEdgeCases(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		check func(t *testing.T, r edgeResult)
		bug   string // a knownBugs id: compared as same, skipped while different
	}{
		// The same on both sides.
		{name: "defaults", in: `{"servers":{"fetch":{` + img + `}}}`, check: sameEntries},
		{name: "empty-lists-omitted", in: `{"servers":{"fetch":{` + img + `,"tags":[],"tools":[],"args":[],"docker_tags":[],"env_vars":[],"permissions":{"read":[],"network":{"outbound":{"allow_host":[],"allow_port":[]}}}}}}`, check: sameEntries},
		{name: "unknown-fields-ignored", in: `{"servers":{"fetch":{` + img + `,"license":"MIT","x-extra":{"a":1}}},"x-top":true}`, check: sameEntries},
		{name: "key-with-namespace", in: `{"servers":{"io.github.acme/fetch":{` + img + `}}}`, check: sameEntries},
		{name: "name-overrides-key", in: `{"servers":{"fetch":{"name":"com.acme/web-fetch",` + img + `}}}`, check: sameEntries},
		{name: "http-transport-urls", in: `{"servers":{"a":{` + img + `,"transport":"sse","target_port":9090},"b":{"image":"x:1","description":"d","transport":"streamable-http"}}}`, check: sameEntries},
		{name: "case-insensitive-fields", in: `{"servers":{"fetch":{"Image":"x:1","DESCRIPTION":"d","Name":"com.acme/f"}}}`, check: sameEntries},
		{name: "repeated-field-last-wins", in: `{"servers":{"fetch":{"image":"x:1","image":"x:2","description":"d"}}}`, check: sameEntries},
		{name: "invalid-utf8", in: "{\"servers\":{\"fetch\":{\"image\":\"x:1\",\"description\":\"d\xff\"}}}", check: sameEntries},
		{name: "null-sections", in: `{"servers":null,"remote_servers":{"fetch":{` + rem + `}},"groups":null}`, check: sameEntries},
		{name: "null-remote-env-var", in: `{"remote_servers":{"fetch":{` + rem + `,"env_vars":[null]}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive copies the null into the extension block, which its own
				// validator then rejects; mcpreg skips the entry and says why.
				if len(r.reg.Servers) != 0 {
					t.Errorf("mcpreg kept the entry: %s", mcpregJSON(r))
				}
				wantReasons(t, r.ds, model.ReasonInvalidEntry)
				if len(r.ds) != 1 || !strings.Contains(r.ds[0].Message, "env_vars[0] is null") {
					t.Errorf("diagnostics: %v", r.ds)
				}
			}},
		{name: "tool-definitions-normalised", in: `{"servers":{"fetch":{` + img + `,"tool_definitions":[{"name":"fetch","inputSchema":{"type":"object"}}]}}}`,
			check: func(t *testing.T, r edgeResult) {
				sameEntries(t, r)
				// Difference 4: mcpreg keeps the catalog's bytes.
				if !strings.Contains(mcpregJSON(r), `"tool_definitions":[{"name":"fetch","inputSchema":{"type":"object"}}]`) {
					t.Errorf("tool_definitions not passed through: %s", mcpregJSON(r))
				}
			}},
		{name: "large-numbers", in: `{"servers":{"fetch":{` + img + `,"custom_metadata":{"id":12345678901234567890,"ratio":1.50}}}}`,
			check: func(t *testing.T, r edgeResult) {
				// Equal as float64 values; mcpreg also keeps the digits
				// (ToolHive's map[string]any rounds the integer).
				sameEntries(t, r)
				if !strings.Contains(mcpregJSON(r), `{"id":12345678901234567890,"ratio":1.50}`) {
					t.Errorf("custom_metadata not passed through: %s", mcpregJSON(r))
				}
			}},

		// Deliberate differences.
		{name: "remote-without-transport", in: `{"remote_servers":{"fetch":{"url":"https://mcp.example.com/mcp","description":"d"}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive writes a remote of type "", which its validator
				// refuses; mcpreg writes its default remote type and says so.
				if len(r.th) != 1 || !strings.Contains(fmt.Sprint(r.th[0]), "remotes:[map[type: url:") {
					t.Errorf("ToolHive: %v", r.th)
				}
				if len(r.reg.Servers) != 1 || !strings.Contains(mcpregJSON(r), `"remotes":[{"type":"streamable-http","url":"https://mcp.example.com/mcp"}]`) {
					t.Errorf("mcpreg: %s", mcpregJSON(r))
				}
				if wantReasons(t, r.ds, model.ReasonInvalidEntry); len(r.ds) == 1 && (r.ds[0].Severity != model.SeverityInfo || r.ds[0].Field != "remote_servers[fetch].transport") {
					t.Errorf("diagnostics: %v", r.ds)
				}
			}},
		{name: "bare-name", in: `{"servers":{"fetch":{"name":"web-fetch",` + img + `}}}`,
			check: func(t *testing.T, r edgeResult) {
				sameEntries(t, r) // after namespacing ToolHive's bare name
				up, err := toolhiveConvert([]byte(`{"servers":{"fetch":{"name":"web-fetch",` + img + `}}}`))
				if err != nil || up.Data.Servers[0].Name != "web-fetch" || r.reg.Servers[0].Name() != "io.github.stacklok/web-fetch" {
					t.Errorf("want ToolHive %q, mcpreg %q", "web-fetch", "io.github.stacklok/web-fetch")
				}
			}},
		{name: "document-version", in: `{"version":"v1","last_updated":"2025-09-01T12:00:00Z","servers":{}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive copies any version; mcpreg reads it as written and
				// writes only a valid one, saying when it replaces it.
				up, _ := toolhiveConvert([]byte(`{"version":"v1","servers":{}}`))
				if up.Version != "v1" || r.reg.Version != "v1" || r.reg.LastUpdated != "2025-09-01T12:00:00Z" {
					t.Errorf("ToolHive version %q, mcpreg read %q %q", up.Version, r.reg.Version, r.reg.LastUpdated)
				}
				out, ds := model.Convert([]byte(`{"version":"v1","servers":{"fetch":{`+img+`}}}`), model.ParseOptions{Format: model.FormatToolHive}, "2025-09-01T12:00:00Z")
				if out == nil || out.Version != model.RegistryVersion {
					t.Errorf("mcpreg wrote version %v, want %q", out, model.RegistryVersion)
				}
				if got := ds.WithReason(model.ReasonInvalidEntry); len(got) != 1 || got[0].Field != "version" {
					t.Errorf("replacing the version: diagnostics %v, want one InvalidEntry on version", ds)
				}
			}},
		{name: "null-entry", in: `{"servers":{"a":null,"fetch":{` + img + `}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive fails the whole catalog; mcpreg skips the entry.
				if r.thErr == nil || len(r.reg.Servers) != 1 {
					t.Errorf("ToolHive error %v; mcpreg %d servers", r.thErr, len(r.reg.Servers))
				}
				wantReasons(t, r.ds, model.ReasonInvalidEntry)
			}},
		{name: "empty-key", in: `{"servers":{"":{` + img + `}}}`,
			check: func(t *testing.T, r edgeResult) {
				if r.thErr == nil || len(r.reg.Servers) != 0 {
					t.Errorf("ToolHive error %v; mcpreg %d servers", r.thErr, len(r.reg.Servers))
				}
				wantReasons(t, r.ds, model.ReasonInvalidEntry)
			}},
		{name: "type-error", in: `{"servers":{"a":{"image":"x:1","description":"d","metadata":{"stars":1.5}},"fetch":{` + img + `}}}`,
			check: func(t *testing.T, r edgeResult) {
				if r.thErr == nil || len(r.reg.Servers) != 1 {
					t.Errorf("ToolHive error %v; mcpreg %d servers", r.thErr, len(r.reg.Servers))
				}
				wantReasons(t, r.ds, model.ReasonInvalidEntry)
			}},
		{name: "opaque-fields-not-decoded", in: `{"servers":{"fetch":{` + img + `,"tool_definitions":{"name":"x"},"custom_metadata":[1]}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive cannot decode the catalog; mcpreg keeps the raw
				// values, and Finish drops the entry they make invalid.
				if r.thErr == nil || len(r.reg.Servers) != 1 || len(r.ds) != 0 {
					t.Fatalf("ToolHive error %v; mcpreg %d servers, %v", r.thErr, len(r.reg.Servers), r.ds)
				}
				wantReasons(t, model.Finish(r.reg, model.ObjectRef{}), model.ReasonInvalidEntry)
			}},
		{name: "null-list-elements", in: `{"servers":{"fetch":{` + img + `,"env_vars":[null]}},"remote_servers":{"web":{` + rem + `,"headers":[null]}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive panics (nil pointer); mcpreg skips each entry
				// with a null element, naming the element.
				if r.thErr == nil || !strings.Contains(r.thErr.Error(), "panicked") {
					t.Errorf("ToolHive: %v", r.thErr)
				}
				if len(r.reg.Servers) != 0 {
					t.Errorf("mcpreg: %s", mcpregJSON(r))
				}
				if len(r.ds) != 2 || !strings.Contains(r.ds[0].Message+r.ds[1].Message, "env_vars[0] is null") ||
					!strings.Contains(r.ds[0].Message+r.ds[1].Message, "headers[0] is null") {
					t.Errorf("diagnostics: %v", r.ds)
				}
			}},
		{name: "container-and-remote-same-name", in: `{"servers":{"fetch":{` + img + `}},"remote_servers":{"fetch":{` + rem + `}}}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive emits both (two entries with one name); mcpreg
				// keeps the container server.
				if len(r.th) != 2 || len(r.reg.Servers) != 1 || r.reg.Servers[0].PackageIdentifiers("oci") == nil {
					t.Errorf("ToolHive %d entries, mcpreg %s", len(r.th), mcpregJSON(r))
				}
				wantReasons(t, r.ds, model.ReasonDuplicateServer)
			}},
		{name: "group-redefines-entry", in: `{"servers":{"fetch":{` + img + `}},"groups":[{"name":"g","servers":{"fetch":{"image":"other:1","description":"d"}}}]}`,
			check: func(t *testing.T, r edgeResult) {
				// ToolHive ignores groups; mcpreg keeps the top-level entry.
				if d := entryDiff(t, r); d != "" {
					t.Errorf("entries differ (-ToolHive +mcpreg):\n%s", d)
				}
				wantReasons(t, r.ds, model.ReasonDuplicateServer)
			}},
		{name: "group-only-server", in: `{"servers":{},"groups":[{"name":"g","remote_servers":{"fetch":{` + rem + `}}}]}`,
			check: func(t *testing.T, r edgeResult) {
				if len(r.th) != 0 || len(r.reg.Servers) != 1 || len(r.ds) != 0 {
					t.Errorf("ToolHive %d entries; mcpreg %d, %v", len(r.th), len(r.reg.Servers), r.ds)
				}
			}},

		// Once reported as bugs, now regressions.
		{name: "null-raw-fields", check: sameEntries,
			in: `{"servers":{"fetch":{` + img + `,"custom_metadata":null,"tool_definitions":null,"provenance":{"sigstore_url":"tuf-repo-cdn.sigstore.dev","repository_uri":"https://github.com/acme/fetch","signer_identity":"/.github/workflows/release.yml","runner_environment":"github-hosted","cert_issuer":"https://token.actions.githubusercontent.com","attestation":{"predicate_type":"https://slsa.dev/provenance/v1","predicate":null}}}}}`},
		// An empty custom_metadata, a map with omitempty in ToolHive's
		// types, is left out as ToolHive's converter leaves it out.
		{name: "empty-custom-metadata", check: sameEntries,
			in: `{"servers":{"fetch":{` + img + `,"custom_metadata":{ }},"fetch2":{"image":"ghcr.io/acme/fetch2:1","description":"d","custom_metadata":{"a":{}}}}}`},
		// The same entries as ToolHive (the last "fetch"), and a warning
		// that the first was dropped.
		{name: "repeated-key",
			in: `{"servers":{"fetch":{"image":"x:1","description":"first"},"fetch":{"image":"x:2","description":"second"}}}`,
			check: func(t *testing.T, r edgeResult) {
				if d := entryDiff(t, r); d != "" {
					t.Errorf("entries differ (-ToolHive +mcpreg):\n%s", d)
				}
				wantReasons(t, r.ds, model.ReasonDuplicateKey)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := convertBoth(t, c.in)
			if c.bug == "" {
				c.check(t, r)
				return
			}
			if d := entryDiff(t, r); d != "" {
				skipKnownBug(t, c.bug, fmt.Sprintf("input: %s\nToolHive and mcpreg differ (-ToolHive +mcpreg):\n%s\nmcpreg diagnostics: %v", c.in, d, r.ds))
			}
		})
	}
}

// TestCompatGroupMemberOrder: what mcpreg emits for a catalog does not depend
// on the order of members, including a group's "servers" and
// "remote_servers" (ToolHive ignores groups, so this is mcpreg's own rule).
func TestCompatGroupMemberOrder(t *testing.T) {
	const (
		container = `"servers":{"fetch":{` + img + `}}`
		remote    = `"remote_servers":{"fetch":{` + rem + `}}`
	)
	a := `{"groups":[{"name":"g",` + container + `,` + remote + `}]}`
	b := `{"groups":[{"name":"g",` + remote + `,` + container + `}]}`
	var out [2][]byte
	for i, in := range []string{a, b} {
		reg, ds := model.Parse([]byte(in), model.ParseOptions{Format: model.FormatToolHive})
		if reg == nil {
			t.Fatalf("no registry: %v", ds)
		}
		model.Finish(reg, model.ObjectRef{})
		out[i] = reg.AppendJSON(nil)
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Errorf("group member order changes the result: input %s gives\n%s\ninput %s gives\n%s", a, out[0], b, out[1])
	}
}
