package merge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestSortByKeysProperty checks the radix sort of records by their keys
// against slices.SortFunc with the same comparison (names, versions, then
// order read): groups large and small, names sharing long prefixes, names
// equal in their keys' 64 bytes and differing past them, names that differ
// only in trailing NULs (the keys' padding) or in bytes of 0x80 and more.
func TestSortByKeysProperty(t *testing.T) {
	name := piecesName(6, "", "\x00", "a", "b", "z", "io.github.", "com.acme.team007/", "fetch-mcp-", "\xff", "\x80",
		"0123456789abcdef", "0123456789abcdef0123456789abcdef", "1", "2", "12", "-")
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		prefix := strings.Repeat("io.github.modelcontextprotocol/", rapid.IntRange(0, 3).Draw(t, "prefix"))
		heads := make([]treeHead, n)
		for i := range heads {
			e := &entry{orig: prefix + name.Draw(t, fmt.Sprintf("name%d", i)), ver: rapid.SampledFrom([]string{"", "1", "2"}).Draw(t, fmt.Sprintf("ver%d", i))}
			heads[i] = headOf(e)
		}
		compare := func(i, j int) int {
			a, b := &heads[i], &heads[j]
			return cmp.Or(compareHeadNames(a, b), strings.Compare(a.e.ver, b.e.ver), cmp.Compare(i, j))
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		got := slices.Clone(want)
		slices.SortFunc(want, compare)
		sortByKeys(heads, got, make([]int, n), compare)
		if !slices.Equal(got, want) {
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("position %d: got %q %q, want %q %q", k, heads[got[k]].e.orig, heads[got[k]].e.ver, heads[want[k]].e.orig, heads[want[k]].e.ver)
				}
			}
		}
	})
}
