package cpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// blockShape is a block kernel's block. A frame runs one block as its
// lanes, lane i being the thread of linear index i (C order over the
// block); the tables give each lane's index ops.
type blockShape struct {
	dims    []int
	threads int
	thr     [][]int32 // thread_id along each axis, by lane
	lane    []int32   // lane_id
	warp    []int32   // warp_id
}

func newBlockShape(dims []int) *blockShape {
	n := 1
	for _, d := range dims {
		n *= d
	}
	bs := &blockShape{dims: dims, threads: n, thr: make([][]int32, len(dims)), lane: make([]int32, n), warp: make([]int32, n)}
	inner := n
	for ax, d := range dims {
		inner /= d
		t := make([]int32, n)
		for i := range t {
			t[i] = int32(i / inner % d)
		}
		bs.thr[ax] = t
	}
	for i := range n {
		bs.lane[i], bs.warp[i] = int32(i%ir.WarpSize), int32(i/ir.WarpSize)
	}
	return bs
}

// begin sets the frame up for block b of the launch: its lanes, and for
// a block kernel its coordinates, zeroed shared arrays and the live-lane
// counts barriers check. Every kernel's own local arrays start zeroed;
// false when the launch stopped while they were.
func (p *Program) begin(fr *frame, b int) bool {
	ln := fr.ln
	fr.base = b * p.width
	if p.blk == nil {
		fr.n = min(p.width, ln.total-fr.base)
	} else {
		fr.n = p.width
		for ax := range ln.nd {
			fr.blk[ax] = b / ln.inner[ax] % ln.dims[ax]
		}
		fr.dead = 0
		clear(fr.deadW[:])
		p.clearShared(fr)
		fr.epoch++ // no store of an earlier block is in this one's epoch
	}
	return len(p.entryLocals) == 0 || zeroLocals(fr, mask{all: true}, p.entryLocals)
}

// blockIndex compiles the index ops of a block kernel. same reports a
// value that is the same in every block, which leaf hoists.
func (c *compiler) blockIndex(ctx *fnCtx, in *ir.Inst, d int, t ir.Type) (f instFn, same bool, err error) {
	bs := c.p.blk
	ax, ok := immInt(in.Imm)
	info, _ := in.Op.Info()
	if bs == nil || !ctx.kernel || t != ir.I32 || (info.Axis == ir.AxisBlock && (!ok || ax < 0 || ax >= len(bs.dims))) {
		return nil, false, c.errf(ctx, in.Pos, "%s axis %v into %s outside a block kernel's entry or its axes", in.Op, in.Imm, t)
	}
	switch in.Op { // each index op reads its own table or value of the block
	case ir.OpThreadId:
		return tableFn(d, bs.thr[ax]), true, nil
	case ir.OpLaneId:
		return tableFn(d, bs.lane), true, nil
	case ir.OpWarpId:
		return tableFn(d, bs.warp), true, nil
	case ir.OpBlockDim:
		v := uint32(bs.dims[ax])
		return func(fr *frame, m mask) error { kFill(fr, m, d, v); return nil }, true, nil
	case ir.OpGridDim:
		return func(fr *frame, m mask) error { kFill(fr, m, d, uint32(fr.ln.dims[ax])); return nil }, true, nil
	case ir.OpBlockId:
		return func(fr *frame, m mask) error { kFill(fr, m, d, uint32(fr.blk[ax])); return nil }, false, nil
	}
	return nil, false, c.errf(ctx, in.Pos, "%s is not a block index op", in.Op)
}

// tableFn writes each lane's entry of t.
func tableFn(d int, t []int32) instFn {
	return func(fr *frame, m mask) error {
		D := vec[int32](fr, d)
		if m.all {
			copy(D[:fr.n], t)
			return nil
		}
		for _, i := range m.idx {
			D[i] = t[i]
		}
		return nil
	}
}

