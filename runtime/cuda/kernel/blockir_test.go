package kernel

import (
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
)

// kb builds block kernels as IR by hand, as the checker will lower them:
// every instruction on a line of its own in "block.gs", so that run-time
// errors name a position.
type kb struct {
	f     *ir.Func
	stack []*[]ir.Stmt
	line  int
}

func newKB(name string, params ...ir.Param) *kb {
	b := &kb{f: &ir.Func{Name: name, Params: params, Pos: pos.Pos{File: "block.gs", Line: 1, Col: 1}}}
	b.stack = []*[]ir.Stmt{&b.f.Body}
	return b
}

func array(name string, t ir.Type) ir.Param { return ir.Param{Name: name, Elem: t, NDim: 1} }

func buffer(name string, t ir.Type, dims ...int) ir.Buffer {
	return ir.Buffer{Name: name, Elem: t, Dims: dims}
}

func (b *kb) emit(s ir.Stmt) { *b.stack[len(b.stack)-1] = append(*b.stack[len(b.stack)-1], s) }

// inst appends in at the next line and returns its position.
func (b *kb) inst(in *ir.Inst) pos.Pos {
	b.line++
	in.Pos = pos.Pos{File: "block.gs", Line: b.line + 1, Col: 5}
	b.emit(in)
	return in.Pos
}

// op emits op on args into a new register of type t (NoReg: no result).
func (b *kb) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	d := ir.NoReg
	if t != ir.Invalid {
		d = b.f.NewReg(t)
	}
	b.inst(&ir.Inst{Op: op, Dst: d, Args: args})
	return d
}

// axis emits an i32 index op of an axis (tid, thread_id, block_id, ...).
func (b *kb) axis(op ir.Op, a int) ir.Reg {
	d := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: op, Dst: d, Imm: int64(a)})
	return d
}

func (b *kb) konst(t ir.Type, v any) ir.Reg {
	d := b.f.NewReg(t)
	b.inst(&ir.Inst{Op: ir.OpConst, Dst: d, Imm: v})
	return d
}

func (b *kb) i32(v int64) ir.Reg { return b.konst(ir.I32, v) }

func (b *kb) param(i int) ir.Reg {
	d := b.f.NewReg(b.f.Params[i].Elem)
	b.inst(&ir.Inst{Op: ir.OpParam, Dst: d, Param: i})
	return d
}

func (b *kb) mov(dst, src ir.Reg) { b.inst(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}}) }

// elem is the element type of array p of space sp.
func (b *kb) elem(k []ir.Buffer, sp ir.Space, p int) ir.Type {
	switch sp {
	case ir.SpaceShared:
		return k[p].Elem
	case ir.SpaceLocal:
		return b.f.Locals[p].Elem
	}
	return b.f.Params[p].Elem
}

// load reads array p of space sp (shared arrays: of shared) at idx.
func (b *kb) load(shared []ir.Buffer, sp ir.Space, p int, idx ...ir.Reg) ir.Reg {
	d := b.f.NewReg(b.elem(shared, sp, p))
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: d, Param: p, Space: sp, Args: idx})
	return d
}

// store writes v to array p of space sp at idx and returns its position.
func (b *kb) store(sp ir.Space, p int, v ir.Reg, idx ...ir.Reg) pos.Pos {
	return b.inst(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Space: sp, Args: append(idx, v)})
}

// ld and st access array parameters.
func (b *kb) ld(p int, idx ...ir.Reg) ir.Reg    { return b.load(nil, ir.SpaceParam, p, idx...) }
func (b *kb) st(p int, v ir.Reg, idx ...ir.Reg) { b.store(ir.SpaceParam, p, v, idx...) }

func (b *kb) block(fn func()) []ir.Stmt {
	var ss []ir.Stmt
	b.stack = append(b.stack, &ss)
	fn()
	b.stack = b.stack[:len(b.stack)-1]
	return ss
}

func (b *kb) ifThen(c ir.Reg, then func()) { b.emit(&ir.If{Cond: c, Then: b.block(then)}) }

