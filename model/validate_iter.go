package model

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// The checks read each object and array of an entry with an iterator that
// yields one member or element at a time, straight from the bytes: nothing is
// copied into buffers, strings are scanned eight bytes at a time (noting
// whether they are plain ASCII, which spares the checks looking again), and
// the end of a nested object or array comes from the index Parse recorded
// (or the one built for a top-level member), so that each byte of an entry
// is read about once, whatever its depth.
//
// Reading as it goes, an iterator would see a repeated key only after
// checking the member it shadows, and malformed text only after checking the
// members before it, where membersOf and elementsOf (which split a whole
// value first) would have dropped the first member or rejected the value.
// Those texts are rare, so the iterator does not handle them: it stops and
// sets validator.bail, the check of the entry's top-level member is thrown
// away (its diagnostics truncated), and the member is checked again in
// careful mode, where the iterators split each value with membersOf and
// elementsOf as before. A key with an escape or a byte beyond ASCII, which
// membersOf decodes, bails too. The two modes give the same diagnostics; the
// careful one exists for the texts the fast one declines.

// members iterates over the members of one object value. A repeated key
// keeps only its last member, as in membersOf.
type members struct {
	raw []byte
	// i is the offset of the next member's key (fast mode), -1 after the last.
	i int
	// first is the offset of the first member's key; off the offset of raw
	// in the index (see containerIndex.offsetOf).
	first, off int
	// split holds the members left to yield (careful mode).
	split   []rawMember
	careful bool
	// m is the current member.
	m rawMember
	// seen is a two-bit Bloom filter of the keys read so far: a key that
	// hits it is compared with the earlier keys.
	seen [2]uint64
	// count is the number of keys read so far. From manyKeys on, the
	// filter is full and would send every key to a comparison with all
	// the earlier ones (quadratic in the keys of one object, which a
	// tenant chooses): keys then holds every key read instead.
	count int
	keys  map[string]struct{}
}

// manyKeys is the number of keys or strings of one object or array above
// which a repeat is looked up in a map rather than found by comparing with
// the earlier ones: a 128-bit Bloom filter is mostly set by then.
const manyKeys = 32

// open starts reading raw as an object. When raw is not one, it reports that
// at the current path and returns false; next then yields nothing.
func (v *validator) open(it *members, raw []byte) bool {
	it.raw, it.i = raw, -1
	if v.careful {
		ms, ok := membersOf(raw, nil, &v.index)
		if !ok {
			v.fail("must be an object, not %s", show(raw))
			return false
		}
		it.split, it.careful = ms, true
		return true
	}
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		v.fail("must be an object, not %s", show(raw))
		return false
	}
	// A malformed object is an object to membersOf's first look too: it is
	// found (and bailed on) below, member by member.
	i = skipWS(raw, i+1)
	if i >= len(raw) || raw[i] != '}' {
		it.i = i
	}
	it.first, it.off = it.i, v.index.offsetOf(raw)
	return true
}

