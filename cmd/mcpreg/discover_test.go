package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpreg/mcpreg/model"
)

// discoverNow is the --now of the golden cases (the library tests' time).
const discoverNow = "2025-10-15T10:30:00Z"

// readGoldenFile reads an expected output.
func readGoldenFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// discoverCaseFlags turns a golden case's options.json into CLI flags.
func discoverCaseFlags(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "options.json"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		Namespaces         []string
		LabelSelector      string
		Naming             string
		URLAloneExports    bool
		RequireDescription bool
		RequireHTTPS       bool
		SourceRegistry     string
		EndpointPaths      map[string]string
	}
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	var flags []string
	for _, ns := range o.Namespaces {
		flags = append(flags, "--namespace", ns)
	}
	if o.LabelSelector != "" {
		flags = append(flags, "--selector", o.LabelSelector)
	}
	if o.Naming != "" {
		flags = append(flags, "--naming", o.Naming)
	}
	if o.URLAloneExports {
		flags = append(flags, "--url-alone-exports")
	}
	if o.RequireDescription {
		flags = append(flags, "--require-description")
	}
	if o.RequireHTTPS {
		flags = append(flags, "--require-https")
	}
	if o.SourceRegistry != "" {
		flags = append(flags, "--source-registry", filepath.Join(dir, o.SourceRegistry))
	}
	types := make([]string, 0, len(o.EndpointPaths))
	for typ := range o.EndpointPaths {
		types = append(types, typ)
	}
	slices.Sort(types)
	for _, typ := range types {
		flags = append(flags, "--endpoint-path", typ+"="+o.EndpointPaths[typ])
	}
	return flags
}

// noDocumentNotice is the line the CLI adds after diagnostics with errors,
// when it writes no document.
func noDocumentNotice(diags string) string {
	var reasons []string
	n := 0
	for line := range strings.Lines(diags) {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "error" {
			n++
			if !slices.Contains(reasons, f[1]) {
				reasons = append(reasons, f[1])
			}
		}
	}
	return fmt.Sprintf("mcpreg: no document written: %s (%s)\n", plural(n, "error"), strings.Join(reasons, ", "))
}

// TestDiscoverGolden runs 'mcpreg discover' on every library golden case
// (testdata/discovery): the CLI prints what the library computes.
func TestDiscoverGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "discovery", "*", "input.yaml"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, in := range dirs {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			args := append([]string{"discover", "-f", in, "--now", discoverNow}, discoverCaseFlags(t, dir)...)
			code, stdout, stderr := runCLI(t, "", args...)
			want := readGoldenFile(t, filepath.Join(dir, "want.json"))
			wantDiags := readGoldenFile(t, filepath.Join(dir, "want-diagnostics.txt"))
			wantCode := exitOK
			if want == "null\n" {
				// No document: the CLI says so after the diagnostics, with
				// the number of errors and their reasons.
				want, wantCode = "", exitError
				wantDiags += noDocumentNotice(wantDiags)
			}
			if strings.Contains(wantDiags, " EmptyRegistry ") && !strings.Contains(want, `"servers": []`) {
				t.Errorf("EmptyRegistry beside a document with servers:\n%s", want)
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, wantCode, stderr)
			}
			if d := cmp.Diff(want, stdout); d != "" {
				t.Errorf("stdout (-want +got):\n%s", d)
			}
			if d := cmp.Diff(wantDiags, stderr); d != "" {
				t.Errorf("stderr (-want +got):\n%s", d)
			}
		})
	}
}

