package cpu

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

// instFn executes one instruction over the active lanes of a block.
type instFn func(fr *frame, m mask) error

type integer interface {
	~uint8 | ~int32 | ~int64 | ~uint32 | ~uint64
}

type float interface{ ~float32 | ~float64 }

type number interface{ integer | float }

// instOf2 wraps a two-register loop as an instruction.
func instOf2(k func(*frame, mask, int, int), d, a int) instFn {
	return func(fr *frame, m mask) error { k(fr, m, d, a); return nil }
}

// kFill sets the active lanes of d to v (an element of size 1, 4 or 8).
func kFill[T uint8 | uint32 | uint64](fr *frame, m mask, d int, v T) {
	D := vec[T](fr, d)
	if m.all {
		for i := range D[:fr.n] {
			D[i] = v
		}
		return
	}
	for _, i := range m.idx {
		D[i] = v
	}
}

// fillBits fills d (of type t) with the raw bits v (value in the low bytes).
func fillBits(fr *frame, m mask, t ir.Type, d int, v uint64) {
	switch t.Size() {
	case 1:
		kFill(fr, m, d, uint8(v))
	case 4:
		kFill(fr, m, d, uint32(v))
	default:
		kFill(fr, m, d, v)
	}
}

// kMov copies register a to d; moves only need the element size.
func kMov[T uint8 | uint32 | uint64](fr *frame, m mask, d, a int) {
	D, A := vec[T](fr, d), vec[T](fr, a)
	if m.all {
		copy(D[:fr.n], A[:fr.n])
		return
	}
	for _, i := range m.idx {
		D[i] = A[i]
	}
}

func mkMov(t ir.Type, d, a int) instFn {
	switch t.Size() {
	case 1:
		return instOf2(kMov[uint8], d, a)
	case 4:
		return instOf2(kMov[uint32], d, a)
	}
	return instOf2(kMov[uint64], d, a)
}

// kConv converts between numeric types where Go's conversion is
// ir.Convert's rule: int->int (wrapping), int->float and float->float
// (round to nearest). Float->int goes through the ir.FloatTo* functions.
func kConv[S, D number](fr *frame, m mask, d, a int) {
	Dv, A := vec[D](fr, d), vec[S](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = D(A[i])
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = D(A[i])
	}
}

// kF2Iv32 converts floats to i32 or u8 through ir.FloatToI32.
func kF2Iv32[S float, D integer](fr *frame, m mask, d, a int) {
	Dv, A := vec[D](fr, d), vec[S](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = D(ir.FloatToI32(float64(A[i])))
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = D(ir.FloatToI32(float64(A[i])))
	}
}

// kF2Iv64 converts floats to i64 or u32 through ir.FloatToI64.
func kF2Iv64[S float, D integer](fr *frame, m mask, d, a int) {
	Dv, A := vec[D](fr, d), vec[S](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = D(ir.FloatToI64(float64(A[i])))
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = D(ir.FloatToI64(float64(A[i])))
	}
}

func kF2U64[S float](fr *frame, m mask, d, a int) {
	Dv, A := vec[uint64](fr, d), vec[S](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = ir.FloatToU64(float64(A[i]))
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = ir.FloatToU64(float64(A[i]))
	}
}

func kB2N[D number](fr *frame, m mask, d, a int) {
	Dv, A := vec[D](fr, d), vec[bool](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = D(b2i(A[i]))
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = D(b2i(A[i]))
	}
}

func kN2B[S number](fr *frame, m mask, d, a int) {
	Dv, A := vec[bool](fr, d), vec[S](fr, a)
	if m.all {
		for i := range Dv[:fr.n] {
			Dv[i] = A[i] != 0
		}
		return
	}
	for _, i := range m.idx {
		Dv[i] = A[i] != 0
	}
}

// mkConvert returns the conversion src -> dst, or nil if there is none.
func mkConvert(src, dst ir.Type, d, a int) instFn {
	switch {
	case src == dst:
		return mkMov(src, d, a)
	case dst == ir.Bool:
		return toBool(src, d, a)
	case src == ir.Bool:
		return fromBool(dst, d, a)
	case src == ir.F32 && dst.IsInt():
		return floatToInt[float32](dst, d, a)
	case src == ir.F64 && dst.IsInt():
		return floatToInt[float64](dst, d, a)
	}
	switch src {
	case ir.U8:
		return convTo[uint8](dst, d, a)
	case ir.I32:
		return convTo[int32](dst, d, a)
	case ir.I64:
		return convTo[int64](dst, d, a)
	case ir.U32:
		return convTo[uint32](dst, d, a)
	case ir.U64:
		return convTo[uint64](dst, d, a)
	case ir.F32:
		return convTo[float32](dst, d, a)
	case ir.F64:
		return convTo[float64](dst, d, a)
	}
	return nil
}

// convTo handles the conversions that Go's conversion gets right (all but
// float->int, routed to floatToInt by mkConvert).
func convTo[S number](dst ir.Type, d, a int) instFn {
	switch dst {
	case ir.U8:
		return instOf2(kConv[S, uint8], d, a)
	case ir.I32:
		return instOf2(kConv[S, int32], d, a)
	case ir.I64:
		return instOf2(kConv[S, int64], d, a)
	case ir.U32:
		return instOf2(kConv[S, uint32], d, a)
	case ir.U64:
		return instOf2(kConv[S, uint64], d, a)
	case ir.F32:
		return instOf2(kConv[S, float32], d, a)
	case ir.F64:
		return instOf2(kConv[S, float64], d, a)
	}
	return nil
}

func floatToInt[S float](dst ir.Type, d, a int) instFn {
	switch dst {
	case ir.U8:
		return instOf2(kF2Iv32[S, uint8], d, a)
	case ir.I32:
		return instOf2(kF2Iv32[S, int32], d, a)
	case ir.I64:
		return instOf2(kF2Iv64[S, int64], d, a)
	case ir.U32:
		return instOf2(kF2Iv64[S, uint32], d, a)
	case ir.U64:
		return instOf2(kF2U64[S], d, a)
	}
	return nil
}

func toBool(src ir.Type, d, a int) instFn {
	switch src {
	case ir.U8:
		return instOf2(kN2B[uint8], d, a)
	case ir.I32:
		return instOf2(kN2B[int32], d, a)
	case ir.I64:
		return instOf2(kN2B[int64], d, a)
	case ir.U32:
		return instOf2(kN2B[uint32], d, a)
	case ir.U64:
		return instOf2(kN2B[uint64], d, a)
	case ir.F32:
		return instOf2(kN2B[float32], d, a)
	case ir.F64:
		return instOf2(kN2B[float64], d, a)
	}
	return nil
}

func fromBool(dst ir.Type, d, a int) instFn {
	switch dst {
	case ir.U8:
		return instOf2(kB2N[uint8], d, a)
	case ir.I32:
		return instOf2(kB2N[int32], d, a)
	case ir.I64:
		return instOf2(kB2N[int64], d, a)
	case ir.U32:
		return instOf2(kB2N[uint32], d, a)
	case ir.U64:
		return instOf2(kB2N[uint64], d, a)
	case ir.F32:
		return instOf2(kB2N[float32], d, a)
	case ir.F64:
		return instOf2(kB2N[float64], d, a)
	}
	return nil
}