// next moves to the next member, it.m, and reports whether there is one.
func (v *validator) next(it *members) bool {
	if it.careful {
		if len(it.split) == 0 {
			return false
		}
		it.m, it.split = it.split[0], it.split[1:]
		return true
	}
	if it.i < 0 || v.bail {
		return false
	}
	raw, i := it.raw, it.i
	if i >= len(raw) || raw[i] != '"' {
		return v.stop(it)
	}
	// The key, as keyEnd reads it, inline for the common case of eight
	// bytes to look at.
	var kend int
	var h uint64
	if j := i + 1; j+8 <= len(raw) {
		w := binary.LittleEndian.Uint64(raw[j:])
		q, b := w^lanesQuote, w^lanesSlash
		if m := ((q-lanesLo)&^q | (b-lanesLo)&^b | w) & lanesHi; m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if raw[j+n] != '"' {
				return v.stop(it) // membersOf decodes such a key; so does careful mode
			}
			kend, h = j+n+1, w&(1<<(8*n)-1)^uint64(n)<<56
		} else if j+16 <= len(raw) {
			// Keys of 8 to 15 bytes are common too: one more word.
			w2 := binary.LittleEndian.Uint64(raw[j+8:])
			q, b := w2^lanesQuote, w2^lanesSlash
			if m := ((q-lanesLo)&^q | (b-lanesLo)&^b | w2) & lanesHi; m != 0 {
				n := bits.TrailingZeros64(m) >> 3
				if raw[j+8+n] != '"' {
					return v.stop(it)
				}
				kend, h = j+8+n+1, w^uint64(8+n)<<56
			} else {
				kend, h = keyEnd(raw, i)
			}
		} else {
			kend, h = keyEnd(raw, i)
		}
	} else {
		kend, h = keyEnd(raw, i)
	}
	if kend < 0 {
		return v.stop(it)
	}
	key := raw[i+1 : kend-1]
	h *= 0x9e3779b97f4a7c15
	b0, b1 := uint64(1)<<(h>>58), uint64(1)<<(h>>52&63)
	if it.keys != nil {
		if _, dup := it.keys[string(key)]; dup {
			return v.stop(it)
		}
		it.keys[string(key)] = struct{}{}
	} else {
		if it.seen[0]&b0 != 0 && it.seen[1]&b1 != 0 && v.repeated(it, i, key) {
			return v.stop(it)
		}
		it.seen[0] |= b0
		it.seen[1] |= b1
		if it.count++; it.count == manyKeys {
			it.keys = v.keysBefore(it, i)
			if it.keys != nil {
				it.keys[string(key)] = struct{}{}
			}
		}
	}
	j := kend
	if j >= len(raw) || raw[j] != ':' {
		if j = skipWS(raw, j); j >= len(raw) || raw[j] != ':' {
			return v.stop(it)
		}
	}
	j = skipWS(raw, j+1)
	var vend int
	plain := false
	if j < len(raw) && raw[j] == '"' {
		if vend = asciiEnd(raw, j); vend > 0 {
			plain = true
		} else if vend = asciiTail(raw, j); vend > 0 {
			plain = true
		} else {
			vend, plain = stringEnd(raw, j)
		}
	} else {
		vend = v.index.skipAt(raw, j, it.off)
	}
	if vend < 0 {
		return v.stop(it)
	}
	it.m.key, it.m.value, it.m.plain = key, raw[j:vend], plain
	j = skipWS(raw, vend)
	switch {
	case j >= len(raw):
		return v.stop(it)
	case raw[j] == '}':
		it.i = -1
	case raw[j] == ',':
		it.i = skipWS(raw, j+1)
	default:
		return v.stop(it)
	}
	return true
}

// stop ends a fast reading that met a text it does not handle.
func (v *validator) stop(it *members) bool {
	it.i = -1
	v.bail = true
	return false
}

// keyEnd returns the index just past the key literal starting at raw[i] ==
// '"' and a hash of the key: its first eight bytes and its length. It
// returns -1 for a key with an escape or a byte beyond ASCII (which
// membersOf decodes, so that its bytes are not the key) or one not closed.
// It looks at eight bytes at a time; equal keys have equal hashes whichever
// way they were read.
func keyEnd(raw []byte, i int) (end int, h uint64) {
	j := i + 1
	for j+8 <= len(raw) {
		w := binary.LittleEndian.Uint64(raw[j:])
		q, b := w^lanesQuote, w^lanesSlash
		// The first quote, backslash or byte beyond ASCII.
		if m := ((q-lanesLo)&^q | (b-lanesLo)&^b | w) & lanesHi; m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			if raw[j+n] != '"' {
				return -1, 0
			}
			if j == i+1 {
				h = w & (1<<(8*n) - 1)
			}
			return j + n + 1, h ^ uint64(j+n-i-1)<<56
		}
		if j == i+1 {
			h = w
		}
		j += 8
	}
	for ; j < len(raw); j++ {
		switch c := raw[j]; {
		case c == '"':
			return j + 1, h ^ uint64(j-i-1)<<56
		case c == '\\' || c >= 0x80:
			return -1, 0
		case j-i-1 < 8:
			h |= uint64(c) << (8 * (j - i - 1))
		}
	}
	return -1, 0
}

// bloomBits returns the bits of s in a two-word Bloom filter, from a hash of
// its length and three of its bytes: enough to tell apart the few keys of an
// object or strings of a list, with a comparison settling any hit.
func bloomBits(s []byte) (uint64, uint64) {
	h := uint64(len(s))
	if n := len(s); n > 0 {
		h = h<<24 | uint64(s[0])<<16 | uint64(s[n>>1])<<8 | uint64(s[n-1])
	}
	h *= 0x9e3779b97f4a7c15
	return 1 << (h >> 58), 1 << (h >> 52 & 63)
}

// repeated reports whether key is the key of a member of it before the one
// at offset at. Those members were read already, so the text is known to be
// well formed up to there.
func (v *validator) repeated(it *members, at int, key []byte) bool {
	found := false
	ok := v.keysUpTo(it, at, func(k []byte) bool {
		found = bytes.Equal(k, key)
		return !found
	})
	return found || !ok // a walk that cannot finish bails rather than guess
}

// keysBefore returns the set of the keys of the members of it before the
// one at offset at; nil in the cases where repeated would report a repeat
// to bail (which cannot happen): the caller then goes on with repeated.
func (v *validator) keysBefore(it *members, at int) map[string]struct{} {
	keys := make(map[string]struct{}, 2*manyKeys)
	if !v.keysUpTo(it, at, func(k []byte) bool { keys[string(k)] = struct{}{}; return true }) {
		return nil
	}
	return keys
}

