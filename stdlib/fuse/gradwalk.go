package fuse

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// collector walks an expression from its root down, pushing each node's
// gradient (an expression) to its operands by the op's adjoint rule, and
// sums what reaches each leaf that wants a gradient.
type collector struct {
	th      *interp.Thread // computes a gradient grown past maxTerms (nil: never)
	wants   func(*mem.Array) bool
	leaves  []contrib // array leaves, by *mem.Array: a leaf used twice sums both
	gathers []contrib // gather leaves, by source, indices and axis
}

// contrib is the summed gradient of one leaf (e: its first occurrence).
type contrib struct {
	e   *Expr
	sum *Expr
}

func (c *collector) walk(e *Expr, g *Expr) error {
	var err error
	switch {
	case !needsGrad(e, c.wants):
		return nil
	case e.arr != nil:
		c.leaves, err = add(c.leaves, e, g, func(x *Expr) bool { return x.arr == e.arr })
		return err
	case e.gat != nil:
		c.gathers, err = add(c.gathers, e, g, func(x *Expr) bool { return *x.gat == *e.gat })
		return err
	case !e.t.IsFloat() || !e.in.IsFloat():
		return nil
	}
	if g, err = c.bound(g); err != nil {
		return err
	}
	if e.op == ir.OpConvert {
		ga, err := asType(g, e.in)
		if err != nil {
			return err
		}
		return c.walk(e.args[0], ga)
	}
	switch e.op.Diff() {
	case ir.DiffNone:
		return nil
	case ir.DiffRule:
		return c.rule(e, g)
	}
	return fmt.Errorf("the gradient of %s is not supported", e.op)
}

// maxTerms bounds the nodes of a gradient pushed down the tree: rules
// that use g twice (minimum and maximum's, clip's) would double it at
// each level of a nested chain of them.
const maxTerms = 256

// bound is g, computed into an array when it has grown past maxTerms.
func (c *collector) bound(g *Expr) (*Expr, error) {
	if c.th == nil || g.dev == nil || size(g, maxTerms) < maxTerms {
		return g, nil
	}
	a, err := Materialise(c.th, g)
	if err != nil {
		return nil, err
	}
	return Leaf(a)
}

// size is the number of e's nodes, counted up to limit.
func size(e *Expr, limit int) int {
	n := 1
	for _, a := range e.args {
		if n >= limit {
			break
		}
		n += size(a, limit-n)
	}
	return n
}

// rule applies e's adjoint rule: the operands as terms of e's compute
// type, the result e itself (recomputed), and each operand's gradient
// converted back to its own dtype.
func (c *collector) rule(e *Expr, g *Expr) error {
	d := &exprDeriv{t: e.in}
	xs := make([]ir.Term, len(e.args))
	for i, a := range e.args {
		x := a
		if e.op != ir.OpSelect || i > 0 {
			var err error
			if x, err = asType(a, e.in); err != nil {
				return err
			}
		}
		xs[i] = x
	}
	gs := e.op.AdjointRule()(d, g, e, xs)
	if d.err != nil {
		return d.err
	}
	for i, a := range e.args {
		if gs[i] == nil || !a.t.IsFloat() {
			continue
		}
		ga, err := asType(gs[i].(*Expr), a.t)
		if err != nil {
			return err
		}
		if err := c.walk(a, ga); err != nil {
			return err
		}
	}
	return nil
}

// add sums g into the contribution of the leaf same picks, or starts one.
func add(cs []contrib, e, g *Expr, same func(*Expr) bool) ([]contrib, error) {
	for i := range cs {
		if same(cs[i].e) {
			s, err := node(ir.OpAdd, e.t, e.t, cs[i].sum, g)
			cs[i].sum = s
			return cs, err
		}
	}
	return append(cs, contrib{e: e, sum: g}), nil
}

// asType is e converted to dtype t (e itself when it has t).
func asType(e *Expr, t ir.Type) (*Expr, error) {
	if e.t == t && !e.weak {
		return e, nil
	}
	return node(ir.OpConvert, e.t, t, e)
}

// exprDeriv is ir.Deriv over expression trees: each term an *Expr of the
// differentiated float type t (comparisons give bool ones), each op a
// node, each constant a typed scalar leaf.
type exprDeriv struct {
	t   ir.Type
	err error // the first node that failed (shapes always join: the operands come from one tree)
}

func (d *exprDeriv) Op(op ir.Op, args ...ir.Term) ir.Term {
	es := make([]*Expr, len(args))
	for i, a := range args {
		es[i] = a.(*Expr)
	}
	in := es[0].t
	if op == ir.OpSelect {
		in = es[1].t
	}
	info, _ := op.Info()
	e, err := node(op, in, info.ResultType(in), es...)
	if err != nil && d.err == nil {
		d.err = err
	}
	if e == nil {
		return es[0]
	}
	return e
}

func (d *exprDeriv) Const(v float64) ir.Term {
	bits, _ := interp.ElemBits(interp.Float(v), d.t)
	return &Expr{val: interp.Scalar{T: d.t, Bits: bits}, t: d.t}
}
