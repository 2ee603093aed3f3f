package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mergeCLI runs mcpreg through invoke and returns exit status, stdout, stderr.
func mergeCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	r := invoke(t, stdin, args...)
	return r.code, r.stdout, r.stderr
}

// mergedNames reads the server names of a printed registry document.
func mergedNames(t *testing.T, doc string) []string {
	t.Helper()
	var d struct {
		Data struct {
			Servers []struct {
				Name string `json:"name"`
			} `json:"servers"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("stdout is not a registry document: %v\n%s", err, doc)
	}
	names := []string{}
	for _, s := range d.Data.Servers {
		names = append(names, s.Name)
	}
	return names
}

// TestMergeExampleCluster runs the three MCPRegistries of the embedded
// example cluster (cmd/mcpreg/example/010-merge.yaml).
func TestMergeExampleCluster(t *testing.T) {
	tests := []struct {
		registry string
		want     []string
	}{
		{"all-teams-registry", []string{
			"io.github.stacklok/slack-mcp", "io.github.stacklok/snowflake-mcp",
			"team-a-mcp-servers/github-mcp", "team-b-mcp-servers/github-mcp",
		}},
		{"filtered-registry", []string{"io.github.stacklok/slack-mcp", "io.github.stacklok/snowflake-mcp"}},
		{"platform-only-registry", []string{"io.github.stacklok/github-mcp", "io.github.stacklok/slack-mcp"}},
	}
	for _, tt := range tests {
		t.Run(tt.registry, func(t *testing.T) {
			code, out, errs := mergeCLI(t, "", "merge", "--mcpregistry", tt.registry)
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			if got := mergedNames(t, out); !slices.Equal(got, tt.want) {
				t.Errorf("servers = %q, want %q", got, tt.want)
			}
			if !strings.HasSuffix(out, "}\n") || !strings.Contains(out, "\n  \"version\": \"1.0.0\"") {
				t.Errorf("stdout is not two-space indented JSON with a trailing newline:\n%s", out)
			}
			if !strings.Contains(out, `"last_updated": "2025-06-01T00:00:00Z"`) {
				t.Error("meta.last_updated is not the clock's time")
			}
		})
	}
	// The document is the one of the golden case with the same manifests.
	_, out, _ := mergeCLI(t, "", "merge", "--mcpregistry", "all-teams-registry", "--namespace", "toolhive-system", "--now", "2025-01-01T00:00:00Z")
	want, err := os.ReadFile("../../testdata/merge/example-all-teams/want.json")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("CLI output differs from testdata/merge/example-all-teams/want.json")
	}
}

// TestMergeExampleMixedSources runs the example cluster's MCPRegistry that
// mixes a selector, a configMapRef and a git source: each ConfigMap entry
// merges alone and gives the document of the golden case with the same
// manifests; without --entry the choice is the user's (exit 2).
func TestMergeExampleMixedSources(t *testing.T) {
	for _, tt := range []struct{ entry, golden string }{
		{"team-registries", "example-mixed-sources"},
		{"core-registry", "example-mixed-sources-core"},
	} {
		entry, golden := tt.entry, tt.golden
		t.Run(entry, func(t *testing.T) {
			code, out, errs := mergeCLI(t, "", "merge", "--mcpregistry", "mixed-sources-registry", "--entry", entry, "--now", "2025-01-01T00:00:00Z")
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			want, err := os.ReadFile(filepath.Join("../../testdata/merge", golden, "want.json"))
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("CLI output differs from testdata/merge/%s/want.json:\n%s", golden, out)
			}
			if !strings.Contains(errs, "info SourceNotMergeable MCPRegistry/toolhive-system/mixed-sources-registry spec.registries[2].git") {
				t.Errorf("the git entry is not reported:\n%s", errs)
			}
		})
	}
	code, out, errs := mergeCLI(t, "", "merge", "--mcpregistry", "mixed-sources-registry")
	if code != exitUsage || out != "" || !strings.Contains(errs, `"team-registries", "core-registry"`) {
		t.Errorf("without --entry: exit %d\n%s\n%s", code, out, errs)
	}
}

func TestMergeSelectorForm(t *testing.T) {
	dir := "../../testdata/merge/example-all-teams"
	code, out, errs := mergeCLI(t, "", "merge", "-f", dir, "--namespace", "toolhive-system",
		"--selector", "toolhive.stacklok.dev/registry=true", "--include", "team-*", "--exclude", "*-b-*")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if got := mergedNames(t, out); !slices.Equal(got, []string{"team-a-mcp-servers/github-mcp"}) {
		t.Errorf("servers = %q", got)
	}
	if !strings.Contains(errs, "the filter removed 3") {
		t.Errorf("stderr does not summarise the filter:\n%s", errs)
	}

	// Set-based selector syntax, priority strategy.
	code, out, errs = mergeCLI(t, "", "merge", "-f", dir, "--namespace", "toolhive-system",
		"--selector", "team in (platform,data),toolhive.stacklok.dev/registry", "--conflict", "priority")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if got := mergedNames(t, out); !slices.Equal(got, []string{"io.github.stacklok/github-mcp", "io.github.stacklok/slack-mcp", "io.github.stacklok/snowflake-mcp"}) {
		t.Errorf("servers = %q", got)
	}
	if !strings.Contains(errs, "warning ConflictShadowed ConfigMap/toolhive-system/team-b-mcp-servers") {
		t.Errorf("stderr:\n%s", errs)
	}

	// Tags.
	code, out, errs = mergeCLI(t, "", "merge", "-f", dir, "--namespace", "toolhive-system",
		"--selector", "toolhive.stacklok.dev/registry=true", "--include-tag", "db")
	if code != exitOK || len(mergedNames(t, out)) != 0 || !strings.Contains(errs, "warning EmptyRegistry ConfigMapSelector/toolhive-system/toolhive.stacklok.dev/registry=true: the registry document has no server (the filter removed all 4)") {
		t.Errorf("exit %d, stdout %q; want exit 0, an empty document and EmptyRegistry (no server has tags):\n%s", code, out, errs)
	}
	code, out, _ = mergeCLI(t, "", "merge", "-f", dir, "--namespace", "toolhive-system",
		"--selector", "toolhive.stacklok.dev/registry=true", "--exclude-tag", "db")
	if code != exitOK || len(mergedNames(t, out)) != 4 {
		t.Errorf("exit %d, servers %q; want all four", code, mergedNames(t, out))
	}

	// Another key and namespace select nothing: an empty registry, printed
	// with NoConfigMapsSelected and the EmptyRegistry warning; exit 0.
	code, out, errs = mergeCLI(t, "", "merge", "-f", dir, "--namespace", "default", "--selector", "a=b", "--key", "other.json")
	if code != exitOK || !strings.Contains(out, `"servers": []`) || !strings.Contains(errs, "warning NoConfigMapsSelected") || !strings.Contains(errs, "warning EmptyRegistry") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestMergeSelectorSyntax: --selector takes what kubectl -l takes, and every
// requirement must hold.
func TestMergeSelectorSyntax(t *testing.T) {
	dir := "../../testdata/merge/example-all-teams"
	platform := []string{"io.github.stacklok/github-mcp", "io.github.stacklok/slack-mcp"}
	data := []string{"io.github.stacklok/github-mcp", "io.github.stacklok/snowflake-mcp"}
	tests := []struct {
		selector string
		want     []string // nil: nothing selected, an empty document
	}{
		{"team!=data", platform},
		{"toolhive.stacklok.dev/registry=true,team!=platform", data},
		{"team==platform", platform},
		{"team=platform,team=platform", platform},
		{"team=platform,team=data", nil},
		{"team=data,team in (platform,data)", data},
	}
	for _, tt := range tests {
		t.Run(tt.selector, func(t *testing.T) {
			code, out, errs := mergeCLI(t, "", "merge", "-f", dir, "--namespace", "toolhive-system", "--selector", tt.selector)
			if tt.want == nil {
				if code != exitOK || len(mergedNames(t, out)) != 0 || !strings.Contains(errs, "NoConfigMapsSelected") {
					t.Errorf("exit %d, want 0, no server and NoConfigMapsSelected\n%s\n%s", code, out, errs)
				}
				return
			}
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, errs)
			}
			if got := mergedNames(t, out); !slices.Equal(got, tt.want) {
				t.Errorf("servers = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMergeErrors: an Error diagnostic that stops the merge exits 1 with
// nothing on stdout.
func TestMergeErrors(t *testing.T) {
	dir := "../../testdata/merge/example-all-teams"
	tests := []struct {
		name   string
		args   []string
		reason string
	}{
		{"conflict error", []string{"--selector", "toolhive.stacklok.dev/registry=true", "--conflict", "error"}, "ConflictError"},
		{"bad selector", []string{"--selector", "team in (a"}, "InvalidSelector"},
		{"selector operator", []string{"--selector", "team>1"}, "InvalidSelector"},
		{"empty selector", []string{"--selector", ""}, "InvalidSelector"},
		{"bad filter", []string{"--selector", "team=data", "--include", "team-[a"}, "InvalidFilter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"merge", "-f", dir, "--namespace", "toolhive-system", "--diagnostics", "json"}, tt.args...)
			code, out, errs := mergeCLI(t, "", args...)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if out != "" {
				t.Errorf("stdout is not empty:\n%s", out)
			}
			found := false
			for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
				var d struct {
					Severity string `json:"severity"`
					Reason   string `json:"reason"`
					Object   struct {
						Kind, Namespace, Name string
					} `json:"object"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal([]byte(line), &d); err != nil {
					t.Fatalf("stderr line is not JSON: %q", line)
				}
				if d.Reason == tt.reason && d.Severity == "error" && d.Object.Kind != "" && d.Message != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("no error %s in:\n%s", tt.reason, errs)
			}
		})
	}
}

