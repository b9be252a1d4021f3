package linalg

import "github.com/gscript-lang/gscript/lang/ir"

// Builder emits linear algebra as kernel IR: Ops[ir.Reg] over an
// ir.Builder, for kernels built in Go (the checker has its own, which
// also feeds its uniformity graph).
type Builder struct{ B *ir.Builder }

var _ Ops[ir.Reg] = Builder{}

// Op emits op; its destination has the op's result type for operands of
// type t (Bool for comparisons).
func (b Builder) Op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	if info, ok := op.Info(); ok {
		t = info.ResultType(t)
	}
	return b.B.Op(op, t, args...)
}

// Convert emits the conversion of x to type to.
func (b Builder) Convert(x ir.Reg, _, to ir.Type) ir.Reg { return b.B.Conv(to, x) }

// Const emits the constant v of type t.
func (b Builder) Const(t ir.Type, v float64) ir.Reg { return b.B.Const(t, v) }
