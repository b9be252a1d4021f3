package linalg

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// rule is a builtin's argument checks and body.
type rule[R any] struct {
	checks []func() error
	body   func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R)
}

// run checks c's arguments and applies its builtin; the lanes are
// argument 0's lane type (the checks make the others agree).
func (c *call[R]) run() (dtype.Type, []R, error) {
	r := c.rule()
	if err := check(r.checks...); err != nil {
		return dtype.Type{}, nil, err
	}
	t, out := r.body(on(c.o, c.ts[0].Elem), c.ts[0], c.args)
	return t, out, nil
}

// rule returns the checks and body of c's builtin.
func (c *call[R]) rule() rule[R] {
	k, same := c.kinds, c.same
	switch c.f.Name {
	case "dot":
		return rule[R]{[]func() error{k(vecQuat), same(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return dtype.Of(t.Elem), []R{dot(s, t, a[0], a[1])}
		}}
	case "cross":
		return rule[R]{[]func() error{k(vec3), same(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, cross(s, a[0], a[1])
		}}
	case "length":
		return rule[R]{[]func() error{k(floatVQ)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return dtype.Of(t.Elem), []R{length(s, t, a[0])}
		}}
	case "length_sq":
		return rule[R]{[]func() error{k(vecQuat)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return dtype.Of(t.Elem), []R{dot(s, t, a[0], a[0])}
		}}
	case "normalize":
		return rule[R]{[]func() error{k(floatVQ)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, normalize(s, t, a[0])
		}}
	case "outer":
		return rule[R]{[]func() error{k(floatVec), same(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return matOf(t.Elem, t.N), outer(s, a[0], a[1])
		}}
	case "diag":
		return rule[R]{[]func() error{k(floatVec)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return matOf(t.Elem, t.N), diag(s, a[0])
		}}
	}
	return c.matRule()
}

// matRule covers the matrix and quaternion builtins.
func (c *call[R]) matRule() rule[R] {
	k, lane := c.kinds, c.lane
	switch c.f.Name {
	case "transpose":
		return rule[R]{[]func() error{k(matrix)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, transpose(t.N, a[0])
		}}
	case "determinant":
		return rule[R]{[]func() error{k(matrix)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return dtype.Of(t.Elem), []R{determinant(s, t.N, a[0])}
		}}
	case "inverse":
		return rule[R]{[]func() error{k(matrix)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, inverse(s, t.N, a[0])
		}}
	case "trace":
		return rule[R]{[]func() error{k(matrix)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return dtype.Of(t.Elem), []R{trace(s, t.N, a[0])}
		}}
	case "quat_rotate", "quat_rotate_inv":
		inv := c.f.Name == "quat_rotate_inv"
		return rule[R]{[]func() error{k(quatK, vec3), c.vec3Of(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return vecOf(t.Elem, 3), rotate(s, a[0], a[1], inv)
		}}
	case "quat_inverse":
		return rule[R]{[]func() error{k(quatK)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			q := a[0]
			return t, []R{s.op(ir.OpNeg, q[0]), s.op(ir.OpNeg, q[1]), s.op(ir.OpNeg, q[2]), q[3]}
		}}
	case "quat_to_matrix":
		return rule[R]{[]func() error{k(quatK)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return matOf(t.Elem, 3), quatToMatrix(s, a[0])
		}}
	case "quat_from_axis_angle":
		return rule[R]{[]func() error{k(vec3, scalarK), k(floatVec), lane(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return quatOf(t.Elem), fromAxisAngle(s, a[0], a[1][0])
		}}
	case "quat_from_matrix":
		return rule[R]{[]func() error{k(rotation)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return quatOf(t.Elem), fromMatrix(s, t.N, a[0])
		}}
	}
	return c.laneRule()
}

// laneRule covers the builtins that work lane by lane.
func (c *call[R]) laneRule() rule[R] {
	k, same, lane := c.kinds, c.same, c.lane
	zip := func(op ir.Op) rule[R] {
		return rule[R]{[]func() error{k(numeric), same(1)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, s.zip(op, a[0], a[1])
		}}
	}
	switch c.f.Name {
	case "min":
		return zip(ir.OpMin)
	case "max":
		return zip(ir.OpMax)
	case "cw_mul":
		return zip(ir.OpMul)
	case "cw_div":
		return zip(ir.OpDiv)
	case "abs":
		return rule[R]{[]func() error{k(numeric)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
			return t, s.each(ir.OpAbs, a[0])
		}}
	}
	// lerp
	return rule[R]{[]func() error{k(float), same(1), lane(2)}, func(s lanes[R], t dtype.Type, a [][]R) (dtype.Type, []R) {
		return t, lerp(s, a[0], a[1], a[2][0])
	}}
}

// vec3Of checks that argument i is the vec3 of argument 0's lane type.
func (c *call[R]) vec3Of(i int) func() error {
	return func() error {
		if want := vecOf(c.ts[0].Elem, 3); c.ts[i] != want {
			return fmt.Errorf("%s: argument %d is %s, needs %s as argument 1 is %s", c.f.Sig, i+1, c.ts[i], want, c.ts[0])
		}
		return nil
	}
}