// keysUpTo calls each with the key of every member of it before the one at
// offset at, in order, until each returns false. It reports false when the
// text cannot be walked there (which cannot happen: those members were
// read already).
func (v *validator) keysUpTo(it *members, at int, each func(key []byte) bool) bool {
	raw := it.raw
	for i := it.first; i >= 0 && i < at; {
		kend, _ := keyEnd(raw, i)
		if kend < 0 {
			return false
		}
		if !each(raw[i+1 : kend-1]) {
			return true
		}
		j := skipWS(raw, kend)
		j = skipWS(raw, j+1) // past ':'
		vend := v.index.skip(raw, j)
		if vend < 0 {
			return false
		}
		j = skipWS(raw, vend)
		i = skipWS(raw, j+1) // past ','
	}
	return true
}

// elements iterates over the elements of one array value.
type elements struct {
	raw []byte
	// i is the offset of the next element (fast mode), -1 after the last.
	i          int
	first, off int
	// all holds every element (careful mode).
	all     [][]byte
	careful bool
	// n is the index of the current element, el; plain is as for
	// rawMember.
	n     int
	el    []byte
	plain bool
}

// openArray starts reading raw as an array. When raw is not one, it reports
// that at the current path and returns false; nextElement then yields
// nothing.
func (v *validator) openArray(it *elements, raw []byte) bool {
	it.raw, it.i, it.n = raw, -1, -1
	if v.careful {
		els, ok := elementsOf(raw, nil, &v.index)
		if !ok {
			v.fail("must be an array, not %s", show(raw))
			return false
		}
		it.all, it.careful = els, true
		return true
	}
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		v.fail("must be an array, not %s", show(raw))
		return false
	}
	i = skipWS(raw, i+1)
	if i >= len(raw) || raw[i] != ']' {
		it.i = i
	}
	it.first, it.off = it.i, v.index.offsetOf(raw)
	return true
}

// nextElement moves to the next element, it.el (index it.n), and reports
// whether there is one.
func (v *validator) nextElement(it *elements) bool {
	if it.careful {
		if it.n+1 >= len(it.all) {
			return false
		}
		it.n++
		it.el = it.all[it.n]
		return true
	}
	if it.i < 0 || v.bail {
		return false
	}
	raw, i := it.raw, it.i
	var vend int
	it.plain = false
	if i < len(raw) && raw[i] == '"' {
		if vend = asciiEnd(raw, i); vend > 0 {
			it.plain = true
		} else if vend = asciiTail(raw, i); vend > 0 {
			it.plain = true
		} else {
			vend, it.plain = stringEnd(raw, i)
		}
	} else {
		vend = v.index.skipAt(raw, i, it.off)
	}
	if vend < 0 {
		return v.stopArray(it)
	}
	it.n++
	it.el = raw[i:vend]
	j := skipWS(raw, vend)
	switch {
	case j >= len(raw):
		return v.stopArray(it)
	case raw[j] == ']':
		it.i = -1
	case raw[j] == ',':
		it.i = skipWS(raw, j+1)
	default:
		return v.stopArray(it)
	}
	return true
}

// stopArray is stop for an array.
func (v *validator) stopArray(it *elements) bool {
	it.i = -1
	v.bail = true
	return false
}

// earlierString returns how many of the string elements before the current
// one come before the first equal to s (decoded), or -1 when none is: the
// "also at" of a repeated string in stringList, which counts only strings.
func (v *validator) earlierString(it *elements, s []byte) int {
	k := 0
	check := func(el []byte) bool {
		t, ok := plainString(el)
		if !ok {
			return false
		}
		if bytes.Equal(s, t) {
			return true
		}
		k++
		return false
	}
	if it.careful {
		for _, el := range it.all[:it.n] {
			if check(el) {
				return k
			}
		}
		return -1
	}
	raw := it.raw
	for i, n := it.first, 0; n < it.n && i >= 0 && i < len(raw); n++ {
		vend := v.index.skip(raw, i)
		if vend < 0 {
			return -1
		}
		if check(raw[i:vend]) {
			return k
		}
		j := skipWS(raw, vend)
		i = skipWS(raw, j+1) // past ','
	}
	return -1
}

