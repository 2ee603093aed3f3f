package discovery

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestSortByName: sortByName orders entries by name, then position, as a
// comparison sort of the names does, whatever the names: shared prefixes,
// lengths around the sixteen bytes its keys hold, zero bytes, duplicates,
// and enough entries for the radix sort.
func TestSortByName(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		prefix := rapid.SampledFrom([]string{"", "dev.stacklok.toolhive/team-", "a"}).Draw(t, "prefix")
		alphabet := rapid.SampledFrom([]string{"ab", "a\x00b", "0123456789.-"}).Draw(t, "alphabet")
		n := rapid.IntRange(0, 300).Draw(t, "n")
		built := make([]builtEntry, n)
		for i := range built {
			l := rapid.IntRange(0, 24).Draw(t, "len")
			var b strings.Builder
			b.WriteString(prefix)
			for range l {
				b.WriteByte(alphabet[rapid.IntRange(0, len(alphabet)-1).Draw(t, "c")])
			}
			built[i].name = b.String()
		}
		want := make([]int32, n)
		for i := range want {
			want[i] = int32(i)
		}
		slices.SortStableFunc(want, func(a, b int32) int { return strings.Compare(built[a].name, built[b].name) })
		if got := sortByName(built); !slices.Equal(got, want) {
			t.Fatalf("order %v, want %v", got, want)
		}
	})
}

// BenchmarkSortByName sorts the names of BenchmarkDiscoverRoutes's 10,000
// entries.
func BenchmarkSortByName(b *testing.B) {
	built := make([]builtEntry, 10_000)
	for i := range built {
		built[i].name = fmt.Sprintf("dev.stacklok.toolhive/team-%d.server-%d", i%100, i)
	}
	for b.Loop() {
		sortByName(built)
	}
}
