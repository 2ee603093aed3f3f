package naming

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

func TestPrefixQualify(t *testing.T) {
	tests := []struct {
		source, name      string
		prefix, qualified string
	}{
		{"team-a", "io.github.stacklok/github-mcp", "team-a/github-mcp", "team-a.io.github.stacklok/github-mcp"},
		{"team-a-mcp-servers", "io.github.stacklok/github-mcp", "team-a-mcp-servers/github-mcp", "team-a-mcp-servers.io.github.stacklok/github-mcp"},
		{"cm.with.dots", "a.b/c_d", "cm.with.dots/c_d", "cm.with.dots.a.b/c_d"},
		{"cm", "bare", "cm/bare", "cm/bare"},                // no namespace
		{"cm", "a/b/c", "cm/b-c", "cm.a/b-c"},               // a second "/" is not allowed on the right
		{"Team_A", "ns/srv", "Team-A/srv", "Team-A.ns/srv"}, // "_" is not allowed on the left
		{"", "ns/srv", "x/srv", "x.ns/srv"},                 // empty source
		{"cm", "ns/", "cm/x", "cm.ns/x"},                    // empty server part
		{"cm", "ns/sérvér", "cm/s-rv-r", "cm.ns/s-rv-r"},    // one "-" per character
		{"cm", "n s/srv", "cm/srv", "cm.n-s/srv"},           // namespace cleaned too
	}
	for _, tt := range tests {
		if got := Prefix(tt.source, tt.name); got != tt.prefix {
			t.Errorf("Prefix(%q, %q) = %q, want %q", tt.source, tt.name, got, tt.prefix)
		}
		if got := Qualify(tt.source, tt.name); got != tt.qualified {
			t.Errorf("Qualify(%q, %q) = %q, want %q", tt.source, tt.name, got, tt.qualified)
		}
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("a", 150)
	tests := []struct {
		name string
		want string // "" means: check the invariants only
	}{
		{"io.github.stacklok/github-mcp", "io.github.stacklok/github-mcp"},
		{strings.Repeat("n", 99) + "/" + strings.Repeat("s", 100), strings.Repeat("n", 99) + "/" + strings.Repeat("s", 100)}, // exactly 200
		{"ns/" + strings.Repeat("s", 250), ""},
		{strings.Repeat("n", 250) + "/srv", ""},
		{long + "/" + long, ""},
		{long + "." + long, ""},           // no "/"
		{long + "-/-" + long + "-.-", ""}, // separators at the cut
		{strings.Repeat("é", 201), ""},
	}
	for _, tt := range tests {
		got := Shorten(tt.name)
		if tt.want != "" {
			if got != tt.want {
				t.Errorf("Shorten(%q) = %q, want %q", tt.name, got, tt.want)
			}
			continue
		}
		if n := utf8.RuneCountInString(got); n > MaxLen {
			t.Errorf("Shorten(%q) = %q has %d characters", tt.name, got, n)
		}
		if !model.NamePattern().MatchString(got) {
			t.Errorf("Shorten(%q) = %q does not match %s", tt.name, got, model.NamePattern())
		}
		if Shorten(tt.name) != got {
			t.Errorf("Shorten(%q) is not deterministic", tt.name)
		}
		if Shorten(tt.name+"x") == got {
			t.Errorf("Shorten(%q) equals Shorten of a different name", tt.name)
		}
	}
	// The shorter side is kept whole.
	got := Shorten("io.github.stacklok/" + strings.Repeat("s", 250))
	if !strings.HasPrefix(got, "io.github.stacklok/sss") {
		t.Errorf("Shorten kept %q, want the namespace whole", got)
	}
	got = Shorten(strings.Repeat("n", 250) + "/github-mcp")
	if !strings.Contains(got, "/github-mcp-") {
		t.Errorf("Shorten kept %q, want the server part whole", got)
	}
}

// TestAssign is the truth table of the prefix rule.
func TestAssign(t *testing.T) {
	long := strings.Repeat("l", 190)
	tests := []struct {
		name   string
		copies []Copy
		want   []string
		steps  []Step
	}{
		{
			name: "example cluster",
			copies: []Copy{
				{"io.github.stacklok/github-mcp", "team-a-mcp-servers"},
				{"io.github.stacklok/slack-mcp", "team-a-mcp-servers"},
				{"io.github.stacklok/github-mcp", "team-b-mcp-servers"},
				{"io.github.stacklok/snowflake-mcp", "team-b-mcp-servers"},
			},
			want:  []string{"team-a-mcp-servers/github-mcp", "io.github.stacklok/slack-mcp", "team-b-mcp-servers/github-mcp", "io.github.stacklok/snowflake-mcp"},
			steps: []Step{Prefixed, Kept, Prefixed, Kept},
		},
		{
			name: "prefix collides with a unique name, which is not touched",
			copies: []Copy{
				{"io.x/s", "a"},
				{"io.x/s", "b"},
				{"a/s", "c"},
			},
			want:  []string{"a.io.x/s", "b/s", "a/s"},
			steps: []Step{Qualified, Prefixed, Kept},
		},
		{
			name: "two prefixes collide with each other: both qualified",
			copies: []Copy{
				{"io.x/s", "a"},
				{"io.y/s", "a"},
				{"io.x/s", "b"},
				{"io.y/s", "b"},
			},
			want:  []string{"a.io.x/s", "a.io.y/s", "b.io.x/s", "b.io.y/s"},
			steps: []Step{Qualified, Qualified, Qualified, Qualified},
		},
		{
			name: "qualified collides with a unique name: suffix",
			copies: []Copy{
				{"io.x/s", "a"},
				{"io.x/s", "b"},
				{"a/s", "c"},
				{"a.io.x/s", "d"},
			},
			want:  []string{"a.io.x/s-2", "b/s", "a/s", "a.io.x/s"},
			steps: []Step{Suffixed, Prefixed, Kept, Kept},
		},
		{
			name: "suffix skips taken names",
			copies: []Copy{
				{"io.x/s", "a"},
				{"io.x/s", "b"},
				{"a/s", "c"},
				{"a.io.x/s", "d"},
				{"a.io.x/s-2", "e"},
			},
			want:  []string{"a.io.x/s-3", "b/s", "a/s", "a.io.x/s", "a.io.x/s-2"},
			steps: []Step{Suffixed, Prefixed, Kept, Kept, Kept},
		},
		{
			name: "the same source twice",
			copies: []Copy{
				{"io.x/s", "a"},
				{"io.x/s", "a"},
			},
			want:  []string{"a.io.x/s-2", "a.io.x/s-3"},
			steps: []Step{Suffixed, Suffixed},
		},
		{
			name: "three copies",
			copies: []Copy{
				{"io.x/s", "c"},
				{"io.x/s", "a"},
				{"io.x/s", "b"},
			},
			want:  []string{"c/s", "a/s", "b/s"},
			steps: []Step{Prefixed, Prefixed, Prefixed},
		},
		{
			name: "long prefixed name shortened",
			copies: []Copy{
				{"io.x/" + long, "team-a"},
				{"io.x/" + long, "team-b"},
			},
			want:  []string{Shorten("team-a/" + long), Shorten("team-b/" + long)},
			steps: []Step{Prefixed, Prefixed},
		},
		{
			name: "long unique name shortened, another kept",
			copies: []Copy{
				{long + "/" + long, "a"},
				{"io.x/s", "a"},
			},
			want:  []string{Shorten(long + "/" + long), "io.x/s"},
			steps: []Step{Kept, Kept},
		},
		{
			name: "a crafted name equal to the shortened form",
			copies: []Copy{
				{long + "/" + long, "a"},
				{Shorten(long + "/" + long), "b"},
			},
			want:  []string{Shorten(long + "/" + long + "-2"), Shorten(long + "/" + long)},
			steps: []Step{Suffixed, Kept},
		},
		{
			name:   "empty",
			copies: nil,
			want:   nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Assign(tt.copies, nil)
			var names []string
			var steps []Step
			for _, a := range got {
				names = append(names, a.Name)
				steps = append(steps, a.Step)
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("names = %q\nwant    %q", names, tt.want)
			}
			if tt.steps != nil && !slices.Equal(steps, tt.steps) {
				t.Errorf("steps = %v, want %v", steps, tt.steps)
			}
			for _, a := range got {
				if a.Shortened != (a.Name != a.Full) {
					t.Errorf("%+v: Shortened disagrees with Full", a)
				}
			}
		})
	}
}

