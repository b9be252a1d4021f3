package ir

import (
	"errors"
	"fmt"
	"math"
)

// The scalar semantics of every value op (OpInfo.IsValue), written once
// as a host evaluator on raw bits: lang/linalg's host evaluation, lang/rng's
// host samplers and the IR tests' oracle (runtime/cpu's TestEvalMatchesCPU)
// all compute through Eval, and runtime/cpu's generated lane loops compute
// the same expressions. See "Scalar semantics" in doc.go.

// ErrDivZero is Eval's error for an integer division or remainder by zero
// (the cpu backend's KernelError message).
var ErrDivZero = errors.New("integer division by zero")

// IsValue reports whether the op computes its result from its register
// operands alone (no memory, threads or immediates): the ops Eval
// evaluates (and Convert, for OpConvert).
func (info OpInfo) IsValue() bool {
	switch info.Form {
	case FormSame, FormShift, FormSelect, FormConvert:
		return !info.Block
	}
	return false
}

// Eval applies op to operands of type t (for OpSelect the type of the two
// values after the bool condition; for shifts the type of the shifted
// value) given as raw bits: f32 as math.Float32bits in the low 32 bits,
// f64 as its bits, integers as two's complement zero-extended from their
// width, bool as 0 or 1. Bits above an operand's width are ignored. The
// result is raw bits of the op's result type for t (OpInfo.ResultType).
//
// A shift count may have any integer type: counts whose bits, read as
// unsigned, reach t's width (so every negative count) shift everything
// out, giving 0, or -1 for >> of a negative value, as Go's shifts.
//
// OpConvert names a destination type and cannot fail: it is Convert. An
// integer division or remainder by zero returns ErrDivZero; an op that is
// not a value op, a type outside the op's row or a wrong operand count is
// an error too. Eval does not allocate, except for those last errors.
func Eval(op Op, t Type, args ...uint64) (uint64, error) {
	info, ok := op.Info()
	switch {
	case !ok || !info.IsValue():
		return 0, fmt.Errorf("eval: %s is not a value op", op)
	case op == OpConvert:
		return 0, errors.New("eval: convert takes a destination type: use ir.Convert")
	case !info.Types.Has(t):
		return 0, fmt.Errorf("eval: %s is not defined on %s", op, t)
	case len(args) != info.Arity:
		return 0, fmt.Errorf("eval: %s takes %d operands, not %d", op, info.Arity, len(args))
	}
	var a, b, c uint64
	switch len(args) {
	case 3:
		c = args[2]
		fallthrough
	case 2:
		b = args[1]
		fallthrough
	case 1:
		a = args[0]
	}
	switch {
	case op == OpMov: // the bits, NaN payloads included, as a register copy
		return a & mask(t), nil
	case info.Form == FormSelect:
		if a&1 != 0 {
			return b & mask(t), nil
		}
		return c & mask(t), nil
	case info.Form == FormShift:
		return evalShift(op, t, a, b), nil
	}
	r, ok, err := evalAt(op, t, a, b, c)
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return 0, fmt.Errorf("eval: %s on %s is not implemented", op, t)
	}
	return r & mask(info.ResultType(t)), nil
}

// evalAt evaluates a same-typed op on operands a, b, c (unused ones 0)
// decoded as t; ok is false for an op t's evaluator has no case for.
func evalAt(op Op, t Type, a, b, c uint64) (r uint64, ok bool, err error) {
	switch t {
	case Bool:
		r, ok = evalBool(op, a&1 != 0, b&1 != 0)
	case U8:
		r, ok, err = evalInt(op, uint8(a), uint8(b), uint8(c))
	case I32:
		r, ok, err = evalInt(op, int32(a), int32(b), int32(c))
	case I64:
		r, ok, err = evalInt(op, int64(a), int64(b), int64(c))
	case U32:
		r, ok, err = evalInt(op, uint32(a), uint32(b), uint32(c))
	case U64:
		r, ok, err = evalInt(op, a, b, c)
	case F32:
		x, y, z := math.Float32frombits(uint32(a)), math.Float32frombits(uint32(b)), math.Float32frombits(uint32(c))
		if op == OpFma {
			return f32bits(FMA32(x, y, z)), true, nil
		}
		r, ok = evalFloat(op, x, y, z, f32bits)
	case F64:
		x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
		if op == OpFma {
			return math.Float64bits(math.FMA(x, y, z)), true, nil
		}
		r, ok = evalFloat(op, x, y, z, math.Float64bits)
	}
	return r, ok, err
}

func f32bits(v float32) uint64 { return uint64(math.Float32bits(v)) }

// The evaluators below (evalBool, evalInt, evalFloat and their helpers
// compare, classify, unaryMath) switch over Op because each case is the
// op's expression in Go (runtime/cpu/gen.go's, for the generated lane
// loops): code, not a column a table could hold. ok is false for an op the
// kind has no case for (the table's Types allow no such call; TestEvalEveryOp
// fails when a row gains a type without one).

// evalBool is the bool ops; the result is 0 or 1.
func evalBool(op Op, a, b bool) (uint64, bool) {
	switch op {
	case OpNot:
		return b2u(!a), true
	case OpAnd:
		return b2u(a && b), true
	case OpOr:
		return b2u(a || b), true
	case OpXor, OpNe:
		return b2u(a != b), true
	case OpEq:
		return b2u(a == b), true
	}
	return 0, false
}

