package discovery

import "github.com/mcpreg/mcpreg/internal/dedupe"

// keyHasher hashes keys of one or more strings with one seed, so that equal
// keys get equal hashes within one Discover call (dedupe.Hasher).
type keyHasher struct{ h dedupe.Hasher }

func newKeyHasher() keyHasher { return keyHasher{h: dedupe.NewHasher()} }

// hash is the hash of a key of one or more strings, combined so that
// ("ab", "c") and ("a", "bc") differ.
func (k keyHasher) hash(a string, more ...string) uint64 { return k.h.Hash(a, more...) }

// duplicateGroups finds the items of a list of n that share a key
// (dedupe.Groups): for each key more than one item has, their positions in
// increasing order, the groups ordered by their first position; nil when
// every key is unique.
func duplicateGroups(n int, hash func(i int) uint64, same func(i, j int) bool) [][]int {
	return dedupe.Groups(n, hash, same)
}
