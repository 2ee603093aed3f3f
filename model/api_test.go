package model_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/mcpreg/mcpreg/model"
)

// TestListServersPages: pages cover every server once, in name order, with
// the cursor of the page before; count and isLatest as the API writes them.
func TestListServersPages(t *testing.T) {
	var servers []*model.Server
	for i := 9; i >= 0; i-- {
		servers = append(servers, model.NewServer(fmt.Sprintf("io.example/s%d", i/2), "d", fmt.Sprintf("1.0.%d", i%2)))
	}
	reg := model.NewRegistry("2025-10-15T10:30:00Z", servers)
	var seen []string
	cursor := ""
	for page := 0; ; page++ {
		l := model.ListServers(reg, cursor, 3)
		if l.Metadata.Count != len(l.Servers) || len(l.Servers) > 3 {
			t.Fatalf("page %d: count %d, %d servers", page, l.Metadata.Count, len(l.Servers))
		}
		for _, r := range l.Servers {
			seen = append(seen, r.Server.Name()+"@"+r.Server.Version())
			if want := r.Server.Version() == "1.0.1"; r.Meta.Official.IsLatest != want {
				t.Errorf("%s %s: isLatest %v", r.Server.Name(), r.Server.Version(), r.Meta.Official.IsLatest)
			}
		}
		if l.Metadata.NextCursor == "" {
			break
		}
		cursor = l.Metadata.NextCursor
	}
	if len(seen) != 10 || seen[0] != "io.example/s0@1.0.0" || seen[9] != "io.example/s4@1.0.1" {
		t.Errorf("pages gave %v", seen)
	}
	b, err := json.Marshal(model.ListServers(reg, "", 1))
	if err != nil {
		t.Fatal(err)
	}
	var wire struct {
		Servers []struct {
			Server map[string]any `json:"server"`
			Meta   map[string]struct {
				Status   string `json:"status"`
				IsLatest bool   `json:"isLatest"`
			} `json:"_meta"`
		} `json:"servers"`
		Metadata struct {
			NextCursor string `json:"nextCursor"`
			Count      int    `json:"count"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	if len(wire.Servers) != 1 || wire.Servers[0].Server["name"] != "io.example/s0" ||
		wire.Servers[0].Meta[model.OfficialMetaKey].Status != "active" || wire.Metadata.Count != 1 || wire.Metadata.NextCursor == "" {
		t.Errorf("wire form: %s", b)
	}
	if r, ok := model.GetServer(reg, "io.example/s2", "latest"); !ok || r.Server.Version() != "1.0.1" {
		t.Errorf("GetServer latest = %v, %v", r, ok)
	}
	if r, ok := model.GetServer(reg, "io.example/s2", "1.0.0"); !ok || r.Server.Version() != "1.0.0" || r.Meta.Official.IsLatest {
		t.Errorf("GetServer 1.0.0 = %v, %v", r, ok)
	}
	if _, ok := model.GetServer(reg, "io.example/none", "latest"); ok {
		t.Error("GetServer found a missing server")
	}
	if l := model.ListServers(nil, "", 0); l.Servers == nil || l.Metadata.Count != 0 {
		t.Errorf("nil registry: %+v", l)
	}
}
