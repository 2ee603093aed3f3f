package filter

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// fataler is what server needs of *testing.T and *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

func server(t fataler, name string, legacyTags []string, metaTags map[string][]string) *model.Server {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, `{"name":%q`, name)
	if legacyTags != nil {
		fmt.Fprintf(&b, `,"tags":%s`, quoteJSON(legacyTags))
	}
	if metaTags != nil {
		b.WriteString(`,"_meta":{"` + model.PublisherProvidedKey + `":{`)
		i := 0
		for pub, tags := range metaTags {
			if i > 0 {
				b.WriteString(",")
			}
			i++
			fmt.Fprintf(&b, `%q:{"ghcr.io/x/y:1":{"status":"active","tags":%s}}`, pub, quoteJSON(tags))
		}
		b.WriteString("}}")
	}
	b.WriteString("}")
	s, err := model.ParseServer([]byte(b.String()))
	if err != nil {
		t.Fatalf("ParseServer(%s): %v", b.String(), err)
	}
	return s
}

func quoteJSON(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ",") + "]"
}

// TestMatchName is the truth table of the name rule.
func TestMatchName(t *testing.T) {
	tests := []struct {
		name             string
		include, exclude []string
		want             bool
	}{
		{"io.github.stacklok/slack-mcp", nil, nil, true},
		{"io.github.stacklok/slack-mcp", []string{"slack-*"}, nil, true},               // no "/": also matched against the server part
		{"io.github.stacklok/slack-mcp", []string{"stacklok/slack-*"}, nil, false},     // with "/": whole names only
		{"io.github.stacklok/slack-mcp", []string{"io.github.*"}, nil, true},           // "*" crosses "/"
		{"io.github.stacklok/slack-mcp", nil, []string{"slack-mcp"}, false},            // exclude by server part
		{"io.github.stacklok/other", []string{"io.github.stacklok"}, nil, false},       // the namespace alone is not the server part
		{"team-a-mcp-servers/github-mcp", []string{"team-a-mcp-servers/*"}, nil, true}, // prefixed names (example-all-teams)
		{"io.github.stacklok/slack-mcp", []string{"*/slack-*"}, nil, true},
		{"io.github.stacklok/slack-mcp", []string{"*slack*"}, nil, true}, // * crosses "/"
		{"io.github.stacklok/slack-mcp", []string{"io.github.stacklok/*"}, nil, true},
		{"io.github.stacklok/slack-mcp", []string{"IO.GITHUB.STACKLOK/*"}, nil, false}, // case-sensitive
		{"team-a/github-mcp", []string{"team-a/*"}, nil, true},
		{"team-b/github-mcp", []string{"team-a/*"}, nil, false},
		{"team-a/github-mcp", []string{"team-?/*"}, nil, true},
		{"team-a/github-mcp", []string{"{team-a,team-c}/*"}, nil, true},
		{"team-a/github-mcp", []string{"team-[ab]/*"}, nil, true},
		{"team-c/github-mcp", []string{"team-[ab]/*"}, nil, false},
		{"x/slack-deprecated", []string{"*/slack-*"}, []string{"*-deprecated"}, false}, // exclude wins
		{"x/slack-mcp", []string{"*/slack-*"}, []string{"*-deprecated"}, true},
		{"x/slack-mcp", nil, []string{"*-deprecated"}, true},
		{"x/slack-deprecated", nil, []string{"*-deprecated"}, false},
		{"x/other", []string{"*/slack-*", "*/other"}, nil, true}, // any include
		{"x/slack-mcp", []string{"x/slack-mcp"}, nil, true},      // a literal is an exact match
		{"x/slack-mcp2", []string{"x/slack-mcp"}, nil, false},
		{"", []string{"*"}, nil, true},
		{"", []string{"?*"}, nil, false},
		// gobwas/glob quirks ToolHive's registry server shares: an unclosed
		// alternation is accepted, and a prefix and suffix may overlap.
		{"a", []string{"{a,b"}, nil, true},
		{"a", []string{"a*a"}, nil, true},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%v/%v", tt.name, tt.include, tt.exclude), func(t *testing.T) {
			f, err := New(model.IncludeExclude{Include: tt.include, Exclude: tt.exclude}, model.IncludeExclude{})
			if err != nil {
				t.Fatal(err)
			}
			if got := f.MatchName(tt.name); got != tt.want {
				t.Errorf("MatchName(%q) = %v, want %v", tt.name, got, tt.want)
			}
			if got := f.Match(server(t, tt.name, nil, nil)); got != tt.want {
				t.Errorf("Match(server %q) = %v, want %v", tt.name, got, tt.want)
			}
		})
	}
}

