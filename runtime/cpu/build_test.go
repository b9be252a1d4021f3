package cpu

import (
	"sync"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// builder writes IR by hand the way the checker lowers source.
type builder struct {
	k    *ir.Kernel
	f    *ir.Func
	list *[]ir.Stmt
	line int
}

func kernel(name string, params ...ir.Param) *builder {
	f := &ir.Func{Name: name, Params: params, Pos: pos.Pos{File: "t.gs", Line: 1, Col: 1}}
	b := &builder{k: &ir.Kernel{Entry: f}, f: f}
	b.list = &f.Body
	return b
}

// fn starts a device func of the same kernel; it returns its Funcs index.
func (b *builder) fn(name string, results []ir.Type, params ...ir.Param) (*builder, int) {
	f := &ir.Func{Name: name, Params: params, Results: results, Pos: pos.Pos{File: "t.gs", Line: 1, Col: 1}}
	b.k.Funcs = append(b.k.Funcs, f)
	fb := &builder{k: b.k, f: f}
	fb.list = &f.Body
	return fb, len(b.k.Funcs) - 1
}

func arr(name string, t ir.Type, nd int) ir.Param { return ir.Param{Name: name, Elem: t, NDim: nd} }
func scalar(name string, t ir.Type) ir.Param      { return ir.Param{Name: name, Elem: t} }

// emit appends an instruction with a distinct position (line = count).
func (b *builder) emit(in *ir.Inst) *ir.Inst {
	b.line++
	in.Pos = pos.Pos{File: "t.gs", Line: b.line + 1, Col: 5}
	*b.list = append(*b.list, in)
	return in
}

func (b *builder) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	d := b.f.NewReg(t)
	b.emit(&ir.Inst{Op: op, Dst: d, Args: args})
	return d
}

func (b *builder) konst(t ir.Type, v any) ir.Reg {
	d := b.f.NewReg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: d, Imm: v})
	return d
}

func (b *builder) param(p int) ir.Reg {
	d := b.f.NewReg(b.f.Params[p].Elem)
	b.emit(&ir.Inst{Op: ir.OpParam, Dst: d, Param: p})
	return d
}

// tid returns a variable register holding tid along ax (OpTid, then OpMov
// into the `let` variable, as the checker lowers `let i = tid()`).
func (b *builder) tid(ax int) ir.Reg {
	if b.k.TidDims < ax+1 {
		b.k.TidDims = ax + 1
	}
	t := b.f.NewReg(ir.I32)
	b.emit(&ir.Inst{Op: ir.OpTid, Dst: t, Imm: int64(ax)})
	v := b.f.NewReg(ir.I32)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v, Args: []ir.Reg{t}})
	return v
}

func (b *builder) load(p int, idx ...ir.Reg) ir.Reg {
	d := b.f.NewReg(b.f.Params[p].Elem)
	b.emit(&ir.Inst{Op: ir.OpLoad, Dst: d, Param: p, Args: idx})
	return d
}

func (b *builder) store(p int, args ...ir.Reg) *ir.Inst {
	return b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: p, Args: args})
}

func (b *builder) mov(dst, src ir.Reg) {
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{src}})
}

// nested runs fill with b appending to *list.
func (b *builder) nested(list *[]ir.Stmt, fill func()) {
	if fill == nil {
		return
	}
	saved := b.list
	b.list = list
	fill()
	b.list = saved
}

func (b *builder) ifElse(cond ir.Reg, then, els func()) {
	s := &ir.If{Cond: cond}
	b.nested(&s.Then, then)
	b.nested(&s.Else, els)
	*b.list = append(*b.list, s)
}

// loop adds a Loop; cond returns the condition register (NoReg: forever).
func (b *builder) loop(cond func() ir.Reg, body, post func()) {
	s := &ir.Loop{CondReg: ir.NoReg}
	if cond != nil {
		b.nested(&s.Cond, func() { s.CondReg = cond() })
	}
	b.nested(&s.Body, body)
	b.nested(&s.Post, post)
	*b.list = append(*b.list, s)
}

