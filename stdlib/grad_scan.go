package stdlib

import (
	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// cumsum on a tape (docs/autodiff.md): the gradient of y = cumsum(a) is
// the reversed cumulative sum of y's gradient, dA[i] = sum over k >= i
// of dY[k], computed by the scan kernels on reversed views (no copies
// but the flattened case's reshape). cumprod is refused.

// recordCumsum records out = cumsum(a) along axis (flat: of a
// flattened) when a requires a gradient.
func recordCumsum(th *interp.Thread, a, out *mem.Array, axis int, flat bool) error {
	if !th.Records(a) || !a.DType().IsFloat() {
		return nil
	}
	return th.Record(&cumsumOp{a: a, out: out, axis: axis, flat: flat})
}

type cumsumOp struct {
	a, out *mem.Array
	axis   int
	flat   bool
}

func (o *cumsumOp) Name() string          { return "cumsum" }
func (o *cumsumOp) Inputs() []*mem.Array  { return []*mem.Array{o.a} }
func (o *cumsumOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

func (o *cumsumOp) Backward(th *interp.Thread) error {
	g := o.out.Grad()
	axis := o.axis
	if o.flat {
		axis = 0
	}
	n := g.Shape()[axis]
	if n == 0 {
		return nil
	}
	r, err := axisView(g, axis, n-1, n, -1)
	if err != nil {
		return err
	}
	c, err := scanArray(th, reduce.ScanSpec{Kind: reduce.CumSum, In: g.DType()}, r, axis, false)
	if err != nil {
		return err
	}
	d, err := axisView(c, axis, n-1, n, -1)
	if err != nil {
		return err
	}
	if o.flat {
		if d, err = contiguous(th, d); err != nil {
			return err
		}
		if d, err = d.Reshape(o.a.Shape()); err != nil {
			return err
		}
	}
	return th.AccumulateGrad(o.a, &interp.Array{A: d})
}
