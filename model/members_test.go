package model

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/internal/jsonx"
)

// allMembers returns the entry's members, packed or not, as a list.
func (s *Server) allMembers() []jsonx.Member {
	ms := make([]jsonx.Member, s.memberCount())
	for i := range ms {
		ms[i] = s.memberAt(i)
	}
	return ms
}

// TestPackedMembersAsList: an entry Parse read with its members packed
// (as offsets in its text) answers Get, Keys, Name, Description, Version
// and AppendJSON as the same entry read by ParseServer (a list of members)
// does, before and after a random sequence of Set and Delete, which unpack
// it.
func TestPackedMembersAsList(t *testing.T) {
	keys := []string{KeyName, KeyDescription, KeyVersion, KeyTitle, KeyRemotes, KeyMeta, KeySchema, "x", "y", "é", "a<b", ""}
	packedSeen := false
	rapid.Check(t, func(t *rapid.T) {
		entry := upstreamEntryText(t)
		reg, _ := Parse([]byte(`{"version":"1.0.0","data":{"servers":[`+entry+`]}}`), ParseOptions{Format: FormatUpstream})
		if reg == nil || len(reg.Servers) != 1 {
			t.Skip("not an entry read")
		}
		packed := reg.Servers[0]
		list, err := ParseServer([]byte(entry))
		if err != nil {
			t.Fatalf("ParseServer(%s): %v", entry, err)
		}
		if packed.packed != nil {
			packedSeen = true
		}
		for step := 0; ; step++ {
			for _, k := range keys {
				pv, pok := packed.Get(k)
				lv, lok := list.Get(k)
				if pok != lok || string(pv) != string(lv) {
					t.Fatalf("%s, step %d: Get(%q) = %s %v, from a list %s %v", entry, step, k, pv, pok, lv, lok)
				}
			}
			if !slices.Equal(packed.Keys(), list.Keys()) || packed.Name() != list.Name() ||
				packed.Description() != list.Description() || packed.Version() != list.Version() {
				t.Fatalf("%s, step %d: keys %q name %q description %q version %q, from a list %q %q %q %q", entry, step,
					packed.Keys(), packed.Name(), packed.Description(), packed.Version(), list.Keys(), list.Name(), list.Description(), list.Version())
			}
			if p, l := string(packed.AppendJSON(nil)), string(list.AppendJSON(nil)); p != l {
				t.Fatalf("%s, step %d: AppendJSON %s, from a list %s", entry, step, p, l)
			}
			if step == 3 || !rapid.Bool().Draw(t, "change") {
				return
			}
			k := rapid.SampledFrom(keys).Draw(t, "key")
			if rapid.Bool().Draw(t, "delete") {
				packed.Delete(k)
				list.Delete(k)
			} else {
				v := rapid.SampledFrom([]string{`"com.example/z"`, `"text"`, `1`, `[]`, `{"a":[1]}`}).Draw(t, "value")
				packed.Set(k, []byte(v))
				list.Set(k, []byte(v))
			}
		}
	})
	if !packedSeen {
		t.Fatal("no entry was read packed")
	}
}

// TestPackedMembersPastFirst: a key of jsonx.FirstID found past the
// members KeyFacts.First records a position for is still found.
func TestPackedMembersPastFirst(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"name":"com.example/many"`)
	for i := range 300 {
		fmt.Fprintf(&b, `,"k%d":%d`, i, i)
	}
	b.WriteString(`,"description":"late","version":"1.0.0"}`)
	reg, _ := Parse([]byte(`{"version":"1.0.0","data":{"servers":[`+b.String()+`]}}`), ParseOptions{Format: FormatUpstream})
	if reg == nil || len(reg.Servers) != 1 {
		t.Fatal("entry not read")
	}
	s := reg.Servers[0]
	if s.packed == nil {
		t.Fatal("members not packed")
	}
	if s.Description() != "late" || s.Version() != "1.0.0" || s.Name() != "com.example/many" {
		t.Fatalf("description %q version %q name %q", s.Description(), s.Version(), s.Name())
	}
	if _, ok := s.Get(KeyTitle); ok {
		t.Fatal("a title found")
	}
}

// TestLeanPackedAsLoop: for every entry Parse reads, leanEntry gives the
// same verdict and facts whether the entry's members are packed (the path
// that reads them through Server.first) or a list (the loop over every
// member), and at least some entries take the packed path and pass.
func TestLeanPackedAsLoop(t *testing.T) {
	packedPass := 0
	rapid.Check(t, func(t *rapid.T) {
		doc := leanScanDoc(t)
		reg, _ := Parse(doc, ParseOptions{Format: FormatUpstream})
		if reg == nil {
			t.Skip("not read")
		}
		for _, s := range reg.Servers {
			list := s.Clone()
			list.unpack()
			gotFacts, got := leanEntry(s)
			wantFacts, want := leanEntry(list)
			if got != want || got && !reflect.DeepEqual(gotFacts, wantFacts) {
				t.Fatalf("%s: leanEntry packed %v %+v, as a list %v %+v", s.AppendJSON(nil), got, gotFacts, want, wantFacts)
			}
			if got && s.packed != nil && s.fused {
				packedPass++
			}
		}
	})
	if packedPass == 0 {
		t.Fatal("no packed entry passed leanEntry: the packed path was not tested")
	}
}

// TestLeanPackedScalars: leanEntry on a packed entry read lean agrees with
// the loop over its members for a valid entry with one member set or added
// to a value its checks may refuse: every key leanEntry checks, and one it
// does not.
func TestLeanPackedScalars(t *testing.T) {
	keys := []string{KeyName, KeyDescription, KeyTitle, KeyVersion, KeySchema, "websiteUrl", KeyRemotes, KeyPackages, "icons", "repository", KeyMeta, "x"}
	values := []string{`"x"`, `""`, `"latest"`, `"1.2.3"`, `1`, `-2.5`, `1e400`, `123456789012345678901234567890`, `true`, `null`, `{}`, `[]`,
		`"https://a.example.com/"`, `"not a uri"`, `"` + strings.Repeat("d", DescriptionMaxLen+1) + `"`, `"io.github.example/other"`}
	passed := 0
	for _, k := range keys {
		for _, v := range values {
			entry := `{"$schema":"` + ServerSchemaURL + `","name":"io.github.example/srv","description":"A server","version":"1.0.0","remotes":[{"type":"sse","url":"https://mcp.example.com/sse"}]}`
			s0, err := ParseServer([]byte(entry))
			if err != nil {
				t.Fatal(err)
			}
			s0.Set(k, []byte(v))
			text := string(s0.AppendJSON(nil))
			reg, _ := Parse([]byte(`{"data":{"servers":[`+text+`]}}`), ParseOptions{Format: FormatUpstream})
			if reg == nil || len(reg.Servers) != 1 {
				continue // Parse keeps no entry without a name
			}
			s := reg.Servers[0]
			list := s.Clone()
			list.unpack()
			_, got := leanEntry(s)
			_, want := leanEntry(list)
			if got != want {
				t.Errorf("%s: leanEntry packed %v, as a list %v", text, got, want)
			}
			if got && s.packed != nil && s.fused {
				passed++
			}
		}
	}
	if passed == 0 {
		t.Fatal("no entry took the packed path and passed")
	}
}
