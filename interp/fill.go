package interp

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda/kernel"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// fillKernel is `kernel fill(x: array[T], v: T) { x[tid()] = v }` for
// dtype t, built directly as IR: CUDA arrays are filled on their device
// (no host round trip, and recorded by a capture block).
func fillKernel(t ir.Type) *Kernel {
	f := &ir.Func{Name: "gscript_fill_" + t.String(), Params: []ir.Param{{Name: "x", Elem: t, NDim: 1}, {Name: "v", Elem: t}}}
	i, v := f.NewReg(ir.I32), f.NewReg(t)
	f.Body = []ir.Stmt{
		&ir.Inst{Op: ir.OpTid, Dst: i, Imm: 0},
		&ir.Inst{Op: ir.OpParam, Dst: v, Param: 1},
		&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{i, v}},
	}
	return &Kernel{Name: f.Name, IR: &ir.Kernel{Entry: f, TidDims: 1}}
}

// FillArray sets every element of a to v: on the device for contiguous
// CUDA arrays the CPU cannot access, else on the host.
func (th *Thread) FillArray(a *mem.Array, v Value) error {
	bits, err := ElemBits(v, a.DType())
	if err != nil {
		return err
	}
	if !a.Device().IsCUDA() || a.HostAccessible() || !a.IsContiguous() {
		return Fill(a, v)
	}
	ptr, err := a.Ptr()
	if err != nil || a.Size() == 0 {
		return err
	}
	d, err := th.cudaDevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	if err := th.orderLaunch(a, a.Device()); err != nil {
		return err
	}
	if th.fills == nil {
		th.fills = map[ir.Type]*Kernel{}
	}
	k := th.fills[a.DType()]
	if k == nil {
		k = fillKernel(a.DType())
		th.fills[a.DType()] = k
	}
	k.cuda.unit = true
	m, err := th.cudaModule(k, d)
	if err != nil {
		return err
	}
	// One launch covers at most 2^31-1 threads: fill in chunks.
	size := a.DType().Size()
	args := []kernel.Arg{{}, {Bits: bits}}
	return d.Ctx.Do(func() error {
		for off := 0; off < a.Size(); off += math.MaxInt32 {
			n := min(a.Size()-off, math.MaxInt32)
			args[0].Array.Data = uint64(ptr) + uint64(off*size)
			args[0].Array.Shape[0], args[0].Array.Strides[0] = int64(n), 1
			if err := m.Launch(d.Stream, []int{n}, args); err != nil {
				return err
			}
		}
		th.markUsed(d)
		return nil
	})
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
		if d, derr := th.cudaDevice(dst.Device().Ordinal); err == nil && derr == nil {
			th.markUsed(d)
		}
		return err
	}
	return CopyArray(dst, src)
}
