package stdlib

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// Index arrays and masks on a tape (docs/autodiff.md). a[idx] and
// take(a, idx) are gather leaves of array expressions: the expression
// engine differentiates them. The others record here:
//   - a[mask] (a new array): a's gradient gets the result's gradient at
//     the selected places (expanded into a zero array, then added: no
//     atomics). The places (the mask's cumulative sum) are kept from the
//     forward, so no backward here reads anything back.
//   - a[idx] = v, a[mask] = v and add_at(a, idx, v): v's gradient is a's
//     gradient read back at the places written (gathered, or selected by
//     the mask), summed over the axes v was broadcast along. With
//     repeated indices every occurrence gets the gradient (as PyTorch's
//     index_put_ and index_add_ backwards). The destination must not
//     require a gradient itself (as PyTorch refuses in-place writes on a
//     leaf): assign into a new array (zeros(...)); it then requires one.

// tapedWrite checks, while a tape records, an assignment or add_at into
// dst, before it writes.
func tapedWrite(th *interp.Thread, name string, dst *mem.Array) error {
	if !th.Taping() {
		return nil
	}
	if err := th.TapeWrites(name, dst); err != nil {
		return err
	}
	if dst.RequiresGrad() {
		return fmt.Errorf("%s writes into an array that requires a gradient (a leaf): on a tape write into a new array, e.g. zeros(...), instead", name)
	}
	return nil
}

// recordWrite records, after it wrote, the write of v into dst at ix (an
// int index array, or a bool mask) when v requires a gradient.
func recordWrite(th *interp.Thread, name string, dst, ix *mem.Array, v interp.Value) error {
	dst.Touch()
	if !th.Taping() || !valueRequiresGrad(v) || !dst.DType().IsFloat() {
		return nil
	}
	op := &writeOp{name: name, dst: dst, ix: ix, v: v}
	if ix.DType() == ir.Bool { // the mask's places, for a backward that reads nothing back
		var err error
		if op.cs, op.count, err = maskPlaces(th, ix); err != nil {
			return err
		}
	}
	return th.Record(op)
}

// writeOp is a recorded write of v (an array or array expression) into
// dst at ix; for a mask, cs holds the places of its count selected
// elements (maskPlaces).
type writeOp struct {
	name    string
	dst, ix *mem.Array
	v       interp.Value
	cs      *mem.Array
	count   int
}

func (o *writeOp) Name() string { return o.name }

// Inputs are v's arrays and the indices (read again by the backward:
// backward refuses them overwritten).
func (o *writeOp) Inputs() []*mem.Array {
	if e, ok := o.v.(fuse.Value); ok {
		return append(gradLeaves(e.E), o.ix)
	}
	return []*mem.Array{o.v.(*interp.Array).A, o.ix}
}

func (o *writeOp) Outputs() []*mem.Array { return []*mem.Array{o.dst} }

func (o *writeOp) Backward(th *interp.Thread) error {
	g, err := o.readBack(th)
	if err != nil {
		return err
	}
	if e, ok := o.v.(fuse.Value); ok {
		if g, err = sumTo(th, o.name, g, e.E.Shape()); err != nil {
			return err
		}
		return fuse.BackwardExpr(th, e.E, g)
	}
	a := o.v.(*interp.Array).A
	if g, err = sumTo(th, o.name, g, a.Shape()); err != nil {
		return err
	}
	return th.AccumulateGrad(a, g)
}

// readBack is dst's gradient at the written places: gathered at the
// indices, or selected by the mask.
func (o *writeOp) readBack(th *interp.Thread) (interp.Value, error) {
	if o.ix.DType().IsInt() {
		return fuse.Gather(o.dst.Grad(), o.ix, 0)
	}
	g, m, err := maskCheck(o.dst.Grad(), o.ix)
	if err != nil {
		return nil, err
	}
	return maskSelectAt(th, g, m, o.cs, o.count)
}

// sumTo is g summed over the axes along which shape broadcast to g's
// shape (NumPy's rule: missing leading axes, extents of 1), reshaped to
// shape: the gradient of a broadcast value.
func sumTo(th *interp.Thread, name string, g interp.Value, shape []int) (interp.Value, error) {
	e, err := fuse.Leaf(g)
	if err != nil {
		return nil, err
	}
	gs := e.Shape()
	var axes []int
	for i, n := range gs {
		j := i - (len(gs) - len(shape))
		if j < 0 || shape[j] == 1 && n != 1 {
			axes = append(axes, i)
		}
	}
	if len(axes) == 0 {
		return g, nil
	}
	s, err := fusedAxisReduce(th, name, reduce.Sum, e, axes, true)
	if err != nil {
		return nil, err
	}
	r, err := s.(*interp.Array).A.Reshape(shape)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: r}, nil
}

// maskSelectTaped is a[mask] recorded: the mask's places (its cumulative
// sum) are kept for the backward, which then reads nothing back.
func maskSelectTaped(th *interp.Thread, a, mask *mem.Array) (interp.Value, error) {
	av, m, err := maskCheck(a, mask)
	if err != nil {
		return nil, err
	}
	cs, count, err := maskPlaces(th, m)
	if err != nil {
		return nil, err
	}
	v, err := maskSelectAt(th, av, m, cs, count)
	if err != nil {
		return nil, err
	}
	out := v.(*interp.Array).A
	return v, th.Record(&maskSelectOp{a: a, av: av, mask: m, cs: cs, out: out})
}

// maskSelectOp is a recorded out = a[mask]; av and mask are as
// maskCheck shaped them, cs the places of the mask's selected elements.
type maskSelectOp struct{ a, av, mask, cs, out *mem.Array }

func (o *maskSelectOp) Name() string          { return "a[mask]" }
func (o *maskSelectOp) Inputs() []*mem.Array  { return []*mem.Array{o.a, o.mask} }
func (o *maskSelectOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

// Backward expands the result's gradient into a zero array of a's shape
// at the selected places (the forward's, kept: no host read) and adds
// that to a's gradient.
func (o *maskSelectOp) Backward(th *interp.Thread) error {
	if o.out.Size() == 0 {
		return nil
	}
	z, err := th.NewArray(o.a.DType(), o.av.Shape(), interp.String(o.a.Device().String()), nil)
	if err != nil {
		return err
	}
	g := o.out.Grad()
	if err := maskLaunch(th, maskExpandMode, z.DType(), g.DType(), z.NDim(), o.mask, o.cs, z.Shape(), z, g); err != nil {
		return err
	}
	zv, err := z.Reshape(o.a.Shape())
	if err != nil {
		return err
	}
	return th.AccumulateGrad(o.a, &interp.Array{A: zv})
}