// TestMatchTags is the truth table of the tag rule.
func TestMatchTags(t *testing.T) {
	tests := []struct {
		tags             []string
		include, exclude []string
		want             bool
	}{
		{nil, nil, nil, true},
		{nil, []string{"db"}, nil, false}, // no tags fail any include
		{nil, nil, []string{"db"}, true},
		{[]string{"db"}, []string{"db"}, nil, true},
		{[]string{"db"}, []string{"DB"}, nil, false}, // exact, case-sensitive
		{[]string{"db"}, []string{"d*"}, nil, false}, // no globbing for tags
		{[]string{"db", "sql"}, []string{"sql"}, nil, true},
		{[]string{"db", "sql"}, []string{"sql"}, []string{"db"}, false}, // exclude wins
		{[]string{"db"}, nil, []string{"sql"}, true},
		{[]string{"db"}, []string{"web", "db"}, nil, true},
	}
	for _, tt := range tests {
		f, err := New(model.IncludeExclude{}, model.IncludeExclude{Include: tt.include, Exclude: tt.exclude})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.MatchTags(tt.tags); got != tt.want {
			t.Errorf("tags %v include %v exclude %v: MatchTags = %v, want %v", tt.tags, tt.include, tt.exclude, got, tt.want)
		}
	}
}

