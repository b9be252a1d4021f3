package cpu

import (
	"github.com/gscript-lang/gscript/lang/ir"
)

// operands resolves an instruction's Dst (dst < 0 when NoReg) and Args.
type operands struct {
	dst   int
	dt    ir.Type
	args  []int
	types []ir.Type
}

func (c *compiler) operands(ctx *fnCtx, in *ir.Inst) (operands, error) {
	o := operands{dst: -1}
	if in.Dst != ir.NoReg {
		d, t, err := c.reg(ctx, in.Dst, in.Pos)
		if err != nil {
			return o, err
		}
		o.dst, o.dt = d, t
	}
	for _, r := range in.Args {
		if r == ir.NoReg {
			o.args, o.types = append(o.args, -1), append(o.types, ir.Invalid)
			continue
		}
		a, t, err := c.reg(ctx, r, in.Pos)
		if err != nil {
			return o, err
		}
		o.args, o.types = append(o.args, a), append(o.types, t)
	}
	return o, nil
}

// need checks the operand count and that the first n args have type t.
func (c *compiler) need(ctx *fnCtx, in *ir.Inst, o operands, n int, t ir.Type, dst bool) error {
	if len(o.args) != n {
		return c.errf(ctx, in.Pos, "%s needs %d operands, has %d", in.Op, n, len(o.args))
	}
	if dst && o.dst < 0 {
		return c.errf(ctx, in.Pos, "%s needs a destination", in.Op)
	}
	for i, at := range o.types {
		if at != t {
			return c.errf(ctx, in.Pos, "%s operand %d has type %s, want %s", in.Op, i, at, t)
		}
	}
	return nil
}

// maker builds a value op's loop over registers d (the destination), a,
// b and c (those past the op's arity are ignored).
type maker func(d, a, b, c int) instFn

// inst compiles one instruction. It returns nil (and no error) for an
// instruction hoisted into the Program's setup. It dispatches on the op's
// Form: each form has its own operand shape and compiler.
func (c *compiler) inst(ctx *fnCtx, in *ir.Inst) (instFn, error) {
	o, err := c.operands(ctx, in)
	if err != nil {
		return nil, err
	}
	if ctx.kernel && in.Dst != ir.NoReg && c.lazy[in.Dst] {
		return nil, nil // its accesses fill it when they read it (lazytid.go)
	}
	info, ok := in.Op.Info()
	if !ok {
		return nil, c.errf(ctx, in.Pos, "unsupported op %s", in.Op)
	}
	switch info.Form {
	case ir.FormLeaf:
		if info.Result == ir.ResultNone {
			return c.sync(ctx, in, o)
		}
		return c.leaf(ctx, in, o)
	case ir.FormLane:
		return c.warpOp(ctx, in, o)
	case ir.FormConvert:
		if len(o.args) != 1 || o.dst < 0 {
			return nil, c.errf(ctx, in.Pos, "convert needs one operand and a destination")
		}
		return c.check(ctx, in, o, mkConvert(o.types[0], o.dt, o.dst, o.args[0]))
	case ir.FormAccess:
		return c.access(ctx, in, o)
	case ir.FormField:
		return c.field(ctx, in, o)
	case ir.FormCall:
		return c.call(ctx, in, o)
	case ir.FormPrint:
		return c.print(ctx, in, o)
	case ir.FormShift:
		return c.shift(ctx, in, o)
	}
	if info.Block {
		return c.warpOp(ctx, in, o) // the FormSame warp ops and collectives
	}
	return c.value(ctx, in, info, o)
}

// check turns a nil maker result into an error naming the op and types.
func (c *compiler) check(ctx *fnCtx, in *ir.Inst, o operands, f instFn) (instFn, error) {
	if f == nil {
		return nil, c.errf(ctx, in.Pos, "%s is not defined for %v -> %s", in.Op, o.types, o.dt)
	}
	return f, nil
}

// value compiles the element-wise ops (FormSame and FormSelect): the
// loops of ops_gen.go through valueOps, or the hand-written ones gen.go's
// elsewhere names. The result type is the table's rule.
func (c *compiler) value(ctx *fnCtx, in *ir.Inst, info ir.OpInfo, o operands) (instFn, error) {
	if o.dst < 0 || info.Arity < 1 || len(o.args) != info.Arity {
		return nil, c.errf(ctx, in.Pos, "%s needs %d operands and a destination", in.Op, info.Arity)
	}
	first := 0 // the first operand of type T
	if info.Form == ir.FormSelect {
		if o.types[0] != ir.Bool {
			return nil, c.errf(ctx, in.Pos, "select needs (bool, %s, %s)", o.dt, o.dt)
		}
		first = 1
	}
	t := o.types[first]
	for _, at := range o.types[first:] {
		if at != t || !info.Types.Has(t) {
			return c.check(ctx, in, o, nil)
		}
	}
	if want := info.ResultType(t); o.dt != want {
		return nil, c.errf(ctx, in.Pos, "%s on %s gives %s, destination is %s", in.Op, t, want, o.dt)
	}
	r := [3]int{-1, -1, -1}
	copy(r[:], o.args)
	switch { // gen.go's elsewhere entries
	case in.Op == ir.OpMov:
		return mkMov(t, o.dst, r[0]), nil
	case (in.Op == ir.OpDiv || in.Op == ir.OpRem) && t.IsInt():
		return mkIdiv(t, in, o.dst, r[0], r[1], ctx.f.Name), nil
	}
	mk := valueOps[in.Op][t]
	if mk == nil {
		return c.check(ctx, in, o, nil)
	}
	return mk(o.dst, r[0], r[1], r[2]), nil
}
