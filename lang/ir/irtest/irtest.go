// Package irtest builds small kernels from the op table for backend tests:
// for every op, one kernel per operand type the table allows. A backend's
// exhaustiveness test compiles every case, so an op added to the table
// fails that test until the backend implements it.
package irtest

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Case is one kernel exercising Op at operand type T (Invalid for ops
// without operands, such as sync), on an array in Space for accesses.
// Name tells apart the cases of one op and type that differ otherwise
// (the multi-result calls).
type Case struct {
	Op     ir.Op
	T      ir.Type
	Space  ir.Space
	Name   string
	Kernel *ir.Kernel
	// Want, where set (Calls), gives what a thread whose element of the
	// input array (parameter 0) holds the small integer x stores into
	// its element of each output array (the other parameters, in order).
	Want func(x float64) []float64
	// Shapes, when set, is the shape of each array parameter (nil for a
	// scalar); otherwise every array is 1-D, of 64 elements.
	Shapes [][]int
	// Layout names the element layout of a field case (FieldLayouts).
	Layout string
}

func (c Case) String() string {
	s := fmt.Sprintf("%s/%s", c.Op, c.T)
	if c.Layout != "" {
		s += "/" + c.Layout
	}
	if c.Space != ir.SpaceParam {
		s += "/" + c.Space.String()
	}
	if c.Name != "" {
		s += "/" + c.Name
	}
	return s
}

// Shape is the shape of array parameter i of the case's kernel.
func (c Case) Shape(i int) []int {
	if c.Shapes != nil {
		return c.Shapes[i]
	}
	return []int{BlockShape[0]}
}

// BlockShape is the block of the block kernels irtest builds for block
// ops: two warps, so collectives cross a warp boundary.
var BlockShape = []int{64}

// Cases returns a kernel for op at every operand type of its table row (for
// convert, every pair of types; for accesses and shape, also on a shared
// and a local array; for call, also the multi-result calls of Calls).
// Block ops get block kernels of BlockShape.
func Cases(op ir.Op) []Case {
	info, ok := op.Info()
	if !ok {
		return nil
	}
	if info.Types == 0 {
		return []Case{{Op: op, Kernel: block(bare(op))}}
	}
	if info.Form == ir.FormField {
		return fieldCases(op, info)
	}
	var cs []Case
	for _, t := range info.Types.Types() {
		switch {
		case info.Form == ir.FormConvert:
			for _, to := range info.Types.Types() {
				cs = append(cs, Case{Op: op, T: t, Kernel: convert(t, to)})
			}
		case info.Form == ir.FormAccess || op == ir.OpShape:
			for _, sp := range []ir.Space{ir.SpaceParam, ir.SpaceShared, ir.SpaceLocal} {
				cs = append(cs, Case{Op: op, T: t, Space: sp, Kernel: inSpace(build(op, info, t), sp)})
			}
		case info.Block:
			cs = append(cs, Case{Op: op, T: t, Kernel: block(build(op, info, t))})
		default:
			cs = append(cs, Case{Op: op, T: t, Kernel: build(op, info, t)})
		}
	}
	if op == ir.OpCall {
		cs = append(cs, Calls()...)
	}
	return cs
}

// block makes k a block kernel of BlockShape.
func block(k *ir.Kernel) *ir.Kernel {
	k.Block = BlockShape
	return k
}

// bare makes `op(); out[i] = 1` for an op without operands or result.
func bare(op ir.Op) *ir.Kernel {
	b := newBuilder(arr("out", ir.I32))
	b.emit(op, ir.Invalid, nil, nil)
	b.store(0, b.emit(ir.OpConst, ir.I32, nil, int64(1)))
	return b.kernel()
}

// inSpace moves the accesses of array parameter 0 of k into a shared
// (block kernel) or local array of the same element type and 64 elements.
func inSpace(k *ir.Kernel, sp ir.Space) *ir.Kernel {
	if sp == ir.SpaceParam {
		return k
	}
	p := k.Entry.Params[0]
	buf := ir.Buffer{Name: p.Name + "_" + sp.String(), Elem: p.Elem, Dims: []int{BlockShape[0]}}
	for _, s := range k.Entry.Body {
		if in, ok := s.(*ir.Inst); ok && in.Param == 0 && (in.Op == ir.OpShape || isAccess(in.Op)) {
			in.Space = sp
		}
	}
	if sp == ir.SpaceShared {
		k.Shared = append(k.Shared, buf)
		return block(k)
	}
	k.Entry.Locals = append(k.Entry.Locals, buf)
	return k
}

func isAccess(op ir.Op) bool {
	info, _ := op.Info()
	return info.Form == ir.FormAccess
}

// builder grows the entry func of a 1-D kernel.
type builder struct {
	f *ir.Func
	i ir.Reg // tid()
}

func newBuilder(params ...ir.Param) *builder {
	b := &builder{f: &ir.Func{Name: "k", Params: params}}
	b.i = b.emit(ir.OpTid, ir.I32, nil, 0)
	return b
}

func (b *builder) emit(op ir.Op, t ir.Type, args []ir.Reg, imm any) ir.Reg {
	d := ir.NoReg
	if t != ir.Invalid {
		d = b.f.NewReg(t)
	}
	b.f.Body = append(b.f.Body, &ir.Inst{Op: op, Dst: d, Args: args, Imm: imm})
	return d
}

func (b *builder) access(op ir.Op, t ir.Type, param int, args ...ir.Reg) ir.Reg {
	r := b.emit(op, t, args, nil)
	b.f.Body[len(b.f.Body)-1].(*ir.Inst).Param = param
	return r
}

func (b *builder) load(param int, t ir.Type) ir.Reg { return b.access(ir.OpLoad, t, param, b.i) }

func (b *builder) store(param int, v ir.Reg) { b.access(ir.OpStore, ir.Invalid, param, b.i, v) }

func (b *builder) kernel(funcs ...*ir.Func) *ir.Kernel {
	return &ir.Kernel{Entry: b.f, Funcs: funcs, TidDims: 1, UsesAtomics: true, UsesPrint: true}
}

func arr(name string, t ir.Type) ir.Param { return ir.Param{Name: name, Elem: t, NDim: 1} }

// build makes `out[i] = op(a0[i], ...)` and the like for op's Form.
func build(op ir.Op, info ir.OpInfo, t ir.Type) *ir.Kernel {
	switch info.Form {
	case ir.FormSame:
		return same(op, info, t)
	case ir.FormShift, ir.FormLane:
		b := newBuilder(arr("a", t), arr("n", ir.I32), arr("out", t))
		b.store(2, b.emit(op, t, []ir.Reg{b.load(0, t), b.load(1, ir.I32)}, nil))
		return b.kernel()
	case ir.FormSelect:
		b := newBuilder(arr("c", ir.Bool), arr("a", t), arr("out", t))
		x := b.load(1, t)
		b.store(2, b.emit(op, t, []ir.Reg{b.load(0, ir.Bool), x, x}, nil))
		return b.kernel()
	case ir.FormLeaf:
		return leaf(op, t)
	case ir.FormAccess:
		return access(op, info, t)
	case ir.FormCall:
		return call(t)
	case ir.FormPrint:
		b := newBuilder(arr("a", t))
		x := b.load(0, t)
		b.f.Body = append(b.f.Body, &ir.Inst{Op: op, Dst: ir.NoReg, Args: []ir.Reg{x, b.i}, Format: "x={} i={}\n"})
		return b.kernel()
	}
	return nil // a form irtest does not know: the backends' tests fail on the nil kernel
}

func same(op ir.Op, info ir.OpInfo, t ir.Type) *ir.Kernel {
	var params []ir.Param
	for k := range info.Arity {
		params = append(params, arr(fmt.Sprintf("a%d", k), t))
	}
	rt := info.ResultType(t)
	b := newBuilder(append(params, arr("out", rt))...)
	var args []ir.Reg
	for k := range info.Arity {
		args = append(args, b.load(k, t))
	}
	b.store(info.Arity, b.emit(op, rt, args, nil))
	return b.kernel()
}

func convert(from, to ir.Type) *ir.Kernel {
	b := newBuilder(arr("a", from), arr("out", to))
	b.store(1, b.emit(ir.OpConvert, to, []ir.Reg{b.load(0, from)}, nil))
	return b.kernel()
}

func leaf(op ir.Op, t ir.Type) *ir.Kernel {
	b := newBuilder(arr("out", t), ir.Param{Name: "s", Elem: t})
	var r ir.Reg
	switch info, _ := op.Info(); info.Result {
	case ir.ResultParam:
		r = b.access(op, t, 1)
	case ir.ResultImm:
		r = b.emit(op, t, nil, int64(-7))
	default: // Imm is axis 0, or unused
		r = b.emit(op, t, nil, 0)
	}
	b.store(0, r)
	return b.kernel()
}

// access makes loads, stores and atomics: out[i] = old of the atomic.
func access(op ir.Op, info ir.OpInfo, t ir.Type) *ir.Kernel {
	b := newBuilder(arr("a", t), arr("out", t))
	x := b.load(0, t)
	switch {
	case op == ir.OpLoad || op == ir.OpStore:
		b.store(1, x)
	default:
		args := []ir.Reg{b.i}
		for range info.Arity {
			args = append(args, x)
		}
		b.store(0, b.access(op, t, 1, args...))
	}
	return b.kernel()
}

// call makes out[i] = twice(a[i]) with a device func twice(v) = v + v (or
// v || v for bool).
func call(t ir.Type) *ir.Kernel {
	g := &ir.Func{Name: "twice", Params: []ir.Param{{Name: "v", Elem: t}}, Results: []ir.Type{t}}
	v, r := g.NewReg(t), g.NewReg(t)
	add := ir.OpAdd
	if t == ir.Bool {
		add = ir.OpOr
	}
	g.Body = []ir.Stmt{&ir.Inst{Op: ir.OpParam, Dst: v, Param: 0}, &ir.Inst{Op: add, Dst: r, Args: []ir.Reg{v, v}}, &ir.Return{Values: []ir.Reg{r}}}
	b := newBuilder(arr("a", t), arr("out", t))
	d := b.f.NewReg(t)
	b.call(0, []ir.Reg{d}, b.load(0, t))
	b.store(1, d)
	return b.kernel(g)
}

// call emits a call of Funcs[callee] with scalar arguments args into dsts.
func (b *builder) call(callee int, dsts []ir.Reg, args ...ir.Reg) {
	arrays := make([]int, len(args))
	for k := range arrays {
		arrays[k] = -1
	}
	b.f.Body = append(b.f.Body, &ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: dsts, Args: args, ArrayArgs: arrays, Callee: callee})
}