// TestDiscoverExampleCluster: with no -f, discover shows the example cluster's
// servers (cmd/mcpreg/example).
func TestDiscoverExampleCluster(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "discover", "--now", discoverNow)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if ds := model.ValidateJSON([]byte(stdout), model.ObjectRef{Kind: "Test"}); ds.HasErrors() {
		t.Fatalf("invalid output: %v", ds)
	}
	reg, _ := model.Parse([]byte(stdout), model.ParseOptions{Format: model.FormatUpstream})
	byName := map[string]*model.Server{}
	for _, s := range reg.Servers {
		byName[s.Name()] = s
	}
	for _, want := range []struct{ name, description, typ, url string }{
		{"dev.stacklok.toolhive/production.my-mcp-server", "Production MCP server for code analysis", "streamable-http", "https://mcp.example.com/servers/my-mcp-server"},
		{"dev.stacklok.toolhive/mcp-servers.internal-analytics", "Internal analytics MCP server for business metrics", "sse", "https://mcp.company.com/analytics"},
		{"dev.stacklok.toolhive/mcp-servers.vendor-crm", "The vendor's hosted CRM MCP server, behind the company's auth proxy", "streamable-http", "https://mcp.company.com/crm"},
		{"com.company/engineering-tools", "All tools of the engineering team's MCP servers behind one endpoint", "streamable-http", "https://mcp.company.com/engineering"},
		// Only the HTTPRoute github-mcp-external exports this one (040-gateway.yaml).
		{"dev.stacklok.toolhive/mcp-servers.github-mcp", "GitHub MCP server for repository operations", "sse", "https://mcp.company.com/github"},
	} {
		s := byName[want.name]
		if s == nil {
			t.Errorf("no entry %s in:\n%s", want.name, stdout)
			continue
		}
		found := false
		for _, r := range s.Remotes() {
			found = found || (r.Type == want.typ && r.URL == want.url)
		}
		if s.Description() != want.description || !found {
			t.Errorf("entry %s: description %q, remotes %v", want.name, s.Description(), s.Remotes())
		}
	}
	if strings.Contains(stderr, "error ") || strings.Contains(stderr, "warning ") {
		t.Errorf("errors or warnings on the example cluster:\n%s", stderr)
	}
}

// TestDiscoverRoutes: discovery by HTTPRoute through the CLI. The example route
// (testdata/discovery/example-route, the route of the example cluster's
// 040-gateway.yaml) gives https://mcp.example.com/servers/my-mcp-server;
// --endpoint-path turns the example cluster's route URLs into the paths that
// reach the proxy's endpoints; namespaced Gateway API objects without a
// namespace are in "default", like the rest.
func TestDiscoverRoutes(t *testing.T) {
	exampleRoute := filepath.Join("..", "..", "testdata", "discovery", "example-route", "input.yaml")
	code, stdout, stderr := runCLI(t, "", "discover", "-f", exampleRoute, "--now", discoverNow)
	if code != exitOK || !strings.Contains(stdout, `"url": "https://mcp.example.com/servers/my-mcp-server"`) {
		t.Errorf("example route: exit %d\n%s\n%s", code, stdout, stderr)
	}

	code, stdout, stderr = runCLI(t, "", "discover", "--now", discoverNow,
		"--endpoint-path", "sse=/sse", "--endpoint-path", "streamable-http=/mcp")
	if code != exitOK || !strings.Contains(stdout, `"url": "https://mcp.company.com/github/sse"`) {
		t.Errorf("example with endpoint paths: exit %d\n%s", code, stdout)
	}
	// The annotation of my-mcp-server keeps its URL over the route's /mcp one.
	if !strings.Contains(stdout, `"url": "https://mcp.example.com/servers/my-mcp-server"`) ||
		!strings.Contains(stderr, "warning ConflictingExport MCPServer/production/my-mcp-server") ||
		strings.Contains(stdout, "my-mcp-server/mcp") {
		t.Errorf("example with endpoint paths: the annotation must win:\n%s\n%s", stdout, stderr)
	}

	const manifest = `apiVersion: toolhive.stacklok.dev/v1alpha1
kind: MCPServer
metadata: {name: s}
spec: {transport: sse}
---
apiVersion: v1
kind: Service
metadata:
  name: mcp-s-proxy
  ownerReferences: [{apiVersion: toolhive.stacklok.dev/v1alpha1, kind: MCPServer, name: s, controller: true}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, annotations: {toolhive.stacklok.dev/registry-export: "true"}}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: mcp-s-proxy, port: 8080}]}]
status:
  parents: [{parentRef: {name: gw}, controllerName: c, conditions: [{type: Accepted, status: "True", reason: Accepted, lastTransitionTime: "2025-01-01T00:00:00Z"}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: example
  listeners: [{name: web, protocol: HTTP, port: 8080}]
status:
  addresses: [{type: IPAddress, value: "2001:db8::1"}]
`
	code, stdout, stderr = runCLI(t, manifest, "discover", "-f", "-", "--endpoint-path", "sse=/sse", "--diagnostics", "json")
	if code != exitOK || !strings.Contains(stdout, `"url": "http://[2001:db8::1]:8080/sse"`) ||
		!strings.Contains(stdout, `"name": "dev.stacklok.toolhive/default.s"`) {
		t.Errorf("route in the default namespace: exit %d\n%s\n%s", code, stdout, stderr)
	}
	var reasons []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var d struct {
			Severity string
			Reason   string
			Object   model.ObjectRef
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("stderr line %q: %v", line, err)
		}
		reasons = append(reasons, d.Severity+" "+d.Reason+" "+d.Object.String())
	}
	want := []string{"warning InsecureURL HTTPRoute/default/r", "info MissingDescription MCPServer/default/s"}
	slices.Sort(want)
	slices.Sort(reasons)
	if d := cmp.Diff(want, reasons); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}
}

