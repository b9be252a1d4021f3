package cpu

import "github.com/gscript-lang/gscript/lang/ir"

// Lazy tid: in a flat 1-D kernel, a tid() register (and the moves of it,
// `let i = tid()`) whose every read is the first index of a load or a
// store is not computed by its instruction: a contiguous access never
// reads it (access.go's tidAt), and an access that takes another path
// fills its index register with the block's thread ids first (the value
// the tid and its moves would have left there). It saves a pass over the
// block per launch's block: a quarter of a saxpy's time in cache.

// lazyTids returns the kernel's registers that may be left unwritten: a
// tid along axis 0 or a move of one, with one definition, every read of
// it an access's first index or the source of such a move.
func lazyTids(ctx *fnCtx, body []ir.Stmt) map[ir.Reg]bool {
	cand := map[ir.Reg]bool{}
	for r, in := range ctx.def {
		if in != nil && ctx.defs[r] == 1 && ctx.isTid(ir.Reg(r), 0) {
			cand[ir.Reg(r)] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for r := range cand {
			if allowed(ctx, body, r, cand) != ctx.uses[r] {
				delete(cand, r)
				changed = true
			}
		}
	}
	return cand
}

// allowed counts the reads of r in body that a lazy r permits: the first
// index of a load or store, the source of a move into a candidate.
func allowed(ctx *fnCtx, body []ir.Stmt, r ir.Reg, cand map[ir.Reg]bool) int {
	n := 0
	walkInsts(body, func(in *ir.Inst) {
		for i, a := range in.Args {
			if a != r {
				continue
			}
			access := (in.Op == ir.OpLoad || in.Op == ir.OpStore) && i == 0
			move := in.Op == ir.OpMov && cand[in.Dst]
			if access || move {
				n++
			}
		}
	})
	return n
}

// walkInsts calls f for every instruction of body, nested ones included.
func walkInsts(body []ir.Stmt, f func(*ir.Inst)) {
	for _, s := range body {
		switch s := s.(type) {
		case *ir.Inst:
			f(s)
		case *ir.If:
			walkInsts(s.Then, f)
			walkInsts(s.Else, f)
		case *ir.Loop:
			walkInsts(s.Cond, f)
			walkInsts(s.Body, f)
			walkInsts(s.Post, f)
		}
	}
}
