package stdlib

import (
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// dot on a tape (docs/autodiff.md): dot(x, y) of operands one of which
// requires a gradient is the axis sum of x * y into a 1-element array
// (as a full reduction on a tape), and its backward adds g * y to x's
// gradient and g * x to y's (through fuse.BackwardExpr for an operand
// that is an array expression).

// tapedDot reports whether dot(x, y) is recorded.
func tapedDot(th *interp.Thread, x, y *fuse.Expr) bool {
	return th.Taping() && x.DType().IsFloat() && (fuse.RequiresGrad(x) || fuse.RequiresGrad(y))
}

// dotTaped runs and records dot(x, y), vs the operands as given.
func dotTaped(th *interp.Thread, vs []interp.Value) (interp.Value, error) {
	prod, err := fuse.Binary(token.Mul, vs[0], vs[1])
	if err != nil {
		return nil, err
	}
	e, err := fuse.Leaf(prod)
	if err != nil {
		return nil, err
	}
	v, err := fusedAxisReduce(th, "dot", reduce.Sum, e, []int{0}, true)
	if err != nil {
		return nil, err
	}
	out := v.(*interp.Array).A
	return v, th.Record(&dotOp{x: vs[0], y: vs[1], out: out})
}

type dotOp struct {
	x, y interp.Value // *interp.Array or fuse.Value
	out  *mem.Array
}

func (o *dotOp) Name() string { return "dot" }

func (o *dotOp) Inputs() []*mem.Array {
	var in []*mem.Array
	for _, v := range []interp.Value{o.x, o.y} {
		e, err := fuse.Leaf(v)
		if err == nil {
			in = append(in, gradLeaves(e)...)
		}
	}
	return in
}

func (o *dotOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

func (o *dotOp) Backward(th *interp.Thread) error {
	g := &interp.Array{A: o.out.Grad()}
	if err := dotShare(th, o.x, o.y, g); err != nil {
		return err
	}
	return dotShare(th, o.y, o.x, g)
}

// dotShare adds g * other into v's gradient.
func dotShare(th *interp.Thread, v, other interp.Value, g interp.Value) error {
	if !valueRequiresGrad(v) {
		return nil
	}
	share, err := fuse.Binary(token.Mul, g, other)
	if err != nil {
		return err
	}
	if e, ok := v.(fuse.Value); ok {
		return fuse.BackwardExpr(th, e.E, share)
	}
	return th.AccumulateGrad(v.(*interp.Array).A, share)
}