// TestDiscoverStdinAndDefaults: manifests from stdin; an object without a
// namespace is in "default", as kubectl would put it; --diagnostics json.
func TestDiscoverStdinAndDefaults(t *testing.T) {
	const manifest = `apiVersion: v1
kind: List
items:
- apiVersion: toolhive.stacklok.dev/v1alpha1
  kind: MCPServer
  metadata:
    name: quiet
    annotations:
      toolhive.stacklok.dev/registry-export: "true"
      toolhive.stacklok.dev/registry-url: "http://mcp.example.com/quiet"
`
	code, stdout, stderr := runCLI(t, manifest, "discover", "-f", "-", "--diagnostics", "json")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"name": "dev.stacklok.toolhive/default.quiet"`) || !strings.Contains(stdout, `"last_updated": "2025-06-01T00:00:00Z"`) {
		t.Errorf("stdout:\n%s", stdout)
	}
	var reasons []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		var d struct {
			Severity string
			Reason   string
			Object   model.ObjectRef
		}
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("stderr line %q: %v", line, err)
		}
		if d.Object.Namespace != "default" {
			t.Errorf("diagnostic object %v", d.Object)
		}
		reasons = append(reasons, d.Severity+" "+d.Reason)
	}
	if d := cmp.Diff([]string{"info MissingDescription", "warning InsecureURL"}, reasons); d != "" {
		t.Errorf("diagnostics (-want +got):\n%s", d)
	}

	// Nothing left: the empty document is printed, exit 0, with a warning.
	code, stdout, stderr = runCLI(t, manifest, "discover", "-f", "-", "--require-https", "--now", discoverNow)
	if code != exitOK || !strings.Contains(stdout, `"servers": []`) || !strings.Contains(stderr, "warning EmptyRegistry Options/discovery") || strings.Contains(stderr, "no document written") {
		t.Errorf("--require-https: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestDiscoverUsage: bad flags and unreadable input exit 2; a source
// registry that is not registry data exits 1 with the reason.
func TestDiscoverUsage(t *testing.T) {
	dir := t.TempDir()
	badJSON := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(badJSON, []byte(`{"servers": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"discover", "--naming", "reverse-dns"}, exitUsage, "unknown naming scheme"},
		{[]string{"discover", "--endpoint-path", "sse"}, exitUsage, "TYPE=PATH"},
		{[]string{"discover", "--endpoint-path", "stdio=/x"}, exitUsage, "TYPE must be"},
		{[]string{"discover", "--endpoint-path", "sse=sse"}, exitUsage, "PATH must start with /"},
		{[]string{"discover", "--endpoint-path", "sse=/a", "--endpoint-path", "sse=/b"}, exitUsage, "two paths"},
		{[]string{"discover", "--now", "yesterday"}, exitUsage, "RFC 3339"},
		// Times time.Parse takes that RFC 3339 does not write.
		{[]string{"discover", "--now", "2025-01-02T03:04:05,5Z"}, exitUsage, "RFC 3339"},
		{[]string{"discover", "--now", "2025-01-02T03:04:05+24:00"}, exitUsage, "RFC 3339"},
		{[]string{"discover", "--now", "2025-01-02T03:04:05+23:60"}, exitUsage, "RFC 3339"},
		{[]string{"discover", "--now", "2025-01-02T03:04:05."}, exitUsage, "RFC 3339"},
		// Times RFC 3339 parses whose UTC year has no four digits.
		{[]string{"discover", "--now", "9999-12-31T23:59:59-01:00"}, exitUsage, "in the year 10000 in UTC"},
		{[]string{"convert", "--now", "0000-01-01T00:00:00+01:00", badJSON}, exitUsage, "in the year -1 in UTC"},
		{[]string{"merge", "--now", "9999-12-31T23:30:00-00:31", "--namespace", "a", "--selector", "a=b"}, exitUsage, "in the year 10000 in UTC"},
		// A list is not a namespace name: it would match nothing.
		{[]string{"discover", "--namespace", "mcp-servers,team-a"}, exitUsage, `--namespace "mcp-servers,team-a" is not a namespace name`},
		{[]string{"discover", "--namespace", "mcp-servers", "--namespace", "Team"}, exitUsage, `--namespace "Team" is not a namespace name`},
		{[]string{"discover", "-f", filepath.Join(dir, "absent.yaml")}, exitUsage, "absent.yaml"},
		{[]string{"discover", "extra"}, exitUsage, "unexpected argument"},
		{[]string{"discover", "--no-such-flag"}, exitUsage, "no-such-flag"},
		{[]string{"discover", "--source-registry", filepath.Join(dir, "absent.json")}, exitUsage, "absent.json"},
		{[]string{"discover", "--source-registry", badJSON}, exitError, "InvalidJSON"},
		{[]string{"discover", "--selector", "a in ("}, exitError, "InvalidSelector"},
		{[]string{"discover", "--endpoint-path", "sse=/sse", "--endpoint-path", "streamable-http=/mcp", "--now", discoverNow}, exitOK, ""},
		{[]string{"discover", "-h"}, exitOK, "usage: mcpreg discover"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
		if code != exitOK && stdout != "" {
			t.Errorf("%v: stdout on failure: %q", tt.args, stdout)
		}
	}
}

