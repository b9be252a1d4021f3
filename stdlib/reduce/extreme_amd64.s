#include "textflag.h"

// floatExtreme's loop with AVX: the max (or min) of x, len(x) a positive
// multiple of the elements an iteration takes (32 f32, 16 f64), and
// whether a NaN is among them. Four bounds of a vector each take one
// element in 32 (16); VMAXPS/VMINPS drop a NaN in some operand orders,
// so an unordered compare of each pair of loads, OR'd into Y4, finds
// them instead: with a NaN the caller discards the extreme. Without one
// the extreme is the same value in any order, but for the sign of a
// zero, which extremeFloat settles (hasZeros).

// EXTREME is one function's body: OP the vector max or min, CMP the
// unordered compare, W the element size, R the bound reduced to X0's
// lowest element, STORE its store.
#define EXTREME(OP, CMP, W, R, STORE, NANOFF) \
	MOVQ x_base+0(FP), SI \
	MOVQ x_len+8(FP), CX \
	SHLQ $W, CX \
	VMOVUPS (SI), Y0 \
	VMOVAPS Y0, Y1 \
	VMOVAPS Y0, Y2 \
	VMOVAPS Y0, Y3 \
	VXORPS Y4, Y4, Y4 \
	XORQ AX, AX \
loop: \
	VMOVUPS (SI)(AX*1), Y5 \
	VMOVUPS 32(SI)(AX*1), Y6 \
	VMOVUPS 64(SI)(AX*1), Y7 \
	VMOVUPS 96(SI)(AX*1), Y8 \
	CMP $3, Y6, Y5, Y9 \
	CMP $3, Y8, Y7, Y10 \
	VORPS Y9, Y4, Y4 \
	VORPS Y10, Y4, Y4 \
	OP Y5, Y0, Y0 \
	OP Y6, Y1, Y1 \
	OP Y7, Y2, Y2 \
	OP Y8, Y3, Y3 \
	ADDQ $128, AX \
	CMPQ AX, CX \
	JLO  loop \
	OP Y1, Y0, Y0 \
	OP Y3, Y2, Y2 \
	OP Y2, Y0, Y0 \
	VEXTRACTF128 $1, Y0, X1 \
	OP X1, X0, X0 \
	R \
	STORE X0, m+24(FP) \
	VPTEST Y4, Y4 \
	SETNE nan+NANOFF(FP) \
	VZEROUPPER \
	RET

// PSLANES and PDLANES reduce X0's four f32 or two f64 with OP.
#define PSLANES(OP) VPERMILPS $0x4E, X0, X1; OP X1, X0, X0; VPERMILPS $0xB1, X0, X1; OP X1, X0, X0
#define PDLANES(OP) VPERMILPD $1, X0, X1; OP X1, X0, X0

// func maxF32(x []float32) (m float32, nan bool)
TEXT ·maxF32(SB), NOSPLIT, $0-29
	EXTREME(VMAXPS, VCMPPS, 2, PSLANES(VMAXPS), VMOVSS, 28)

// func minF32(x []float32) (m float32, nan bool)
TEXT ·minF32(SB), NOSPLIT, $0-29
	EXTREME(VMINPS, VCMPPS, 2, PSLANES(VMINPS), VMOVSS, 28)

// func maxF64(x []float64) (m float64, nan bool)
TEXT ·maxF64(SB), NOSPLIT, $0-33
	EXTREME(VMAXPD, VCMPPD, 3, PDLANES(VMAXPD), VMOVSD, 32)

// func minF64(x []float64) (m float64, nan bool)
TEXT ·minF64(SB), NOSPLIT, $0-33
	EXTREME(VMINPD, VCMPPD, 3, PDLANES(VMINPD), VMOVSD, 32)
