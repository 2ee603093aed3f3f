//go:build amd64 && !purego

#include "textflag.h"
// block16 runs the SHA-256 compression function (FIPS 180-4, 6.2.2) on one
// 64-byte block for each of 16 messages at once, one message per 32-bit lane
// of the ZMM registers:
//
//	Z0-Z7   the working variables a-h of the 16 lanes (their names rotate
//	        from round to round instead of their contents moving)
//	Z8-Z23  the message schedule W[t mod 16]
//	Z24-Z27 temporaries
//	Z28-Z29 the 16 block addresses, as two vectors of 8
//	Z30     the shuffle that turns each 32-bit word big-endian
//
// Word t of every lane's block is gathered into one register, so the
// rounds are the scalar algorithm with every operation 16 wide. Lanes
// with no message are computed all the same (their blocks must be
// readable); their state is set afresh when a message starts in them.

// ROUND is round t: h and d take T1, h then T1+T2 (the next a).
#define ROUND(a, b, c, d, e, f, g, h, w, kt) \
	VPADDD.BCST kt(CX), w, Z24 \
	VPADDD      Z24, h, h \
	VPRORD      $6, e, Z25 \
	VPRORD      $11, e, Z26 \
	VPRORD      $25, e, Z27 \
	VPTERNLOGD  $0x96, Z27, Z26, Z25 \
	VPADDD      Z25, h, h \
	VMOVDQA32   e, Z25 \
	VPTERNLOGD  $0xca, g, f, Z25 \
	VPADDD      Z25, h, h \
	VPADDD      h, d, d \
	VPRORD      $2, a, Z25 \
	VPRORD      $13, a, Z26 \
	VPRORD      $22, a, Z27 \
	VPTERNLOGD  $0x96, Z27, Z26, Z25 \
	VPADDD      Z25, h, h \
	VMOVDQA32   a, Z25 \
	VPTERNLOGD  $0xe8, c, b, Z25 \
	VPADDD      Z25, h, h

// SCHED makes W[t] in w16 (which held W[t-16]) from W[t-15], W[t-7] and
// W[t-2].
#define SCHED(w16, w15, w7, w2) \
	VPRORD     $7, w15, Z25 \
	VPRORD     $18, w15, Z26 \
	VPSRLD     $3, w15, Z27 \
	VPTERNLOGD $0x96, Z27, Z26, Z25 \
	VPADDD     Z25, w16, w16 \
	VPADDD     w7, w16, w16 \
	VPRORD     $17, w2, Z25 \
	VPRORD     $19, w2, Z26 \
	VPSRLD     $10, w2, Z27 \
	VPTERNLOGD $0x96, Z27, Z26, Z25 \
	VPADDD     Z25, w16, w16

// LOAD gathers word t (at byte off) of the 16 blocks into w, big-endian.
#define LOAD(w, off) \
	KXNORW       K1, K1, K1 \
	VPGATHERQD   off(SI)(Z28*1), K1, Y24 \
	KXNORW       K1, K1, K1 \
	VPGATHERQD   off(SI)(Z29*1), K1, Y25 \
	VINSERTI64X4 $1, Y25, Z24, Z24 \
	VPSHUFB      Z30, Z24, w

// func block16(state *[8][16]uint32, blocks *[16]*byte)
TEXT ·block16(SB), NOSPLIT, $0-16
	MOVQ state+0(FP), DI
	MOVQ blocks+8(FP), AX
	LEAQ ·k256(SB), CX
	XORQ SI, SI
	VMOVDQU64 (AX), Z28
	VMOVDQU64 64(AX), Z29
	VMOVDQU64 ·bswap32(SB), Z30
	VMOVDQU32 0(DI), Z0
	VMOVDQU32 64(DI), Z1
	VMOVDQU32 128(DI), Z2
	VMOVDQU32 192(DI), Z3
	VMOVDQU32 256(DI), Z4
	VMOVDQU32 320(DI), Z5
	VMOVDQU32 384(DI), Z6
	VMOVDQU32 448(DI), Z7
	LOAD(Z8, 0)
	LOAD(Z9, 4)
	LOAD(Z10, 8)
	LOAD(Z11, 12)
	LOAD(Z12, 16)
	LOAD(Z13, 20)
	LOAD(Z14, 24)
	LOAD(Z15, 28)
	LOAD(Z16, 32)
	LOAD(Z17, 36)
	LOAD(Z18, 40)
	LOAD(Z19, 44)
	LOAD(Z20, 48)
	LOAD(Z21, 52)
	LOAD(Z22, 56)
	LOAD(Z23, 60)
	ROUND(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, 0)
	ROUND(Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z9, 4)
	ROUND(Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z10, 8)
	ROUND(Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z11, 12)
	ROUND(Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z12, 16)
	ROUND(Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z13, 20)
	ROUND(Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z14, 24)
	ROUND(Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z15, 28)
	ROUND(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z16, 32)
	ROUND(Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z17, 36)
	ROUND(Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z18, 40)
	ROUND(Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z19, 44)
	ROUND(Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z20, 48)
	ROUND(Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z21, 52)
	ROUND(Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z22, 56)
	ROUND(Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z23, 60)

	// Rounds 16 to 63, in three turns of 16: after 16 rounds the names of
	// the working variables and of the schedule are back where they were,
	// and CX moves on to the turn's 16 round constants.
	MOVQ $3, BX
