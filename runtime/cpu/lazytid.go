package cpu

import "github.com/gscript-lang/gscript/lang/ir"

// Lazy registers: in a flat kernel, an affine register (affine.go: tid(),
// `let i = tid()`, `i + 1`, ...) whose every read is an index of a load
// or a store, or an operand of another lazy register's definition, is not
// computed by its instruction: a contiguous or run access never reads it
// (access.go's tidAt, affine.go's affineRuns), and an access that takes
// another path (a partial block past the array's end, a strided one, a
// partial mask) first fills its lazy index registers with the values
// their instructions would have left there (fillAffine). It saves a pass
// over the block per instruction: a quarter of a saxpy's time in cache,
// and jacobi-2d's two tids, four moves and six index adds.

// lazyRegs returns the kernel's registers that may be left unwritten: an
// affine form along a tid axis, every read of it an access's index or an
// operand of a candidate's definition.
func lazyRegs(ctx *fnCtx, body []ir.Stmt, forms map[ir.Reg]affine) map[ir.Reg]bool {
	cand := map[ir.Reg]bool{}
	for r, f := range forms {
		if op := ctx.def[r].Op; f.axis >= 0 && (op == ir.OpTid || op == ir.OpMov || op == ir.OpAdd || op == ir.OpSub) {
			cand[r] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for r := range cand {
			if allowed(body, r, cand) != ctx.uses[r] {
				delete(cand, r)
				changed = true
			}
		}
	}
	return cand
}

// allowed counts the reads of r in body that a lazy r permits: an index
// of a load or store, an operand of a candidate's definition.
func allowed(body []ir.Stmt, r ir.Reg, cand map[ir.Reg]bool) int {
	n := 0
	walkInsts(body, func(in *ir.Inst) {
		nidx := len(in.Args)
		if in.Op == ir.OpStore {
			nidx-- // the stored value follows the indices
		}
		for i, a := range in.Args {
			if a != r {
				continue
			}
			access := (in.Op == ir.OpLoad || in.Op == ir.OpStore) && i < nidx
			def := in.Dst != ir.NoReg && cand[in.Dst]
			if access || def {
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
