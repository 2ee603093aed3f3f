package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGroupsGolden runs 'mcpreg groups' on the library's group cases
// (testdata/groups): the same JSON and diagnostics.
func TestGroupsGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("..", "..", "testdata", "groups", "*", "input.yaml"))
	if err != nil || len(ins) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, in := range ins {
		dir := filepath.Dir(in)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", "groups", "-f", in, "--now", discoverNow)
			if code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, stderr)
			}
			want := readGoldenFile(t, filepath.Join(dir, "want.json"))
			if want == "null\n" {
				want = "[]\n"
			}
			if d := cmp.Diff(want, stdout); d != "" {
				t.Errorf("stdout (-want +got):\n%s", d)
			}
			if d := cmp.Diff(readGoldenFile(t, filepath.Join(dir, "want-diagnostics.txt")), stderr); d != "" {
				t.Errorf("stderr (-want +got):\n%s", d)
			}
		})
	}
}

// TestGroupsExampleCluster: with no -f, groups reports the example cluster's
// two groups, members in and out, and the dangling groupRef.
func TestGroupsExampleCluster(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "groups", "--now", discoverNow)
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var groups []struct {
		Namespace, Name string
		Status          struct {
			Phase            string
			Servers          []string
			ServerCount      int
			RemoteProxies    []string
			RemoteProxyCount int
			Conditions       []struct{ Type, Status, LastTransitionTime string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &groups); err != nil {
		t.Fatalf("stdout is not a JSON array: %v\n%s", err, stdout)
	}
	got := map[string][]string{}
	for _, g := range groups {
		got[g.Namespace+"/"+g.Name] = append(g.Status.Servers, g.Status.RemoteProxies...)
		// Ready, then ToolHive's MCPServersChecked, both True at --now.
		c := g.Status.Conditions
		if g.Status.Phase != "Ready" || len(c) != 2 || c[0].Type != "Ready" || c[1].Type != "MCPServersChecked" ||
			c[0].Status != "True" || c[1].Status != "True" || c[0].LastTransitionTime != discoverNow || c[1].LastTransitionTime != discoverNow {
			t.Errorf("group %s/%s: %+v", g.Namespace, g.Name, g.Status)
		}
	}
	want := map[string][]string{
		"default/engineering-team": {"github-server", "jira-server"},
		"default/data-team":        {"warehouse-proxy"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
	if !strings.Contains(stderr, `warning GroupRefNotFound MCPServer/default/slack-server spec.groupRef: MCPGroup "marketing-team" not found`) {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestGroupsUsage: no groups is an empty array; bad input exits 2.
func TestGroupsUsage(t *testing.T) {
	code, stdout, _ := runCLI(t, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: x\n", "groups", "-f", "-")
	if code != exitOK || stdout != "[]\n" {
		t.Errorf("no groups: exit %d, stdout %q", code, stdout)
	}
	for _, args := range [][]string{
		{"groups", "-f", filepath.Join(t.TempDir(), "absent.yaml")},
		{"groups", "extra"},
		{"groups", "--now", "soon"},
	} {
		if code, stdout, _ := runCLI(t, "", args...); code != exitUsage || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, stdout)
		}
	}
	if code, _, stderr := runCLI(t, "kind: [", "groups", "-f", "-"); code != exitUsage || stderr == "" {
		t.Errorf("bad YAML: exit %d, stderr %q", code, stderr)
	}
}
