package interp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/linalg"
	"github.com/gscript-lang/gscript/lang/token"
)

// Host vectors, matrices and quaternions (TYPES.md section 1). Every
// operation goes through lang/linalg on ir.Host, the code kernels are
// checked with, so a host dot(a, b) gives a kernel's bits. Vectors are
// values: a Vector is never changed in place, and v.x = s (or m[i, j] = s,
// m[i] = row) on a variable stores a changed copy in the variable, so
// `let w = v; w.x = 1.0` leaves v as it was.

// LinalgOperand converts v to an operand of lane type e: a Vector as it
// is, a host int or float converted to e (as a kernel converts an untyped
// constant), a typed scalar as its own type (linalg refuses one that is
// not of type e, as kernels do).
func LinalgOperand(v Value, e ir.Type) (dtype.Type, []uint64, error) {
	switch v := v.(type) {
	case *Vector:
		return v.T, v.Lanes, nil
	case Scalar:
		return dtype.Of(v.T), []uint64{v.Bits}, nil
	case Bool:
		return dtype.Of(ir.Bool), []uint64{b2u(bool(v))}, nil
	case Int, Float:
		bits, err := ElemBits(v, e)
		return dtype.Of(e), []uint64{bits}, err
	}
	return dtype.Type{}, nil, fmt.Errorf("cannot use %s as a number or vector", describe(v))
}

// LaneType is the type host numbers among vs convert to: the lane type
// of the first Vector, else the type of the first typed scalar, else f64
// (a host float's precision).
func LaneType(vs []Value) ir.Type {
	for _, v := range vs {
		if x, ok := v.(*Vector); ok {
			return x.T.Elem
		}
	}
	for _, v := range vs {
		if x, ok := v.(Scalar); ok {
			return x.T
		}
	}
	return ir.F64
}

// HasVector reports whether one of vs is a Vector.
func HasVector(vs []Value) bool { return slices.ContainsFunc(vs, isVector) }

// isVector reports whether v is a vector, matrix or quaternion (not a
// struct value, which is a Vector too but has no arithmetic).
func isVector(v Value) bool {
	x, ok := v.(*Vector)
	return ok && !isStruct(x)
}

// LinalgResult is the host value of a linalg result evaluated on h: a
// Vector, a scalar or a bool, or the first error.
func LinalgResult(h *ir.Host, t dtype.Type, lanes []uint64, err error) (Value, error) {
	if err == nil {
		err = h.Err
	}
	if err != nil {
		return nil, err
	}
	if t.IsScalar() {
		return elemValue(t.Elem, lanes[0]), nil
	}
	return &Vector{T: t, Lanes: lanes}, nil
}

// vectorBinary is x op y where x or y is a Vector.
func vectorBinary(op token.Op, x, y Value) (Value, error) {
	e := LaneType([]Value{x, y})
	tx, bx, err := LinalgOperand(x, e)
	if err != nil {
		return nil, err
	}
	ty, by, err := LinalgOperand(y, e)
	if err != nil {
		return nil, err
	}
	h := &ir.Host{}
	t, out, err := linalg.Binary[uint64](h, op, tx, ty, bx, by)
	return LinalgResult(h, t, out, err)
}

func vectorNegate(v *Vector) (Value, error) {
	h := &ir.Host{}
	t, out, err := linalg.Unary[uint64](h, token.Sub, v.T, v.Lanes)
	return LinalgResult(h, t, out, err)
}

// construct is a call of a vector type: vec3(1, 2, 3). Host numbers
// convert to the lane type as f32(x) converts (floats truncate into i32
// lanes); typed scalars and vectors convert lane by lane in linalg.
func construct(t VecType, args *Args) (Value, error) {
	if err := args.Check(0, 16); err != nil {
		return nil, err
	}
	ts := make([]dtype.Type, len(args.Positional))
	lanes := make([][]uint64, len(args.Positional))
	for i, a := range args.Positional {
		switch a.(type) {
		case Int, Float:
			v, err := convertCall(DType(t.T.Elem), &Args{Fn: args.Fn, Positional: []Value{a}})
			if err != nil {
				return nil, fmt.Errorf("%s: argument %d: %v", t, i+1, err)
			}
			a = v
		case *Vector, Scalar:
		default:
			return nil, fmt.Errorf("%s: argument %d is %s, not a number or vector", t, i+1, describe(a))
		}
		ts[i], lanes[i], _ = LinalgOperand(a, t.T.Elem)
	}
	h := &ir.Host{}
	out, err := linalg.Construct[uint64](h, t.T, ts, lanes)
	return LinalgResult(h, t.T, out, err)
}

