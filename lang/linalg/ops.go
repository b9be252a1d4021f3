package linalg

import (
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// lanes does arithmetic in one lane type t.
type lanes[R any] struct {
	o ir.Machine[R]
	t ir.Type
}

func on[R any](o ir.Machine[R], t ir.Type) lanes[R] { return lanes[R]{o, t} }

func (s lanes[R]) op(op ir.Op, args ...R) R { return s.o.Op(op, s.t, args...) }
func (s lanes[R]) add(a, b R) R             { return s.op(ir.OpAdd, a, b) }
func (s lanes[R]) sub(a, b R) R             { return s.op(ir.OpSub, a, b) }
func (s lanes[R]) mul(a, b R) R             { return s.op(ir.OpMul, a, b) }
func (s lanes[R]) div(a, b R) R             { return s.op(ir.OpDiv, a, b) }
func (s lanes[R]) c(v float64) R            { return s.o.Const(s.t, v) }

// sel is cond ? a : b.
func (s lanes[R]) sel(cond, a, b R) R { return s.op(ir.OpSelect, cond, a, b) }

// each applies op to every lane of x.
func (s lanes[R]) each(op ir.Op, x []R) []R {
	out := make([]R, len(x))
	for i := range x {
		out[i] = s.op(op, x[i])
	}
	return out
}

// zip applies op to the lanes of x and y pairwise.
func (s lanes[R]) zip(op ir.Op, x, y []R) []R {
	out := make([]R, len(x))
	for i := range x {
		out[i] = s.op(op, x[i], y[i])
	}
	return out
}

// withScalar applies op to every lane of x and the scalar k, k on the
// left when left is set (s / v).
func (s lanes[R]) withScalar(op ir.Op, x []R, k R, left bool) []R {
	out := make([]R, len(x))
	for i := range x {
		if left {
			out[i] = s.op(op, k, x[i])
		} else {
			out[i] = s.op(op, x[i], k)
		}
	}
	return out
}

// consts is the constants vs as lanes.
func (s lanes[R]) consts(vs ...float64) []R {
	out := make([]R, len(vs))
	for i, v := range vs {
		out[i] = s.c(v)
	}
	return out
}

// zeros is n zero lanes.
func (s lanes[R]) zeros(n int) []R { return s.consts(make([]float64, n)...) }

// selAll is cond ? a : b lane by lane.
func (s lanes[R]) selAll(cond R, a, b []R) []R {
	out := make([]R, len(a))
	for i := range a {
		out[i] = s.sel(cond, a[i], b[i])
	}
	return out
}

// sum adds xs left to right.
func (s lanes[R]) sum(xs ...R) R {
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = s.add(acc, x)
	}
	return acc
}

// allEqual is the bool "every lane of x equals its lane of y".
func allEqual[R any](o ir.Machine[R], t ir.Type, x, y []R) R {
	acc := o.Op(ir.OpEq, t, x[0], y[0])
	for i := 1; i < len(x); i++ {
		acc = o.Op(ir.OpAnd, ir.Bool, acc, o.Op(ir.OpEq, t, x[i], y[i]))
	}
	return acc
}

// Helpers naming types.
func vecOf(e ir.Type, n int) dtype.Type { return dtype.Type{Kind: dtype.Vec, Elem: e, N: n} }
func matOf(e ir.Type, n int) dtype.Type { return dtype.Type{Kind: dtype.Mat, Elem: e, N: n, M: n} }
func quatOf(e ir.Type) dtype.Type       { return dtype.Type{Kind: dtype.Quat, Elem: e, N: 4} }
