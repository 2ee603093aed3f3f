package sortkey

import (
	"cmp"
	"encoding/binary"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestPrefix8: Prefix8 is the zero-padded big-endian reading of the first
// eight bytes, and strings whose prefixes differ compare as the prefixes do.
func TestPrefix8(t *testing.T) {
	str := rapid.StringOfN(rapid.SampledFrom([]rune{0, 'a', 'b', 'z', '/', '.', 0x7f, 'é'}), 0, 12, -1)
	rapid.Check(t, func(t *rapid.T) {
		a, b := str.Draw(t, "a"), str.Draw(t, "b")
		var buf [8]byte
		copy(buf[:], a)
		if got, want := Prefix8(a), binary.BigEndian.Uint64(buf[:]); got != want {
			t.Fatalf("Prefix8(%q) = %#x, want %#x", a, got, want)
		}
		if pa, pb := Prefix8(a), Prefix8(b); pa != pb && cmp.Compare(pa, pb) != strings.Compare(a, b) {
			t.Fatalf("Prefix8(%q) = %#x and Prefix8(%q) = %#x order unlike the strings", a, pa, b, pb)
		}
	})
}