// forRange adds `for v in range(lo, hi)` over an i32 variable it returns
// through body's argument.
func (b *builder) forRange(lo, hi ir.Reg, body func(v ir.Reg)) {
	v := b.f.NewReg(ir.I32)
	b.mov(v, lo)
	one := b.konst(ir.I32, int64(1))
	b.loop(func() ir.Reg { return b.op(ir.OpLt, ir.Bool, v, hi) },
		func() { body(v) },
		func() { b.mov(v, b.op(ir.OpAdd, ir.I32, v, one)) })
}

func (b *builder) brk()  { *b.list = append(*b.list, &ir.Break{}) }
func (b *builder) cont() { *b.list = append(*b.list, &ir.Continue{}) }
func (b *builder) ret(vs ...ir.Reg) {
	*b.list = append(*b.list, &ir.Return{Values: vs})
}

func (b *builder) compile(t testing.TB) *Program {
	t.Helper()
	p, err := Compile(b.k, backend.Options{})
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return p
}

// slice makes a C-contiguous array argument over xs with the given shape
// (default 1-D).
// escape keeps the data of slice's arguments on the heap: a launch takes
// addresses as uintptr, and a stack that grows moves without updating them.
// The sink is locked, as concurrent tests build arguments too.
func escape(x any) {
	escapedMu.Lock()
	escaped = x
	escapedMu.Unlock()
}

var (
	escapedMu sync.Mutex
	escaped   any
)

func slice[T any](xs []T, shape ...int) Arg {
	escape(xs)
	if len(shape) == 0 {
		shape = []int{len(xs)}
	}
	var a ArrayArg
	if len(xs) > 0 {
		a.Data = uintptr(unsafe.Pointer(&xs[0])) // the caller keeps xs alive
	}
	st := 1
	for i := len(shape) - 1; i >= 0; i-- {
		a.Shape[i], a.Strides[i] = shape[i], st
		st *= shape[i]
	}
	return Arg{Array: a}
}

// block makes the kernel a block kernel of shape dims.
func (b *builder) block(dims ...int) *builder {
	b.k.Block = dims
	return b
}

// index emits a block index op (thread_id, block_id, ...) along ax.
func (b *builder) index(op ir.Op, ax int) ir.Reg {
	d := b.f.NewReg(ir.I32)
	b.emit(&ir.Inst{Op: op, Dst: d, Imm: int64(ax)})
	return d
}

// shared declares a shared array of the kernel and returns its index.
func (b *builder) shared(name string, t ir.Type, dims ...int) int {
	b.k.Shared = append(b.k.Shared, ir.Buffer{Name: name, Elem: t, Dims: dims})
	return len(b.k.Shared) - 1
}

// local declares a local array of b's func and returns its index.
func (b *builder) local(name string, t ir.Type, dims ...int) int {
	b.f.Locals = append(b.f.Locals, ir.Buffer{Name: name, Elem: t, Dims: dims})
	return len(b.f.Locals) - 1
}

// buffer is the shared or local array p.
func (b *builder) buffer(sp ir.Space, p int) ir.Buffer {
	if sp == ir.SpaceShared {
		return b.k.Shared[p]
	}
	return b.f.Locals[p]
}

func (b *builder) loadIn(sp ir.Space, p int, idx ...ir.Reg) ir.Reg {
	d := b.f.NewReg(b.buffer(sp, p).Elem)
	b.emit(&ir.Inst{Op: ir.OpLoad, Dst: d, Space: sp, Param: p, Args: idx})
	return d
}

func (b *builder) storeIn(sp ir.Space, p int, args ...ir.Reg) *ir.Inst {
	return b.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Space: sp, Param: p, Args: args})
}

// sync emits a barrier op (sync or sync_warp).
func (b *builder) sync(op ir.Op) *ir.Inst {
	return b.emit(&ir.Inst{Op: op, Dst: ir.NoReg})
}
