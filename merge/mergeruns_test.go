package merge

import (
	"fmt"
	"slices"
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
					orig: rapid.SampledFrom([]string{"a", "a/b", "b", "ab", "io.x/y"}).Draw(t, fmt.Sprintf("name%d_%d", i, j)),
					ver:  rapid.SampledFrom([]string{"", "1.0.0", "1.0.1", "2"}).Draw(t, fmt.Sprintf("ver%d_%d", i, j)),
					pos:  len(all),
				}
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
