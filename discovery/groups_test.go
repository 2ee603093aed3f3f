package discovery

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mcpreg/mcpreg/internal/golden"
	"github.com/mcpreg/mcpreg/model"
)

// TestGroupsGolden runs the cases under testdata/groups: the group statuses
// (want.json, the CLI's output shape), the conditions for resources with a
// dangling groupRef (want-conditions.json) and the diagnostics.
func TestGroupsGolden(t *testing.T) {
	for _, dir := range golden.Cases(t, filepath.Join("..", "testdata", "groups")) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			snap := snapshotOf(golden.LoadObjects(t, dir))
			res := Groups(snap, testTime)
			golden.Check(t, filepath.Join(dir, "want.json"), indentJSON(t, res.Groups))
			golden.Check(t, filepath.Join(dir, "want-conditions.json"), indentJSON(t, res.ResourceConditions))
			golden.Check(t, filepath.Join(dir, "want-diagnostics.txt"), diagnosticsText(res.Diagnostics))

			rev := Groups(reversed(snap), testTime)
			if !bytes.Equal(indentJSON(t, rev), indentJSON(t, res)) {
				t.Errorf("output depends on input order")
			}
			for _, g := range res.Groups {
				st := g.Status
				if st.ServerCount != len(st.Servers) || st.RemoteProxyCount != len(st.RemoteProxies) || st.EntryCount != len(st.Entries) ||
					!slices.IsSorted(st.Servers) || !slices.IsSorted(st.RemoteProxies) || !slices.IsSorted(st.Entries) || st.Phase != GroupPhaseReady {
					t.Errorf("group %s/%s: inconsistent status %+v", g.Namespace, g.Name, st)
				}
				servers, proxies, entries := Members(snap, g.Namespace, g.Name)
				if !slices.Equal(servers, st.Servers) || !slices.Equal(proxies, st.RemoteProxies) || !slices.Equal(entries, st.Entries) {
					t.Errorf("Members(%s, %s) = %v, %v; status says %v, %v", g.Namespace, g.Name, servers, proxies, st.Servers, st.RemoteProxies)
				}
			}
			// A False condition for each dangling groupRef (and its
			// warning), a True one for every other.
			falses := 0
			for _, c := range res.ResourceConditions {
				if c.Condition.Status == metav1.ConditionFalse {
					falses++
				}
			}
			if n := len(res.Diagnostics.WithReason(model.ReasonGroupRefNotFound)); falses != n {
				t.Errorf("%d False conditions for %d GroupRefNotFound diagnostics", falses, n)
			}
		})
	}
}

func indentJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestMembers checks the look-up a VirtualMCPServer needs.
func TestMembers(t *testing.T) {
	snap := snapshotOf(golden.LoadObjects(t, filepath.Join("..", "testdata", "groups", "example-groups")))
	tests := []struct {
		namespace, group string
		servers, proxies []string
	}{
		{"default", "engineering-team", []string{"github-server", "jira-server"}, []string{}},
		{"default", "data-team", []string{}, []string{"warehouse-proxy"}},
		{"production", "engineering-team", []string{"github-server"}, []string{}},
		{"default", "marketing-team", []string{"slack-server"}, []string{}},
		{"default", "absent", []string{}, []string{}},
		{"default", "", []string{}, []string{}},
	}
	for _, tt := range tests {
		s, p, e := Members(snap, tt.namespace, tt.group)
		if !slices.Equal(s, tt.servers) || !slices.Equal(p, tt.proxies) || s == nil || p == nil || e == nil {
			t.Errorf("Members(%q, %q) = %#v, %#v; want %v, %v", tt.namespace, tt.group, s, p, tt.servers, tt.proxies)
		}
	}
}

// TestGroupsSkipsNamelessGroups: an MCPGroup without a name (which no API
// server holds; a manifest can) is not a group, and no groupRef names it.
func TestGroupsSkipsNamelessGroups(t *testing.T) {
	snap := Snapshot{MCPGroups: []*model.MCPGroup{{ObjectMeta: metav1.ObjectMeta{Namespace: "default"}}, nil}}
	if res := Groups(snap, testTime); len(res.Groups) != 0 || len(res.Diagnostics) != 0 {
		t.Errorf("Groups of a nameless MCPGroup = %+v", res)
	}
}
