//go:build amd64 && !purego

package sha256x

import "golang.org/x/sys/cpu"

// haveLanes says whether block16 may run: set once, from what the CPU and
// the operating system support, and never changed.
var haveLanes = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW

// block16 runs the compression function on the 64-byte block at blocks[l]
// for each lane l, updating state[·][l].
//
//go:noescape
func block16(state *[8][16]uint32, blocks *[16]*byte)
