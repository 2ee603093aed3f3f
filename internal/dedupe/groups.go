package dedupe

import (
	"cmp"
	"hash/maphash"
	"math/bits"
	"slices"
)

// Hasher hashes keys of one or more strings with one seed, so that equal
// keys get equal hashes within one use (a Discover call, an index). Nothing
// depends on the seed but speed: every hash match is checked by comparing
// the keys.
type Hasher struct{ seed maphash.Seed }

// NewHasher returns a Hasher with a new seed.
func NewHasher() Hasher { return Hasher{seed: maphash.MakeSeed()} }

// Hash is the hash of a key of one or more strings, combined so that
// ("ab", "c") and ("a", "bc") differ.
func (k Hasher) Hash(a string, more ...string) uint64 {
	h := maphash.String(k.seed, a)
	for _, s := range more {
		h = bits.RotateLeft64(h, 23)*0x9E3779B97F4A7C15 ^ maphash.String(k.seed, s)
	}
	return h
}

// Groups finds the items of a list of n that share a key: hash(i)
// is the hash of item i's key and same(i, j) compares the keys of items i
// and j. It returns, for each key more than one item has, their positions
// in increasing order, the groups ordered by their first position; nil when
// every key is unique.
//
// It is how discovery and urlbuild find duplicates (two routes or Services
// of one namespace and name, two entries of one name, two entries with one
// URL), which are rare, without a hash table: the hashes are sorted by radix, in
// time linear in n and reading memory in order, and only items whose hashes
// are equal are compared. A hash table probed once per item reads it at
// random, a cache miss per item at scale.
func Groups(n int, hash func(i int) uint64, same func(i, j int) bool) [][]int {
	if n < 2 {
		return nil
	}
	// Each element is the top 32 bits of an item's hash over its position;
	// sorting by the hash bits alone keeps equal hashes in position order.
	a := make([]uint64, n)
	for i := range a {
		a[i] = hash(i)>>32<<32 | uint64(uint32(i))
	}
	tmp := make([]uint64, n)
	for shift := uint(32); shift < 64; shift += 8 {
		var count [257]int
		for _, v := range a {
			count[(v>>shift)&0xff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, v := range a {
			d := (v >> shift) & 0xff
			tmp[count[d]] = v
			count[d]++
		}
		a, tmp = tmp, a
	}
	var groups [][]int
	for i := 0; i < n; {
		j := i + 1
		for j < n && a[j]>>32 == a[i]>>32 {
			j++
		}
		if j-i > 1 {
			groups = appendKeyGroups(groups, a[i:j], same)
		}
		i = j
	}
	slices.SortFunc(groups, func(x, y []int) int { return cmp.Compare(x[0], y[0]) })
	return groups
}

// appendKeyGroups splits items of one hash into groups of one key and
// appends those of more than one item.
func appendKeyGroups(groups [][]int, run []uint64, same func(i, j int) bool) [][]int {
	done := make([]bool, len(run))
	for x := range run {
		if done[x] {
			continue
		}
		g := []int{int(uint32(run[x]))}
		for y := x + 1; y < len(run); y++ {
			if !done[y] && same(g[0], int(uint32(run[y]))) {
				g = append(g, int(uint32(run[y])))
				done[y] = true
			}
		}
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	return groups
}
