package fuse

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Gradients of array expressions (docs/autodiff.md, doc.go "Gradients of
// expressions"): reverse mode over the tree, each node's adjoint built
// by its op's rule from the op table (ir.AdjointRule) as sub-expressions,
// the node's own result recomputed from its sub-tree instead of saved.

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
func RequiresGrad(e *Expr) bool { return needsGrad(e, wantsNow) }

// wantsNow is whether a requires a gradient at the time of the call.
func wantsNow(a *mem.Array) bool { return a.RequiresGrad() }

// needsGrad reports whether one of e's float leaves (a gather's source)
// is one wants names.
func needsGrad(e *Expr, wants func(*mem.Array) bool) bool {
	switch {
	case e.arr != nil:
		return e.arr.DType().IsFloat() && wants(e.arr)
	case e.gat != nil:
		return e.gat.src.DType().IsFloat() && wants(e.gat.src)
	}
	for _, a := range e.args {
		if needsGrad(a, wants) {
			return true
		}
	}
	return false
}

// BackwardExpr adds, into the gradient of each of e's array leaves that
// requires one, the gradient of e's value given g, the gradient of that
// value (an array or array expression broadcastable to e's shape, or a
// number). e must have been computed (Materialise, Store) with its
// leaves' current values: its gathers' indices are not checked again.
func BackwardExpr(th *interp.Thread, e *Expr, g interp.Value) error {
	return backwardExpr(th, e, g, wantsNow)
}

// backwardExpr is BackwardExpr for the leaves wants names: one fused
// kernel per array leaf (its contributions summed, then reduced over the
// axes it was broadcast along), one scatter-add per gather leaf.
func backwardExpr(th *interp.Thread, e *Expr, g interp.Value, wants func(*mem.Array) bool) error {
	ge, err := Leaf(g)
	if err != nil {
		return err
	}
	full, err := broadcast(e.shape, ge.shape)
	if err != nil {
		return fmt.Errorf("a gradient of shape %s for an expression of shape %s", interp.ShapeString(ge.shape), interp.ShapeString(e.shape))
	}
	ge, err = asType(ge, e.t)
	if err != nil {
		return err
	}
	c := &collector{th: th, wants: wants}
	if err := c.walk(checked(e), ge); err != nil {
		return err
	}
	s := sink{th: th, full: full, dev: e.dev}
	for _, l := range c.leaves {
		if err := s.array(l.e.arr, l.sum); err != nil {
			return err
		}
	}
	for _, l := range c.gathers {
		if err := s.gather(l.e, l.sum); err != nil {
			return err
		}
	}
	return nil
}

// checked is e with its gather leaves marked checked: the backward's
// kernels read indices the forward checked (gatherLeaf.checked).
func checked(e *Expr) *Expr {
	switch {
	case !hasGather(e):
		return e
	case e.gat != nil:
		gl, out := *e.gat, *e
		gl.checked = true
		out.gat = &gl
		return &out
	}
	out := *e
	out.args = make([]*Expr, len(e.args))
	for i, a := range e.args {
		out.args[i] = checked(a)
	}
	return &out
}

// checkGrad refuses, when the expression is recorded, an op on a path to
// a leaf wants names that has no adjoint rule.
func checkGrad(e *Expr, wants func(*mem.Array) bool) error {
	if e.isLeaf() || !needsGrad(e, wants) {
		return nil
	}
	if !e.t.IsFloat() || !e.in.IsFloat() {
		return nil // no gradient flows through int and bool values
	}
	switch d := e.op.Diff(); {
	case d == ir.DiffNone:
		return nil // nothing flows to the operands
	case d != ir.DiffRule && e.op != ir.OpConvert:
		return fmt.Errorf("the gradient of %s is not supported", e.op)
	}
	for _, a := range e.args {
		if err := checkGrad(a, wants); err != nil {
			return err
		}
	}
	return nil
}
