package linalg

import (
	"errors"
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Host evaluates scalar ops immediately on raw bits: f32 as
// math.Float32bits in the low 32 bits, f64 as its bits, i32 as its two's
// complement bits zero-extended, bool as 0 or 1 (the lane types of dtype). It follows the cpu
// backend's semantics op for op (runtime/cpu: every f32 op rounded to f32,
// never fused; transcendentals computed in f64 and rounded; min and max
// as fminf/fmaxf), so host values equal a kernel's bit for bit.
//
// The first failure (integer division by zero, an op or type Host does
// not implement) is kept in Err; the op then yields 0.
type Host struct{ Err error }

var _ Ops[uint64] = (*Host)(nil)

// Const is v as type t (ir.FromFloat).
func (h *Host) Const(t ir.Type, v float64) uint64 { return ir.FromFloat(v, t) }

// Convert is ir.Convert.
func (h *Host) Convert(x uint64, from, to ir.Type) uint64 { return ir.Convert(x, from, to) }

// Op applies op to args of type t.
func (h *Host) Op(op ir.Op, t ir.Type, args ...uint64) uint64 {
	if n := arity(op); n != len(args) {
		return h.fail(fmt.Errorf("host: %s takes %d operands, not %d", op, n, len(args)))
	}
	if op == ir.OpSelect {
		if args[0]&1 != 0 {
			return args[1]
		}
		return args[2]
	}
	var r uint64
	var err error
	switch t {
	case ir.F32:
		r, err = floatOp(op, args, func(x uint64) float32 { return math.Float32frombits(uint32(x)) },
			func(v float32) uint64 { return uint64(math.Float32bits(v)) })
	case ir.F64:
		r, err = floatOp(op, args, math.Float64frombits, math.Float64bits)
	case ir.I32:
		r, err = intOp(op, args)
	case ir.Bool:
		r, err = boolOp(op, args)
	default:
		err = fmt.Errorf("host: no %s arithmetic", t)
	}
	if err != nil {
		return h.fail(err)
	}
	return r
}

func (h *Host) fail(err error) uint64 {
	if h.Err == nil {
		h.Err = err
	}
	return 0
}

// arity is the operand count of the ops Host evaluates (0: unknown).
func arity(op ir.Op) int {
	switch op {
	case ir.OpNeg, ir.OpNot, ir.OpAbs, ir.OpSqrt, ir.OpSin, ir.OpCos, ir.OpAcos:
		return 1
	case ir.OpFma, ir.OpSelect:
		return 3
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpDiv, ir.OpMin, ir.OpMax, ir.OpAtan2, ir.OpAnd, ir.OpOr,
		ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		return 2
	}
	return 0
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// compare evaluates the comparisons, ok false for other ops.
func compare[T int32 | float32 | float64](op ir.Op, a, b T) (r uint64, ok bool) {
	switch op {
	case ir.OpEq:
		return b2u(a == b), true
	case ir.OpNe:
		return b2u(a != b), true
	case ir.OpLt:
		return b2u(a < b), true
	case ir.OpLe:
		return b2u(a <= b), true
	case ir.OpGt:
		return b2u(a > b), true
	case ir.OpGe:
		return b2u(a >= b), true
	}
	return 0, false
}

// floatOp evaluates op on f32 or f64 lanes; each result converts to T
// explicitly, which Go never fuses into a neighbouring op.
func floatOp[T float32 | float64](op ir.Op, args []uint64, get func(uint64) T, put func(T) uint64) (uint64, error) {
	a := get(args[0])
	if len(args) == 1 {
		switch op {
		case ir.OpNeg:
			return put(-a), nil
		case ir.OpAbs:
			return put(T(math.Abs(float64(a)))), nil
		case ir.OpSqrt:
			return put(T(math.Sqrt(float64(a)))), nil
		case ir.OpSin:
			return put(T(math.Sin(float64(a)))), nil
		case ir.OpCos:
			return put(T(math.Cos(float64(a)))), nil
		case ir.OpAcos:
			return put(T(math.Acos(float64(a)))), nil
		}
		return 0, errNoOp(op)
	}
	b := get(args[1])
	if r, ok := compare(op, a, b); ok {
		return r, nil
	}
	switch op {
	case ir.OpAdd:
		return put(T(a + b)), nil
	case ir.OpSub:
		return put(T(a - b)), nil
	case ir.OpMul:
		return put(T(a * b)), nil
	case ir.OpDiv:
		return put(T(a / b)), nil
	case ir.OpMin:
		return put(ir.FMin(a, b)), nil
	case ir.OpMax:
		return put(ir.FMax(a, b)), nil
	case ir.OpAtan2:
		return put(T(math.Atan2(float64(a), float64(b)))), nil
	case ir.OpFma:
		return put(fma(a, b, get(args[2]))), nil
	}
	return 0, errNoOp(op)
}

func errNoOp(op ir.Op) error { return fmt.Errorf("host: %s is not a linear-algebra op", op) }

// fma is OpFma in T: one rounding (math.FMA for f64, ir.FMA32 for f32,
// as the cpu backend computes it).
func fma[T float32 | float64](a, b, c T) T {
	if f, ok := any(a).(float64); ok {
		return T(math.FMA(f, float64(b), float64(c)))
	}
	return T(ir.FMA32(float32(a), float32(b), float32(c)))
}

// intOp evaluates op on i32 lanes (the only integer lanes), wrapping as
// Go and the cpu do.
func intOp(op ir.Op, args []uint64) (uint64, error) {
	put := func(v int32) uint64 { return uint64(uint32(v)) }
	a := int32(args[0])
	if len(args) == 1 {
		switch op {
		case ir.OpNeg:
			return put(-a), nil
		case ir.OpAbs:
			if a < 0 {
				return put(-a), nil
			}
			return put(a), nil
		}
		return 0, errNoOp(op)
	}
	b := int32(args[1])
	if r, ok := compare(op, a, b); ok {
		return r, nil
	}
	switch op {
	case ir.OpAdd:
		return put(a + b), nil
	case ir.OpSub:
		return put(a - b), nil
	case ir.OpMul:
		return put(a * b), nil
	case ir.OpDiv:
		if b == 0 {
			return 0, errors.New("integer division by zero")
		}
		return put(a / b), nil
	case ir.OpMin:
		return put(min(a, b)), nil
	case ir.OpMax:
		return put(max(a, b)), nil
	}
	return 0, errNoOp(op)
}

func boolOp(op ir.Op, args []uint64) (uint64, error) {
	a := args[0]&1 != 0
	if op == ir.OpNot {
		return b2u(!a), nil
	}
	b := len(args) > 1 && args[1]&1 != 0
	switch op {
	case ir.OpAnd:
		return b2u(a && b), nil
	case ir.OpOr:
		return b2u(a || b), nil
	case ir.OpEq:
		return b2u(a == b), nil
	case ir.OpNe:
		return b2u(a != b), nil
	}
	return 0, errNoOp(op)
}