func TestMergeUsage(t *testing.T) {
	tmp := t.TempDir()
	twoNamespaces := filepath.Join(tmp, "two.yaml")
	if err := os.WriteFile(twoNamespaces, []byte(`
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRegistry
metadata: {name: reg, namespace: a}
spec:
  registries:
    - name: one
      configMapSelector: {matchLabels: {x: "1"}}
    - name: two
      configMapRef: {name: cm}
---
apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRegistry
metadata: {name: reg, namespace: b}
spec:
  registries:
    - name: git
      git: {repository: "https://example.com/r.git"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no form", []string{}, "give --mcpregistry"},
		{"selector without namespace", []string{"--selector", "a=b"}, "--selector needs --namespace"},
		{"entry without registry", []string{"--namespace", "x", "--selector", "a=b", "--entry", "e"}, "--entry needs --mcpregistry"},
		{"registry and selector", []string{"--mcpregistry", "all-teams-registry", "--selector", "a=b"}, "--selector cannot be used with --mcpregistry"},
		{"registry and include", []string{"--mcpregistry", "all-teams-registry", "--include", "*"}, "--include cannot be used"},
		{"unknown registry", []string{"--mcpregistry", "nope"}, `no MCPRegistry "nope"`},
		{"unknown registry in namespace", []string{"--mcpregistry", "all-teams-registry", "--namespace", "default"}, `in namespace "default"`},
		{"ambiguous registry", []string{"-f", twoNamespaces, "--mcpregistry", "reg"}, "several namespaces (a, b)"},
		{"several ConfigMap entries", []string{"-f", twoNamespaces, "--mcpregistry", "reg", "--namespace", "a"}, "2 entries with a ConfigMap source"},
		{"unknown entry", []string{"-f", twoNamespaces, "--mcpregistry", "reg", "--namespace", "a", "--entry", "three"}, `no entry "three"`},
		{"namespace list", []string{"--namespace", "a,b", "--selector", "x=y"}, `--namespace "a,b" is not a namespace name`},
		{"bad strategy", []string{"--mcpregistry", "all-teams-registry", "--conflict", "first"}, "unknown conflict strategy"},
		{"positional argument", []string{"manifests.yaml", "--mcpregistry", "all-teams-registry"}, "unexpected argument"},
		{"bad now", []string{"--mcpregistry", "all-teams-registry", "--now", "yesterday"}, "RFC 3339"},
		{"missing file", []string{"-f", filepath.Join(tmp, "missing.yaml"), "--mcpregistry", "x"}, "missing.yaml"},
		{"unknown flag", []string{"--colour"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := mergeCLI(t, "", append([]string{"merge"}, tt.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d\n%s", code, exitUsage, errs)
			}
			if out != "" {
				t.Errorf("stdout is not empty: %s", out)
			}
			if !strings.Contains(errs, tt.want) {
				t.Errorf("stderr does not say %q:\n%s", tt.want, errs)
			}
		})
	}
	// An MCPRegistry whose entries name no ConfigMap source is no usage
	// error: it is diagnosed, an Error, and there is no document.
	code, out, errs := mergeCLI(t, "", "merge", "-f", twoNamespaces, "--mcpregistry", "reg", "--namespace", "b")
	if code != exitError || out != "" || !strings.Contains(errs, "error NoConfigMapSource MCPRegistry/b/reg spec.registries: no entry of the MCPRegistry has a ConfigMap source") ||
		!strings.Contains(errs, "error SourceNotMergeable MCPRegistry/b/reg spec.registries[0].git") {
		t.Errorf("entries without a ConfigMap source: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = mergeCLI(t, "", "merge", "-f", twoNamespaces, "--mcpregistry", "reg", "--namespace", "b", "--entry", "git")
	if code != exitError || out != "" || !strings.Contains(errs, "error SourceNotMergeable MCPRegistry/b/reg spec.registries[0].git") {
		t.Errorf("--entry of a git entry: exit %d\n%s\n%s", code, out, errs)
	}
	// Two entries of one name: the entry asked for is not known.
	dup := filepath.Join(tmp, "dup.yaml")
	if err := os.WriteFile(dup, []byte(`apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRegistry
metadata: {name: reg, namespace: a}
spec:
  registries:
    - {name: e1, configMapRef: {name: one, key: registry.json}}
    - {name: e1, configMapRef: {name: two, key: registry.json}}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := mergeCLI(t, "", "merge", "-f", dup, "--mcpregistry", "reg", "--entry", "e1"); code != exitUsage || !strings.Contains(errs, `two entries named "e1"`) {
		t.Errorf("two entries named e1: exit %d\n%s", code, errs)
	}

	// The chosen entry merges; the same registry given twice is one match.
	code, out, errs = mergeCLI(t, "", "merge", "-f", twoNamespaces, "-f", twoNamespaces, "--mcpregistry", "reg", "--namespace", "a", "--entry", "two")
	if code != exitOK || len(mergedNames(t, out)) != 0 || !strings.Contains(errs, "ConfigMap a/cm not found") || !strings.Contains(errs, "warning EmptyRegistry MCPRegistry/a/reg spec.registries[1]") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ := mergeCLI(t, "", "merge", "-h"); code != exitOK {
		t.Errorf("merge -h exits %d", code)
	}
}

// TestMergeStdinList reads "kubectl get -o yaml" output (a List) from stdin.
func TestMergeStdinList(t *testing.T) {
	list := `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: one, namespace: ns, labels: {reg: "true"}}
    data:
      registry.json: '{"servers":[{"name":"fetch","url":"https://fetch.example/mcp","transport":"streamable-http","description":"Fetch"}]}'
  - apiVersion: toolhive.stacklok.dev/v1alpha1
    kind: MCPRegistry
    metadata: {name: r, namespace: ns}
    spec:
      registries:
        - name: e
          configMapSelector: {matchLabels: {reg: "true"}}
`
	code, out, errs := mergeCLI(t, list, "merge", "-f", "-", "--mcpregistry", "r")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if got := mergedNames(t, out); !slices.Equal(got, []string{"io.github.stacklok/fetch"}) {
		t.Errorf("servers = %q", got)
	}
	if !strings.Contains(out, `"url": "https://fetch.example/mcp"`) {
		t.Errorf("the remote is missing:\n%s", out)
	}
}

// TestMergeV1beta1Registry: a v1beta1 MCPRegistry (configYAML) whose sources
// include no file of a mounted ConfigMap has nothing to merge; the CLI says so
// (NoConfigMapSource, an Error) instead of printing an empty registry.
func TestMergeV1beta1Registry(t *testing.T) {
	in := `apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPRegistry
metadata: {name: r, namespace: ns}
spec:
  configYAML: |
    sources: []
`
	code, out, errs := mergeCLI(t, in, "merge", "-f", "-", "--mcpregistry", "r")
	if code != exitError || out != "" || !strings.Contains(errs, "error NoConfigMapSource MCPRegistry/ns/r spec.configYAML") || !strings.Contains(errs, "none of its sources is a file of a ConfigMap") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestMergeV1beta1ConfigMapSource: ToolHive v0.47 serves a ConfigMap through
// configYAML: a file source whose path lies in a volume mount of a ConfigMap
// volume. The CLI merges that ConfigMap's key with the source's filter; the
// deepest mount holding the path decides, and a volume's items map paths to
// keys.
func TestMergeV1beta1ConfigMapSource(t *testing.T) {
	entry := func(name, tag string) string {
		return `{"name":"io.github.example/` + name + `","description":"d","version":"1.0.0","packages":[{"registryType":"oci","identifier":"ghcr.io/example/` + name + `:1.0.0","transport":{"type":"stdio"}}],` +
			`"_meta":{"io.modelcontextprotocol.registry/publisher-provided":{"io.github.example":{"ghcr.io/example/` + name + `:1.0.0":{"tags":["` + tag + `"]}}}}}`
	}
	in := `apiVersion: v1
kind: ConfigMap
metadata: {name: prod-data, namespace: ns}
data:
  servers.json: '{"version":"1.0.0","meta":{"last_updated":"2025-01-01T00:00:00Z"},"data":{"servers":[` + entry("kept", "production") + `,` + entry("dropped", "experimental") + `]}}'
---
apiVersion: toolhive.stacklok.dev/v1beta1
kind: MCPRegistry
metadata: {name: r, namespace: ns}
spec:
  configYAML: |
    sources:
      - name: upstream
        git: {repository: "https://example.com/r.git", path: registry.json}
      - name: production
        file: {path: /config/registry/prod/registry.json}
        filter: {tags: {exclude: ["experimental"]}}
    registries:
      - name: default
        sources: [upstream, production]
  volumes:
    - name: other
      configMap: {name: unrelated}
    - name: prod
      configMap:
        name: prod-data
        items: [{key: servers.json, path: registry.json}]
  volumeMounts:
    - {name: other, mountPath: /config}
    - {name: prod, mountPath: /config/registry/prod/, readOnly: true}
`
	code, out, errs := mergeCLI(t, in, "merge", "-f", "-", "--mcpregistry", "r")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if got := mergedNames(t, out); !slices.Equal(got, []string{"io.github.example/kept"}) {
		t.Errorf("servers = %q", got)
	}
	if !strings.Contains(errs, `info SourceNotMergeable MCPRegistry/ns/r spec.configYAML: sources[0].git: source "upstream" reads from a git repository`) {
		t.Errorf("no word on the git source:\n%s", errs)
	}
	// Named, the git source has nothing to merge.
	code, _, errs = mergeCLI(t, in, "merge", "-f", "-", "--mcpregistry", "r", "--entry", "upstream")
	if code != exitError || !strings.Contains(errs, "SourceNotMergeable") {
		t.Errorf("--entry upstream: exit %d\n%s", code, errs)
	}
}

// TestMergeErrorExitsOne: an Error diagnostic makes the verb exit 1 and write
// no document, even when the library still returns one. Two ConfigMaps of
// ~650 KB each merge into a registry over the 1 MiB a ConfigMap holds:
// OutputTooLarge, an Error.
func TestMergeErrorExitsOne(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("apiVersion: toolhive.stacklok.dev/v1alpha1\nkind: MCPRegistry\nmetadata:\n  name: big\n  namespace: ns\n  uid: 7c1d6a3e-0000-4000-8000-000000000001\n" +
		"spec:\n  registries:\n    - name: all\n      configMapSelector:\n        matchLabels:\n          reg: \"true\"\n")
	for _, cm := range []string{"a", "b"} {
		var servers []string
		for i := range 3000 {
			servers = append(servers, `{"name":"io.example.`+cm+`/server-`+strings.Repeat("x", 40)+"-"+strconv.Itoa(i)+`","description":"`+strings.Repeat("d", 90)+`","version":"1.0.0"}`)
		}
		doc := `{"version":"1.0.0","meta":{"last_updated":"2024-01-01T00:00:00Z"},"data":{"servers":[` + strings.Join(servers, ",") + `]}}`
		b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + cm + "\n  namespace: ns\n  labels:\n    reg: \"true\"\ndata:\n  registry.json: '" + doc + "'\n")
	}
	path := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := mergeCLI(t, "", "merge", "-f", path, "--mcpregistry", "big", "--now", "2025-01-01T00:00:00Z")
	if code != exitError || out != "" {
		t.Fatalf("exit %d with %d bytes on stdout; want 1 and none\n%s", code, len(out), errs)
	}
	if !strings.Contains(errs, "OutputTooLarge") || !strings.Contains(errs, "no document written") {
		t.Errorf("stderr does not say why:\n%s", errs)
	}
	// The same MCPRegistry written by hand, without a uid: the same Error.
	noUID := filepath.Join(dir, "big-no-uid.yaml")
	if err := os.WriteFile(noUID, []byte(strings.Replace(b.String(), "  uid: 7c1d6a3e-0000-4000-8000-000000000001\n", "", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	code2, out2, errs2 := mergeCLI(t, "", "merge", "-f", noUID, "--mcpregistry", "big", "--now", "2025-01-01T00:00:00Z")
	if code2 != exitError || out2 != "" || errs2 != errs {
		t.Errorf("without a uid: exit %d with %d bytes on stdout; want 1, none and the same stderr\n%s", code2, len(out2), errs2)
	}
	// The selector form writes no ConfigMap: the document is printed, with
	// a warning that it would not fit in one.
	code3, out3, errs3 := mergeCLI(t, "", "merge", "-f", path, "--namespace", "ns", "--selector", "reg=true", "--now", "2025-01-01T00:00:00Z")
	if code3 != exitOK || len(mergedNames(t, out3)) != 6000 ||
		!regexp.MustCompile(`(?m)^warning OutputTooLarge ConfigMapSelector/ns/reg=true: the merged registry is 1[0-9]{6} bytes \(compact, under the key "registry.json"\); a ConfigMap holds at most 1048576`).MatchString(errs3) {
		t.Errorf("selector form: exit %d with %d servers\n%s", code3, len(mergedNames(t, out3)), errs3)
	}
	// Under the limit, no warning.
	_, _, errs4 := mergeCLI(t, "", "merge", "-f", "../../testdata/merge/example-all-teams", "--namespace", "toolhive-system", "--selector", "toolhive.stacklok.dev/registry=true")
	if strings.Contains(errs4, "OutputTooLarge") {
		t.Errorf("a small merge warns:\n%s", errs4)
	}
}

// TestMergeOtherEntryBroken: an entry of the MCPRegistry that cannot be
// merged (a configMapRef without a name) does not stop the merge of another
// entry: the document is written (exit 0) and the broken entry is a warning.
// Merging the broken entry itself is an Error.
func TestMergeOtherEntryBroken(t *testing.T) {
	dir := "../../testdata/merge/other-entry-unnamed-ref"
	files := []string{"-f", filepath.Join(dir, "configmaps.yaml"), "-f", filepath.Join(dir, "mcpregistry.yaml")}
	args := slices.Clip(append([]string{"merge", "--mcpregistry", "two-entries", "--now", "2025-01-01T00:00:00Z"}, files...))
	code, out, errs := mergeCLI(t, "", append(args, "--entry", "teams")...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	want, err := os.ReadFile(filepath.Join(dir, "want.json"))
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("CLI output differs from %s/want.json:\n%s", dir, out)
	}
	if !strings.Contains(errs, `warning InvalidSelector MCPRegistry/toolhive-system/two-entries spec.registries[1].configMapRef.name: entry "unnamed"`) {
		t.Errorf("the broken entry is not reported as a warning:\n%s", errs)
	}
	code, out, errs = mergeCLI(t, "", append(args, "--entry", "unnamed")...)
	if code != exitError || out != "" || !strings.Contains(errs, "error InvalidSelector MCPRegistry/toolhive-system/two-entries spec.registries[1].configMapRef.name") {
		t.Errorf("--entry unnamed: exit %d\n%s\n%s", code, out, errs)
	}
}

// TestMergeRegistryCopies: the input lists one MCPRegistry twice with
// different specs (an older and a newer manifest of it). The copy merged does
// not depend on the order of the documents: the higher resourceVersion, and
// between copies without one, the same choice either way.
func TestMergeRegistryCopies(t *testing.T) {
	cm := `apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns, labels: {reg: "true"}}
data:
  registry.json: '{"servers":[{"name":"a-mcp","image":"ghcr.io/x/a:1","description":"A"},{"name":"b-mcp","image":"ghcr.io/x/b:1","description":"B"}]}'
`
	reg := func(rv, exclude string) string {
		return `apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPRegistry
metadata: {name: r, namespace: ns` + rv + `}
spec:
  registries:
  - name: e
    configMapSelector: {matchLabels: {reg: "true"}}
    filter: {names: {exclude: ["` + exclude + `"]}}
`
	}
	for _, tt := range []struct {
		name         string
		older, newer string
		want         []string // nil: either, as long as both orders agree
	}{
		{"resourceVersion", reg(`, resourceVersion: "10"`, "*a-mcp"), reg(`, resourceVersion: "11"`, "*b-mcp"), []string{"io.github.stacklok/a-mcp"}},
		{"no resourceVersion", reg("", "*a-mcp"), reg("", "*b-mcp"), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]string
			for _, docs := range [][]string{{cm, tt.older, tt.newer}, {cm, tt.newer, tt.older}} {
				code, out, errs := mergeCLI(t, strings.Join(docs, "---\n"), "merge", "-f", "-", "--mcpregistry", "r", "--now", "2025-01-01T00:00:00Z")
				if code != exitOK {
					t.Fatalf("exit %d\n%s", code, errs)
				}
				got = append(got, mergedNames(t, out))
			}
			if !slices.Equal(got[0], got[1]) {
				t.Errorf("the order of the copies chose the MCPRegistry merged: %v and %v", got[0], got[1])
			}
			if tt.want != nil && !slices.Equal(got[0], tt.want) {
				t.Errorf("merged %v, want %v (the newer copy)", got[0], tt.want)
			}
		})
	}
}

// TestMergeNamespaceForObjectsWithoutOne: with --namespace NS, objects the
// manifests give no namespace are read as in NS, as kubectl apply -n NS
// would create them; objects of another namespace stay there.
func TestMergeNamespaceForObjectsWithoutOne(t *testing.T) {
	cm := func(name, ns string) string {
		meta := "metadata:\n  name: " + name + "\n"
		if ns != "" {
			meta += "  namespace: " + ns + "\n"
		}
		return "apiVersion: v1\nkind: ConfigMap\n" + meta + "  labels: {app: reg}\ndata:\n  registry.json: '" +
			`{"data":{"servers":[{"name":"io.example/` + name + `","description":"d","version":"1.0.0"}]}}` + "'\n"
	}
	manifests := cm("plain", "") + "---\n" + cm("elsewhere", "other") + "---\n" + cm("here", "team") + "---\n" +
		"apiVersion: toolhive.stacklok.dev/v1alpha1\nkind: MCPRegistry\nmetadata: {name: reg}\n" +
		"spec:\n  registries:\n  - name: all\n    configMapSelector: {matchLabels: {app: reg}}\n"
	path := filepath.Join(t.TempDir(), "objects.yaml")
	if err := os.WriteFile(path, []byte(manifests), 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{"io.example/here", "io.example/plain"}
	for _, args := range [][]string{
		{"--namespace", "team", "--selector", "app=reg"},
		{"--mcpregistry", "reg", "--namespace", "team"},
	} {
		code, out, errs := mergeCLI(t, "", append([]string{"merge", "-f", path}, args...)...)
		if code != exitOK || !slices.Equal(mergedNames(t, out), want) {
			t.Errorf("%v: exit %d, servers %q, want %q\n%s", args, code, mergedNames(t, out), want, errs)
		}
	}
	// Without --namespace, they are in "default", where kubectl would put them.
	code, out, errs := mergeCLI(t, "", "merge", "-f", path, "--mcpregistry", "reg")
	if code != exitOK || !slices.Equal(mergedNames(t, out), []string{"io.example/plain"}) {
		t.Errorf("without --namespace: exit %d, servers %q\n%s", code, mergedNames(t, out), errs)
	}
}
