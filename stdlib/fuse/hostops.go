package fuse

import (
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The host path's loops (host.go): one per op and operand form (vector
// or scalar on either side), written out because Go calls a func value
// per element at several times a plain loop's cost. Each is the cpu
// executor's lane expression (runtime/cpu/ops_gen.go) over a chunk.

type hostNum interface {
	~uint8 | ~int32 | ~int64 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// compute runs op on operands of dtype t (a select: bool, t, t) into out.
func compute(op ir.Op, t ir.Type, out unsafe.Pointer, a []col, n int) {
	switch t {
	case ir.U8:
		computeT[uint8](op, out, a, n)
	case ir.I32:
		computeT[int32](op, out, a, n)
	case ir.I64:
		computeT[int64](op, out, a, n)
	case ir.U32:
		computeT[uint32](op, out, a, n)
	case ir.U64:
		computeT[uint64](op, out, a, n)
	case ir.F32:
		computeT[float32](op, out, a, n)
	case ir.F64:
		computeT[float64](op, out, a, n)
	}
}

// operand is c as a slice of n elements, or nil and its scalar value.
func operand[T any](c col, n int) ([]T, T) {
	if c.p == nil {
		return nil, *(*T)(unsafe.Pointer(&c.s))
	}
	var z T
	return unsafe.Slice((*T)(c.p), n), z
}

func computeT[T hostNum](op ir.Op, out unsafe.Pointer, a []col, n int) {
	switch op {
	case ir.OpNeg:
		x, _ := operand[T](a[0], n)
		d := unsafe.Slice((*T)(out), n)
		for i := range d {
			d[i] = -x[i]
		}
	case ir.OpSelect:
		selectT[T](out, a, n)
	case ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe, ir.OpEq, ir.OpNe:
		compareT[T](op, unsafe.Slice((*bool)(out), n), a, n)
	default:
		arith[T](op, unsafe.Slice((*T)(out), n), a, n)
	}
}

// arith is add, sub, mul and (floats) div: each with both operands
// vectors, or one of them a scalar (a tree with two scalar operands has
// an array leaf elsewhere: its constant part is a vector of one value).
func arith[T hostNum](op ir.Op, d []T, a []col, n int) {
	x, xs := operand[T](a[0], n)
	y, ys := operand[T](a[1], n)
	switch {
	case x == nil && y == nil:
		v := binary1(op, xs, ys)
		for i := range d {
			d[i] = v
		}
	case op == ir.OpAdd && y == nil:
		for i := range d {
			d[i] = x[i] + ys
		}
	case op == ir.OpAdd && x == nil:
		for i := range d {
			d[i] = xs + y[i]
		}
	case op == ir.OpAdd:
		for i := range d {
			d[i] = x[i] + y[i]
		}
	case op == ir.OpSub && y == nil:
		for i := range d {
			d[i] = x[i] - ys
		}
	case op == ir.OpSub && x == nil:
		for i := range d {
			d[i] = xs - y[i]
		}
	case op == ir.OpSub:
		for i := range d {
			d[i] = x[i] - y[i]
		}
	case op == ir.OpMul && y == nil:
		for i := range d {
			d[i] = x[i] * ys
		}
	case op == ir.OpMul && x == nil:
		for i := range d {
			d[i] = xs * y[i]
		}
	case op == ir.OpMul:
		for i := range d {
			d[i] = x[i] * y[i]
		}
	case y == nil: // div (floats only: hostOp)
		for i := range d {
			d[i] = x[i] / ys
		}
	case x == nil:
		for i := range d {
			d[i] = xs / y[i]
		}
	default:
		for i := range d {
			d[i] = x[i] / y[i]
		}
	}
}

// binary1 is arith on two scalars.
func binary1[T hostNum](op ir.Op, x, y T) T {
	switch op {
	case ir.OpAdd:
		return x + y
	case ir.OpSub:
		return x - y
	case ir.OpMul:
		return x * y
	}
	return x / y
}

// compareT is the comparisons, into bools; a scalar operand is read as
// a vector of one value through cmp1 only for two scalars.
func compareT[T hostNum](op ir.Op, d []bool, a []col, n int) {
	x, xs := operand[T](a[0], n)
	y, ys := operand[T](a[1], n)
	if x == nil && y == nil {
		v := compare1(op, xs, ys)
		for i := range d {
			d[i] = v
		}
		return
	}
	// x op s is s op' x with the comparison mirrored, so a scalar is
	// always on the right.
	if x == nil {
		x, ys, op = y, xs, mirror(op)
		y = nil
	}
	if y == nil {
		switch op {
		case ir.OpLt:
			for i := range d {
				d[i] = x[i] < ys
			}
		case ir.OpLe:
			for i := range d {
				d[i] = x[i] <= ys
			}
		case ir.OpGt:
			for i := range d {
				d[i] = x[i] > ys
			}
		case ir.OpGe:
			for i := range d {
				d[i] = x[i] >= ys
			}
		case ir.OpEq:
			for i := range d {
				d[i] = x[i] == ys
			}
		default:
			for i := range d {
				d[i] = x[i] != ys
			}
		}
		return
	}
	for i := range d {
		d[i] = compare1(op, x[i], y[i])
	}
}

// mirror is the comparison with its operands swapped: s < x is x > s.
func mirror(op ir.Op) ir.Op {
	switch op {
	case ir.OpLt:
		return ir.OpGt
	case ir.OpLe:
		return ir.OpGe
	case ir.OpGt:
		return ir.OpLt
	case ir.OpGe:
		return ir.OpLe
	}
	return op // == and != are symmetric (NaN included)
}

func compare1[T hostNum](op ir.Op, x, y T) bool {
	switch op {
	case ir.OpLt:
		return x < y
	case ir.OpLe:
		return x <= y
	case ir.OpGt:
		return x > y
	case ir.OpGe:
		return x >= y
	case ir.OpEq:
		return x == y
	}
	return x != y
}

// selectT is where(c, x, y), each operand a vector or a scalar.
func selectT[T hostNum](out unsafe.Pointer, a []col, n int) {
	d := unsafe.Slice((*T)(out), n)
	c, cs := operand[bool](a[0], n)
	x, xs := operand[T](a[1], n)
	y, ys := operand[T](a[2], n)
	switch {
	case c == nil: // a scalar condition picks one operand whole
		src, s := x, xs
		if !cs {
			src, s = y, ys
		}
		if src != nil {
			copy(d, src)
			return
		}
		for i := range d {
			d[i] = s
		}
	case x != nil && y == nil:
		for i := range d {
			v := ys
			if c[i] {
				v = x[i]
			}
			d[i] = v
		}
	case x == nil && y != nil:
		for i := range d {
			v := y[i]
			if c[i] {
				v = xs
			}
			d[i] = v
		}
	case x == nil:
		for i := range d {
			v := ys
			if c[i] {
				v = xs
			}
			d[i] = v
		}
	default:
		for i := range d {
			v := y[i]
			if c[i] {
				v = x[i]
			}
			d[i] = v
		}
	}
}

// convertCol writes c converted to t into n elements at dst (a scalar
// fills them); convertible's pairs only.
func convertCol(c col, t ir.Type, dst unsafe.Pointer, n int) {
	switch c.t {
	case ir.U8:
		convertFrom[uint8](c, t, dst, n)
	case ir.I32:
		convertFrom[int32](c, t, dst, n)
	case ir.I64:
		convertFrom[int64](c, t, dst, n)
	case ir.U32:
		convertFrom[uint32](c, t, dst, n)
	case ir.U64:
		convertFrom[uint64](c, t, dst, n)
	case ir.F32:
		convertFrom[float32](c, t, dst, n)
	case ir.F64:
		convertFrom[float64](c, t, dst, n)
	case ir.Bool: // only to bool (convertible): a bool fill
		copyBool(c, dst, n)
	}
}

func convertFrom[S hostNum](c col, t ir.Type, dst unsafe.Pointer, n int) {
	switch t {
	case ir.U8:
		convertNum[S, uint8](c, dst, n)
	case ir.I32:
		convertNum[S, int32](c, dst, n)
	case ir.I64:
		convertNum[S, int64](c, dst, n)
	case ir.U32:
		convertNum[S, uint32](c, dst, n)
	case ir.U64:
		convertNum[S, uint64](c, dst, n)
	case ir.F32:
		convertNum[S, float32](c, dst, n)
	case ir.F64:
		convertNum[S, float64](c, dst, n)
	}
}

func convertNum[S, D hostNum](c col, dst unsafe.Pointer, n int) {
	d := unsafe.Slice((*D)(dst), n)
	x, xs := operand[S](c, n)
	if x == nil {
		v := D(xs)
		for i := range d {
			d[i] = v
		}
		return
	}
	if isSame[S, D]() {
		copy(unsafe.Slice((*S)(dst), n), x)
		return
	}
	for i := range d {
		d[i] = D(x[i])
	}
}

// isSame reports whether S and D are one type (a copy, not a conversion).
func isSame[S, D any]() bool {
	_, ok := any(*new(S)).(D)
	return ok
}

// copyBool is a bool column into n bools at dst.
func copyBool(c col, dst unsafe.Pointer, n int) {
	d := unsafe.Slice((*bool)(dst), n)
	x, xs := operand[bool](c, n)
	if x == nil {
		for i := range d {
			d[i] = xs
		}
		return
	}
	copy(d, x)
}