// TestMatchTagSources checks that tags are read from the legacy field and from
// any publisher's _meta, and that name and tag rules must both pass.
func TestMatchTagSources(t *testing.T) {
	f, err := New(model.IncludeExclude{Include: []string{"io.x/*"}}, model.IncludeExclude{Include: []string{"db"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		s    *model.Server
		want bool
	}{
		{server(t, "io.x/a", []string{"db"}, nil), true},
		{server(t, "io.x/a", nil, map[string][]string{model.ToolHivePublisher: {"db"}}), true},
		{server(t, "io.x/a", nil, map[string][]string{"com.example": {"db", "web"}}), true},
		{server(t, "io.x/a", nil, map[string][]string{"com.example": {"web"}}), false},
		{server(t, "io.y/a", []string{"db"}, nil), false}, // tag passes, name fails
		{server(t, "io.x/a", nil, nil), false},            // name passes, tag fails
	}
	for i, tt := range tests {
		if got := f.Match(tt.s); got != tt.want {
			t.Errorf("case %d (%s): Match = %v, want %v", i, tt.s.AppendJSON(nil), got, tt.want)
		}
	}
}

// TestPatternLimitsAreEdges: a pattern at the limits compiles (escaped
// wildcards are not counted); one past them does not.
func TestPatternLimitsAreEdges(t *testing.T) {
	for _, p := range []string{
		strings.Repeat("?", MaxPatternWildcards),
		strings.Repeat("*", MaxPatternWildcards/2) + strings.Repeat(`\*`, 100),
		strings.Repeat("a", MaxPatternBytes),
		strings.Repeat("{ab,cd}", MaxPatternWildcards),
	} {
		if _, err := New(model.IncludeExclude{Include: []string{p}}, model.IncludeExclude{}); err != nil {
			t.Errorf("pattern of %d bytes refused: %v", len(p), err)
		}
	}
}

func TestNewRejectsBadPatterns(t *testing.T) {
	tests := []struct {
		names model.IncludeExclude
		field string
		index int
	}{
		{model.IncludeExclude{Include: []string{"ok", "["}}, "names.include", 1},
		{model.IncludeExclude{Exclude: []string{`a\`}}, "names.exclude", 0},
		{model.IncludeExclude{Include: []string{"[]"}}, "names.include", 0},
		// gobwas/glob panics matching an empty alternative inside a row.
		{model.IncludeExclude{Include: []string{"ok", "a{"}}, "names.include", 1},
		// A variable-length alternative whose length gobwas/glob misreports.
		{model.IncludeExclude{Exclude: []string{"*{a*,b}"}}, "names.exclude", 0},
		// Past the size limits, which bound the glob compiler's time.
		{model.IncludeExclude{Include: []string{strings.Repeat("*", 8000) + "b"}}, "names.include", 0},
		{model.IncludeExclude{Include: []string{strings.Repeat("?", MaxPatternWildcards+1)}}, "names.include", 0},
		{model.IncludeExclude{Exclude: []string{"ok", strings.Repeat("{a,b}", MaxPatternWildcards+1)}}, "names.exclude", 1},
		{model.IncludeExclude{Include: []string{strings.Repeat("a", MaxPatternBytes+1)}}, "names.include", 0},
	}
	for _, tt := range tests {
		f, err := New(tt.names, model.IncludeExclude{})
		if err == nil {
			t.Errorf("New(%v) = %v, want an error", tt.names, f)
			continue
		}
		var pe *PatternError
		if !errors.As(err, &pe) {
			t.Errorf("New(%v) error %T is not a *PatternError", tt.names, err)
			continue
		}
		if pe.Field != tt.field || pe.Index != tt.index {
			t.Errorf("New(%v): error at %s[%d], want %s[%d]", tt.names, pe.Field, pe.Index, tt.field, tt.index)
		}
		if len(pe.Pattern) <= model.MaxEchoRunes && !strings.Contains(err.Error(), fmt.Sprintf("%q", pe.Pattern)) {
			t.Errorf("error %q does not quote the pattern", err)
		}
		if len(err.Error()) > model.MaxMessageBytes {
			t.Errorf("error of %d bytes: the pattern is not cut", len(err.Error()))
		}
	}
}

func TestFromRegistryFilter(t *testing.T) {
	f, err := FromRegistryFilter(nil)
	if err != nil || f != nil || !f.Empty() || !f.Match(&model.Server{}) {
		t.Errorf("FromRegistryFilter(nil) = %v, %v; want a nil filter that keeps everything", f, err)
	}
	f, err = FromRegistryFilter(&model.RegistryFilter{Names: &model.IncludeExclude{Exclude: []string{"*-deprecated"}}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Empty() || f.MatchName("a/b-deprecated") || !f.MatchName("a/b") {
		t.Errorf("filter %v does not apply its exclude", f)
	}
	if _, err := FromRegistryFilter(&model.RegistryFilter{Names: &model.IncludeExclude{Include: []string{"["}}}); err == nil {
		t.Error("a bad pattern compiled")
	}
	if !(&Filter{}).Empty() {
		t.Error("the zero Filter is not empty")
	}
	f, err = FromRegistryFilter(&model.RegistryFilter{})
	if err != nil || !f.Empty() {
		t.Errorf("an empty RegistryFilter gave %v, %v", f, err)
	}
}

func TestString(t *testing.T) {
	f, err := New(model.IncludeExclude{Include: []string{"*/slack-*"}, Exclude: []string{"*-deprecated"}},
		model.IncludeExclude{Include: []string{"db"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `names include ["*/slack-*"] exclude ["*-deprecated"]; tags include ["db"]`
	if got := f.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := (*Filter)(nil).String(); got != "no filter" {
		t.Errorf("nil String() = %q", got)
	}
}

// The generators draw from a small alphabet so that patterns often match.
var (
	nameGen    = rapid.StringMatching(`[ab]{1,3}(/[ab.-]{1,4})?`)
	patternGen = rapid.StringMatching(`[ab*?/]{1,4}`)
	tagGen     = rapid.SampledFrom([]string{"db", "web", "sql", "ai"})
)

type fixture struct {
	names   []string
	tags    [][]string
	servers []*model.Server
}

func drawFixture(t *rapid.T) fixture {
	var fx fixture
	n := rapid.IntRange(0, 8).Draw(t, "n")
	for i := range n {
		name := nameGen.Draw(t, fmt.Sprintf("name%d", i))
		tags := rapid.SliceOfDistinct(tagGen, rapid.ID).Draw(t, fmt.Sprintf("tags%d", i))
		fx.names = append(fx.names, name)
		fx.tags = append(fx.tags, tags)
		fx.servers = append(fx.servers, server(t, name, tags, nil))
	}
	return fx
}

func drawSide(t *rapid.T, label string, gen *rapid.Generator[string]) model.IncludeExclude {
	return model.IncludeExclude{
		Include: rapid.SliceOfN(gen, 0, 3).Draw(t, label+".include"),
		Exclude: rapid.SliceOfN(gen, 0, 3).Draw(t, label+".exclude"),
	}
}

func kept(f *Filter, servers []*model.Server) map[int]bool {
	out := map[int]bool{}
	for i, s := range servers {
		if f.Match(s) {
			out[i] = true
		}
	}
	return out
}

// TestFilterLaws checks the laws of filtering (the empty filter keeps all; an
// exclude never adds, an include never removes) and the rule of the package
// doc against random names, tags and patterns.
func TestFilterLaws(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fx := drawFixture(t)
		names := drawSide(t, "names", patternGen)
		tags := drawSide(t, "tags", tagGen)
		f, err := New(names, tags)
		if err != nil {
			t.Fatalf("New: %v", err)
		}

		// No patterns is the identity.
		none, err := New(model.IncludeExclude{}, model.IncludeExclude{})
		if err != nil {
			t.Fatal(err)
		}
		if len(kept(none, fx.servers)) != len(fx.servers) {
			t.Fatal("the empty filter dropped a server")
		}

		// Adding an exclude never adds servers; adding an include to a
		// non-empty include list never removes any.
		base := kept(f, fx.servers)
		extra := patternGen.Draw(t, "extra")
		more := names
		more.Exclude = append(append([]string(nil), names.Exclude...), extra)
		fe, err := New(more, tags)
		if err != nil {
			t.Fatal(err)
		}
		for i := range kept(fe, fx.servers) {
			if !base[i] {
				t.Fatalf("adding exclude %q added server %q", extra, fx.names[i])
			}
		}
		if len(names.Include) > 0 {
			wider := names
			wider.Include = append(append([]string(nil), names.Include...), extra)
			fi, err := New(wider, tags)
			if err != nil {
				t.Fatal(err)
			}
			got := kept(fi, fx.servers)
			for i := range base {
				if !got[i] {
					t.Fatalf("adding include %q removed server %q", extra, fx.names[i])
				}
			}
		}

		// Match agrees with the package doc's rule built from single patterns:
		// exclude wins, include-if-any, name AND tags.
		one := func(p, name string) bool {
			g, err := New(model.IncludeExclude{Include: []string{p}}, model.IncludeExclude{})
			if err != nil {
				t.Fatal(err)
			}
			return g.MatchName(name)
		}
		for i, s := range fx.servers {
			want := ruleHolds(fx.names[i], names, one) && tagRuleHolds(fx.tags[i], tags)
			if got := f.Match(s); got != want {
				t.Fatalf("Match(%q tags %v) = %v, want %v (filter %v)", fx.names[i], fx.tags[i], got, want, f)
			}
		}
	})
}

func ruleHolds(name string, ie model.IncludeExclude, match func(p, s string) bool) bool {
	for _, p := range ie.Exclude {
		if match(p, name) {
			return false
		}
	}
	if len(ie.Include) == 0 {
		return true
	}
	for _, p := range ie.Include {
		if match(p, name) {
			return true
		}
	}
	return false
}

func tagRuleHolds(tags []string, ie model.IncludeExclude) bool {
	for _, t := range tags {
		for _, x := range ie.Exclude {
			if t == x {
				return false
			}
		}
	}
	if len(ie.Include) == 0 {
		return true
	}
	for _, t := range tags {
		for _, x := range ie.Include {
			if t == x {
				return true
			}
		}
	}
	return false
}

// TestGlobAgreesWithFilepathWithoutSlash cross-checks that, on names without
// "/", our matching is filepath.Match's (ToolHive validates with it).
func TestGlobAgreesWithFilepathWithoutSlash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Stars only at the ends: gobwas/glob matches "a*a" against "a" (its
		// prefix-suffix matcher ignores the overlap), a quirk ToolHive shares.
		pat := rapid.StringMatching(`\*?[ab?]{1,3}\*?`).Draw(t, "pattern")
		// Names are never empty (the minimum is 3 characters); gobwas/glob
		// lets "?" match "", and ToolHive inherits that quirk.
		name := rapid.StringMatching(`[ab]{1,5}`).Draw(t, "name")
		f, err := New(model.IncludeExclude{Include: []string{pat}}, model.IncludeExclude{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := filepath.Match(pat, name)
		if got := f.MatchName(name); got != want {
			t.Fatalf("pattern %q name %q: got %v, filepath.Match says %v", pat, name, got, want)
		}
	})
}
