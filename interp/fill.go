package interp

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// fillKernel is `kernel fill(x: array[T, ndim], v: T) { x[tid()...] = v }`
// for dtype t, built directly as IR.
func fillKernel(t ir.Type, ndim int) *ir.Kernel {
	f := &ir.Func{Name: kernelName("fill", ndim, t), Params: []ir.Param{{Name: "x", Elem: t, NDim: ndim}, {Name: "v", Elem: t}}}
	b := ir.NewBuilder(f)
	idx := tids(b, ndim)
	b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: append(idx, b.Param(1))})
	return &ir.Kernel{Entry: f, TidDims: ndim}
}

// copyKernel is `kernel copy(d: array[D, ndim], s: array[S, ndim]) {
// d[i...] = D(s[i...]) }`: strided views on both sides, since kernels
// index through strides.
func copyKernel(dt, st ir.Type, ndim int) *ir.Kernel {
	f := &ir.Func{Name: kernelName("copy", ndim, dt, st), Params: []ir.Param{{Name: "d", Elem: dt, NDim: ndim}, {Name: "s", Elem: st, NDim: ndim}}}
	b := ir.NewBuilder(f)
	idx := tids(b, ndim)
	v := f.NewReg(st)
	b.Emit(&ir.Inst{Op: ir.OpLoad, Dst: v, Param: 1, Args: idx})
	b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: append(idx, b.Conv(dt, v))})
	return &ir.Kernel{Entry: f, TidDims: ndim}
}

// kernelName keeps the 1-D fill's historical name.
func kernelName(op string, ndim int, ts ...ir.Type) string {
	name := "gscript_" + op
	for _, t := range ts {
		name += "_" + t.String()
	}
	if ndim > 1 {
		name += "_" + strconv.Itoa(ndim) + "d"
	}
	return name
}

// tids reads the thread index of each of ndim axes into registers.
func tids(b *ir.Builder, ndim int) []ir.Reg {
	idx := make([]ir.Reg, ndim)
	for k := range idx {
		idx[k] = b.F.NewReg(ir.I32)
		b.Emit(&ir.Inst{Op: ir.OpTid, Dst: idx[k], Imm: k})
	}
	return idx
}

// kernelReaches reports whether a kernel on a's device can touch a: not
// for host memory wrapped as a CUDA array (the GPU may not reach it).
func kernelReaches(a *mem.Array) bool {
	return !a.Device().IsCUDA() || a.Kind() == mem.CUDAManaged || !a.HostAccessible()
}

// FillArray sets every element of a to v with a kernel on a's own device
// (on a CUDA device: no host round trip, and recorded by a capture block);
// managed memory too, so that its pages stay on the GPU. Strided views
// are filled in place through their strides. Host memory wrapped as a
// CUDA array is filled from the host.
func (th *Thread) FillArray(a *mem.Array, v Value) error {
	if _, err := ElemBits(v, a.DType()); err != nil {
		return err
	}
	if !kernelReaches(a) {
		return Fill(a, v)
	}
	if a.Size() == 0 {
		return nil
	}
	if a.IsContiguous() {
		flat, err := a.Reshape([]int{a.Size()})
		if err != nil {
			return err
		}
		a = flat // one axis: the fewest index computations
	}
	t, nd := a.DType(), a.NDim()
	k, err := GeneratedKernel(kernelName("fill", nd, t), func() (*ir.Kernel, error) { return fillKernel(t, nd), nil })
	if err != nil {
		return err
	}
	return th.launchOver(k, []*mem.Array{a}, v)
}

// launchOver launches k with one thread per element of arrs (views of
// one shape, the kernel's first parameters) and then scalars, on the
// first array's device. One launch covers at most 2^31-1 threads, so a
// larger shape is launched in pieces of whole rows of axis 0.
func (th *Thread) launchOver(k *ir.Kernel, arrs []*mem.Array, scalars ...Value) error {
	shape := arrs[0].Shape()
	if arrs[0].Size() == 0 {
		return nil
	}
	rowSize := arrs[0].Size() / shape[0]
	if rowSize > math.MaxInt32 {
		return fmt.Errorf("not yet supported: a strided view whose rows hold more than 2^31-1 elements (%s)", ShapeString(shape))
	}
	step := math.MaxInt32 / rowSize
	for lo := 0; lo < shape[0]; lo += step {
		args := make([]Value, 0, len(arrs)+len(scalars))
		for _, a := range arrs {
			part, err := a.Slice(lo, min(lo+step, shape[0]))
			if err != nil {
				return err
			}
			args = append(args, &Array{A: part})
		}
		dims := append([]int{min(step, shape[0]-lo)}, shape[1:]...)
		if err := th.LaunchKernel(k, arrs[0].Device(), dims, append(args, scalars...)...); err != nil {
			return err
		}
	}
	return nil
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
// copy when both are contiguous arrays of one dtype on one CUDA device, a
// copy kernel through the strides for other arrays of one device, else
// through the host. It does not check for overlap: AssignView does.
func (th *Thread) CopyArray(dst, src *mem.Array) error {
	if done, err := mem.CopyDevice(dst, src); done {
		if err == nil {
			th.markUsed(dst.Device())
		}
		return err
	}
	if dst.Device() != src.Device() || !kernelReaches(dst) || !kernelReaches(src) || !slices.Equal(dst.Shape(), src.Shape()) {
		return CopyArray(dst, src)
	}
	if dst.IsContiguous() && src.IsContiguous() {
		var err error
		if dst, err = dst.Reshape([]int{dst.Size()}); err != nil {
			return err
		}
		if src, err = src.Reshape([]int{src.Size()}); err != nil {
			return err
		}
	}
	dt, st, nd := dst.DType(), src.DType(), dst.NDim()
	k, err := GeneratedKernel(kernelName("copy", nd, dt, st), func() (*ir.Kernel, error) { return copyKernel(dt, st, nd), nil })
	if err != nil {
		return err
	}
	return th.launchOver(k, []*mem.Array{dst, src})
}
