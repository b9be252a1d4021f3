package linalg

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// known reports whether t is a type this package computes with: a
// numeric or bool scalar, or one of dtype.Compounds.
func known(t dtype.Type) bool {
	if t.IsScalar() {
		return t.Elem.IsNumeric() || t.Elem == ir.Bool
	}
	u, ok := dtype.ByName(t.String())
	return ok && u == t
}

// value checks that x holds the lanes of a value of type t.
func value[R any](t dtype.Type, x []R) error {
	if !known(t) {
		return fmt.Errorf("invalid type %s", t)
	}
	if len(x) != t.Lanes() {
		return fmt.Errorf("a %s has %d lanes, not %d", t, t.Lanes(), len(x))
	}
	return nil
}

// Unary applies op (token.Sub, -) to x of type t.
func Unary[R any](o ir.Machine[R], op token.Op, t dtype.Type, x []R) (dtype.Type, []R, error) {
	if err := value(t, x); err != nil {
		return dtype.Type{}, nil, err
	}
	if op != token.Sub || !t.Elem.IsNumeric() {
		return dtype.Type{}, nil, fmt.Errorf("operator %s not defined on %s", op, t)
	}
	return t, on(o, t.Elem).each(ir.OpNeg, x), nil
}

// arith maps the arithmetic operators to their lane ops.
var arith = map[token.Op]ir.Op{token.Add: ir.OpAdd, token.Sub: ir.OpSub, token.Mul: ir.OpMul, token.Quo: ir.OpDiv}

// Binary applies op (+ - * / == !=) to x of type tx and y of type ty;
// either may be a scalar (dtype.Of(...), one lane) of the other's lane
// type.
func Binary[R any](o ir.Machine[R], op token.Op, tx, ty dtype.Type, x, y []R) (dtype.Type, []R, error) {
	if err := value(tx, x); err != nil {
		return dtype.Type{}, nil, err
	}
	if err := value(ty, y); err != nil {
		return dtype.Type{}, nil, err
	}
	if _, ok := arith[op]; !ok && op != token.Eql && op != token.Neq {
		return dtype.Type{}, nil, fmt.Errorf("operator %s not defined on %s and %s", op, tx, ty)
	}
	if tx.Elem != ty.Elem {
		return dtype.Type{}, nil, mismatch(op, tx, ty)
	}
	if tx.Elem == ir.Bool && op != token.Eql && op != token.Neq {
		return dtype.Type{}, nil, fmt.Errorf("operator %s not defined on %s", op, tx)
	}
	s := on(o, tx.Elem)
	switch {
	case op == token.Eql || op == token.Neq:
		return equality(s, op, tx, ty, x, y)
	case tx == ty:
		return same(s, op, tx, x, y)
	case tx.IsScalar() || ty.IsScalar():
		return scalar(s, op, tx, ty, x, y)
	case op == token.Mul:
		return product(s, tx, ty, x, y)
	}
	return dtype.Type{}, nil, fmt.Errorf("mismatched types %s and %s in %s", tx, ty, op)
}

// mismatch is the error for operands of different lane types, with the
// conversion that would make them agree.
func mismatch(op token.Op, tx, ty dtype.Type) error {
	msg := fmt.Sprintf("mismatched types %s and %s in %s", tx, ty, op)
	hint, ok := dtype.Type{}, false
	switch {
	case ty.IsScalar():
		hint, ok = ty.WithElem(tx.Elem)
	case tx.IsScalar():
		hint, ok = tx.WithElem(ty.Elem)
	case tx.Kind == ty.Kind && tx.N == ty.N && tx.M == ty.M:
		hint, ok = tx.WithElem(ty.Elem)
	}
	if ok {
		msg += fmt.Sprintf("; convert with %s(...)", hint)
	}
	return fmt.Errorf("%s", msg)
}

// equality is == or !=: every lane equal, one bool.
func equality[R any](s lanes[R], op token.Op, tx, ty dtype.Type, x, y []R) (dtype.Type, []R, error) {
	if tx != ty {
		return dtype.Type{}, nil, fmt.Errorf("mismatched types %s and %s in %s", tx, ty, op)
	}
	eq := allEqual(s.o, s.t, x, y)
	if op == token.Neq {
		eq = s.o.Op(ir.OpNot, ir.Bool, eq)
	}
	return dtype.Of(ir.Bool), []R{eq}, nil
}

