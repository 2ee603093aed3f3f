package dedupe

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// TestGroups checks Groups against a map on random keys
// from a small pool (so that duplicates are common), with hashes taken
// from a tiny range too, so that equal hashes of different keys are
// common and must be told apart.
func TestGroups(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		keys := rapid.SliceOf(rapid.SampledFrom([]string{"a", "b", "c", "d", "e", "f", "g"})).Draw(t, "keys")
		buckets := rapid.IntRange(1, 4).Draw(t, "buckets")
		kh := NewHasher()
		got := Groups(len(keys),
			func(i int) uint64 { return kh.Hash(keys[i]) % uint64(buckets) << 32 },
			func(i, j int) bool { return keys[i] == keys[j] })
		var want [][]int
		at := map[string]int{}
		for i, k := range keys {
			g, ok := at[k]
			if !ok {
				at[k] = len(want)
				want = append(want, []int{i})
				continue
			}
			want[g] = append(want[g], i)
		}
		want = slices.DeleteFunc(want, func(g []int) bool { return len(g) < 2 })
		if len(want) == 0 {
			want = nil
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("Groups(%q) = %v, want %v", keys, got, want)
		}
	})
}
