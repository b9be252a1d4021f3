package codegen

import (
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
	"runtime"
)

// fb builds an ir.Func by hand, as lang/check would lower it.
type fb struct {
	f     *ir.Func
	stack []*[]ir.Stmt
	line  int
}

func newFunc(name string, params ...ir.Param) *fb {
	b := &fb{f: &ir.Func{Name: name, Params: params, Pos: pos.Pos{File: "t.gs", Line: 1, Col: 1}}}
	b.stack = []*[]ir.Stmt{&b.f.Body}
	return b
}

func arr(name string, t ir.Type, ndim int) ir.Param { return ir.Param{Name: name, Elem: t, NDim: ndim} }
func scalar(name string, t ir.Type) ir.Param        { return ir.Param{Name: name, Elem: t} }

func (b *fb) emit(s ir.Stmt) { *b.stack[len(b.stack)-1] = append(*b.stack[len(b.stack)-1], s) }

// inst appends an instruction at a fresh line (its Pos).
func (b *fb) inst(in *ir.Inst) *ir.Inst {
	b.line++
	in.Pos = pos.Pos{File: "t.gs", Line: b.line + 1, Col: 5}
	b.emit(in)
	return in
}

func (b *fb) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	d := b.f.NewReg(t)
	b.inst(&ir.Inst{Op: op, Dst: d, Args: args})
	return d
}

func (b *fb) konst(t ir.Type, v any) ir.Reg {
	d := b.f.NewReg(t)
	b.inst(&ir.Inst{Op: ir.OpConst, Dst: d, Imm: v})
	return d
}

func (b *fb) param(i int) ir.Reg {
	d := b.f.NewReg(b.f.Params[i].Elem)
	b.inst(&ir.Inst{Op: ir.OpParam, Dst: d, Param: i})
	return d
}

func (b *fb) tid(axis int) ir.Reg {
	d := b.f.NewReg(ir.I32)
	b.inst(&ir.Inst{Op: ir.OpTid, Dst: d, Imm: int64(axis)})
	return d
}

func (b *fb) load(p int, idx ...ir.Reg) ir.Reg {
	d := b.f.NewReg(b.f.Params[p].Elem)
	b.inst(&ir.Inst{Op: ir.OpLoad, Dst: d, Param: p, Args: idx})
	return d
}

func (b *fb) store(p int, args ...ir.Reg) {
	b.inst(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Args: args})
}

func (b *fb) mov(dst, src ir.Reg) { b.inst(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}}) }

// block collects the statements appended by fn.
func (b *fb) block(fn func()) []ir.Stmt {
	var ss []ir.Stmt
	b.stack = append(b.stack, &ss)
	fn()
	b.stack = b.stack[:len(b.stack)-1]
	return ss
}

func (b *fb) kernel(tidDims int, funcs ...*ir.Func) *ir.Kernel {
	return &ir.Kernel{Entry: b.f, Funcs: funcs, TidDims: tidDims}
}

// saxpy is `let i = tid(); y[i] = a * x[i] + y[i]` as the checker lowers it.
func saxpy() *ir.Kernel {
	b := newFunc("saxpy", arr("x", ir.F32, 1), arr("y", ir.F32, 1), scalar("a", ir.F32))
	i := b.f.NewReg(ir.I32)
	b.mov(i, b.tid(0))
	a := b.param(2)
	ax := b.op(ir.OpMul, ir.F32, a, b.load(0, i))
	b.store(1, i, b.op(ir.OpAdd, ir.F32, ax, b.load(1, i)))
	return b.kernel(1)
}

// ifThen appends `if cond { then }`.
func (b *fb) ifThen(cond ir.Reg, then func()) {
	b.emit(&ir.If{Cond: cond, Then: b.block(then)})
}

// stencil is a 2-D 4-point average over the interior:
//
//	let i, j = tid()
//	if i > 0 && i < a.shape[0]-1 && j > 0 && j < a.shape[1]-1 { b[i, j] = (a[i-1,j]+a[i+1,j]+a[i,j-1]+a[i,j+1]) * 0.25 }
func stencil() *ir.Kernel {
	b := newFunc("blur", arr("a", ir.F32, 2), arr("b", ir.F32, 2))
	i, j := b.tid(0), b.tid(1)
	one, zero := b.konst(ir.I32, int64(1)), b.konst(ir.I32, int64(0))
	shape := func(axis int) ir.Reg {
		d := b.f.NewReg(ir.I32)
		b.inst(&ir.Inst{Op: ir.OpShape, Dst: d, Param: 0, Imm: int64(axis)})
		return d
	}
	b.ifThen(b.op(ir.OpGt, ir.Bool, i, zero), func() {
		b.ifThen(b.op(ir.OpLt, ir.Bool, i, b.op(ir.OpSub, ir.I32, shape(0), one)), func() {
			b.ifThen(b.op(ir.OpGt, ir.Bool, j, zero), func() {
				b.ifThen(b.op(ir.OpLt, ir.Bool, j, b.op(ir.OpSub, ir.I32, shape(1), one)), func() {
					im, ip := b.op(ir.OpSub, ir.I32, i, one), b.op(ir.OpAdd, ir.I32, i, one)
					jm, jp := b.op(ir.OpSub, ir.I32, j, one), b.op(ir.OpAdd, ir.I32, j, one)
					s := b.op(ir.OpAdd, ir.F32, b.load(0, im, j), b.load(0, ip, j))
					s = b.op(ir.OpAdd, ir.F32, s, b.load(0, i, jm))
					s = b.op(ir.OpAdd, ir.F32, s, b.load(0, i, jp))
					b.store(1, i, j, b.op(ir.OpMul, ir.F32, s, b.konst(ir.F32, 0.25)))
				})
			})
		})
	})
	return b.kernel(2)
}

