package interp

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/cache"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Library kernels are kernels built in Go (fills, fused expressions,
// reductions, constructors, matmul's fallback): stdlib launches them
// with typed arguments (KernelArgs, LaunchLibrary), not script values,
// and takes them from the process kernel cache (GeneratedKernel).

// KernelArgs are the arguments of one launch of a library kernel, in its
// parameter order, built for the kernel (ArgsFor): each scalar is packed
// as its parameter's dtype when it is added; each array is kept as its
// *mem.Array and packed by the launch, after the access check, the
// ordering between devices and the prefetch that a launch statement's
// arrays pass. The first bad argument is reported by the launch.
type KernelArgs struct {
	k      *ir.Kernel
	vals   []backend.Arg
	arrays []*mem.Array // the array of each argument; nil for a scalar
	err    error
	// The slices' memory for kernels of few parameters (fills, copies,
	// ranges): one allocation for the launch's arguments.
	valBuf   [fewParams]backend.Arg
	arrayBuf [fewParams]*mem.Array
}

const fewParams = 4

// ArgsFor starts the arguments of a launch of k.
func ArgsFor(k *ir.Kernel) *KernelArgs {
	a := &KernelArgs{k: k}
	if n := len(k.Entry.Params); n > fewParams {
		a.vals, a.arrays = make([]backend.Arg, 0, n), make([]*mem.Array, 0, n)
	} else {
		a.vals, a.arrays = a.valBuf[:0], a.arrayBuf[:0]
	}
	return a
}

// next is the parameter the next argument is for, or false (recording
// the error) when there is none or an earlier argument failed.
func (a *KernelArgs) next() (ir.Param, bool) {
	params := a.k.Entry.Params
	if a.err == nil && len(a.vals) >= len(params) {
		a.err = fmt.Errorf("kernel %s takes %d arguments, got more", a.k.Entry.Name, len(params))
	}
	if a.err != nil {
		return ir.Param{}, false
	}
	return params[len(a.vals)], true
}

func (a *KernelArgs) fail(p ir.Param, err error) *KernelArgs {
	a.err = fmt.Errorf("argument %d (%s) of kernel %s: %w", len(a.vals)+1, p.Name, a.k.Entry.Name, err)
	return a
}

func (a *KernelArgs) push(arg backend.Arg, arr *mem.Array) *KernelArgs {
	a.vals, a.arrays = append(a.vals, arg), append(a.arrays, arr)
	return a
}

// Array adds x for an array parameter of x's dtype and rank.
func (a *KernelArgs) Array(x *mem.Array) *KernelArgs {
	p, ok := a.next()
	switch {
	case !ok:
		return a
	case !p.IsArray():
		return a.fail(p, fmt.Errorf("want %s, got array", p.Elem))
	case x.DType() != p.Elem || x.NDim() != p.NDim:
		return a.fail(p, fmt.Errorf("want %s, got %s", paramTypeString(p), paramTypeString(ir.Param{Elem: x.DType(), NDim: x.NDim()})))
	}
	return a.push(backend.Arg{}, x)
}

// Arrays adds each of xs (Array).
func (a *KernelArgs) Arrays(xs ...*mem.Array) *KernelArgs {
	for _, x := range xs {
		a.Array(x)
	}
	return a
}

// Int adds v for a scalar parameter, converted to its dtype; it must fit
// an integer parameter.
func (a *KernelArgs) Int(v int64) *KernelArgs {
	return a.scalar(ir.I64, uint64(v))
}

// Ints adds each of vs (Int).
func (a *KernelArgs) Ints(vs ...int) *KernelArgs {
	for _, v := range vs {
		a.Int(int64(v))
	}
	return a
}

// Float adds v for a scalar parameter, converted to its dtype.
func (a *KernelArgs) Float(v float64) *KernelArgs {
	return a.scalar(ir.F64, math.Float64bits(v))
}

// scalar adds bits of type t for a scalar parameter, converted to its
// dtype; an int converted to an int parameter must keep its value.
func (a *KernelArgs) scalar(t ir.Type, bits uint64) *KernelArgs {
	p, ok := a.next()
	switch {
	case !ok:
		return a
	case p.IsArray():
		return a.fail(p, fmt.Errorf("want %s, got %s", paramTypeString(p), t))
	}
	out := ir.Convert(bits, t, p.Elem)
	if t.IsInt() && p.Elem.IsInt() && ir.Convert(out, p.Elem, t) != bits {
		return a.fail(p, fmt.Errorf("%d overflows %s", int64(bits), p.Elem))
	}
	return a.push(backend.Arg{Bits: scalarArgBits(p.Elem, out)}, nil)
}

