package model

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// genServer is one server a generated document holds: the name it would get
// in the output and the name a diagnostic that drops it quotes.
type genServer struct{ out, raw string }

// TestPropertyEveryShapeAccountsForEveryServer: whatever members a registry
// document combines (an upstream "data" object, the list shorthand, legacy
// maps, groups as a list or an object), in any order and with keys repeated,
// every server is in the output or named by a diagnostic that drops it.
func TestPropertyEveryShapeAccountsForEveryServer(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := 0
		var servers []genServer
		next := func() int { n++; return n }
		upstream := func() string {
			var items []string
			for range rapid.IntRange(0, 2).Draw(t, "upstream") {
				name := fmt.Sprintf("io.ex/u%d", next())
				items = append(items, fmt.Sprintf(`{"name":%q,"description":"d","version":"1.0.0"}`, name))
				servers = append(servers, genServer{name, name})
			}
			return "[" + strings.Join(items, ",") + "]"
		}
		list := func() string {
			var items []string
			for range rapid.IntRange(0, 2).Draw(t, "list") {
				name := fmt.Sprintf("io.ex/l%d", next())
				items = append(items, fmt.Sprintf(`{"name":%q,"description":"d","image":"ghcr.io/x/y:1"}`, name))
				servers = append(servers, genServer{name, name})
			}
			return "[" + strings.Join(items, ",") + "]"
		}
		legacyMap := func(remote bool) string {
			var items []string
			for range rapid.IntRange(0, 2).Draw(t, "map") {
				k := next()
				key := fmt.Sprintf("k%d", k)
				if remote {
					items = append(items, fmt.Sprintf(`%q:{"description":"d","url":"https://h%d.example/mcp","transport":"sse"}`, key, k))
				} else {
					items = append(items, fmt.Sprintf(`%q:{"description":"d","image":"ghcr.io/x/y%d:1"}`, key, k))
				}
				servers = append(servers, genServer{DefaultNamespace + "/" + key, key})
			}
			return "{" + strings.Join(items, ",") + "}"
		}
		group := func() string {
			return fmt.Sprintf(`{"name":"g","servers":%s,"remote_servers":%s}`, legacyMap(false), legacyMap(true))
		}
		var members []string
		for i := range rapid.IntRange(1, 5).Draw(t, "members") {
			switch rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("member%d", i)) {
			case 0:
				inner := `"servers":` + upstream()
				if rapid.Bool().Draw(t, "repeatDataServers") {
					inner += `,"servers":` + upstream()
				}
				members = append(members, `"data":{`+inner+`}`)
			case 1:
				members = append(members, `"servers":`+list())
			case 2:
				members = append(members, `"servers":`+legacyMap(false))
			case 3:
				members = append(members, `"remote_servers":`+legacyMap(true))
			case 4:
				members = append(members, `"groups":[`+group()+`]`)
			case 5:
				members = append(members, `"groups":{"a":`+group()+`,"b":`+group()+`}`)
			case 6:
				members = append(members, `"version":"1.0.0"`)
			}
		}
		doc := "{" + strings.Join(members, ",") + "}"
		reg, ds := Parse([]byte(doc), ParseOptions{Source: ObjectRef{Kind: "File", Name: "f"}})
		if reg == nil {
			// A document of no known shape is refused whole, with an Error.
			if !ds.HasErrors() {
				t.Fatalf("no registry and no error for %s", doc)
			}
			return
		}
		out := map[string]int{}
		for _, s := range reg.Servers {
			out[s.Name()]++
		}
		// Diagnostics past the per-reason cap are counted in a summary: the
		// servers not named one by one must be counted there.
		omitted := 0
		for _, d := range ds {
			if d.Omitted > 0 {
				omitted += d.Omitted
			}
		}
		unnamed := 0
		for _, s := range servers {
			if out[s.out] == 1 {
				continue
			}
			if out[s.out] > 1 {
				t.Fatalf("%s is in the output %d times", s.out, out[s.out])
			}
			named := 0
			for _, d := range ds {
				if strings.Contains(d.Message, fmt.Sprintf("%q", s.raw)) || strings.Contains(d.Message, fmt.Sprintf("%q", s.out)) {
					named++
				}
			}
			switch named {
			case 0:
				unnamed++
			case 1:
			default:
				t.Fatalf("server %s is named by %d diagnostics:\n%s\n%v", s.out, named, doc, ds)
			}
		}
		if unnamed > omitted {
			t.Fatalf("%d servers are missing from the output and not named, and summaries count %d:\n%s\n%v", unnamed, omitted, doc, ds)
		}
	})
}
