package interp

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// fillKernel is `kernel fill(x: array[T], v: T) { x[tid()] = v }` for
// dtype t, built directly as IR.
func fillKernel(t ir.Type) *ir.Kernel {
	f := &ir.Func{Name: "gscript_fill_" + t.String(), Params: []ir.Param{{Name: "x", Elem: t, NDim: 1}, {Name: "v", Elem: t}}}
	i, v := f.NewReg(ir.I32), f.NewReg(t)
	f.Body = []ir.Stmt{
		&ir.Inst{Op: ir.OpTid, Dst: i, Imm: 0},
		&ir.Inst{Op: ir.OpParam, Dst: v, Param: 1},
		&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{i, v}},
	}
	return &ir.Kernel{Entry: f, TidDims: 1}
}

// FillArray sets every element of a to v. A contiguous array is filled by
// a kernel on its own device (on a CUDA device: no host round trip, and
// recorded by a capture block); managed memory too, so that its pages stay
// on the GPU. A strided view, or host memory wrapped as a CUDA array (the
// GPU may not reach it), is filled from the host.
func (th *Thread) FillArray(a *mem.Array, v Value) error {
	if _, err := ElemBits(v, a.DType()); err != nil {
		return err
	}
	dev := a.Device()
	if !a.IsContiguous() || (dev.IsCUDA() && a.Kind() != mem.CUDAManaged && a.HostAccessible()) {
		return Fill(a, v)
	}
	if a.Size() == 0 {
		return nil
	}
	t := a.DType()
	k := th.CachedKernel("gscript_fill_"+t.String(), func() *ir.Kernel { return fillKernel(t) })
	flat, err := a.Reshape([]int{a.Size()})
	if err != nil {
		return err
	}
	// One launch covers at most 2^31-1 threads: fill in chunks.
	for off := 0; off < a.Size(); off += math.MaxInt32 {
		n := min(a.Size()-off, math.MaxInt32)
		part, err := flat.Slice(off, off+n)
		if err != nil {
			return err
		}
		if err := th.LaunchKernel(k, dev, []int{n}, &Array{A: part}, v); err != nil {
			return err
		}
	}
	return nil
}

// initArray fills a fresh array from an initialiser (see InitArray), on
// the device where it can.
func (th *Thread) initArray(a *mem.Array, init Value) error {
	switch v := init.(type) {
	case *List:
		return fillFromList(a, v)
	case *Array:
		return th.CopyArray(a, v.A)
	}
	return th.FillArray(a, init)
}

// CopyArray copies src into dst (same shape, dtypes converted): on the GPU
// when both are contiguous arrays of one dtype on one CUDA device, else
// through the host.
func (th *Thread) CopyArray(dst, src *mem.Array) error {
	if done, err := mem.CopyDevice(dst, src); done {
		if err == nil {
			th.markUsed(dst.Device())
		}
		return err
	}
	return CopyArray(dst, src)
}
