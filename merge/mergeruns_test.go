package merge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestMergeRunsProperty checks the one-pass merge against a stable sort of
// the concatenated lists: same entries, same order, ties in list order.
func TestMergeRunsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(0, 40).Draw(t, "k")
		var runs [][]*entry
		var all []*entry
		for i := range k {
			n := rapid.IntRange(0, 12).Draw(t, fmt.Sprintf("n%d", i))
			var run []*entry
			for j := range n {
				// Few distinct keys, so that equal heads are common.
				e := &entry{
					orig: rapid.SampledFrom([]string{"a", "a/b", "b", "ab", "io.x/y", "io.github.team/server-1", "io.github.team/server-10", "io.github.team/server-2"}).Draw(t, fmt.Sprintf("name%d_%d", i, j)),
					ver:  rapid.SampledFrom([]string{"", "1.0.0", "1.0.1", "2"}).Draw(t, fmt.Sprintf("ver%d_%d", i, j)),
					pos:  len(all),
				}
				e.key = keyOf(e.orig)
				run = append(run, e)
				all = append(all, e)
			}
			slices.SortStableFunc(run, compareEntries)
			runs = append(runs, run)
		}
		want := slices.Concat(runs...)
		slices.SortStableFunc(want, compareEntries)
		got := mergeRuns(runs)
		if len(got) != len(want) {
			t.Fatalf("merged %d entries, want %d", len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("entry %d: got %q %q (pos %d), want %q %q (pos %d)",
					i, got[i].orig, got[i].ver, got[i].pos, want[i].orig, want[i].ver, want[i].pos)
			}
		}
	})
}

// TestCompareNamesProperty checks that comparing names by their keys first
// orders them as strings.Compare does, for any bytes (NULs, which the
// keys' padding uses, included) and lengths around the keys' 16 bytes.
func TestCompareNamesProperty(t *testing.T) {
	piece := rapid.SampledFrom([]string{"", "\x00", "a", "b", "io.github.", "x/y", "\xff", "0123456789abcdef"})
	name := rapid.Custom(func(t *rapid.T) string {
		var s string
		for range rapid.IntRange(0, 5).Draw(t, "pieces") {
			s += piece.Draw(t, "piece")
		}
		return s
	})
	rapid.Check(t, func(t *rapid.T) {
		a, b := name.Draw(t, "a"), name.Draw(t, "b")
		if rapid.Bool().Draw(t, "sharePrefix") {
			b = a + b
		}
		if got, want := compareNames(keyOf(a), keyOf(b), a, b), strings.Compare(a, b); got != want {
			t.Fatalf("compareNames(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
