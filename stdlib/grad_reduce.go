package stdlib

import (
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// Reductions on a tape (docs/autodiff.md). The recorded reduction runs
// as an axis reduction with the reduced axes kept, on the device, and
// its result is an array: a full reduction of an array that requires a
// gradient returns a 1-element array of shape [1] there (not a host
// number, which could carry no gradient and would make the forward wait
// for the device). Backward views the output's gradient with extent-1
// axes where the reduction removed them, so it broadcasts over the
// operand.

// tapedOperand reports whether reduction k of a (or of expression e) is
// recorded: sum, mean, max, min, norm and prod are; the others either give no
// gradient (argmax, any ...) or are refused by the builtins' dispatch
// (grad_dispatch.go).
func tapedOperand(th *interp.Thread, k reduce.Kind, a *mem.Array, e *fuse.Expr) bool {
	switch {
	case !th.Taping():
		return false
	case !slices.Contains([]reduce.Kind{reduce.Sum, reduce.Mean, reduce.Max, reduce.Min, reduce.Norm, reduce.Prod}, k):
		return false
	case e != nil:
		return e.DType().IsFloat() && fuse.RequiresGrad(e) // sum(x > 0) counts: no gradient
	}
	return th.Records(a) && a.DType().IsFloat()
}

// reduceTaped runs reduction k of a (or e) along axes and records it.
func reduceTaped(th *interp.Thread, name string, k reduce.Kind, a *mem.Array, e *fuse.Expr, axes []int, keep bool) (interp.Value, error) {
	var v interp.Value
	var err error
	var shape []int
	if e != nil {
		shape = e.Shape()
	} else {
		shape = a.Shape()
	}
	rows := splitRows(shape, axes)
	switch {
	case rows > 1 && e != nil:
		// materialised (and recorded) first: the split view needs an array
		if v, err = (fuse.Value{E: e}).Materialise(th); err == nil {
			return reduceTaped(th, name, k, v.(*interp.Array).A, nil, axes, keep)
		}
	case rows > 1:
		v, err = splitReduce(th, name, k, a, rows)
	case e != nil:
		v, err = fusedAxisReduce(th, name, k, e, axes, true)
	default:
		v, err = axisReduce(th, name, k, axisInput{t: a.DType(), arrays: []*mem.Array{a}}, axes, true)
	}
	if err != nil {
		return nil, err
	}
	kept := v.(*interp.Array).A
	out := kept
	if !keep {
		if out, err = kept.Reshape(droppedShape(kept.Shape(), axes)); err != nil {
			return nil, err
		}
	}
	op := &reduceOp{name: name, k: k, x: a, e: e, axes: axes, out: out, kept: kept.Shape()}
	if err := th.Record(op); err != nil {
		return nil, err
	}
	return &interp.Array{A: out}, nil
}

// splitMin is the size from which a full reduction on a tape runs in two
// stages: the axis kernels give each output one block, so one row of
// 2^26 elements would be one block's work (17 ms on the H200, against
// 0.1 ms in two stages).
const splitMin = 1 << 16

// splitRows is how many rows a full reduction over shape splits into:
// the largest power of two that divides the size, at most 8192, when
// that leaves rows of at least 256; 1 (no split) otherwise, and for a
// reduction over fewer axes.
func splitRows(shape []int, axes []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if len(axes) != len(shape) || n < splitMin {
		return 1
	}
	r := 1
	for r < 8192 && n%(2*r) == 0 && n/(2*r) >= 256 {
		r *= 2
	}
	if r < 16 {
		return 1
	}
	return r
}

// splitReduce is the full reduction k of a as rows of a: along the rows,
// then over their results, kept with a's rank (every extent 1). The
// result differs from a one-stage reduction in the rounding of its sum.
func splitReduce(th *interp.Thread, name string, k reduce.Kind, a *mem.Array, rows int) (interp.Value, error) {
	c, err := contiguous(th, a)
	if err != nil {
		return nil, err
	}
	m, err := c.Reshape([]int{rows, a.Size() / rows})
	if err != nil {
		return nil, err
	}
	part, err := axisReduce(th, name, k, axisInput{t: a.DType(), arrays: []*mem.Array{m}}, []int{1}, false)
	if err != nil {
		return nil, err
	}
	p := part.(*interp.Array).A
	whole, err := axisReduce(th, name, k, axisInput{t: p.DType(), arrays: []*mem.Array{p}}, []int{0}, true)
	if err != nil {
		return nil, err
	}
	ones := make([]int, a.NDim())
	for i := range ones {
		ones[i] = 1
	}
	w, err := whole.(*interp.Array).A.Reshape(ones)
	return &interp.Array{A: w}, err
}

// droppedShape is the shape of a keepdims result without the reduced
// axes; a full reduction keeps one axis of extent 1 (a 1-element array).
func droppedShape(kept []int, axes []int) []int {
	var out []int
	for i, n := range kept {
		if !containsInt(axes, i) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return []int{1}
	}
	return out
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// reduceOp is a recorded sum, mean, max, min, norm or prod of an array x or an
// expression e.
type reduceOp struct {
	name string
	k    reduce.Kind
	x    *mem.Array
	e    *fuse.Expr
	axes []int
	out  *mem.Array
	kept []int // out's shape with the reduced axes kept (extent 1)
}

func (o *reduceOp) Name() string { return o.name }

func (o *reduceOp) Inputs() []*mem.Array {
	if o.e == nil {
		return []*mem.Array{o.x}
	}
	return gradLeaves(o.e)
}

func (o *reduceOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

// gradLeaves are e's float array leaves that require gradients.
func gradLeaves(e *fuse.Expr) []*mem.Array {
	var out []*mem.Array
	for _, a := range fuse.Arrays(e) {
		if a.DType().IsFloat() && a.RequiresGrad() {
			out = append(out, a)
		}
	}
	return out
}

// Backward adds g (sum), g / n (mean), g * tie / count(tie) with tie =
// (x == out) (max and min: ties split evenly, as PyTorch's amax) or
// g * x / out (norm), or the product of the other elements times g
// (prod, prodShare) to the operand's gradient, g the output's gradient
// with the kept axes.
func (o *reduceOp) Backward(th *interp.Thread) error {
	g, err := o.out.Grad().Reshape(o.kept)
	if err != nil {
		return err
	}
	var gx interp.Value = &interp.Array{A: g}
	switch o.k {
	case reduce.Mean:
		gx, err = fuse.Binary(token.Quo, gx, interp.Float(float64(o.count())))
	case reduce.Max, reduce.Min:
		gx, err = o.tieShare(th, gx)
	case reduce.Norm:
		gx, err = o.normShare(gx)
	case reduce.Prod:
		gx, err = o.prodShare(th, gx)
	}
	if err != nil {
		return err
	}
	return o.accumulate(th, gx)
}

// count is the number of elements each output element reduced.
func (o *reduceOp) count() int {
	n := 1
	for _, ax := range o.axes {
		n *= o.shape()[ax]
	}
	return n
}

func (o *reduceOp) shape() []int {
	if o.e != nil {
		return o.e.Shape()
	}
	return o.x.Shape()
}

func (o *reduceOp) operand() interp.Value {
	if o.e != nil {
		return fuse.Value{E: o.e}
	}
	return &interp.Array{A: o.x}
}

// tieShare is g * tie / count(tie), tie = (x == m) as x's dtype, the
// count an axis sum kept as extent-1 axes: all on the device.
func (o *reduceOp) tieShare(th *interp.Thread, g interp.Value) (interp.Value, error) {
	m, err := o.out.Reshape(o.kept)
	if err != nil {
		return nil, err
	}
	eq, err := fuse.Binary(token.Eql, o.operand(), &interp.Array{A: m})
	if err != nil {
		return nil, err
	}
	tie, err := fuse.AsType(eq, o.out.DType())
	if err != nil {
		return nil, err
	}
	te, err := fuse.Leaf(tie)
	if err != nil {
		return nil, err
	}
	cnt, err := fusedAxisReduce(th, o.name, reduce.Sum, te, o.axes, true)
	if err != nil {
		return nil, err
	}
	share, err := fuse.Binary(token.Mul, g, tie)
	if err != nil {
		return nil, err
	}
	return fuse.Binary(token.Quo, share, cnt)
}

// normShare is g * x / n, n the norm: 0 where n is 0 (the subgradient
// PyTorch's norm backward gives there, not a NaN).
func (o *reduceOp) normShare(g interp.Value) (interp.Value, error) {
	n, err := o.out.Reshape(o.kept)
	if err != nil {
		return nil, err
	}
	nv := &interp.Array{A: n}
	share, err := fuse.Binary(token.Mul, g, o.operand())
	if err == nil {
		share, err = fuse.Binary(token.Quo, share, nv)
	}
	if err != nil {
		return nil, err
	}
	zero, err := fuse.Binary(token.Eql, nv, interp.Int(0))
	if err != nil {
		return nil, err
	}
	return fuse.Where(zero, interp.Int(0), share)
}

// accumulate adds gx, broadcast to the operand's shape, into the
// gradients of the operand's leaves.
func (o *reduceOp) accumulate(th *interp.Thread, gx interp.Value) error {
	if o.e != nil {
		return fuse.BackwardExpr(th, o.e, gx)
	}
	return th.AccumulateGrad(o.x, gx)
}
