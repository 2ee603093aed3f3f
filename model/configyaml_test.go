package model

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestConfigYAMLSources(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	reg := &MCPRegistry{Spec: MCPRegistrySpec{
		ConfigYAML: `
sources:
  - name: items
    file: {path: /cfg/a/reg.json}
    format: upstream
  - name: keyed
    file: {path: /cfg/b/registry.json}
  - name: sub
    file: {path: /etc/one.json}
  - name: nested
    file: {path: /cfg/b/x/registry.json}
  - name: missing-item
    file: {path: /cfg/a/other.json}
  - name: secret
    file: {path: /secret/registry.json}
  - name: nowhere
    file: {path: /tmp/registry.json}
  - name: git
    git: {repository: "https://example.com/r.git"}
  - name: bare
registries:
  - name: default
    sources: [items]
  - name: old-style
    api: {endpoint: "https://registry.example.com"}
`,
		Volumes: []json.RawMessage{
			raw(`{"name":"a","configMap":{"name":"cm-a","items":[{"key":"k","path":"reg.json"}]}}`),
			raw(`{"name":"b","configMap":{"name":"cm-b"}}`),
			raw(`{"name":"one","configMap":{"name":"cm-one"}}`),
			raw(`{"name":"s","secret":{"secretName":"x"}}`),
			raw(`{"name":"root","configMap":{"name":"cm-root"}}`),
		},
		VolumeMounts: []json.RawMessage{
			raw(`{"name":"root","mountPath":"/cfg"}`),
			raw(`{"name":"a","mountPath":"/cfg/a/"}`),
			raw(`{"name":"b","mountPath":"/cfg/b"}`),
			raw(`{"name":"one","mountPath":"/etc/one.json","subPath":"data.json"}`),
			raw(`{"name":"s","mountPath":"/secret"}`),
		},
	}}
	got, err := reg.ConfigYAMLSources()
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ name, field, typ, cm, key, why string }{
		{"items", "spec.configYAML: sources[0]", "file", "cm-a", "k", ""},
		{"keyed", "spec.configYAML: sources[1]", "file", "cm-b", "registry.json", ""},
		{"sub", "spec.configYAML: sources[2]", "file", "cm-one", "data.json", ""},
		{"nested", "spec.configYAML: sources[3]", "file", "", "", "each key as a file"},
		{"missing-item", "spec.configYAML: sources[4]", "file", "", "", "no item of ConfigMap volume"},
		{"secret", "spec.configYAML: sources[5]", "file", "", "", "no ConfigMap volume"},
		{"nowhere", "spec.configYAML: sources[6]", "file", "", "", "in no volume mount"},
		{"git", "spec.configYAML: sources[7]", "git", "", "", ""},
		{"bare", "spec.configYAML: sources[8]", "", "", "", ""},
		{"old-style", "spec.configYAML: registries[1]", "api", "", "", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sources, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		cm, key := "", ""
		if r := g.Config.ConfigMapRef; r != nil {
			cm, key = r.Name, r.Key
		}
		if g.Config.Name != w.name || g.Field != w.field || g.Type != w.typ || cm != w.cm || key != w.key ||
			(w.why == "") != (g.Unresolved == "") || !strings.Contains(g.Unresolved, w.why) {
			t.Errorf("source %d = %+v (configMap %q key %q), want %+v", i, g, cm, key, w)
		}
	}
	if got[0].Config.Format != "upstream" || got[7].Config.Git == nil || got[9].Config.API == nil {
		t.Errorf("format, git or api not carried: %+v", got)
	}

	for _, bad := range []*MCPRegistry{
		{Spec: MCPRegistrySpec{ConfigYAML: "sources: [unclosed"}},
		{Spec: MCPRegistrySpec{ConfigYAML: "sources: []", Volumes: []json.RawMessage{raw(`{"name":1}`)}}},
		{Spec: MCPRegistrySpec{ConfigYAML: "sources:" + strings.Repeat("\n  - name: x", maxConfigYAMLItems+1)}},
		{Spec: MCPRegistrySpec{ConfigYAML: "sources: []", Volumes: []json.RawMessage{raw(`{"name":"v","configMap":{"name":"c","items":[` +
			strings.TrimSuffix(strings.Repeat(`{"key":"k","path":"p"},`, maxConfigYAMLItems+1), ",") + `]}}`)}}},
	} {
		if _, err := bad.ConfigYAMLSources(); err == nil {
			t.Errorf("no error for %.60q", bad.Spec.ConfigYAML)
		}
	}
}