// Calls are the kernels of funcs with several results, as the checker
// lowers vector values, each with its Want. With a the input array and
// i = tid():
//
//   - "f32x3": x, y, z = spread(a[i]) with spread(v) = (v, v+v, v*v);
//     out[i] = (x - y) * z.
//   - "f64_i32": h, n = parts(a[i]) with parts(v) = (v*0.5, i32(v));
//     out[i] = h + f64(n).
//   - "dropped": spread(a[i]) as a statement, then _, y, _ = spread(a[i]);
//     out[i] = y.
//   - "early": out[i], w[i] = find(a[i]), where find(n) is (n, 1.5) for
//     n >= 60, else the first k in 1..5 with k*k > n as (k, f32(k*n)),
//     else (-1, 0.5): returns of two values in an if, in an if in a loop,
//     and at the end, so that threads of different inputs diverge.
func Calls() []Case {
	return []Case{
		{Op: ir.OpCall, T: ir.F32, Name: "f32x3", Kernel: callF32x3(),
			Want: func(x float64) []float64 { return []float64{(x - (x + x)) * (x * x)} }}, // as computed: +0 for 0
		{Op: ir.OpCall, T: ir.F64, Name: "f64_i32", Kernel: callF64I32(),
			Want: func(x float64) []float64 { return []float64{1.5 * x} }},
		{Op: ir.OpCall, T: ir.F32, Name: "dropped", Kernel: callDropped(),
			Want: func(x float64) []float64 { return []float64{2 * x} }},
		{Op: ir.OpCall, T: ir.I32, Name: "early", Kernel: callEarly(), Want: find},
	}
}