// component finds the lanes a component names: .x (name) or [i], [i, j]
// (idx): a lane of a vector or quaternion, a matrix element, or a
// matrix's row. t is the component's type.
func (v *Vector) component(name string, idx []Value) (lanes []int, t dtype.Type, err error) {
	vt, lane := v.T, dtype.Of(v.T.Elem)
	if name != "" {
		k := vt.ComponentIndex(name)
		if k >= 0 {
			return []int{k}, lane, nil
		}
		if vt.Kind == dtype.Mat {
			return nil, t, fmt.Errorf("%s has no attribute %s: index it, m[i, j] (an element) or m[i] (a row)", vt, name)
		}
		return nil, t, fmt.Errorf("%s has no attribute %s (components: %s)", vt, name,
			strings.Join(strings.Split(dtype.Component[:vt.Lanes()], ""), ", "))
	}
	ints := make([]int, len(idx))
	for k, x := range idx {
		if ints[k], err = toInt(x); err != nil {
			return nil, t, fmt.Errorf("%s index: %v", vt, err)
		}
	}
	dims := vt.Dims()
	if len(ints) == 0 || len(ints) > len(dims) {
		return nil, t, fmt.Errorf("%s takes at most %d indices, got %d", vt, len(dims), len(ints))
	}
	for k, i := range ints {
		if i < 0 || i >= dims[k] {
			return nil, t, fmt.Errorf("index %d out of range for axis %d of %s (size %d)", i, k, vt, dims[k])
		}
	}
	if vt.Kind == dtype.Mat && len(ints) == 1 {
		row := make([]int, vt.M)
		for j := range row {
			row[j] = ints[0]*vt.M + j
		}
		return row, dtype.Type{Kind: dtype.Vec, Elem: vt.Elem, N: vt.M}, nil
	}
	if len(ints) == 2 {
		return []int{ints[0]*vt.M + ints[1]}, lane, nil
	}
	return ints, lane, nil
}

// get reads a component (see component).
func (v *Vector) get(name string, idx []Value) (Value, error) {
	lanes, t, err := v.component(name, idx)
	if err != nil {
		return nil, err
	}
	bits := make([]uint64, len(lanes))
	for i, l := range lanes {
		bits[i] = v.Lanes[l]
	}
	return LinalgResult(&ir.Host{}, t, bits, nil)
}

// assignComponent is `target.name op= x` or `target[idx] op= x` for a
// variable target holding v: set (nil when the target is not a variable)
// gives the variable a changed copy.
func (th *Thread) assignComponent(set func(Value), v *Vector, name string, idx []Value, op token.Op, x Value) error {
	if set == nil {
		return fmt.Errorf("cannot assign to a component of a %s that is not in a variable: vectors are values", v.T)
	}
	lanes, t, err := v.component(name, idx)
	if err != nil {
		return err
	}
	if op != token.Invalid {
		old, _ := v.get(name, idx)
		if x, err = binary(th, op, old, x); err != nil {
			return err
		}
	}
	bits, err := componentBits(x, t)
	if err != nil {
		return err
	}
	nv := &Vector{T: v.T, Lanes: slices.Clone(v.Lanes)}
	for i, l := range lanes {
		nv.Lanes[l] = bits[i]
	}
	set(nv)
	return nil
}

// componentBits converts x to the lanes of a component of type t: a
// number to a scalar lane (as an array element store converts), a vector
// of exactly t to a row.
func componentBits(x Value, t dtype.Type) ([]uint64, error) {
	if t.IsScalar() {
		b, err := ElemBits(x, t.Elem)
		return []uint64{b}, err
	}
	if r, ok := x.(*Vector); ok && r.T == t {
		return r.Lanes, nil
	}
	return nil, fmt.Errorf("cannot assign %s to a row of type %s", describe(x), t)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
