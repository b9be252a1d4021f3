package stdlib

import (
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Copies and joins on a tape (docs/autodiff.md): the gradient of a copy
// is the copy's gradient, reshaped to the source's shape and moved to
// its device; the gradient of each array concatenate or stack joined is
// its part of the result's gradient, a view. Views (transpose, a.T, a
// reshape that needs no copy) record nothing: a view's gradient is the
// same view of its buffer's gradient.

// gradRecorders wrap the builtins whose result is a copy of their array
// argument with the recording of it (concatenate and stack record in
// shape.go, joinTaped).
var gradRecorders = map[string]func(fn) fn{
	"array": recordCopy, "to": recordCopy, "reshape": recordCopy, "copy": recordCopyInto,
}

// engineCopied: a copy (interp.Thread.CopyArray) may run as a store of
// the expression engine, which records stores of arrays that require
// gradients itself; its destination then requires a gradient. A
// destination that did not before (a new array, or one tapedWrite
// checked) and does after was recorded, and is not recorded again here.

// recordCopy records f's result as a copy of its first argument: array(a),
// to(a, dev), reshape(a, shape) where a is not contiguous. A view of a,
// a result of a dtype without gradients and array(a, requires_grad=true)
// (a new leaf, as torch's a.detach().clone().requires_grad_()) are not
// recorded.
func recordCopy(f fn) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		v, err := f(th, args)
		if err != nil || !th.Taping() || len(args.Positional) == 0 || slices.Contains(args.Names, "requires_grad") {
			return v, err
		}
		src, ok1 := args.Positional[0].(*interp.Array)
		dst, ok2 := v.(*interp.Array)
		if !ok1 || !ok2 || !th.Records(src.A) || dst.A.SameBuffer(src.A) || !dst.A.DType().IsFloat() || dst.A.RequiresGrad() {
			return v, nil // dst requiring a gradient: the copy engine recorded the copy (engineCopied)
		}
		return v, th.Record(&copyOp{name: args.Fn, src: src.A, dst: dst.A})
	}
}

// recordCopyInto is copy(dst, src): a write of dst (refused over an
// array the tape recorded or one that requires a gradient, tapedWrite),
// recorded as a copy of src when src requires a gradient. dst's earlier
// values get no gradient: they were overwritten.
func recordCopyInto(f fn) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		dst, ok := args.Positional[0].(*interp.Array)
		if !th.Taping() || !ok || len(args.Positional) != 2 {
			return f(th, args)
		}
		if err := tapedWrite(th, "copy", dst.A); err != nil {
			return nil, err
		}
		v, err := f(th, args)
		src, ok := args.Positional[1].(*interp.Array)
		if err != nil || !ok || !th.Records(src.A) || !dst.A.DType().IsFloat() || dst.A.RequiresGrad() {
			return v, err // see engineCopied
		}
		return v, th.Record(&copyOp{name: "copy", src: src.A, dst: dst.A})
	}
}

// copyOp is a recorded copy of src into dst (of src's size, any shape,
// dtype and device).
type copyOp struct {
	name     string
	src, dst *mem.Array
}

func (o *copyOp) Name() string          { return o.name }
func (o *copyOp) Inputs() []*mem.Array  { return []*mem.Array{o.src} }
func (o *copyOp) Outputs() []*mem.Array { return []*mem.Array{o.dst} }

func (o *copyOp) Backward(th *interp.Thread) error {
	g := o.dst.Grad()
	if !slices.Equal(g.Shape(), o.src.Shape()) {
		c, err := contiguous(th, g)
		if err != nil {
			return err
		}
		if g, err = c.Reshape(o.src.Shape()); err != nil {
			return err
		}
	}
	var gv interp.Value = &interp.Array{A: g}
	if g.Device() != o.src.Device() {
		var err error
		if gv, err = interp.ArrayTo(th, gv.(*interp.Array), interp.String(o.src.Device().String())); err != nil {
			return err
		}
	}
	return th.AccumulateGrad(o.src, gv)
}

// joinTaped records op, a concatenate or stack that joined op.ins into
// op.out, when a tape records and an input requires a gradient, for the
// inputs whose copy the expression engine did not record itself: a copy
// that ran as its store (stored) is recorded by it where it records
// stores (op.out then requires a gradient), so recording it here too
// would count its gradient twice.
func joinTaped(th *interp.Thread, op *joinOp, stored []bool) error {
	if !th.Records(op.ins...) || !op.out.DType().IsFloat() {
		return nil
	}
	if op.out.RequiresGrad() {
		op.skip = stored
	}
	return th.Record(op)
}

// joinOp is a recorded concatenate or stack of ins into out along axis
// (flat: of the flattened ins, out 1-D; stack's ins are the arrays seen
// with the new axis). The ins whose skip is true were recorded by the
// expression engine.
type joinOp struct {
	name string
	ins  []*mem.Array
	out  *mem.Array
	axis int
	flat bool
	skip []bool
}

func (o *joinOp) Name() string { return o.name }

func (o *joinOp) Inputs() []*mem.Array {
	var in []*mem.Array
	for i, a := range o.ins {
		if a.RequiresGrad() && !o.skipped(i) {
			in = append(in, a)
		}
	}
	return in
}

func (o *joinOp) skipped(i int) bool { return o.skip != nil && o.skip[i] }

func (o *joinOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

// Backward adds each input's part of the result's gradient, a view of
// it, into the input's gradient.
func (o *joinOp) Backward(th *interp.Thread) error {
	g := o.out.Grad()
	at := 0
	for i, a := range o.ins {
		n := o.extent(a)
		part, err := o.part(g, at, n, a.Shape())
		if err != nil {
			return err
		}
		at += n
		if !a.RequiresGrad() || a.Size() == 0 || o.skipped(i) {
			continue
		}
		if err := th.AccumulateGrad(a, &interp.Array{A: part}); err != nil {
			return err
		}
	}
	return nil
}

// extent is how far a reaches along the joined axis.
func (o *joinOp) extent(a *mem.Array) int {
	if o.flat {
		return a.Size()
	}
	return a.Shape()[o.axis]
}

// part is g's entries at..at+n along the joined axis, in the shape of
// the input they came from: a flattened input's part (contiguous: g is a
// new array's) reshaped.
func (o *joinOp) part(g *mem.Array, at, n int, shape []int) (*mem.Array, error) {
	p, err := axisView(g, o.axis, at, n, 1)
	if err != nil || !o.flat {
		return p, err
	}
	return p.Reshape(shape)
}