func TestStepString(t *testing.T) {
	for s, want := range map[Step]string{Kept: "Kept", Prefixed: "Prefixed", Qualified: "Qualified", Suffixed: "Suffixed", 9: "Step(9)"} {
		if got := s.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(s), got, want)
		}
	}
}

// Generators: few sources and short names so that conflicts and crafted
// collisions are frequent.
var (
	sourceGen = rapid.SampledFrom([]string{"a", "b", "a.io.x", "team-a", strings.Repeat("c", 120), strings.Repeat("d", 250)})
	nsGen     = rapid.SampledFrom([]string{"io.x", "io.y", "a", "a.io.x", "b", strings.Repeat("n", 150)})
	srvGen    = rapid.SampledFrom([]string{"s", "s-2", "s-3", "github-mcp", strings.Repeat("s", 150)})
)

func drawCopies(t *rapid.T) []Copy {
	// (source, name) pairs are distinct: the merge drops duplicates inside
	// one source before naming.
	type key struct{ src, name string }
	copies := rapid.SliceOfNDistinct(rapid.Custom(func(t *rapid.T) Copy {
		name := nsGen.Draw(t, "ns") + "/" + srvGen.Draw(t, "srv")
		if rapid.IntRange(0, 5).Draw(t, "crafted") == 0 {
			// A name crafted to equal a generated one.
			src := sourceGen.Draw(t, "of")
			name = rapid.SampledFrom([]string{Prefix(src, name), Qualify(src, name), Qualify(src, name) + "-2", Shorten(Prefix(src, name))}).Draw(t, "form")
		}
		return Copy{Name: name, Source: sourceGen.Draw(t, "source")}
	}), 0, 12, func(c Copy) key { return key{c.Source, c.Name} }).Draw(t, "copies")
	return copies
}

