package fuse

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// exprOp is an array expression recorded on a tape: its backward
// recomputes the tree's values from the leaves (whose versions the tape
// checks) rather than saving them.
type exprOp struct {
	e     *Expr
	in    []*mem.Array // every array the tree reads
	wants []*mem.Array // those that required a gradient when it ran
	out   *mem.Array
}

func (*exprOp) Name() string            { return "array expression" }
func (o *exprOp) Inputs() []*mem.Array  { return o.in }
func (o *exprOp) Outputs() []*mem.Array { return []*mem.Array{o.out} }

func (o *exprOp) Backward(th *interp.Thread) error {
	g := o.out.Grad()
	if g == nil {
		return nil
	}
	return backwardExpr(th, o.e, &interp.Array{A: g}, func(a *mem.Array) bool { return slices.Contains(o.wants, a) })
}

// checkRecord refuses, before it runs, an expression a tape could not
// differentiate, and a store whose destination is also a leaf of it that
// requires a gradient (x += v for such an x): one gradient buffer would
// have to hold the gradient of x's new values and, added to it, that of
// its old ones (docs: "Gradients of expressions").
func checkRecord(e *Expr, dst *mem.Array) error {
	if dst != nil {
		for _, a := range Arrays(e) {
			if a.DType().IsFloat() && a.RequiresGrad() && a.MayOverlap(dst) {
				return fmt.Errorf("an array store on a tape writes over an operand that requires a gradient (x += v): write the result to a new array (x2 = x + v)")
			}
		}
	}
	return checkGrad(e, wantsNow)
}

// record appends dst = e, which has just run, to th's tape.
func record(th *interp.Thread, e *Expr, dst *mem.Array) error {
	in := Arrays(e)
	var wants []*mem.Array
	for _, a := range in {
		if a.DType().IsFloat() && a.RequiresGrad() {
			wants = append(wants, a)
		}
	}
	return th.Record(&exprOp{e: e, in: in, wants: wants, out: dst})
}
