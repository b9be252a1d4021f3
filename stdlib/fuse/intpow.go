package fuse

import (
	"errors"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
)

// checkIntPow refuses what NumPy refuses of an int power: a negative host
// int exponent (y, the right operand's leaf).
func checkIntPow(in ir.Type, y *Expr) error {
	if in.IsFloat() || !y.isLeaf() || y.arr != nil {
		return nil
	}
	if n, err := interp.ToInt(y.val); err == nil && n < 0 {
		return errors.New("Integers to negative integer powers are not allowed")
	}
	return nil
}

// intPow is x ** e for ints of one type: square-and-multiply over e's
// bits, wrapping as the type's multiplication does (NumPy's int power).
// A negative e (an element of an exponent array) gives x ** e's integer
// part: 1 for x = 1, +-1 for x = -1 (by e's parity), else 0.
func (g *gen) intPow(x, e ir.Reg) ir.Reg {
	t := g.F.Regs[x]
	one := g.Const(t, int64(1))
	r, base, k := g.variable(one), g.variable(x), g.variable(e)
	zero := g.Const(t, int64(0))
	g.While(func() ir.Reg { return g.Op(ir.OpGt, ir.Bool, k, zero) }, func() {
		odd := g.Op(ir.OpNe, ir.Bool, g.Op(ir.OpAnd, t, k, one), zero)
		g.set(r, g.Op(ir.OpSelect, t, odd, g.Op(ir.OpMul, t, r, base), r))
		g.set(base, g.Op(ir.OpMul, t, base, base))
		g.set(k, g.Op(ir.OpShr, t, k, g.Const(ir.I32, int64(1))))
	})
	if !t.IsSigned() {
		return r
	}
	neg := g.Op(ir.OpLt, ir.Bool, e, zero)
	minusOne := g.Const(t, int64(-1))
	odd := g.Op(ir.OpNe, ir.Bool, g.Op(ir.OpAnd, t, e, one), zero)
	unit := g.Op(ir.OpSelect, t, odd, minusOne, one) // (-1) ** e
	frac := g.Op(ir.OpSelect, t, g.Op(ir.OpEq, ir.Bool, x, one), one, zero)
	frac = g.Op(ir.OpSelect, t, g.Op(ir.OpEq, ir.Bool, x, minusOne), unit, frac)
	return g.Op(ir.OpSelect, t, neg, frac, r)
}

// variable is a new register holding v, assigned again with set.
func (g *gen) variable(v ir.Reg) ir.Reg {
	r := g.F.NewReg(g.F.Regs[v])
	g.set(r, v)
	return r
}

func (g *gen) set(dst, src ir.Reg) {
	g.Emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}})
}
