package cpu

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// TestZeroCopyWindow: a loaded value read after a store to its array
// (v := x[i]; x[i] = 2v; y[i] = v) is the value before the store, in
// full blocks (where the first reads of v take the array in place) and
// the partial last one; in x[i] = 2v alone v is read in place.
func TestZeroCopyWindow(t *testing.T) {
	b := kernel("window", arr("x", ir.F32, 1), arr("y", ir.F32, 1))
	i := b.tid(0)
	v := b.load(0, i)
	b.store(0, i, b.op(ir.OpMul, ir.F32, b.konst(ir.F32, 2.0), v))
	b.store(1, i, v)
	p := b.compile(t)
	n := 3*lanes + 5
	x, y := make([]float32, n), make([]float32, n)
	for k := range x {
		x[k] = float32(k)
	}
	if err := p.Launch([]int{n}, []Arg{slice(x), slice(y)}, Options{}); err != nil {
		t.Fatal(err)
	}
	for k := range x {
		if x[k] != 2*float32(k) || y[k] != float32(k) {
			t.Fatalf("element %d: x %v, y %v; want %v, %v", k, x[k], y[k], 2*float32(k), float32(k))
		}
	}
}

// TestZeroCopyLoads marks exactly the loads whose reads all come before
// the first write to memory.
func TestZeroCopyLoads(t *testing.T) {
	b := kernel("loads", arr("x", ir.F32, 1), arr("y", ir.F32, 1))
	i := b.tid(0)
	v := b.load(0, i)                           // read by the store to x and after it: copied
	w := b.load(1, i)                           // read before the store only: in place
	s := b.op(ir.OpAdd, ir.F32, v, w)           //
	b.store(0, i, b.op(ir.OpMul, ir.F32, s, v)) // the window's end
	b.store(1, i, v)                            //
	ctx := &fnCtx{f: b.f}
	ctx.defs = make([]int, len(b.f.Regs))
	ctx.def = make([]*ir.Inst, len(b.f.Regs))
	ctx.uses = make([]int, len(b.f.Regs))
	countDefs(ctx, b.f.Body)
	zc := zeroCopyLoads(ctx, b.f.Body)
	if len(zc) != 1 || !zc[ctx.def[w]] || zc[ctx.def[v]] {
		t.Fatalf("zero-copy loads %v", zc)
	}
}

// TestLazyTids: saxpy's tid (and its move into i) is left to its
// accesses; a tid also read as a value is computed; jacobi-2d's tids,
// their moves and the index adds are all left to the accesses.
func TestLazyTids(t *testing.T) {
	lazy := func(b *builder) map[ir.Reg]bool {
		ctx := &fnCtx{f: b.f, defs: make([]int, len(b.f.Regs)), def: make([]*ir.Inst, len(b.f.Regs)), uses: make([]int, len(b.f.Regs))}
		countDefs(ctx, b.f.Body)
		return lazyRegs(ctx, b.f.Body, affineForms(ctx))
	}
	if l := lazy(saxpyKernel()); len(l) != 2 {
		t.Errorf("saxpy: lazy registers %v, want the tid and its move", l)
	}
	b := kernel("iota", arr("y", ir.F32, 1))
	i := b.tid(0)
	b.store(0, i, b.op(ir.OpConvert, ir.F32, i))
	if l := lazy(b); len(l) != 0 {
		t.Errorf("y[i] = f32(i): lazy registers %v", l)
	}
	// 2 tids, 4 moves, the adds into i and j, and the 4 neighbours' indices
	if l := lazy(jacobiKernel()); len(l) != 12 {
		t.Errorf("jacobi: %d lazy registers %v, want 12", len(l), l)
	}
}
