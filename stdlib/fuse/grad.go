package fuse

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Gradients of array expressions (docs/autodiff.md).

// Arrays lists e's array leaves, a gather's source and indices included:
// what an op that consumed e read (a TapeOp's Inputs).
func Arrays(e *Expr) []*mem.Array {
	var out []*mem.Array
	var walk func(e *Expr)
	walk = func(e *Expr) {
		switch {
		case e.arr != nil:
			out = append(out, e.arr)
		case e.gat != nil:
			out = append(out, e.gat.src, e.gat.ix)
		}
		for _, a := range e.args {
			walk(a)
		}
	}
	walk(e)
	return out
}

// RequiresGrad reports whether one of e's float array leaves requires a
// gradient.
func RequiresGrad(e *Expr) bool {
	for _, a := range Arrays(e) {
		if a.DType().IsFloat() && a.RequiresGrad() {
			return true
		}
	}
	return false
}

// BackwardExpr adds, into the gradient of each of e's array leaves that
// requires one, the gradient of e's value given g, the gradient of that
// value (an array or array expression broadcastable to e's shape, or a
// number).
func BackwardExpr(th *interp.Thread, e *Expr, g interp.Value) error {
	return fmt.Errorf("not yet supported: gradients of array expressions")
}
