package sha256x

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// sums runs SumAll over msgs and returns the digests.
func sums(msgs [][]byte) [][Size]byte {
	got := make([][Size]byte, len(msgs))
	out := make([]*[Size]byte, len(msgs))
	for i := range out {
		out[i] = &got[i]
	}
	SumAll(msgs, out)
	return got
}

// message is n bytes that differ from message to message and from byte to
// byte, so that a block read from the wrong lane or offset changes a digest.
func message(seed, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(seed*131 + i*7 + i>>8)
	}
	return b
}

// TestSumAllLengths covers every length around the block and padding
// boundaries, in batches that fill the lanes unevenly: messages of one
// length end together, those of mixed lengths one by one.
func TestSumAllLengths(t *testing.T) {
	if !haveLanes {
		t.Log("no AVX-512 here: SumAll hashes each message alone")
	}
	var mixed [][]byte
	for n := 0; n <= 200; n++ {
		mixed = append(mixed, message(n, n))
		same := make([][]byte, 21)
		for i := range same {
			same[i] = message(i, n)
		}
		for i, got := range sums(same) {
			if want := sha256.Sum256(same[i]); got != want {
				t.Fatalf("length %d, message %d of 21: %x, want %x", n, i, got, want)
			}
		}
	}
	for i, got := range sums(mixed) {
		if want := sha256.Sum256(mixed[i]); got != want {
			t.Fatalf("mixed lengths, message %d (%d bytes): %x, want %x", i, len(mixed[i]), got, want)
		}
	}
}

// TestSumAllProperty holds SumAll to crypto/sha256 on random batches:
// any number of messages (fewer than the lanes, more, a multiple), of any
// lengths, sharing their bytes or not.
func TestSumAllProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 70).Draw(t, "messages")
		pool := rapid.SliceOfN(rapid.Byte(), 0, 2000).Draw(t, "bytes")
		msgs := make([][]byte, n)
		for i := range msgs {
			lo := rapid.IntRange(0, len(pool)).Draw(t, "from")
			hi := rapid.IntRange(lo, len(pool)).Draw(t, "to")
			msgs[i] = pool[lo:hi]
		}
		for i, got := range sums(msgs) {
			if want := sha256.Sum256(msgs[i]); got != want {
				t.Fatalf("message %d of %d (%d bytes): %x, want %x", i, n, len(msgs[i]), got, want)
			}
		}
	})
}

func TestSumAllLengthMismatch(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("SumAll did not panic on 2 messages and 1 digest")
		}
	}()
	SumAll(make([][]byte, 2), make([]*[Size]byte, 1))
}

func TestPad(t *testing.T) {
	for _, tc := range []struct{ rest, blocks int }{{0, 1}, {55, 1}, {56, 2}, {63, 2}} {
		var b [128]byte
		for i := range b {
			b[i] = 0xaa // pad must clear what it does not write
		}
		rest := message(1, tc.rest)
		if got := pad(&b, rest, 64+tc.rest); got != tc.blocks {
			t.Errorf("pad of %d bytes: %d blocks, want %d", tc.rest, got, tc.blocks)
		}
		// The padded tail is what crypto/sha256 hashes after the whole
		// blocks: a 64-byte prefix then the tail gives the same digest.
		full := append(message(2, 64), rest...)
		h := sha256.New()
		h.Write(full)
		want := h.Sum(nil)
		got := fmt.Sprintf("%x", sums([][]byte{full, full, full, full, full})[0])
		if got != fmt.Sprintf("%x", want) {
			t.Errorf("%d-byte tail: digest %s, want %x", tc.rest, got, want)
		}
	}
}

func BenchmarkSumAll(b *testing.B) {
	for _, c := range []struct{ n, size int }{{1000, 100}, {1000, 760}, {1000, 4096}, {8, 760}, {16, 760}, {32, 760}} {
		n, size := c.n, c.size
		msgs := make([][]byte, n)
		for i := range msgs {
			msgs[i] = message(i, size)
		}
		out := make([]*[Size]byte, len(msgs))
		digests := make([][Size]byte, len(msgs))
		for i := range out {
			out[i] = &digests[i]
		}
		b.Run(fmt.Sprintf("%dx%d/lanes", n, size), func(b *testing.B) {
			b.SetBytes(int64(size * len(msgs)))
			for b.Loop() {
				SumAll(msgs, out)
			}
		})
		b.Run(fmt.Sprintf("%dx%d/crypto", n, size), func(b *testing.B) {
			b.SetBytes(int64(size * len(msgs)))
			for b.Loop() {
				for i, m := range msgs {
					*out[i] = sha256.Sum256(m)
				}
			}
		})
	}
}

// FuzzSumAll splits the input into messages at each 0xff byte (so that
// the fuzzer controls how many there are and how long each is) and holds
// SumAll to crypto/sha256 on them; copies of the batch fill the lanes.
func FuzzSumAll(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("abc"))
	f.Add(message(3, 55))
	f.Add(append(append(message(4, 56), 0xff), message(5, 64)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var msgs [][]byte
		for len(msgs) < minLanes {
			msgs = append(msgs, bytes.Split(data, []byte{0xff})...)
		}
		for i, got := range sums(msgs) {
			if want := sha256.Sum256(msgs[i]); got != want {
				t.Fatalf("message %d of %d (%d bytes): %x, want %x", i, len(msgs), len(msgs[i]), got, want)
			}
		}
	})
}