// stringsThrough returns the strings among the elements of it up to the
// current one included, decoded as earlierString decodes them, each with
// its index among those strings at its first occurrence (what
// earlierString returns for it), and their number.
func (v *validator) stringsThrough(it *elements) (map[string]int, int) {
	first := make(map[string]int, 2*manyKeys)
	k := 0
	add := func(el []byte) {
		if t, ok := plainString(el); ok {
			if _, had := first[string(t)]; !had {
				first[string(t)] = k
			}
			k++
		}
	}
	if it.careful {
		for _, el := range it.all[:it.n+1] {
			add(el)
		}
		return first, k
	}
	raw := it.raw
	for i, n := it.first, 0; n <= it.n && i >= 0 && i < len(raw); n++ {
		vend := v.index.skip(raw, i)
		if vend < 0 {
			break
		}
		add(raw[i:vend])
		j := skipWS(raw, vend)
		i = skipWS(raw, j+1) // past ','
	}
	return first, k
}

// Eight-byte lanes for finding a byte in a word (as jsonx does).
const (
	lanesLo    = 0x0101010101010101
	lanesHi    = 0x8080808080808080
	lanesQuote = '"' * lanesLo
	lanesSlash = '\\' * lanesLo
	lanesCtl   = 0x20 * lanesLo
)

// asciiEnd returns the index just past the string literal starting at
// raw[i] == '"' when its contents are plain ASCII and a word of eight
// bytes within raw holds its closing quote, else -1. One word test finds
// the first quote, backslash, control character or byte beyond ASCII: the
// "has zero byte" identity (lowest set bit exact) for the first two, the
// "has byte less than" one for the third, the high bit itself for the
// last. Refusing a control character, which valid text never holds in a
// string, makes every literal it accepts one json.Valid accepts: the lean
// reading the scan does validates its strings with it (see leanScan).
func asciiEnd(raw []byte, i int) int {
	for j := i + 1; j+8 <= len(raw); j += 8 {
		w := binary.LittleEndian.Uint64(raw[j:])
		if m := (((w ^ lanesQuote) - lanesLo) | ((w ^ lanesSlash) - lanesLo) | (w - lanesCtl) | w) & lanesHi; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			if raw[j] != '"' {
				return -1
			}
			return j + 1
		}
	}
	return -1
}

// asciiTail is asciiEnd for a literal whose closing quote lies in the last
// eight bytes of raw, as the last value of every object and array does: the
// last word of raw, shifted past the bytes already looked at, holds it.
// Shifting fills with zero bytes, which the control character test flags,
// but only in lanes above the bytes of raw: the lowest lane flagged is
// exact, so a quote among those bytes is found first.
func asciiTail(raw []byte, i int) int {
	j := i + 1
	for ; j+8 <= len(raw); j += 8 {
		w := binary.LittleEndian.Uint64(raw[j:])
		if (((w^lanesQuote)-lanesLo)|((w^lanesSlash)-lanesLo)|(w-lanesCtl)|w)&lanesHi != 0 {
			return -1 // asciiEnd looked here
		}
	}
	if j >= len(raw) || len(raw) < 8 {
		return -1
	}
	w := binary.LittleEndian.Uint64(raw[len(raw)-8:]) >> (8 * uint(j+8-len(raw)))
	if m := (((w ^ lanesQuote) - lanesLo) | ((w ^ lanesSlash) - lanesLo) | (w - lanesCtl) | w) & lanesHi; m != 0 {
		j += bits.TrailingZeros64(m) >> 3
		if j < len(raw) && raw[j] == '"' {
			return j + 1
		}
	}
	return -1
}

// stringEnd returns the index just past the string literal starting at
// raw[i] == '"', as skipStr does, and whether its contents are plain ASCII:
// no escapes, no control character and no byte beyond 0x7f, so that they
// are the decoded string (and the literal one json.Valid accepts, as
// asciiEnd says). It looks at eight bytes at a time. Callers try asciiEnd
// first, which settles the common literal without a call.
func stringEnd(raw []byte, i int) (end int, ascii bool) {
	j := i + 1
	// high has a top bit set for a byte before j beyond ASCII or below
	// 0x20. The "has byte less than" identity flags lanes exactly up to
	// the first control character and may flag some after it: a lane
	// flagged below the special byte found means a control character
	// there.
	var high uint64
	for {
		if j+8 > len(raw) {
			for j < len(raw) && raw[j] != '"' && raw[j] != '\\' {
				high |= uint64(raw[j] & 0x80)
				if raw[j] < 0x20 {
					high |= 0x80
				}
				j++
			}
			break
		}
		w := binary.LittleEndian.Uint64(raw[j:])
		q, b := w^lanesQuote, w^lanesSlash
		bad := (w | (w-lanesCtl)&^w) & lanesHi
		if m := ((q-lanesLo)&^q | (b-lanesLo)&^b) & lanesHi; m != 0 {
			n := bits.TrailingZeros64(m) >> 3
			high |= bad & (1<<(8*n) - 1)
			j += n
			break
		}
		high |= bad
		j += 8
	}
	switch {
	case j >= len(raw):
		return -1, false
	case raw[j] == '\\':
		return skipStr(raw, i), false
	}
	return j + 1, high == 0
}
