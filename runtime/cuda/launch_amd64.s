#include "textflag.h"

// launchTrampoline calls frame.fn(f, gx, gy, gz, bx, by, bz, shared,
// stream, params, extra) (cuLaunchKernel's 11 word-sized arguments) with
// the System V amd64 ABI and stores the result in frame.r. runtime.cgocall
// runs it on the g0 stack with the frame's address in DI; the frame layout
// is launchFrame's (launch_amd64.go).
TEXT ·launchTrampoline(SB), NOSPLIT|NOFRAME, $0-0
	PUSHQ BP
	MOVQ  SP, BP
	PUSHQ BX                // callee-saved: holds the frame across the call
	SUBQ  $40, SP           // 5 stack arguments; keeps SP 16-byte aligned at the CALL
	MOVQ  DI, BX
	MOVQ  56(BX), AX        // bz
	MOVQ  AX, 0(SP)
	MOVQ  64(BX), AX        // shared
	MOVQ  AX, 8(SP)
	MOVQ  72(BX), AX        // stream
	MOVQ  AX, 16(SP)
	MOVQ  80(BX), AX        // params
	MOVQ  AX, 24(SP)
	MOVQ  88(BX), AX        // extra
	MOVQ  AX, 32(SP)
	MOVQ  8(BX), DI         // f
	MOVQ  16(BX), SI        // gx
	MOVQ  24(BX), DX        // gy
	MOVQ  32(BX), CX        // gz
	MOVQ  40(BX), R8        // bx
	MOVQ  48(BX), R9        // by
	MOVQ  0(BX), R10        // fn
	XORL  AX, AX            // no vector registers used (variadic convention)
	CALL  R10
	MOVQ  AX, 96(BX)        // r
	ADDQ  $40, SP
	POPQ  BX
	POPQ  BP
	RET

// launchTrampolineABI0 holds launchTrampoline's address for runtime.cgocall.
GLOBL ·launchTrampolineABI0(SB), NOPTR|RODATA, $8
DATA  ·launchTrampolineABI0(SB)/8, $·launchTrampoline(SB)
