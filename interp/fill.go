package interp

import (
	"slices"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// FillArray sets every element of a to v (converted by ElemBits) through
// the store engine (ArrayOps.Store): a kernel on a's own device (on a
// CUDA device no host round trip, and recorded by a capture block),
// managed memory too, so that its pages stay on the GPU; strided views
// are filled in place through their strides. Host memory wrapped as a
// CUDA array (mem.Array.KernelReaches), and every array of an interpreter
// without stdlib/fuse, is filled from the host.
func (th *Thread) FillArray(a *mem.Array, v Value) error {
	bits, err := ElemBits(v, a.DType())
	if err != nil {
		return err
	}
	if arrayOps == nil || !a.KernelReaches() {
		return Fill(a, v)
	}
	return arrayOps.Store(th, a, elemValue(a.DType(), bits), CastUnsafe)
}

// initArray fills a fresh array from an initialiser (see InitArray), on
// the device where it can; an array of a compound type takes a list
// (fillFromList), a vector, a scalar or an array of its type
// (assignCompound).
func (th *Thread) initArray(x *Array, init Value) error {
	if l, ok := init.(*List); ok {
		return fillFromList(x, l)
	}
	if x.Compound() {
		return th.assignCompound(x, init)
	}
	a := x.A
	switch v := init.(type) {
	case *Array:
		src, err := v.Plain("initialising an array of " + a.DType().String() + " from a copy")
		if err != nil {
			return err
		}
		return th.CopyArray(a, src)
	}
	return th.FillArray(a, init)
}

// CopyArray copies src into dst (same shape, dtypes converted): a device
// copy when both are contiguous arrays of one dtype on one CUDA device,
// else the store engine's kernel through the strides for arrays of one
// device that it reaches (mem.Array.KernelReaches), else through the
// host. It does not check for overlap: AssignView does.
func (th *Thread) CopyArray(dst, src *mem.Array) error {
	if done, err := mem.CopyDevice(dst, src); done {
		if err == nil {
			th.markUsed(dst.Device())
		}
		return err
	}
	if arrayOps == nil || dst.Device() != src.Device() || !dst.KernelReaches() || !src.KernelReaches() || !slices.Equal(dst.Shape(), src.Shape()) {
		return CopyArray(dst, src)
	}
	return arrayOps.Store(th, dst, &Array{A: src}, CastUnsafe)
}
