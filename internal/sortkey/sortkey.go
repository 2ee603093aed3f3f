// Package sortkey turns the first bytes of a string into an integer that
// orders as the string does, so that sorts and merges of many names compare
// two integers for most pairs instead of the names' bytes, which are seldom
// in the processor's cache.
package sortkey

// Prefix8 is the first eight bytes of s as a big-endian integer, padded with
// zero bytes. Two strings whose prefixes differ compare as their prefixes
// do: the first byte where the prefixes differ is either a byte where the
// strings differ or, in the shorter string, the padding zero where the
// longer one has a byte greater than zero. Only strings with equal prefixes
// need their bytes compared.
func Prefix8(s string) uint64 {
	if len(s) >= 8 {
		// Eight loads the compiler fuses into one, without the copy below
		// (a call to memmove).
		return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
			uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
	}
	// A shorter string, byte by byte: fewer than eight shifts cost less
	// than the copy into a padded word they replace (a call to memmove).
	var v uint64
	for i := 0; i < len(s); i++ {
		v |= uint64(s[i]) << (56 - 8*i)
	}
	return v
}
