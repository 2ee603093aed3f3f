package merge

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/mcpreg/mcpreg/model"
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
					orig: rapid.SampledFrom([]string{"a", "a/b", "b", "ab", "io.x/y", "io.github.team/server-1", "io.github.team/server-10", "io.github.team/server-2",
						"io.github.stacklok/fetch-mcp-12345", "io.github.stacklok/fetch-mcp-12346", "io.github.stacklok/fetch-mcp-123", "io.github.stacklok/fetch-mcp-1234\x00",
						"io.github.modelcontextprotocol/kubernetes-operations-mcp-12345", "io.github.modelcontextprotocol/kubernetes-operations-mcp-123456",
						"io.github.modelcontextprotocol/kubernetes-operations-mcp-server-7", "io.github.modelcontextprotocol/kubernetes-operations-mcp-server-8"}).Draw(t, fmt.Sprintf("name%d_%d", i, j)),
					ver: rapid.SampledFrom([]string{"", "1.0.0", "1.0.1", "2"}).Draw(t, fmt.Sprintf("ver%d_%d", i, j)),
					pos: len(all),
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

// piecesName draws names made of up to most of pieces: prefixes shared at
// every length, bytes at the ends of the order, names that are prefixes of
// others.
func piecesName(most int, pieces ...string) *rapid.Generator[string] {
	piece := rapid.SampledFrom(pieces)
	return rapid.Custom(func(t *rapid.T) string {
		var s string
		for range rapid.IntRange(0, most).Draw(t, "pieces") {
			s += piece.Draw(t, "piece")
		}
		return s
	})
}

// TestCompareNamesProperty checks that the records of entries, which
// compare names by their keys first, order and match names as
// strings.Compare and == do, for any bytes (NULs, which the keys'
// padding uses, included), lengths around the keys' words and their 64
// bytes, and long shared prefixes: names one piece longer than others,
// names shorter than the prefix they share, equal names.
func TestCompareNamesProperty(t *testing.T) {
	name := piecesName(5, "", "\x00", "a", "b", "io.github.", "io.github.stacklok/", "x/y", "\xff", "0123456789abcdef", "0123456789abcdef0123456789abcdef")
	rapid.Check(t, func(t *rapid.T) {
		a, b := name.Draw(t, "a"), name.Draw(t, "b")
		switch rapid.IntRange(0, 3).Draw(t, "shape") {
		case 1:
			b = a + b
		case 2:
			b = a
		case 3:
			// Zero bytes, as the keys' padding, then more: equal keys
			// for names of lengths on both sides of the keys' bytes.
			b = a + strings.Repeat("\x00", 70) + b
		}
		// A shared prefix of a length around the keys' word boundaries,
		// up to past the keys' bytes: the names then differ (or end)
		// at any byte of the key or past it.
		p := "io.github.modelcontextprotocol/0123456789abcdef0123456789abcdef-mcp-server"
		p = p[:rapid.SampledFrom([]int{0, 7, 8, 9, 16, 31, 32, 33, 56, 63, 64, 65, len(p)}).Draw(t, "prefix")]
		a, b = p+a, p+b
		want := strings.Compare(a, b)
		ha, hb := headOf(&entry{orig: a}), headOf(&entry{orig: b})
		if got := compareHeadNames(&ha, &hb); got != want {
			t.Fatalf("compareHeadNames(%q, %q) = %d, want %d", a, b, got, want)
		}
		if got := sameName(&ha, &hb); got != (a == b) {
			t.Fatalf("sameName(%q, %q) = %v", a, b, got)
		}
	})
}

// TestDedupeProperty checks a part's dedupe, which sorts the entries'
// records by key, against the plain way: a stable sort of the entries by
// name (and version) in the order read, the first of each kept, and one
// DuplicateServer per other. Names share long prefixes, so that keys are
// often equal.
func TestDedupeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		versions := rapid.Bool().Draw(t, "versions")
		n := rapid.IntRange(0, 30).Draw(t, "n")
		p := &part{field: "data[registry.json]"}
		var read []*entry
		var heads []treeHead
		for i := range n {
			name := rapid.SampledFrom([]string{"a", "io.github.stacklok/fetch-mcp-12345", "io.github.stacklok/fetch-mcp-12346",
				"io.github.stacklok/fetch-mcp-123", "io.github.stacklok/fetch-mcp-1234\x00", "io.github.stacklok/fetch-mcp-1234",
				"io.github.modelcontextprotocol/kubernetes-operations-mcp-server-7", "io.github.modelcontextprotocol/kubernetes-operations-mcp-server-8",
				"io.github.modelcontextprotocol/kubernetes-operations-mcp-1234\x00", "io.github.modelcontextprotocol/kubernetes-operations-mcp-1234"}).Draw(t, fmt.Sprintf("name%d", i))
			ver := rapid.SampledFrom([]string{"1.0.0", "2.0.0"}).Draw(t, fmt.Sprintf("ver%d", i))
			e := &entry{s: model.NewServer(name, "d", ver), part: p, pos: i, orig: name, ver: ver, pass: i%2 == 0}
			read = append(read, e)
			heads = append(heads, headOf(e))
		}
		p.dedupe(heads, versions)

		want := slices.Clone(read)
		slices.SortStableFunc(want, func(a, b *entry) int {
			if versions {
				return compareEntries(a, b)
			}
			return strings.Compare(a.orig, b.orig)
		})
		want = slices.CompactFunc(want, func(a, b *entry) bool {
			return a.orig == b.orig && (!versions || a.ver == b.ver)
		})
		if !slices.Equal(p.entries, want) {
			t.Fatalf("entries differ: got %d, want %d", len(p.entries), len(want))
		}
		if len(p.heads) != len(want) {
			t.Fatalf("%d heads for %d entries", len(p.heads), len(want))
		}
		for i, h := range p.heads {
			if h.e != want[i] || h.key != keyOf(want[i].orig) || h.n != len(want[i].orig) || h.pass != want[i].pass {
				t.Fatalf("head %d is not the record of entry %d", i, i)
			}
		}
		if dups := len(p.ds.WithReason(model.ReasonDuplicateServer)); dups != n-len(want) {
			t.Fatalf("%d DuplicateServer for %d entries dropped", dups, n-len(want))
		}
	})
}
