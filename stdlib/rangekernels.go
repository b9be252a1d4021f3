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
	f := newIRFunc(&ir.Func{Name: name, Params: []ir.Param{{Name: "x", Elem: t, NDim: 1},
		{Name: "start", Elem: ir.F64}, {Name: "scale", Elem: ir.F64}, {Name: "div", Elem: ir.F64},
		{Name: "stop", Elem: ir.F64}, {Name: "last", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}})
	tid, i := f.index(6)
	v := f.Op(ir.OpMul, ir.F64, f.Op(ir.OpDiv, ir.F64, f.Conv(ir.F64, i), f.Param(3)), f.Param(2))
	v = f.Op(ir.OpAdd, ir.F64, v, f.Param(1))
	v = f.Op(ir.OpSelect, ir.F64, f.Op(ir.OpEq, ir.Bool, i, f.Param(5)), f.Param(4), v)
	if floor && t.IsInt() {
		v = f.Op(ir.OpFloor, ir.F64, v)
	}
	f.store(tid, f.Conv(t, v))
	return &ir.Kernel{Entry: f.F, TidDims: 1}
}

// exactRangeKernel writes T(first + i*step) for an integer T, computed in
// i64 (wrapping, as kernel arithmetic does: exact for every element that
// fits T, which arange checks).
func exactRangeKernel(t ir.Type) *ir.Kernel {
	f := newIRFunc(&ir.Func{Name: "gscript_arange_exact_" + t.String(), Params: []ir.Param{{Name: "x", Elem: t, NDim: 1},
		{Name: "first", Elem: ir.I64}, {Name: "step", Elem: ir.I64}, {Name: "offset", Elem: ir.I64}}})
	tid, i := f.index(3)
	v := f.Op(ir.OpAdd, ir.I64, f.Op(ir.OpMul, ir.I64, i, f.Param(2)), f.Param(1))
	f.store(tid, f.Conv(t, v))
	return &ir.Kernel{Entry: f.F, TidDims: 1}
}

// irFunc builds a fill kernel's body: x (parameter 0) gets one element per
// thread.
type irFunc struct{ *ir.Builder }

func newIRFunc(f *ir.Func) irFunc { return irFunc{ir.NewBuilder(f)} }

// index reads tid() and the element's index in the whole array, offset
// (scalar parameter p) + tid() in i64.
func (f irFunc) index(p int) (tid, i ir.Reg) {
	tid = f.F.NewReg(ir.I32)
	f.Emit(&ir.Inst{Op: ir.OpTid, Dst: tid, Imm: 0})
	return tid, f.Op(ir.OpAdd, ir.I64, f.Conv(ir.I64, tid), f.Param(p))
}

// store writes v to x[tid] (parameter 0).
func (f irFunc) store(tid, v ir.Reg) {
	f.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{tid, v}})
}