// evalInt is the integer ops, wrapping as Go (and C on two's complement:
// MinInt / -1 is MinInt, remainder 0). The result is sign-extended for
// signed T; Eval masks it to the result's width.
func evalInt[T integer](op Op, a, b, c T) (uint64, bool, error) {
	if r, ok := compare(op, a, b); ok {
		return r, true, nil
	}
	var r T
	switch op {
	case OpNeg:
		r = -a
	case OpBitNot:
		r = ^a
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv, OpRem:
		if b == 0 {
			return 0, true, ErrDivZero
		}
		if op == OpDiv {
			r = a / b
		} else {
			r = a % b
		}
	case OpAnd:
		r = a & b
	case OpOr:
		r = a | b
	case OpXor:
		r = a ^ b
	case OpAbs:
		r = IAbs(a)
	case OpSign:
		r = ISign(a)
	case OpMin:
		r = min(a, b)
	case OpMax:
		r = max(a, b)
	case OpClamp:
		r = min(max(a, b), c)
	default:
		return 0, false, nil
	}
	return uint64(r), true, nil
}

// evalFloat is the float ops but fma (which needs T's own fused
// multiply-add): each result is computed in T, or in float64 by Go's math
// and rounded to T once, and converted explicitly, which Go never fuses
// into a neighbouring op.
func evalFloat[T float](op Op, a, b, c T, put func(T) uint64) (uint64, bool) {
	if r, ok := compare(op, a, b); ok {
		return r, true
	}
	if r, ok := classify(op, float64(a)); ok {
		return r, true
	}
	var r T
	switch op {
	case OpNeg:
		r = -a
	case OpAdd:
		r = a + b
	case OpSub:
		r = a - b
	case OpMul:
		r = a * b
	case OpDiv:
		r = a / b
	case OpRsqrt:
		// 1/sqrt with two roundings in T, as CUDA's strict 1.0f/sqrtf(x).
		r = 1 / T(math.Sqrt(float64(a)))
	case OpSign:
		r = FSign(a)
	case OpMin:
		r = FMin(a, b)
	case OpMax:
		r = FMax(a, b)
	case OpClamp:
		r = FMin(FMax(a, b), c)
	case OpAtan2:
		r = T(math.Atan2(float64(a), float64(b)))
	case OpPow:
		r = T(math.Pow(float64(a), float64(b)))
	default:
		f, ok := unaryMath(op)
		if !ok {
			return 0, false
		}
		r = T(f(float64(a)))
	}
	return put(r), true
}

// unaryMath is the Go function of a one-operand float op computed in
// float64 and rounded to the operand type.
func unaryMath(op Op) (func(float64) float64, bool) {
	switch op {
	case OpSqrt:
		return math.Sqrt, true
	case OpSin:
		return math.Sin, true
	case OpCos:
		return math.Cos, true
	case OpTan:
		return math.Tan, true
	case OpAsin:
		return math.Asin, true
	case OpAcos:
		return math.Acos, true
	case OpAtan:
		return math.Atan, true
	case OpSinh:
		return math.Sinh, true
	case OpCosh:
		return math.Cosh, true
	case OpTanh:
		return math.Tanh, true
	case OpExp:
		return math.Exp, true
	case OpExp2:
		return math.Exp2, true
	case OpLog:
		return math.Log, true
	case OpLog2:
		return math.Log2, true
	case OpLog10:
		return math.Log10, true
	case OpFloor:
		return math.Floor, true
	case OpCeil:
		return math.Ceil, true
	case OpRound:
		return math.Round, true
	case OpTrunc:
		return math.Trunc, true
	case OpAbs:
		return math.Abs, true
	}
	return nil, false
}

// compare is the comparisons; ok is false for other ops.
func compare[T integer | float](op Op, a, b T) (uint64, bool) {
	switch op {
	case OpEq:
		return b2u(a == b), true
	case OpNe:
		return b2u(a != b), true
	case OpLt:
		return b2u(a < b), true
	case OpLe:
		return b2u(a <= b), true
	case OpGt:
		return b2u(a > b), true
	case OpGe:
		return b2u(a >= b), true
	}
	return 0, false
}

// classify is the float tests on a value widened to float64 (exact).
func classify(op Op, a float64) (uint64, bool) {
	switch op {
	case OpIsNan:
		return b2u(a != a), true
	case OpIsInf:
		return b2u(math.IsInf(a, 0)), true
	case OpIsFinite:
		return b2u(!math.IsInf(a, 0) && a == a), true
	}
	return 0, false
}

// evalShift shifts a (of type t) by the count b, read as unsigned.
func evalShift(op Op, t Type, a, b uint64) uint64 {
	left := op == OpShl
	var r uint64
	switch t {
	case U8:
		r = shift(uint8(a), b, left)
	case I32:
		r = shift(int32(a), b, left)
	case I64:
		r = shift(int64(a), b, left)
	case U32:
		r = shift(uint32(a), b, left)
	case U64:
		r = shift(a, b, left)
	}
	return r & mask(t)
}

func shift[T integer](a T, n uint64, left bool) uint64 {
	if left {
		return uint64(a << n)
	}
	return uint64(a >> n)
}
