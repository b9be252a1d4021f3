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
type Case struct {
	Op     ir.Op
	T      ir.Type
	Space  ir.Space
	Kernel *ir.Kernel
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
// and a local array). Block ops get block kernels of BlockShape.
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
	switch op {
	case ir.OpParam:
		r = b.access(op, t, 1)
	case ir.OpShape, ir.OpTid, ir.OpThreadId, ir.OpBlockId, ir.OpBlockDim, ir.OpGridDim, ir.OpLaneId, ir.OpWarpId:
		r = b.emit(op, t, nil, 0)
	default:
		r = b.emit(op, t, nil, int64(-7))
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
	g := &ir.Func{Name: "twice", Params: []ir.Param{{Name: "v", Elem: t}}, Result: t}
	v, r := g.NewReg(t), g.NewReg(t)
	add := ir.OpAdd
	if t == ir.Bool {
		add = ir.OpOr
	}
	g.Body = []ir.Stmt{&ir.Inst{Op: ir.OpParam, Dst: v, Param: 0}, &ir.Inst{Op: add, Dst: r, Args: []ir.Reg{v, v}}, &ir.Return{Value: r}}
	b := newBuilder(arr("a", t), arr("out", t))
	d := b.f.NewReg(t)
	b.f.Body = append(b.f.Body, &ir.Inst{Op: ir.OpCall, Dst: d, Args: []ir.Reg{b.load(0, t)}, ArrayArgs: []int{-1}, Callee: 0})
	b.store(1, d)
	return b.kernel(g)
}
