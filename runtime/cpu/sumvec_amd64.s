#include "textflag.h"

// The loops of hostBlocks's main loop with AVX: a[t] += x[t] (x converted
// to f64, squared first for the sq forms) for t below len(x), 16 elements
// an iteration, one element at a time for the rest. Each a[t] gets one
// add, as in the Go loop: VCVTPS2PD is exact, and VADDPD and VMULPD round
// each lane as ADDSD and MULSD do (no FMA), so the bits are the Go loop's.
// len(a) >= len(x) (the caller's slices have one length).

// ADDRUN is one function's loop: LOAD(E, R) loads the 4 elements from E
// on as f64 into R, LOADS one into X0; SQ and SQS square them (or not).
#define ADDRUN(LOAD, LOADS, SQ, SQS) \
	MOVQ a_base+0(FP), DI \
	MOVQ x_base+24(FP), SI \
	MOVQ x_len+32(FP), CX \
	XORQ AX, AX \
loop: \
	LEAQ 16(AX), DX \
	CMPQ DX, CX \
	JHI  tail \
	LOAD(0, Y0) \
	LOAD(4, Y1) \
	LOAD(8, Y2) \
	LOAD(12, Y3) \
	SQ(Y0) \
	SQ(Y1) \
	SQ(Y2) \
	SQ(Y3) \
	VADDPD (DI)(AX*8), Y0, Y0 \
	VADDPD 32(DI)(AX*8), Y1, Y1 \
	VADDPD 64(DI)(AX*8), Y2, Y2 \
	VADDPD 96(DI)(AX*8), Y3, Y3 \
	VMOVUPD Y0, (DI)(AX*8) \
	VMOVUPD Y1, 32(DI)(AX*8) \
	VMOVUPD Y2, 64(DI)(AX*8) \
	VMOVUPD Y3, 96(DI)(AX*8) \
	MOVQ DX, AX \
	JMP  loop \
tail: \
	CMPQ AX, CX \
	JHS  done \
	LOADS(X0) \
	SQS(X0) \
	VADDSD (DI)(AX*8), X0, X0 \
	VMOVSD X0, (DI)(AX*8) \
	INCQ AX \
	JMP  tail \
done: \
	VZEROUPPER \
	RET

#define CVT32(E, R) VCVTPS2PD (E*4)(SI)(AX*4), R
#define CVT32S(R) VCVTSS2SD (SI)(AX*4), R, R
#define MOV64(E, R) VMOVUPD (E*8)(SI)(AX*8), R
#define MOV64S(R) VMOVSD (SI)(AX*8), R
#define SQ(R) VMULPD R, R, R
#define SQS(R) VMULSD R, R, R
#define NOSQ(R)

// func addF32(a []float64, x []float32)
TEXT ·addF32(SB), NOSPLIT, $0-48
	ADDRUN(CVT32, CVT32S, NOSQ, NOSQ)

// func sqAddF32(a []float64, x []float32)
TEXT ·sqAddF32(SB), NOSPLIT, $0-48
	ADDRUN(CVT32, CVT32S, SQ, SQS)

// func addF64(a []float64, x []float64)
TEXT ·addF64(SB), NOSPLIT, $0-48
	ADDRUN(MOV64, MOV64S, NOSQ, NOSQ)

// func sqAddF64(a []float64, x []float64)
TEXT ·sqAddF64(SB), NOSPLIT, $0-48
	ADDRUN(MOV64, MOV64S, SQ, SQS)

// func merge4(v, a0, a1, a2, a3 *float64, n int)
// v[t] = (a0[t] + a1[t]) + (a2[t] + a3[t]) for t below n, a multiple of
// 8 (of ir.WarpSize here): hostBlocks's merge of four accumulators, the
// same three adds a lane.
TEXT ·merge4(SB), NOSPLIT, $0-48
	MOVQ v+0(FP), DI
	MOVQ a0+8(FP), R8
	MOVQ a1+16(FP), R9
	MOVQ a2+24(FP), R10
	MOVQ a3+32(FP), R11
	MOVQ n+40(FP), CX
	SHLQ $3, CX
	XORQ AX, AX
	JMP  test
merge:
	VMOVUPD (R8)(AX*1), Y0
	VMOVUPD 32(R8)(AX*1), Y1
	VMOVUPD (R10)(AX*1), Y2
	VMOVUPD 32(R10)(AX*1), Y3
	VADDPD  (R9)(AX*1), Y0, Y0
	VADDPD  32(R9)(AX*1), Y1, Y1
	VADDPD  (R11)(AX*1), Y2, Y2
	VADDPD  32(R11)(AX*1), Y3, Y3
	VADDPD  Y2, Y0, Y0
	VADDPD  Y3, Y1, Y1
	VMOVUPD Y0, (DI)(AX*1)
	VMOVUPD Y1, 32(DI)(AX*1)
	ADDQ $64, AX
test:
	CMPQ AX, CX
	JLO  merge
	VZEROUPPER
	RET