// Value adds a host value as a launch statement passes it: an *Array for
// an array parameter, a scalar converted by ElemBits (a typed scalar of
// the parameter's dtype passes its bits unchanged).
func (a *KernelArgs) Value(v Value) *KernelArgs {
	p, ok := a.next()
	if !ok {
		return a
	}
	av, isArr := v.(*Array)
	switch {
	case p.IsArray() && isArr && !av.Compound():
		return a.Array(av.A)
	case p.IsArray() && isArr:
		return a.fail(p, fmt.Errorf("want %s, got %s", paramTypeString(p), av.TypeString()))
	case p.IsArray():
		return a.fail(p, fmt.Errorf("want %s, got %s", paramTypeString(p), describe(v)))
	case isArr:
		return a.fail(p, fmt.Errorf("want %s, got array", p.Elem))
	}
	if s, ok := v.(Scalar); ok && s.T == p.Elem {
		return a.push(backend.Arg{Bits: scalarArgBits(p.Elem, s.Bits)}, nil)
	}
	bits, err := ElemBits(v, p.Elem)
	if err != nil {
		return a.fail(p, err)
	}
	return a.push(backend.Arg{Bits: scalarArgBits(p.Elem, bits)}, nil)
}

// Values adds each of vs (Value).
func (a *KernelArgs) Values(vs ...Value) *KernelArgs {
	for _, v := range vs {
		a.Value(v)
	}
	return a
}

// LaunchLibrary launches the library kernel of args on dev over dims.
// Library kernels ignore config.fast_math: an array expression computes
// what NumPy would, bit for bit on every device. A failure inside the
// kernel is an *EvalError at the kernel's position.
func (th *Thread) LaunchLibrary(dev mem.Device, dims []int, args *KernelArgs) error {
	k := args.k
	if args.err != nil {
		return args.err
	}
	if params := k.Entry.Params; len(args.vals) != len(params) {
		return fmt.Errorf("kernel %s takes %d arguments, got %d", k.Entry.Name, len(params), len(args.vals))
	}
	prog, err := th.program(k, dev, false)
	if err != nil {
		return err
	}
	th.launcher.prefetch.Start(dev)
	for i, x := range args.arrays {
		if x == nil {
			continue
		}
		p := k.Entry.Params[i]
		if args.vals[i], err = th.packArray(k.Entry.Name, p, x, p.Name, dev); err != nil {
			return fmt.Errorf("argument %d (%s) of kernel %s: %w", i+1, p.Name, k.Entry.Name, err)
		}
	}
	err = th.run1(prog, dev, dims, args.vals)
	// The packed arguments are bare addresses: an array held only by args
	// (a temporary view) must not be collected, and a cpu array's memory
	// unmapped, while the kernel runs.
	runtime.KeepAlive(args)
	return th.launchError(k.Entry.Name, th.pos(), err)
}

// LaunchKernel launches k, a kernel built in Go, on dev over dims, for
// embedders: the arguments are passed as a launch statement passes them,
// arrays as *Array, scalars as host values of the parameter's dtype
// (KernelArgs.Value); access checks and ordering between devices apply
// alike. A failure inside the kernel is an *EvalError at the kernel's
// position.
func (th *Thread) LaunchKernel(k *ir.Kernel, dev mem.Device, dims []int, args ...Value) error {
	if params := k.Entry.Params; len(args) != len(params) {
		return fmt.Errorf("kernel %s takes %d arguments, got %d", k.Entry.Name, len(params), len(args))
	}
	ka := ArgsFor(k)
	for _, v := range args {
		ka.Value(v)
	}
	return th.LaunchLibrary(dev, dims, ka)
}

// generatedName keys GeneratedKernel's kernels in the process cache.
type generatedName string

// GeneratedKernel returns the kernel built in Go under name (a fill, a
// constructor's, a fused expression's), building it on first use in the
// process (lang/ir/cache), so that a loop of such statements costs one
// build and each thread's programs are reused by every later launch. A
// build that fails fails every later call under that name the same way.
func GeneratedKernel(name string, build func() (*ir.Kernel, error)) (*ir.Kernel, error) {
	return cache.Get(generatedName(name), build)
}

// Chunks splits a launch over shape (its extents) into launches of whole
// rows of axis 0 of at most 2^31-1 elements, the most one launch covers
// (tid() is an i32), calling launch with each piece's rows [lo, hi): a
// 1-D shape splits into runs of elements. Nothing is launched for an
// empty shape, one (0, 1) for a 0-d one; a row longer than a launch is
// an error.
func Chunks(shape []int, launch func(lo, hi int) error) error {
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n == 0 {
		return nil
	}
	if len(shape) == 0 {
		return launch(0, 1)
	}
	rowSize := n / shape[0]
	if rowSize > backend.MaxThreads {
		return fmt.Errorf("not yet supported: a strided view whose rows hold more than 2^31-1 elements (%s)", ShapeString(shape))
	}
	step := backend.MaxThreads / rowSize
	for lo := 0; lo < shape[0]; lo += step {
		if err := launch(lo, min(lo+step, shape[0])); err != nil {
			return err
		}
	}
	return nil
}
