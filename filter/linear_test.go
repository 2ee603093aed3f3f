package filter

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobwas/glob"
	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
)

// globTokens are the pieces random patterns are made of: every construct of
// gobwas/glob's syntax over a two-letter alphabet, so that overlaps are common.
var globTokens = []string{"a", "b", "ab", "/", "*", "**", "?", "[ab]", "[!a]", "[!ab]", "[a-b]", "[!a-a]", "{", "}", ",", `\*`, `\?`, "é", "{a,b}", "{a*,b}", "{ab,}", "{?,ab}", "{a,bb*}"}

func drawPattern(t *rapid.T) string {
	parts := rapid.SliceOfN(rapid.SampledFrom(globTokens), 0, 9).Draw(t, "tokens")
	return strings.Join(parts, "")
}

// TestLinearAgreesWithGobwas is the differential test: on every pattern the
// filter accepts, the linear matcher and gobwas/glob give the same answer.
func TestLinearAgreesWithGobwas(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pat := drawPattern(t)
		g, err := glob.Compile(pat)
		if err != nil {
			t.Skip("gobwas/glob rejects it")
		}
		l, err := compileGlob(pat)
		if err != nil {
			t.Skip("refused")
		}
		name := rapid.StringMatching(`[ab/]{0,12}`).Draw(t, "name")
		want := g.Match(name)
		if got := l.Match(name); got != want {
			t.Fatalf("pattern %q (%s) name %q: linear %v, gobwas/glob %v", pat, g, name, got, want)
		}
		// The position sets too, for trees Match hands to gobwas/glob.
		if got := l.matchSets(name); got != want {
			t.Fatalf("pattern %q (%s) name %q: position sets %v, gobwas/glob %v", pat, g, name, got, want)
		}
	})
}

// FuzzLinearMatch compares the two matchers on fuzzed patterns and ASCII
// names, small enough for gobwas/glob's own search to finish.
func FuzzLinearMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"*/slack-*", "io.github.stacklok/slack-mcp"},
		{"a*a", "a"},
		{"?", ""},
		{"{a*,b}{c,de}", "aade"},
		{"*[!a][!ab]", "xab"},
		{"{{ab,}b,{a,b}", "a"},
		{"a*a*a*?", "aaaaaaab"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pat, name string) {
		if len(pat) > 24 || len(name) > 24 || strings.Count(pat, "*") > 5 {
			t.Skip()
		}
		for i := 0; i < len(name); i++ {
			if name[i] >= utf8.RuneSelf {
				t.Skip()
			}
		}
		l, err := compileGlob(pat)
		if err != nil {
			return
		}
		g := glob.MustCompile(pat)
		want := g.Match(name)
		if got := l.Match(name); got != want {
			t.Fatalf("pattern %q name %q: linear %v, gobwas/glob %v", pat, name, got, want)
		}
		if got := l.matchSets(name); got != want {
			t.Fatalf("pattern %q name %q: position sets %v, gobwas/glob %v", pat, name, got, want)
		}
	})
}

// adversarial is the pattern of the report that found gobwas/glob's search
// polynomial in the name length with the number of stars as the degree.
const adversarial = "a*a*a*a*a*a*a*a*?"

func adversarialNames(n int) []string {
	names := make([]string, 5)
	for i := range names {
		// Not starting with "a": every split of the run of "a" is a
		// candidate for gobwas/glob, and none succeeds.
		names[i] = "x" + strings.Repeat("a", n-3+i%3)
	}
	return names
}

// TestAdversarialPatternIsFast is the regression test: gobwas/glob took
// minutes on these (k=7 stars on 66–70 characters: 115 s); the linear
// matcher must answer within seconds even on a loaded machine.
func TestAdversarialPatternIsFast(t *testing.T) {
	f, err := New(model.IncludeExclude{Exclude: []string{adversarial, "*a*a*a*a*a*a*a*a*a*a*a*a*/"}}, model.IncludeExclude{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	go func() {
		kept := 0
		for _, n := range []int{66, 70, 1000, 10000} {
			for _, name := range adversarialNames(n) {
				if f.MatchName(name) {
					kept++
				}
			}
		}
		done <- kept == 20
	}()
	select {
	case ok := <-done:
		if !ok {
			t.Error("an adversarial name was excluded")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("matching the adversarial pattern did not finish in 20 s")
	}
}

// BenchmarkCompileAtTheLimit compiles patterns of MaxPatternWildcards
// wildcards in the shapes gobwas/glob's compiler is slowest on (its time is
// cubic in them): what the limit bounds.
func BenchmarkCompileAtTheLimit(b *testing.B) {
	for _, shape := range []string{"?", "*?", "[ab]?", "{a,b}", "{[ab],?}"} {
		per := strings.Count(shape, "?") + strings.Count(shape, "*") + strings.Count(shape, "[") + strings.Count(shape, "{")
		p := strings.Repeat(shape, MaxPatternWildcards/per) + "b"
		b.Run(shape, func(b *testing.B) {
			for b.Loop() {
				if _, err := New(model.IncludeExclude{Include: []string{p}}, model.IncludeExclude{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMatchAdversarial shows matching linear in the name length (ns/op
// of n and 4n) and, on small n, gobwas/glob's own search growing with the
// eighth power of n on the same names.
func BenchmarkMatchAdversarial(b *testing.B) {
	for _, pat := range []string{adversarial, strings.Repeat("a*", 16) + "?"} {
		l, err := compileGlob(pat)
		if err != nil {
			b.Fatal(err)
		}
		for _, n := range []int{16, 24, 70, 280, 1120} {
			names := adversarialNames(n)
			b.Run(fmt.Sprintf("linear/stars=%d/n=%d", strings.Count(pat, "*"), n), func(b *testing.B) {
				for b.Loop() {
					for _, name := range names {
						l.Match(name)
					}
				}
			})
		}
	}
	g := glob.MustCompile(adversarial)
	for _, n := range []int{16, 24} {
		names := adversarialNames(n)
		b.Run(fmt.Sprintf("gobwas/stars=8/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				for _, name := range names {
					g.Match(name)
				}
			}
		})
	}
}
