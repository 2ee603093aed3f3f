//go:build !amd64 || purego

package sha256x

const haveLanes = false

func block16(state *[8][16]uint32, blocks *[16]*byte) {
	panic("sha256x: no lanes on this platform")
}