// blockTidFn is tid() of a block kernel: block_id*block_dim + thread_id
// along ax, in i32 arithmetic that wraps as CUDA's does.
func blockTidFn(d, ax int, bs *blockShape) instFn {
	t, ext := bs.thr[ax], bs.dims[ax]
	return func(fr *frame, m mask) error {
		D, off := vec[int32](fr, d), int32(fr.blk[ax]*ext)
		if m.all {
			for i := range D[:fr.n] {
				D[i] = off + t[i]
			}
			return nil
		}
		for _, i := range m.idx {
			D[i] = off + t[i]
		}
		return nil
	}
}

// retire records the lanes of m returning from the kernel, which
// barriers no longer wait for.
func retire(fr *frame, m mask) {
	if m.all {
		fr.dead = fr.n
		return // no lane is left to reach a barrier
	}
	fr.dead += len(m.idx)
	for _, i := range m.idx {
		fr.deadW[i/ir.WarpSize]++
	}
}

// barrier is an op that every thread of the block (or, for sync_warp and
// the warp ops, of its warp) must reach: a block runs in lockstep, so the
// op's mask must hold every lane. A lane that branched away or returned
// before it makes a divergent barrier, which CUDA leaves undefined (a
// hang, or a collective or full-mask shuffle reading an exited lane); the
// cpu reports it.
type barrier struct {
	name string // "sync()"
	pos  pos.Pos
	warp bool
	race bool // count it for race detection
}

func (c *compiler) newBarrier(in *ir.Inst, warp bool) *barrier {
	return &barrier{name: in.Op.String() + "()", pos: in.Pos, warp: warp, race: c.p.race != nil}
}

// sync compiles sync() and sync_warp(): in lockstep a barrier has no
// work left but its check.
func (c *compiler) sync(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	if c.p.blk == nil || !ctx.kernel || len(o.args) != 0 || o.dst >= 0 {
		return nil, c.errf(ctx, in.Pos, "%s needs a block kernel's entry, no operands and no destination", in.Op)
	}
	return c.newBarrier(in, in.Op == ir.OpSyncWarp).reach, nil
}

func (b *barrier) check(fr *frame, m mask) error {
	switch {
	case m.all:
		return nil
	case b.warp:
		return b.checkWarps(fr, m.idx)
	case len(m.idx) == fr.n:
		return nil
	}
	return b.fail(fr, len(m.idx), fr.n, fr.dead, "block "+blockName(fr))
}

// checkWarps checks each warp with active lanes (the sorted idx).
func (b *barrier) checkWarps(fr *frame, idx []int32) error {
	for len(idx) > 0 {
		w := idx[0] / ir.WarpSize
		k := 1
		for k < len(idx) && idx[k]/ir.WarpSize == w {
			k++
		}
		if k != ir.WarpSize {
			return b.fail(fr, k, ir.WarpSize, int(fr.deadW[w]), fmt.Sprintf("warp %d of block %s", w, blockName(fr)))
		}
		idx = idx[k:]
	}
	return nil
}

// reach is the lanes of m at the barrier: checked, and counted for race
// detection.
func (b *barrier) reach(fr *frame, m mask) error {
	if err := b.check(fr, m); err != nil {
		return err
	}
	if b.race {
		fr.passBarrier(m, b.warp)
	}
	return nil
}

// guard makes f run only after the barrier (block collectives).
func (b *barrier) guard(f instFn) instFn {
	return func(fr *frame, m mask) error {
		if err := b.reach(fr, m); err != nil {
			return err
		}
		return f(fr, m)
	}
}

func (b *barrier) fail(fr *frame, got, of, dead int, where string) error {
	why := "the others branched away before it"
	if dead > 0 {
		why = fmt.Sprintf("the others branched away or returned before it (%d returned)", dead)
	}
	return &KernelError{Pos: b.pos, Kernel: fr.ln.p.k.Entry.Name,
		Msg: fmt.Sprintf("%s reached by %d of %d threads of %s: %s", b.name, got, of, where, why)}
}

// blockName is the block's coordinates, "(3)" or "(1, 2)".
func blockName(fr *frame) string {
	s := make([]string, fr.ln.nd)
	for ax := range s {
		s[ax] = strconv.Itoa(fr.blk[ax])
	}
	return "(" + strings.Join(s, ", ") + ")"
}
