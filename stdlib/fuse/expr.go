package fuse

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Expr is a node of an elementwise expression tree: an array leaf, a
// scalar leaf, or an operation on sub-trees. Trees are immutable once
// built; every node knows its dtype, broadcast shape and device.
type Expr struct {
	op    ir.Op // an operation node (with len(args) > 0)
	in    ir.Type
	t     ir.Type      // the node's dtype (for a host scalar: set when it joins an array)
	args  []*Expr      // operands, each converted to in before op
	arr   *mem.Array   // array leaf
	gat   *gatherLeaf  // index-array leaf: arr's source indexed by an int array (gather.go)
	val   interp.Value // scalar leaf: a host Int/Float/Bool or a typed Scalar
	weak  bool         // untyped host number: adapts to the other operand (NEP 50)
	nanOr bool         // OpMin/OpMax on floats that propagate NaN (NumPy's minimum)
	shape []int        // broadcast shape; nil for a scalar
	dev   *mem.Device  // device of the array leaves; nil for a scalar
	// managed: every array leaf is CUDA managed memory, which may join a
	// cpu operand (ARRAYS.md section 2: the launch on the cpu then checks
	// can_access as any launch does).
	managed bool
}

func (e *Expr) isLeaf() bool { return len(e.args) == 0 }

// isScalar reports whether e is a scalar leaf (a host number or a typed
// scalar), the leaves that become scalar parameters.
func (e *Expr) isScalar() bool { return e.isLeaf() && e.arr == nil && e.gat == nil }

// Value is an Expr as a host value: what operators on arrays return
// until something consumes it (interp.Deferred).
type Value struct{ E *Expr }

func (Value) Type() string                                           { return "array" }
func (Value) String() string                                         { return "<array expression>" }
func (v Value) Materialise(th *interp.Thread) (*interp.Array, error) { return Materialise(th, v.E) }

// Leaf makes an expression of a host operand: an array, an expression,
// or a number (a host int, float or bool, or a typed scalar).
func Leaf(v interp.Value) (*Expr, error) {
	switch v := v.(type) {
	case Value:
		return v.E, nil
	case *interp.Array:
		if _, err := v.Plain("an array expression"); err != nil {
			return nil, err
		}
		d := v.A.Device()
		return &Expr{arr: v.A, t: v.A.DType(), shape: v.A.Shape(), dev: &d, managed: v.A.Kind() == mem.CUDAManaged}, nil
	case interp.Int:
		return &Expr{val: v, weak: true, t: ir.I64}, nil
	case interp.Float:
		return &Expr{val: v, weak: true, t: ir.F64}, nil
	case interp.Bool:
		return &Expr{val: v, t: ir.Bool}, nil
	case interp.Scalar:
		return &Expr{val: v, t: v.T}, nil
	}
	return nil, fmt.Errorf("%s cannot be an operand of an array expression", v.Type())
}

// resultType is the dtype of an operation on x and y: NumPy's table for
// two typed operands; a host number adapts to the other's dtype (a float
// meeting an int dtype gives f64), and must fit it.
func resultType(x, y *Expr) (ir.Type, error) {
	switch {
	case x.weak && y.weak:
		return ir.Promote(x.t, y.t), nil
	case x.weak:
		return adapt(x, y.t)
	case y.weak:
		return adapt(y, x.t)
	}
	return ir.Promote(x.t, y.t), nil
}

func adapt(host *Expr, t ir.Type) (ir.Type, error) {
	if host.t == ir.F64 && !t.IsFloat() {
		return ir.F64, nil
	}
	if t == ir.Bool {
		return ir.Promote(host.t, ir.Bool), nil
	}
	if t.IsFloat() {
		return t, nil // rounds, to inf past the range (NumPy warns, gives inf)
	}
	if _, err := interp.ElemBits(host.val, t); err != nil {
		return ir.Invalid, fmt.Errorf("%s does not fit the array's dtype %s (NEP 50: a host number adapts to the array)", host.val, t)
	}
	return t, nil
}

// broadcast is NumPy's broadcast shape of two operands.
func broadcast(a, b []int) ([]int, error) {
	if a == nil {
		return b, nil
	}
	if b == nil {
		return a, nil
	}
	out := make([]int, max(len(a), len(b)))
	for i := range out {
		da, db := extent(a, len(a)-len(out)+i), extent(b, len(b)-len(out)+i)
		switch {
		case da == db || db == 1:
			out[i] = da
		case da == 1:
			out[i] = db
		default:
			return nil, fmt.Errorf("operands could not be broadcast together: %s and %s", interp.ShapeString(a), interp.ShapeString(b))
		}
	}
	return out, nil
}

// extent is s[i], or 1 for an axis before s's first.
func extent(s []int, i int) int {
	if i < 0 {
		return 1
	}
	return s[i]
}

// joinDevice is the device of two operands: one device, or an error
// naming both and the remedy.
func joinDevice(a, b *mem.Device) (*mem.Device, error) {
	switch {
	case a == nil:
		return b, nil
	case b == nil || *a == *b:
		return a, nil
	}
	return nil, fmt.Errorf("operands are on different devices, %s and %s: copy one with .to(%q)", a, b, a.String())
}

// joinOperand joins operand a into e's device: the one device of both,
// or the cpu where the other side's arrays are all managed memory.
func (e *Expr) joinOperand(a *Expr) error {
	switch {
	case a.dev == nil:
		return nil
	case e.dev == nil:
		e.dev, e.managed = a.dev, a.managed
		return nil
	case *e.dev == *a.dev:
		e.managed = e.managed && a.managed
		return nil
	case !e.dev.IsCUDA() && a.managed:
		e.managed = false
		return nil
	case !a.dev.IsCUDA() && e.managed:
		e.dev, e.managed = a.dev, false
		return nil
	}
	_, err := joinDevice(e.dev, a.dev)
	return err
}

// node makes op(args) computed in type in with result type t: the shape
// and device join, and a host number among args takes type in.
func node(op ir.Op, in, t ir.Type, args ...*Expr) (*Expr, error) {
	e := &Expr{op: op, in: in, t: t, args: make([]*Expr, len(args))}
	for i, a := range args {
		var err error
		if e.shape, err = broadcast(e.shape, a.shape); err != nil {
			return nil, err
		}
		if err = e.joinOperand(a); err != nil {
			return nil, err
		}
		if op == ir.OpSelect && i == 0 {
			// the condition stays bool
		} else if a.weak && a.t == ir.F64 {
			// a host float is an f64 parameter, converted to in by the
			// kernel: past f32's range it becomes inf, as in NumPy
			a = &Expr{val: a.val, t: ir.F64}
		} else if a.weak || (a.isScalar() && a.t != in) {
			a = &Expr{val: a.val, t: in} // the scalar parameter has type in
		}
		e.args[i] = a
	}
	return e, nil
}

// Shape is e's broadcast shape, DType its dtype.
func (e *Expr) Shape() []int   { return e.shape }
func (e *Expr) DType() ir.Type { return e.t }