// TestAssignProperties: names are distinct and valid, unique names are never
// touched, and each copy's name does not depend on the order of the copies.
func TestAssignProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		copies := drawCopies(t)
		got := Assign(copies, nil)
		if len(got) != len(copies) {
			t.Fatalf("%d outcomes for %d copies", len(got), len(copies))
		}
		count := map[string]int{}
		for _, c := range copies {
			count[c.Name]++
		}
		seen := map[string]int{}
		for i, a := range got {
			if j, dup := seen[a.Name]; dup {
				t.Fatalf("copies %d %v and %d %v both named %q", j, copies[j], i, copies[i], a.Name)
			}
			seen[a.Name] = i
			if invalid, _ := model.CheckName(a.Name); invalid != "" {
				t.Fatalf("copy %v named %q: %s", copies[i], a.Name, invalid)
			}
			if count[copies[i].Name] == 1 && utf8.RuneCountInString(copies[i].Name) <= MaxLen && a.Name != copies[i].Name {
				t.Fatalf("unique name %q was renamed to %q", copies[i].Name, a.Name)
			}
		}
		perm := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 1)).Perm(len(copies))
		shuffled := make([]Copy, len(copies))
		for k, i := range perm {
			shuffled[k] = copies[i]
		}
		again := Assign(shuffled, nil)
		for k, i := range perm {
			if again[k] != got[i] {
				t.Fatalf("copy %v: %+v in one order, %+v in another", copies[i], got[i], again[k])
			}
		}
	})
}

// TestAssignKept: naming only the copies that may need a new name, with the
// kept names of the others reported by a function, gives them the outcomes
// Assign gives them among all copies.
func TestAssignKept(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		copies := drawCopies(t)
		all := Assign(copies, nil)
		count := map[string]int{}
		for _, c := range copies {
			count[c.Name]++
		}
		var some []Copy
		var at []int
		keptNames := map[string]bool{}
		for i, c := range copies {
			if count[c.Name] > 1 || utf8.RuneCountInString(c.Name) > MaxLen {
				some = append(some, c)
				at = append(at, i)
			} else {
				keptNames[c.Name] = true
			}
		}
		got := Assign(some, func(name string) bool { return keptNames[name] })
		for k, i := range at {
			if got[k] != all[i] {
				t.Fatalf("copy %v: %+v among all copies, %+v named alone", copies[i], all[i], got[k])
			}
		}
	})
}

func ExampleAssign() {
	for _, a := range Assign([]Copy{
		{Name: "io.github.stacklok/github-mcp", Source: "team-a"},
		{Name: "io.github.stacklok/github-mcp", Source: "team-b"},
		{Name: "team-a/github-mcp", Source: "team-c"}, // crafted to collide
		{Name: "io.github.stacklok/slack-mcp", Source: "team-a"},
	}, nil) {
		fmt.Println(a.Step, a.Name)
	}
	// Output:
	// Qualified team-a.io.github.stacklok/github-mcp
	// Prefixed team-b/github-mcp
	// Kept team-a/github-mcp
	// Kept io.github.stacklok/slack-mcp
}