// find is the results of callEarly's func for n.
func find(n float64) []float64 {
	if n >= 60 {
		return []float64{n, 1.5}
	}
	for k := 1.0; k <= 5; k++ {
		if k*k > n {
			return []float64{k, k * n}
		}
	}
	return []float64{-1, 0.5}
}

// spread(v: f32) -> (f32, f32, f32) = (v, v+v, v*v).
func spread() *ir.Func {
	g := &ir.Func{Name: "spread", Params: []ir.Param{{Name: "v", Elem: ir.F32}}, Results: []ir.Type{ir.F32, ir.F32, ir.F32}}
	b := ir.NewBuilder(g)
	v := b.Param(0)
	b.Emit(&ir.Return{Values: []ir.Reg{v, b.Op(ir.OpAdd, ir.F32, v, v), b.Op(ir.OpMul, ir.F32, v, v)}})
	return g
}

func callF32x3() *ir.Kernel {
	b := newBuilder(arr("a", ir.F32), arr("out", ir.F32))
	x, y, z := b.f.NewReg(ir.F32), b.f.NewReg(ir.F32), b.f.NewReg(ir.F32)
	b.call(0, []ir.Reg{x, y, z}, b.load(0, ir.F32))
	b.store(1, b.emit(ir.OpMul, ir.F32, []ir.Reg{b.emit(ir.OpSub, ir.F32, []ir.Reg{x, y}, nil), z}, nil))
	return b.kernel(spread())
}