// forLoop is `for i = from; i < to; i += step { body(i) }` on i32.
func (b *kb) forLoop(from, to, step ir.Reg, body func(i ir.Reg)) {
	i := b.f.NewReg(ir.I32)
	b.mov(i, from)
	var c ir.Reg
	cond := b.block(func() { c = b.op(ir.OpLt, ir.Bool, i, to) })
	loop := &ir.Loop{Cond: cond, CondReg: c}
	loop.Body = b.block(func() { body(i) })
	loop.Post = b.block(func() { b.mov(i, b.op(ir.OpAdd, ir.I32, i, step)) })
	b.emit(loop)
}

func (b *kb) kernel(block []int, tidDims int, shared ...ir.Buffer) *ir.Kernel {
	return &ir.Kernel{Entry: b.f, TidDims: tidDims, Block: block, Shared: shared, UsesAtomics: true}
}

// gid is the thread's index over the launch, C order over (grid, block):
// the block's linear index times the block's threads plus the thread's
// linear index, both from the index ops (block_id, grid_dim, thread_id,
// block_dim), so that every output lands where the Go reference expects.
func (b *kb) gid(rank int) ir.Reg {
	bl, tl, bt := b.axis(ir.OpBlockId, 0), b.axis(ir.OpThreadId, 0), b.axis(ir.OpBlockDim, 0)
	for a := 1; a < rank; a++ {
		bl = b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, bl, b.axis(ir.OpGridDim, a)), b.axis(ir.OpBlockId, a))
		d := b.axis(ir.OpBlockDim, a)
		tl = b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, tl, d), b.axis(ir.OpThreadId, a))
		bt = b.op(ir.OpMul, ir.I32, bt, d)
	}
	return b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, bl, bt), tl)
}

// blockSumKernel is the grid-stride reduction of BenchmarkGPUBlockSum:
// each thread sums x[i], x[i+stride], ... (stride = all the launch's
// threads) into four accumulators, four loads a step, then a one-by-one
// tail; their sum (a0+a1)+(a2+a3) goes through block_sum and thread 0
// stores the block's total to out[block_id].
func blockSumKernel(threads int) *ir.Kernel {
	b := newKB("block_sum", array("x", ir.F32), array("out", ir.F32), ir.Param{Name: "n", Elem: ir.I32})
	i := b.axis(ir.OpTid, 0)
	n := b.param(2)
	stride := b.op(ir.OpMul, ir.I32, b.axis(ir.OpGridDim, 0), b.i32(int64(threads)))
	var acc [4]ir.Reg
	for k := range acc {
		acc[k] = b.f.NewReg(ir.F32)
		b.mov(acc[k], b.konst(ir.F32, 0.0))
	}
	s2, s3 := b.op(ir.OpAdd, ir.I32, stride, stride), b.op(ir.OpMul, ir.I32, stride, b.i32(3))
	j := b.f.NewReg(ir.I32)
	b.mov(j, i)
	var c ir.Reg
	cond := b.block(func() { c = b.op(ir.OpLt, ir.Bool, b.op(ir.OpAdd, ir.I32, j, s3), n) })
	body := b.block(func() {
		idx := []ir.Reg{j, b.op(ir.OpAdd, ir.I32, j, stride), b.op(ir.OpAdd, ir.I32, j, s2), b.op(ir.OpAdd, ir.I32, j, s3)}
		var v [4]ir.Reg
		for k := range v {
			v[k] = b.ld(0, idx[k])
		}
		for k := range acc {
			b.mov(acc[k], b.op(ir.OpAdd, ir.F32, acc[k], v[k]))
		}
	})
	post := b.block(func() { b.mov(j, b.op(ir.OpAdd, ir.I32, j, b.op(ir.OpAdd, ir.I32, s2, s2))) })
	b.emit(&ir.Loop{Cond: cond, CondReg: c, Body: body, Post: post})
	b.forLoop(j, n, stride, func(j ir.Reg) { b.mov(acc[0], b.op(ir.OpAdd, ir.F32, acc[0], b.ld(0, j))) })
	s := b.op(ir.OpAdd, ir.F32, b.op(ir.OpAdd, ir.F32, acc[0], acc[1]), b.op(ir.OpAdd, ir.F32, acc[2], acc[3]))
	total := b.op(ir.OpBlockSum, ir.F32, s)
	b.ifThen(b.op(ir.OpEq, ir.Bool, b.axis(ir.OpThreadId, 0), b.i32(0)), func() { b.st(1, total, b.axis(ir.OpBlockId, 0)) })
	return b.kernel([]int{threads}, 1)
}
