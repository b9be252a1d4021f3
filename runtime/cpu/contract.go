package cpu

import "github.com/gscript-lang/gscript/lang/ir"

// contractions finds, in one statement list of a fast-math kernel, the f64
// adds x*y + z (either operand the product) to compute as one
// math.FMA(x, y, z): fused maps each such add to its mul. The mul must be
// the only definition of its register, earlier in the same list with only
// instructions between (so it ran under the same lanes) and none of them
// writing x or y. A mul whose only read is the fused add is not needed any
// more: dropped holds it.
//
// Only f64: math.FMA is the hardware instruction there, while an f32 fma
// is ir.FMA32's longer sequence (lang/ir), slower than the mul and add it would
// replace. Subtractions stay as they are (they would need a negated
// operand).
func contractions(ctx *fnCtx, list []ir.Stmt) (fused map[*ir.Inst]*ir.Inst, dropped map[*ir.Inst]bool) {
	at := map[*ir.Inst]int{}
	for j, s := range list {
		in, ok := s.(*ir.Inst)
		if !ok {
			continue
		}
		at[in] = j
		if in.Op != ir.OpAdd || len(in.Args) != 2 || ctx.f.Regs[in.Dst] != ir.F64 {
			continue
		}
		for _, r := range in.Args {
			mul := ctx.def[r]
			p, seen := at[mul]
			if ctx.defs[r] != 1 || !seen || mul.Op != ir.OpMul || !untouched(list[p+1:j], mul.Args) {
				continue
			}
			if fused == nil {
				fused, dropped = map[*ir.Inst]*ir.Inst{}, map[*ir.Inst]bool{}
			}
			fused[in] = mul
			if ctx.uses[r] == 1 {
				dropped[mul] = true
			}
			break
		}
	}
	return fused, dropped
}

// untouched reports whether between holds only instructions, none of them
// writing one of regs.
func untouched(between []ir.Stmt, regs []ir.Reg) bool {
	for _, s := range between {
		in, ok := s.(*ir.Inst)
		if !ok {
			return false
		}
		for _, r := range regs {
			if in.Dst == r {
				return false
			}
		}
	}
	return true
}

// fma compiles add, fused with mul by contractions, as math.FMA(x, y, z).
func (c *compiler) fma(ctx *fnCtx, add, mul *ir.Inst) (instFn, error) {
	o, err := c.operands(ctx, add)
	if err != nil {
		return nil, err
	}
	m, err := c.operands(ctx, mul)
	if err != nil {
		return nil, err
	}
	if err := c.need(ctx, add, o, 2, ir.F64, true); err != nil {
		return nil, err
	}
	if err := c.need(ctx, mul, m, 2, ir.F64, true); err != nil {
		return nil, err
	}
	z := o.args[1]
	if add.Args[1] == mul.Dst {
		z = o.args[0]
	}
	return valueOps[ir.OpFma][ir.F64](o.dst, m.args[0], m.args[1], z), nil
}
