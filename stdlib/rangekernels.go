package stdlib

import "github.com/gscript-lang/gscript/lang/ir"

// The kernels of arange and linspace, built directly as IR. Each thread
// writes one element of its launch's part of the array x; the part's
// offset in the whole array (the last parameter) gives the element's index
// i, so that arrays longer than one launch are filled in chunks.

// seqKernel writes T(v) with v = select(i == last, stop, f64(i) / div *
// scale + start) computed in f64 (floored first for an integer T when
// floor is set): seq.at on the device.
func seqKernel(name string, t ir.Type, floor bool) *ir.Kernel {
	f := irFunc{&ir.Func{Name: name, Params: []ir.Param{{Name: "x", Elem: t, NDim: 1},
		{Name: "start", Elem: ir.F64}, {Name: "scale", Elem: ir.F64}, {Name: "div", Elem: ir.F64},
		{Name: "stop", Elem: ir.F64}, {Name: "last", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}}}
	tid, i := f.index(6)
	v := f.op(ir.OpMul, ir.F64, f.op(ir.OpDiv, ir.F64, f.conv(i, ir.F64), f.param(3)), f.param(2))
	v = f.op(ir.OpAdd, ir.F64, v, f.param(1))
	v = f.op(ir.OpSelect, ir.F64, f.op(ir.OpEq, ir.Bool, i, f.param(5)), f.param(4), v)
	if floor && t.IsInt() {
		v = f.op(ir.OpFloor, ir.F64, v)
	}
	f.store(tid, f.conv(v, t))
	return &ir.Kernel{Entry: f.Func, TidDims: 1}
}

// exactRangeKernel writes T(first + i*step) for an integer T, computed in
// i64 (wrapping, as kernel arithmetic does: exact for every element that
// fits T, which arange checks).
func exactRangeKernel(t ir.Type) *ir.Kernel {
	f := irFunc{&ir.Func{Name: "gscript_arange_exact_" + t.String(), Params: []ir.Param{{Name: "x", Elem: t, NDim: 1},
		{Name: "first", Elem: ir.I64}, {Name: "step", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}}}
	tid, i := f.index(3)
	v := f.op(ir.OpAdd, ir.I64, f.op(ir.OpMul, ir.I64, i, f.param(2)), f.param(1))
	f.store(tid, f.conv(v, t))
	return &ir.Kernel{Entry: f.Func, TidDims: 1}
}

// irFunc appends straight-line instructions to a kernel's body.
type irFunc struct{ *ir.Func }

func (f irFunc) emit(in *ir.Inst) ir.Reg {
	f.Body = append(f.Body, in)
	return in.Dst
}

// op emits Dst = op(args) with Dst of type t.
func (f irFunc) op(op ir.Op, t ir.Type, args ...ir.Reg) ir.Reg {
	return f.emit(&ir.Inst{Op: op, Dst: f.NewReg(t), Args: args})
}

// param reads scalar parameter p.
func (f irFunc) param(p int) ir.Reg {
	return f.emit(&ir.Inst{Op: ir.OpParam, Dst: f.NewReg(f.Params[p].Elem), Param: p})
}

// conv converts r to type t (a kernel conversion, ir.Convert).
func (f irFunc) conv(r ir.Reg, t ir.Type) ir.Reg {
	if f.Regs[r] == t {
		return r
	}
	return f.op(ir.OpConvert, t, r)
}

// index reads tid() and the element's index in the whole array, offset
// (scalar parameter p) + tid() in i64.
func (f irFunc) index(p int) (tid, i ir.Reg) {
	tid = f.emit(&ir.Inst{Op: ir.OpTid, Dst: f.NewReg(ir.I32), Imm: 0})
	return tid, f.op(ir.OpAdd, ir.I64, f.conv(tid, ir.I64), f.param(p))
}

// store writes v to x[tid] (parameter 0).
func (f irFunc) store(tid, v ir.Reg) {
	f.emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{tid, v}})
}
