package merge

import (
	"math/bits"
	"slices"
)

// smallSort is the size below which sortByKeys orders a group by the
// comparison itself: an insertion sort of a few records costs less than
// counting their bytes.
const smallSort = 24

// sortByKeys orders order, positions of records in heads, as cmp does,
// where cmp orders records by their keys first (as compareHeadNames does)
// and by anything else only between records of equal keys. It is a
// most-significant-byte radix sort over the keys' 64 bytes: a group of
// records is split by its first byte where the keys are not all equal,
// found in one pass over the group, so that bytes every name of the group
// shares (a namespace and its "/", "io.github.", a team's prefix) cost one
// pass, not a comparison of them in every pair. Groups of smallSort
// records or fewer, and records whose keys are equal, are ordered by cmp.
// tmp is scratch space of len(order).
func sortByKeys(heads []treeHead, order, tmp []int, cmp func(i, j int) int) {
	sortByKeysFrom(heads, order, tmp, 0, cmp)
}

func sortByKeysFrom(heads []treeHead, order, tmp []int, depth int, cmp func(i, j int) int) {
	if len(order) <= smallSort {
		insertionSort(order, cmp)
		return
	}
	// The first byte, at depth or later, where the keys differ: the group
	// shares the bytes before depth.
	first := &heads[order[0]].key
	p := len(nameKey{}) * 8
	for w := depth / 8; w < len(nameKey{}); w++ {
		var diff uint64
		for _, i := range order[1:] {
			diff |= heads[i].key[w] ^ first[w]
		}
		if diff != 0 {
			p = 8*w + bits.LeadingZeros64(diff)/8
			break
		}
	}
	if p == len(nameKey{})*8 {
		// Equal keys: the comparison decides.
		slices.SortFunc(order, cmp)
		return
	}
	var count [257]int
	shift := 56 - 8*(p%8)
	w := p / 8
	for _, i := range order {
		count[1+int(byte(heads[i].key[w]>>shift))]++
	}
	for b := 1; b < len(count); b++ {
		count[b] += count[b-1]
	}
	// count[b] is now where the group of byte b starts.
	next := count
	for _, i := range order {
		b := byte(heads[i].key[w] >> shift)
		tmp[next[b]] = i
		next[b]++
	}
	copy(order, tmp[:len(order)])
	for b := range 256 {
		if lo, hi := count[b], count[b+1]; hi-lo > 1 {
			sortByKeysFrom(heads, order[lo:hi], tmp[lo:hi], p+1, cmp)
		}
	}
}

// insertionSort orders a few positions by cmp.
func insertionSort(order []int, cmp func(i, j int) int) {
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && cmp(order[j-1], order[j]) > 0; j-- {
			order[j-1], order[j] = order[j], order[j-1]
		}
	}
}
