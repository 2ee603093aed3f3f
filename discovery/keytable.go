package discovery

import (
	"math/bits"
	"strings"

	"github.com/mcpreg/mcpreg/internal/dedupe"
)

// keyTable finds items of a slice the caller holds by a key made of
// strings (a namespace and a name): an open-addressing hash table of 32-bit
// slots, each the item's position and as many bits of the key's hash as the
// position leaves room for. It holds a fixed number of items, given when it
// is made.
//
// It stands in for a Go map keyed by strings where one is looked up once
// per object: it holds no pointers (the garbage collector does not scan it)
// and is a fraction of the size of such a map (a megabyte for a hundred
// thousand items, where a map is several, which decides whether it stays in
// the processor's cache); and looking a key up reads the items only when
// the stored bits of the hash match. The caller compares the items whose
// hash bits match, so a collision costs a comparison, never a wrong answer;
// nothing depends on the seed of the hash but the speed.
type keyTable struct {
	dedupe.Hasher
	slots []uint32 // 0: empty; else tag<<posBits | position+1
	// shift places a hash's top bits as its home slot; posBits is the width
	// of a position (+1), tagMask the hash bits kept above it.
	shift   uint
	posBits uint
	tagMask uint32
	mask    uint64
}

// newKeyTable makes a table for n items, at positions 0 to n-1, at a load
// of at most one half.
func newKeyTable(n int) *keyTable {
	size, k := 8, uint(3)
	for size < 2*n && k < 31 {
		size, k = size<<1, k+1
	}
	t := &keyTable{Hasher: dedupe.NewHasher(), slots: make([]uint32, size), shift: 64 - k, mask: uint64(size - 1)}
	t.posBits = uint(bits.Len(uint(size / 2)))
	t.tagMask = uint32(1)<<(32-t.posBits) - 1
	return t
}

// home returns the bits of hash h a slot keeps and the first slot to probe
// for it: the top bits of h choose the slot, the bottom ones are kept, so
// the two are independent.
func (t *keyTable) home(h uint64) (uint32, uint64) {
	return uint32(h) & t.tagMask, h >> t.shift
}

// find returns the position of the item with hash h for which same reports
// true, or -1.
func (t *keyTable) find(h uint64, same func(pos int) bool) int {
	tag, i := t.home(h)
	for {
		s := t.slots[i]
		if s == 0 {
			return -1
		}
		if s>>t.posBits == tag {
			if p := int(s&(1<<t.posBits-1)) - 1; same(p) {
				return p
			}
		}
		i = (i + 1) & t.mask
	}
}

// add records the item at pos, of hash h. The caller adds each position
// once, and no more than the table was made for.
func (t *keyTable) add(h uint64, pos int) {
	tag, i := t.home(h)
	for t.slots[i] != 0 {
		i = (i + 1) & t.mask
	}
	t.slots[i] = tag<<t.posBits | uint32(pos+1)
}

// stringArena copies strings into blocks of memory of its own, so that
// strings read together lie together rather than scattered over the
// snapshot. The copies are equal to the originals; a full block is left as
// it is and a new one started, so copies never move.
type stringArena struct{ b strings.Builder }

// arenaBlock is the size of a block: large enough that blocks are few,
// small enough to waste little.
const arenaBlock = 64 << 10

// copy returns a copy of s in the arena.
func (a *stringArena) copy(s string) string {
	if s == "" {
		return ""
	}
	a.reserve(len(s))
	start := a.b.Len()
	a.b.WriteString(s)
	return a.b.String()[start:]
}

// concat returns the concatenation of the four strings in the arena: the
// string s0 + s1 + s2 + s3 is, without an allocation of its own.
func (a *stringArena) concat(s0, s1, s2, s3 string) string {
	n := len(s0) + len(s1) + len(s2) + len(s3)
	if n == 0 {
		return ""
	}
	a.reserve(n)
	start := a.b.Len()
	a.b.WriteString(s0)
	a.b.WriteString(s1)
	a.b.WriteString(s2)
	a.b.WriteString(s3)
	return a.b.String()[start:]
}

// reserve starts a new block when the current one has no room for n bytes.
func (a *stringArena) reserve(n int) {
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(arenaBlock, n))
	}
}
