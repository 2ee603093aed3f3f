package gen

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestToolHiveCatalogDeterministic(t *testing.T) {
	a, b := ToolHiveCatalog(DefaultCatalog), ToolHiveCatalog(DefaultCatalog)
	if !bytes.Equal(a, b) {
		t.Fatal("the same options gave different catalogs")
	}
	other := DefaultCatalog
	other.Seed++
	if bytes.Equal(a, ToolHiveCatalog(other)) {
		t.Fatal("another seed gave the same catalog")
	}
}

// legacyShape is what the tests below read back from a generated catalog.
type legacyShape struct {
	Servers       map[string]map[string]any `json:"servers"`
	RemoteServers map[string]map[string]any `json:"remote_servers"`
	Groups        []struct {
		Servers       map[string]map[string]any `json:"servers"`
		RemoteServers map[string]map[string]any `json:"remote_servers"`
	} `json:"groups"`
}

func TestToolHiveCatalogCounts(t *testing.T) {
	for _, o := range []CatalogOptions{
		DefaultCatalog,
		{Seed: 7, Containers: 500, Remotes: 120, GroupOnly: 5, BareNames: 9},
		{Seed: 8, Containers: 3},
	} {
		var c legacyShape
		if err := json.Unmarshal(ToolHiveCatalog(o), &c); err != nil {
			t.Fatal(err)
		}
		if len(c.Servers) != o.Containers || len(c.RemoteServers) != o.Remotes {
			t.Errorf("%+v: %d containers, %d remotes", o, len(c.Servers), len(c.RemoteServers))
		}
		bare := 0
		for _, e := range c.Servers {
			if n, _ := e["name"].(string); n != "" && !strings.Contains(n, "/") {
				bare++
			}
		}
		if bare != o.BareNames {
			t.Errorf("%+v: %d bare names", o, bare)
		}
		groupOnly := 0
		for _, g := range c.Groups {
			for k := range g.Servers {
				if _, top := c.Servers[k]; !top {
					groupOnly++
				}
			}
			for k := range g.RemoteServers {
				if _, top := c.RemoteServers[k]; !top {
					groupOnly++
				}
			}
		}
		if groupOnly != o.GroupOnly {
			t.Errorf("%+v: %d servers only in groups", o, groupOnly)
		}
	}
}

// The catalog keeps to the value rules of ToolHive's schema (the bench's
// compatibility and oracle tests check the rest).
func TestToolHiveCatalogValues(t *testing.T) {
	var c legacyShape
	if err := json.Unmarshal(ToolHiveCatalog(CatalogOptions{Seed: 3, Containers: 300, Remotes: 100}), &c); err != nil {
		t.Fatal(err)
	}
	tag := regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*[a-z0-9]$`)
	tool := regexp.MustCompile(`^[\w-]+$`)
	urls := map[string]bool{}
	check := func(key string, e map[string]any) {
		for _, v := range asStrings(e["tags"]) {
			if !tag.MatchString(v) {
				t.Errorf("%s: tag %q", key, v)
			}
		}
		for _, v := range asStrings(e["tools"]) {
			if !tool.MatchString(v) {
				t.Errorf("%s: tool %q", key, v)
			}
		}
		if u, ok := e["url"].(string); ok {
			if urls[u] {
				t.Errorf("%s: remote URL %q repeated", key, u)
			}
			urls[u] = true
		}
	}
	for k, e := range c.Servers {
		check(k, e)
	}
	for k, e := range c.RemoteServers {
		check(k, e)
	}
}

func asStrings(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, e := range l {
		s, _ := e.(string)
		out = append(out, s)
	}
	return out
}

func TestToolHiveListNames(t *testing.T) {
	var l struct {
		Servers []map[string]any `json:"servers"`
	}
	if err := json.Unmarshal(ToolHiveList(DefaultCatalog), &l); err != nil {
		t.Fatal(err)
	}
	o := DefaultCatalog
	if want := o.Containers + o.Remotes + o.GroupOnly; len(l.Servers) != want {
		t.Errorf("%d list items, want %d", len(l.Servers), want)
	}
	for i, e := range l.Servers {
		if n, _ := e["name"].(string); n == "" {
			t.Errorf("item %d has no name", i)
		}
	}
}

func TestUpstreamGeneratorsWriteJSONObjects(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		for _, s := range []string{UpstreamServer().Draw(t, "server"), UpstreamDocument().Draw(t, "document")} {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(s), &m); err != nil {
				t.Fatalf("not a JSON object: %v\n%s", err, s)
			}
		}
	})
}
