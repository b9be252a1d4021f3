package fuse

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// SumAxes is sum(e, axis=axes) through stdlib's fused axis reduction
// (the one engine of reductions, deterministic on every device); stdlib
// sets it, as fuse cannot import it.
var SumAxes func(th *interp.Thread, e *Expr, axes []int) (interp.Value, error)

// sink accumulates a leaf's summed gradient: full is the shape the
// gradient flows in (the expression's, broadcast with its seed's).
type sink struct {
	th   *interp.Thread
	full []int
	dev  *mem.Device
}

// array adds sum into a's gradient: one fused kernel, after a reduction
// over the axes a was broadcast along.
func (s sink) array(a *mem.Array, sum *Expr) error {
	a, err := unstretched(a)
	if err != nil {
		return err
	}
	v, err := s.sumTo(sum, a.Shape())
	if err != nil {
		return err
	}
	return s.th.AccumulateGrad(a, v)
}

// unstretched is a with each axis of stride 0 (a broadcast view's: every
// element of it one element of the buffer) cut to extent 1, so that the
// gradient is summed along it rather than stored over itself.
func unstretched(a *mem.Array) (*mem.Array, error) {
	sels := make([]mem.Sel, a.NDim())
	cut := false
	for i, n := range a.Shape() {
		if a.Strides()[i] == 0 && n > 1 {
			n, cut = 1, true
		}
		sels[i] = mem.Sel{Slice: true, Count: n, Step: 1}
	}
	if !cut {
		return a, nil
	}
	return a.View(sels)
}

// sumTo is sum summed over the axes of full that shape (a leaf's)
// broadcasts along, of shape shape.
func (s sink) sumTo(sum *Expr, shape []int) (interp.Value, error) {
	axes := broadcastAxes(s.full, shape)
	if len(axes) == 0 {
		return Value{sum}, nil
	}
	if SumAxes == nil {
		return nil, fmt.Errorf("gradients of broadcast operands need stdlib's reductions")
	}
	r, err := SumAxes(s.th, s.widen(sum, s.full), axes)
	if err != nil {
		return nil, err
	}
	ra, ok := r.(*interp.Array)
	if !ok {
		return nil, fmt.Errorf("internal error: a reduction gave %s", r.Type())
	}
	flat, err := ra.A.Reshape(shape)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: flat}, nil
}

// widen is e with shape shape, which its leaves broadcast to: a no-op
// conversion node (a number's gradient lacks the expression's axes).
func (s sink) widen(e *Expr, shape []int) *Expr {
	return &Expr{op: ir.OpConvert, in: e.t, t: e.t, args: []*Expr{e}, shape: shape, dev: s.dev}
}

// broadcastAxes are the axes of full that an operand of shape shape is
// stretched or prepended along.
func broadcastAxes(full, shape []int) []int {
	var axes []int
	lead := len(full) - len(shape)
	for i, d := range full {
		if i < lead || (shape[i-lead] == 1 && d != 1) {
			axes = append(axes, i)
		}
	}
	return axes
}

// gather adds sum, the gradient of take(src, ix, axis), into src's
// gradient: add_at along axis (repeated indices accumulate), through
// views that make axis the first, as scatterLaunch takes it.
func (s sink) gather(e *Expr, sum *Expr) error {
	gl := e.gat
	v, err := s.sumTo(sum, e.shape)
	if err != nil {
		return err
	}
	g, err := s.th.GradArray(gl.src)
	if err != nil {
		return err
	}
	if gl.axis == 0 {
		return s.scatterAdd(g, gl.ix, v)
	}
	m, k := gl.ix.NDim(), gl.axis
	gperm := slices.Concat([]int{k}, seq(0, k), seq(k+1, gl.src.NDim()))
	vperm := slices.Concat(seq(k, k+m), seq(0, k), seq(k+m, len(e.shape)))
	if g, err = g.Permute(gperm); err != nil {
		return err
	}
	va, err := s.valueArray(v, e.shape)
	if err != nil {
		return err
	}
	vp, err := va.Permute(vperm)
	if err != nil {
		return err
	}
	return s.scatterAdd(g, gl.ix, &interp.Array{A: vp})
}

// scatterAdd is add_at(dst, ix, v) without Scatter's check kernel: the
// forward's gather checked ix, which the tape keeps unchanged, so
// nothing is read back and a capture can record the backward.
func (s sink) scatterAdd(dst, ix *mem.Array, v interp.Value) error {
	e, err := scatterValue(s.th, dst, ix, v, true)
	if err != nil || ix.Size() == 0 {
		return err
	}
	return scatterLaunch(s.th, dst, ix, nil, e, true)
}

// valueArray is v, of shape shape or broadcasting to it, computed into
// an array of that shape.
func (s sink) valueArray(v interp.Value, shape []int) (*mem.Array, error) {
	switch v := v.(type) {
	case *interp.Array:
		return v.A, nil
	case Value:
		a, err := Materialise(s.th, s.widen(v.E, shape))
		if err != nil {
			return nil, err
		}
		return a.A, nil
	}
	return nil, fmt.Errorf("internal error: a gradient of %s", v.Type())
}

// seq is lo, lo+1, ..., hi-1.
func seq(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}