// runCLI is invoke (cli_test.go) returning exit status, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	r := invoke(t, stdin, args...)
	return r.code, r.stdout, r.stderr
}

// TestDiscoverToolHiveEndpoints: --toolhive-endpoints is the same as giving
// ToolHive's paths with --endpoint-path, and --endpoint-path overrides one
// type of it.
func TestDiscoverToolHiveEndpoints(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "discovery", "example-route-endpoint-path")
	in := filepath.Join(dir, "input.yaml")
	code, stdout, stderr := runCLI(t, "", "discover", "-f", in, "--now", discoverNow, "--toolhive-endpoints")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	if d := cmp.Diff(readGoldenFile(t, filepath.Join(dir, "want.json")), stdout); d != "" {
		t.Errorf("--toolhive-endpoints differs from --endpoint-path sse=/sse --endpoint-path streamable-http=/mcp:\n%s", d)
	}
	_, plain, _ := runCLI(t, "", "discover", "-f", in, "--now", discoverNow)
	_, overridden, _ := runCLI(t, "", "discover", "-f", in, "--now", discoverNow, "--toolhive-endpoints",
		"--endpoint-path", "streamable-http=/", "--endpoint-path", "sse=/")
	if overridden != plain {
		t.Errorf("--endpoint-path did not override --toolhive-endpoints:\n%s\nwant:\n%s", overridden, plain)
	}
}
