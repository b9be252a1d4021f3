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

// gradRecorders wrap the builtins whose result is a copy or a join of
// their array arguments with the recording of it.
var gradRecorders = map[string]func(fn) fn{
	"array": recordCopy, "to": recordCopy, "reshape": recordCopy, "copy": recordCopyInto,
	"concatenate": recordJoin(false), "stack": recordJoin(true),
}

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
		if !ok1 || !ok2 || !th.Records(src.A) || dst.A.SameBuffer(src.A) || !dst.A.DType().IsFloat() {
			return v, nil
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
		if err != nil || !ok || !th.Records(src.A) || !dst.A.DType().IsFloat() {
			return v, err
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

// recordJoin records concatenate (stacked false) or stack: f's result
// joins the arrays of its first argument along an axis.
func recordJoin(stacked bool) func(fn) fn {
	return func(f fn) fn {
		return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			v, err := f(th, args)
			if err != nil || !th.Taping() {
				return v, err
			}
			as, err := arraysOf(args.Fn, args.Positional[0])
			out, ok := v.(*interp.Array)
			if err != nil || !ok || !th.Records(as...) || !out.A.DType().IsFloat() {
				return v, nil
			}
			op := &joinOp{name: args.Fn, ins: as, out: out.A, stacked: stacked, flat: !stacked && args.Get(1, "axis") == interp.Nil}
			if !op.flat {
				nd := as[0].NDim()
				if stacked {
					nd++
				}
				if op.axis, err = axisOf(args, 1, 0, nd); err != nil {
					return nil, err
				}
			}
			return v, th.Record(op)
		}
	}
}

// joinOp is a recorded concatenate or stack of ins into out along axis
// (flat: of the flattened ins, out 1-D).
type joinOp struct {
	name          string
	ins           []*mem.Array
	out           *mem.Array
	axis          int
	stacked, flat bool
}

func (o *joinOp) Name() string { return o.name }

func (o *joinOp) Inputs() []*mem.Array {
	var in []*mem.Array
	for _, a := range o.ins {
		if a.RequiresGrad() {
			in = append(in, a)
		}
	}
	return in
}

func (o *joinOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

// Backward adds each input's part of the result's gradient, a view of
// it, into the input's gradient.
func (o *joinOp) Backward(th *interp.Thread) error {
	g := o.out.Grad()
	at := 0
	for _, a := range o.ins {
		n := o.extent(a)
		part, err := o.part(g, at, n, a.Shape())
		if err != nil {
			return err
		}
		at += n
		if !a.RequiresGrad() || a.Size() == 0 {
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
	switch {
	case o.flat:
		return a.Size()
	case o.stacked:
		return 1
	}
	return a.Shape()[o.axis]
}

// part is g's entries at..at+n along the joined axis, in the shape of
// the input they came from: a stacked input's axis is indexed away, a
// flattened input's part (contiguous: g is a new array's) reshaped.
func (o *joinOp) part(g *mem.Array, at, n int, shape []int) (*mem.Array, error) {
	sels := make([]mem.Sel, o.axis+1)
	for k := range o.axis {
		sels[k] = mem.Sel{Slice: true, Count: g.Shape()[k], Step: 1}
	}
	sels[o.axis] = mem.Sel{Slice: true, Start: at, Count: n, Step: 1}
	if o.stacked {
		sels[o.axis] = mem.Sel{Start: at}
	}
	p, err := g.View(sels)
	if err != nil || !o.flat {
		return p, err
	}
	return p.Reshape(shape)
}