// histogram: let i = tid(); atomic_add(bins, x[i] % 16, 1)
func histogram() *ir.Kernel {
	b := newFunc("hist", arr("x", ir.I32, 1), arr("bins", ir.I32, 1))
	i := b.tid(0)
	bin := b.op(ir.OpRem, ir.I32, b.load(0, i), b.konst(ir.I32, int64(16)))
	b.inst(&ir.Inst{Op: ir.OpAtomicAdd, Dst: ir.NoReg, Param: 1, Args: []ir.Reg{bin, b.konst(ir.I32, int64(1))}})
	return b.kernel(1)
}

// loopKernel:
//
//	let i = tid(); let s = 0
//	for j in range(n) { if j % 2 == 1 { continue }; if j > i { break }; s += j }
//	out[i] = s
func loopKernel() *ir.Kernel {
	b := newFunc("loop", arr("out", ir.I32, 1), scalar("n", ir.I32))
	i := b.tid(0)
	s, j := b.f.NewReg(ir.I32), b.f.NewReg(ir.I32)
	b.mov(s, b.konst(ir.I32, int64(0)))
	b.mov(j, b.konst(ir.I32, int64(0)))
	n := b.param(1)
	var cond ir.Reg
	lp := &ir.Loop{}
	lp.Cond = b.block(func() { cond = b.op(ir.OpLt, ir.Bool, j, n) })
	lp.CondReg = cond
	lp.Body = b.block(func() {
		odd := b.op(ir.OpEq, ir.Bool, b.op(ir.OpRem, ir.I32, j, b.konst(ir.I32, int64(2))), b.konst(ir.I32, int64(1)))
		b.ifThen(odd, func() { b.emit(&ir.Continue{}) })
		b.ifThen(b.op(ir.OpGt, ir.Bool, j, i), func() { b.emit(&ir.Break{}) })
		b.mov(s, b.op(ir.OpAdd, ir.I32, s, j))
	})
	lp.Post = b.block(func() { b.mov(j, b.op(ir.OpAdd, ir.I32, j, b.konst(ir.I32, int64(1)))) })
	b.emit(lp)
	b.store(0, i, s)
	return b.kernel(1)
}

// callKernel2: func get(v: array[f32], i: i32) -> f32 { return v[i] * 2.0 }
// kernel twice(out: array[f32], a: array[f32]) { let i = tid(); out[i] = get(a, i) + 1.0 }
func twiceKernel() *ir.Kernel {
	fn := newFunc("get", arr("v", ir.F32, 1), scalar("i", ir.I32))
	fn.f.Results = []ir.Type{ir.F32}
	x := fn.load(0, fn.param(1))
	fn.emit(&ir.Return{Values: []ir.Reg{fn.op(ir.OpMul, ir.F32, x, fn.konst(ir.F32, 2.0))}})
	b := newFunc("twice", arr("out", ir.F32, 1), arr("a", ir.F32, 1))
	i := b.tid(0)
	v := b.f.NewReg(ir.F32)
	b.inst(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{v}, Callee: 0, Args: []ir.Reg{ir.NoReg, i}, ArrayArgs: []int{1, -1}})
	b.store(0, i, b.op(ir.OpAdd, ir.F32, v, b.konst(ir.F32, 1.0)))
	return b.kernel(1, fn.f)
}

// oobKernel: let i = tid(); out[i] = a[i, i+1]  (a is 2-D)
func oobKernel() *ir.Kernel {
	b := newFunc("oob", arr("a", ir.F32, 2), arr("out", ir.F32, 1))
	i := b.tid(0)
	b.store(1, i, b.load(0, i, b.op(ir.OpAdd, ir.I32, i, b.konst(ir.I32, int64(1)))))
	return b.kernel(1)
}

// printKernel: let i = tid(); print("i =", i, "x =", x[i], x[i] > 1.5)
func printKernel() *ir.Kernel {
	b := newFunc("show", arr("x", ir.F32, 1))
	i := b.tid(0)
	x := b.load(0, i)
	gt := b.op(ir.OpGt, ir.Bool, x, b.konst(ir.F32, 1.5))
	b.inst(&ir.Inst{Op: ir.OpPrint, Dst: ir.NoReg, Args: []ir.Reg{i, x, gt}, Format: "i = {} x = {} {}\n"})
	return b.kernel(1)
}

const isAMD64 = runtime.GOARCH == "amd64"