rounds:
	ADDQ $64, CX
	SCHED(Z8, Z9, Z17, Z22)
	ROUND(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, 0)
	SCHED(Z9, Z10, Z18, Z23)
	ROUND(Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z9, 4)
	SCHED(Z10, Z11, Z19, Z8)
	ROUND(Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z10, 8)
	SCHED(Z11, Z12, Z20, Z9)
	ROUND(Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z11, 12)
	SCHED(Z12, Z13, Z21, Z10)
	ROUND(Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z12, 16)
	SCHED(Z13, Z14, Z22, Z11)
	ROUND(Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z13, 20)
	SCHED(Z14, Z15, Z23, Z12)
	ROUND(Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z14, 24)
	SCHED(Z15, Z16, Z8, Z13)
	ROUND(Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z15, 28)
	SCHED(Z16, Z17, Z9, Z14)
	ROUND(Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z16, 32)
	SCHED(Z17, Z18, Z10, Z15)
	ROUND(Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z17, 36)
	SCHED(Z18, Z19, Z11, Z16)
	ROUND(Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z5, Z18, 40)
	SCHED(Z19, Z20, Z12, Z17)
	ROUND(Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z4, Z19, 44)
	SCHED(Z20, Z21, Z13, Z18)
	ROUND(Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z3, Z20, 48)
	SCHED(Z21, Z22, Z14, Z19)
	ROUND(Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z2, Z21, 52)
	SCHED(Z22, Z23, Z15, Z20)
	ROUND(Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z1, Z22, 56)
	SCHED(Z23, Z8, Z16, Z21)
	ROUND(Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z0, Z23, 60)
	DECQ BX
	JNZ rounds
	VPADDD 0(DI), Z0, Z0
	VMOVDQU32 Z0, 0(DI)
	VPADDD 64(DI), Z1, Z1
	VMOVDQU32 Z1, 64(DI)
	VPADDD 128(DI), Z2, Z2
	VMOVDQU32 Z2, 128(DI)
	VPADDD 192(DI), Z3, Z3
	VMOVDQU32 Z3, 192(DI)
	VPADDD 256(DI), Z4, Z4
	VMOVDQU32 Z4, 256(DI)
	VPADDD 320(DI), Z5, Z5
	VMOVDQU32 Z5, 320(DI)
	VPADDD 384(DI), Z6, Z6
	VMOVDQU32 Z6, 384(DI)
	VPADDD 448(DI), Z7, Z7
	VMOVDQU32 Z7, 448(DI)
	VZEROUPPER
	RET