// same is an arithmetic operator on two operands of type t.
func same[R any](s lanes[R], op token.Op, t dtype.Type, x, y []R) (dtype.Type, []R, error) {
	switch {
	case op == token.Mul && t.Kind == dtype.Mat:
		return t, matmul(s, t.N, t.M, t.M, x, y), nil
	case op == token.Mul && t.Kind == dtype.Quat:
		return t, hamilton(s, x, y), nil
	case op == token.Quo && (t.Kind == dtype.Mat || t.Kind == dtype.Quat):
		return dtype.Type{}, nil, fmt.Errorf("operator %s not defined on %s and %s (cw_div divides lanes)", op, t, t)
	}
	return t, s.zip(arith[op], x, y), nil
}

// scalar is an arithmetic operator between a compound value and a scalar
// of its lane type: v * s and s * v (both lane * s, as Warp's mul), v / s
// and s / v, lane by lane.
func scalar[R any](s lanes[R], op token.Op, tx, ty dtype.Type, x, y []R) (dtype.Type, []R, error) {
	t, v, k := tx, x, y[0]
	if tx.IsScalar() {
		t, v, k = ty, y, x[0]
	}
	if op == token.Add || op == token.Sub {
		return dtype.Type{}, nil, fmt.Errorf("operator %s not defined on %s and %s (make a %s of the scalar)", op, tx, ty, t)
	}
	return t, s.withScalar(arith[op], v, k, op == token.Quo && tx.IsScalar()), nil
}

// product is m * v, v * m or m * m of different types.
func product[R any](s lanes[R], tx, ty dtype.Type, x, y []R) (dtype.Type, []R, error) {
	switch {
	case tx.Kind == dtype.Mat && ty.Kind == dtype.Vec && tx.M == ty.N:
		return vecOf(s.t, tx.N), matVec(s, tx.N, tx.M, x, y), nil
	case tx.Kind == dtype.Vec && ty.Kind == dtype.Mat && tx.N == ty.N:
		return vecOf(s.t, ty.M), vecMat(s, ty.N, ty.M, x, y), nil
	case tx.Kind == dtype.Mat && ty.Kind == dtype.Vec, tx.Kind == dtype.Vec && ty.Kind == dtype.Mat,
		tx.Kind == dtype.Mat && ty.Kind == dtype.Mat:
		return dtype.Type{}, nil, fmt.Errorf("%s * %s: sizes differ", tx, ty)
	}
	return dtype.Type{}, nil, fmt.Errorf("mismatched types %s and %s in *", tx, ty)
}

// matVec is m (n x k) times column vector v: row i is m[i][0]*v[0] +
// m[i][1]*v[1] + ..., as Warp sums m's columns scaled by v.
func matVec[R any](s lanes[R], n, k int, m, v []R) []R {
	out := make([]R, n)
	for i := range out {
		acc := s.mul(m[i*k], v[0])
		for j := 1; j < k; j++ {
			acc = s.add(acc, s.mul(m[i*k+j], v[j]))
		}
		out[i] = acc
	}
	return out
}

// vecMat is row vector v times m (n x k): lane j is m[0][j]*v[0] +
// m[1][j]*v[1] + ..., as Warp sums m's rows scaled by v.
func vecMat[R any](s lanes[R], n, k int, v, m []R) []R {
	out := make([]R, k)
	for j := range out {
		acc := s.mul(m[j], v[0])
		for i := 1; i < n; i++ {
			acc = s.add(acc, s.mul(m[i*k+j], v[i]))
		}
		out[j] = acc
	}
	return out
}

// matmul is a (n x k) times b (k x p): each element a fused
// multiply-add chain from 0, as Warp's mul(mat, mat) (muladd is fmaf).
func matmul[R any](s lanes[R], n, k, p int, a, b []R) []R {
	out := make([]R, n*p)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			acc := s.c(0)
			for l := 0; l < k; l++ {
				acc = s.op(ir.OpFma, a[i*k+l], b[l*p+j], acc)
			}
			out[i*p+j] = acc
		}
	}
	return out
}

// hamilton is the quaternion product a * b, in Warp's order.
func hamilton[R any](s lanes[R], a, b []R) []R {
	x, y, z, w := 0, 1, 2, 3
	m := s.mul
	return []R{
		s.sub(s.add(s.add(m(a[w], b[x]), m(b[w], a[x])), m(a[y], b[z])), m(b[y], a[z])),
		s.sub(s.add(s.add(m(a[w], b[y]), m(b[w], a[y])), m(a[z], b[x])), m(b[z], a[x])),
		s.sub(s.add(s.add(m(a[w], b[z]), m(b[w], a[z])), m(a[x], b[y])), m(b[x], a[y])),
		s.sub(s.sub(s.sub(m(a[w], b[w]), m(a[x], b[x])), m(a[y], b[y])), m(a[z], b[z])),
	}
}