func callF64I32() *ir.Kernel {
	g := &ir.Func{Name: "parts", Params: []ir.Param{{Name: "v", Elem: ir.F64}}, Results: []ir.Type{ir.F64, ir.I32}}
	gb := ir.NewBuilder(g)
	v := gb.Param(0)
	gb.Emit(&ir.Return{Values: []ir.Reg{gb.Op(ir.OpMul, ir.F64, v, gb.Const(ir.F64, 0.5)), gb.Conv(ir.I32, v)}})
	b := newBuilder(arr("a", ir.F64), arr("out", ir.F64))
	h, n := b.f.NewReg(ir.F64), b.f.NewReg(ir.I32)
	b.call(0, []ir.Reg{h, n}, b.load(0, ir.F64))
	b.store(1, b.emit(ir.OpAdd, ir.F64, []ir.Reg{h, b.emit(ir.OpConvert, ir.F64, []ir.Reg{n}, nil)}, nil))
	return b.kernel(g)
}

func callDropped() *ir.Kernel {
	b := newBuilder(arr("a", ir.F32), arr("out", ir.F32))
	x := b.load(0, ir.F32)
	b.call(0, nil, x)
	y := b.f.NewReg(ir.F32)
	b.call(0, []ir.Reg{ir.NoReg, y, ir.NoReg}, x)
	b.store(1, y)
	return b.kernel(spread())
}

func callEarly() *ir.Kernel {
	g := &ir.Func{Name: "find", Params: []ir.Param{{Name: "n", Elem: ir.I32}}, Results: []ir.Type{ir.I32, ir.F32}}
	gb := ir.NewBuilder(g)
	n := gb.Param(0)
	ret := func(k, w ir.Reg) { gb.Emit(&ir.Return{Values: []ir.Reg{k, w}}) }
	gb.If(gb.Op(ir.OpGe, ir.Bool, n, gb.Const(ir.I32, int64(60))), func() { ret(n, gb.Const(ir.F32, 1.5)) })
	k := gb.Const(ir.I32, int64(1))
	gb.While(func() ir.Reg { return gb.Op(ir.OpLe, ir.Bool, k, gb.Const(ir.I32, int64(5))) }, func() {
		gb.If(gb.Op(ir.OpGt, ir.Bool, gb.Op(ir.OpMul, ir.I32, k, k), n), func() {
			ret(k, gb.Conv(ir.F32, gb.Op(ir.OpMul, ir.I32, k, n)))
		})
		gb.Emit(&ir.Inst{Op: ir.OpAdd, Dst: k, Args: []ir.Reg{k, gb.Const(ir.I32, int64(1))}})
	})
	ret(gb.Const(ir.I32, int64(-1)), gb.Const(ir.F32, 0.5))
	b := newBuilder(arr("a", ir.I32), arr("out", ir.I32), arr("w", ir.F32))
	kr, w := b.f.NewReg(ir.I32), b.f.NewReg(ir.F32)
	b.call(0, []ir.Reg{kr, w}, b.load(0, ir.I32))
	b.store(1, kr)
	b.store(2, w)
	return b.kernel(g)
}