// The round constants of FIPS 180-4, 4.2.2.
DATA ·k256+0(SB)/4, $0x428a2f98
DATA ·k256+4(SB)/4, $0x71374491
DATA ·k256+8(SB)/4, $0xb5c0fbcf
DATA ·k256+12(SB)/4, $0xe9b5dba5
DATA ·k256+16(SB)/4, $0x3956c25b
DATA ·k256+20(SB)/4, $0x59f111f1
DATA ·k256+24(SB)/4, $0x923f82a4
DATA ·k256+28(SB)/4, $0xab1c5ed5
DATA ·k256+32(SB)/4, $0xd807aa98
DATA ·k256+36(SB)/4, $0x12835b01
DATA ·k256+40(SB)/4, $0x243185be
DATA ·k256+44(SB)/4, $0x550c7dc3
DATA ·k256+48(SB)/4, $0x72be5d74
DATA ·k256+52(SB)/4, $0x80deb1fe
DATA ·k256+56(SB)/4, $0x9bdc06a7
DATA ·k256+60(SB)/4, $0xc19bf174
DATA ·k256+64(SB)/4, $0xe49b69c1
DATA ·k256+68(SB)/4, $0xefbe4786
DATA ·k256+72(SB)/4, $0x0fc19dc6
DATA ·k256+76(SB)/4, $0x240ca1cc
DATA ·k256+80(SB)/4, $0x2de92c6f
DATA ·k256+84(SB)/4, $0x4a7484aa
DATA ·k256+88(SB)/4, $0x5cb0a9dc
DATA ·k256+92(SB)/4, $0x76f988da
DATA ·k256+96(SB)/4, $0x983e5152
DATA ·k256+100(SB)/4, $0xa831c66d
DATA ·k256+104(SB)/4, $0xb00327c8
DATA ·k256+108(SB)/4, $0xbf597fc7
DATA ·k256+112(SB)/4, $0xc6e00bf3
DATA ·k256+116(SB)/4, $0xd5a79147
DATA ·k256+120(SB)/4, $0x06ca6351
DATA ·k256+124(SB)/4, $0x14292967
DATA ·k256+128(SB)/4, $0x27b70a85
DATA ·k256+132(SB)/4, $0x2e1b2138
DATA ·k256+136(SB)/4, $0x4d2c6dfc
DATA ·k256+140(SB)/4, $0x53380d13
DATA ·k256+144(SB)/4, $0x650a7354
DATA ·k256+148(SB)/4, $0x766a0abb
DATA ·k256+152(SB)/4, $0x81c2c92e
DATA ·k256+156(SB)/4, $0x92722c85
DATA ·k256+160(SB)/4, $0xa2bfe8a1
DATA ·k256+164(SB)/4, $0xa81a664b
DATA ·k256+168(SB)/4, $0xc24b8b70
DATA ·k256+172(SB)/4, $0xc76c51a3
DATA ·k256+176(SB)/4, $0xd192e819
DATA ·k256+180(SB)/4, $0xd6990624
DATA ·k256+184(SB)/4, $0xf40e3585
DATA ·k256+188(SB)/4, $0x106aa070
DATA ·k256+192(SB)/4, $0x19a4c116
DATA ·k256+196(SB)/4, $0x1e376c08
DATA ·k256+200(SB)/4, $0x2748774c
DATA ·k256+204(SB)/4, $0x34b0bcb5
DATA ·k256+208(SB)/4, $0x391c0cb3
DATA ·k256+212(SB)/4, $0x4ed8aa4a
DATA ·k256+216(SB)/4, $0x5b9cca4f
DATA ·k256+220(SB)/4, $0x682e6ff3
DATA ·k256+224(SB)/4, $0x748f82ee
DATA ·k256+228(SB)/4, $0x78a5636f
DATA ·k256+232(SB)/4, $0x84c87814
DATA ·k256+236(SB)/4, $0x8cc70208
DATA ·k256+240(SB)/4, $0x90befffa
DATA ·k256+244(SB)/4, $0xa4506ceb
DATA ·k256+248(SB)/4, $0xbef9a3f7
DATA ·k256+252(SB)/4, $0xc67178f2
GLOBL ·k256(SB), RODATA|NOPTR, $256

// Reverses the bytes of each 32-bit word, in each 128-bit lane.
DATA ·bswap32+0(SB)/8, $0x0405060700010203
DATA ·bswap32+8(SB)/8, $0x0c0d0e0f08090a0b
DATA ·bswap32+16(SB)/8, $0x0405060700010203
DATA ·bswap32+24(SB)/8, $0x0c0d0e0f08090a0b
DATA ·bswap32+32(SB)/8, $0x0405060700010203
DATA ·bswap32+40(SB)/8, $0x0c0d0e0f08090a0b
DATA ·bswap32+48(SB)/8, $0x0405060700010203
DATA ·bswap32+56(SB)/8, $0x0c0d0e0f08090a0b
GLOBL ·bswap32(SB), RODATA|NOPTR, $64
