package cpu

import (
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Zero-copy loads: a contiguous x[tid()] load (or a run, access.go's
// runAt) of a full block points its register at the array's elements
// instead of copying them, so the instructions that read it stream the
// array themselves; it saves a pass over the block per loaded array
// (saxpy on the 2-core machine: see doc.go). It is only done where
// nothing can tell: the register has this one definition, and all its
// reads are in the same run of instructions before anything writes
// memory (the first write may read it: a store of a loaded value is a
// memmove, right for any overlap). A partial block, a partial mask or a
// strided array copies as before, into the register's own storage.

// zeroCopyLoads returns the loads of list whose register may point at
// the array: each read of it is counted in the window from the load to
// the first instruction (inclusive) that may write memory or is no
// element-wise value op, a control statement ending the window before
// it.
func zeroCopyLoads(ctx *fnCtx, list []ir.Stmt) map[*ir.Inst]bool {
	var zc map[*ir.Inst]bool
	for p, s := range list {
		in, ok := s.(*ir.Inst)
		if !ok || in.Op != ir.OpLoad || in.Dst < 0 || int(in.Dst) >= len(ctx.defs) || ctx.defs[in.Dst] != 1 {
			continue
		}
		if readsInWindow(in.Dst, list[p+1:]) == ctx.uses[in.Dst] {
			if zc == nil {
				zc = map[*ir.Inst]bool{}
			}
			zc[in] = true
		}
	}
	return zc
}

// readsInWindow counts the reads of r from the start of list to the
// first instruction that ends a zero-copy window (windowOp), that one
// included.
func readsInWindow(r ir.Reg, list []ir.Stmt) int {
	n := 0
	for _, s := range list {
		in, ok := s.(*ir.Inst)
		if !ok {
			return n
		}
		for _, a := range in.Args {
			if a == r {
				n++
			}
		}
		if !windowOp(in.Op) {
			return n
		}
	}
	return n
}

// windowOp reports whether an op leaves memory alone and reads only its
// own lane of its operands: loads and the value ops. Everything else
// (stores, atomics, fields, calls, prints, warp and block ops) ends a
// zero-copy window.
func windowOp(op ir.Op) bool {
	if op == ir.OpLoad {
		return true
	}
	info, ok := op.Info()
	if !ok || info.Block {
		return false
	}
	switch info.Form { // the forms of value ops, which read lane i for lane i
	case ir.FormLeaf:
		return info.Result != ir.ResultNone // sync() and the like are barriers
	case ir.FormSame, ir.FormConvert, ir.FormShift, ir.FormSelect:
		return true
	}
	return false
}

// own points register r back at the frame's storage: before a copying
// load, and when the frame goes back to the pool (so that it keeps no
// pointer into an array that may be freed).
func (fr *frame) own(r int) {
	fr.regs[r] = unsafe.Pointer(&fr.mem[r*lanes])
}

// ownAll is own for every register.
func (fr *frame) ownAll() {
	for r := range fr.regs {
		fr.own(r)
	}
}
