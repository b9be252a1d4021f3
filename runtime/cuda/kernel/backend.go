package kernel

import (
	"fmt"
	"math"
	"sync"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/internal/cudadev"
	"github.com/gscript-lang/gscript/runtime/mem"
)

func init() { backend.Register(mem.CUDA, cudaBackend{}) }

// builder compiles kernels for every CUDA device of the process; its disk
// cache is shared by every caller.
var builder struct {
	once sync.Once
	b    *Builder
	err  error
}

func processBuilder() (*Builder, error) {
	builder.once.Do(func() {
		drv, err := cuda.Load()
		if err != nil {
			builder.err = err
			return
		}
		builder.b = NewBuilder(drv, &Cache{Dir: DefaultCacheDir()})
	})
	return builder.b, builder.err
}

// cudaBackend is the CUDA devices' implementation of the backend
// interface.
type cudaBackend struct{}

// Compile verifies k and prepares it for dev. The module variants are
// built (or read from the disk cache) and loaded at their first launch:
// which one a launch needs depends on its arguments' strides.
func (cudaBackend) Compile(k *ir.Kernel, dev mem.Device, opts backend.Options) (backend.Program, error) {
	if err := ir.Verify(k); err != nil {
		return nil, err
	}
	d, err := cudadev.Get(dev.Ordinal)
	if err != nil {
		return nil, err
	}
	if _, err := sharedBytes(k, d.Info); err != nil {
		return nil, err
	}
	return &program{k: k, d: d, debug: opts.Debug, fast: opts.FastMath, coarsenAt: coarsenThreshold(d.Info), fields: ir.FieldNeeds(k),
		vec: codegen.VectorNeeds(k)}, nil
}

// program is a kernel for one CUDA device: a module per variant (general
// strides, unit innermost stride, 32-bit offsets, vector accesses), each
// keeping the packed parameters of its last launch.
type program struct {
	k         *ir.Kernel
	d         *cudadev.Dev
	debug     bool
	fast      bool // backend.Options.FastMath
	coarsenAt int
	mods      [8]*Kernel // by variant (program.variant)
	// fields is what field accesses need of the array arguments, checked
	// at every launch (backend.CheckLaunch).
	fields []ir.FieldNeed
	// vec is what the vector accesses of the Vector build need of the
	// array arguments (nil: the kernel has none, and no such build).
	vec []codegen.VectorNeed
}

// Geometry is the launch geometry over dims (the grid of a block kernel).
func (p *program) Geometry(dims []int) backend.Geometry {
	if p.k.IsBlock() {
		return blockGeometry(p.k, dims)
	}
	total := 1
	for _, n := range dims {
		total *= n
	}
	return geometry(total, p.coarsenAt)
}

// Launch queues the kernel on the device's stream; a Debug build waits for
// it and reports a failed check, except while the stream is captured (the
// launch runs at replay).
func (p *program) Launch(env *backend.Env, dims []int, args []backend.Arg) error {
	if err := backend.CheckLaunch(p.k, p.fields, dims, args); err != nil {
		return err // before the module is built: a bad launch costs no compile
	}
	m, err := p.module(p.variant(args))
	if err != nil {
		return err
	}
	if err := makeCurrent(env, p.d); err != nil {
		return err
	}
	if err := m.Launch(p.d.Stream, dims, args); err != nil {
		return fmt.Errorf("launch of kernel %s on cuda:%d: %w", p.k.Entry.Name, p.d.Ordinal, err)
	}
	if !p.debug || p.d.Capturing() {
		return nil
	}
	return m.CheckDebug(p.d.Stream, args)
}

// Variant bits: the builds of codegen.Options a launch's arguments allow.
const (
	variantUnitStride = 1 << iota // every array has unit innermost stride
	variantIndex32                // every array's element offsets fit an int32
	variantVector                 // the arrays of vector accesses are aligned for them (program.vec)
)

// variant picks the build for args: the bits of the promises they keep.
// A kernel without vector accesses, or a Debug one, never has the vector
// bit: its Vector build would be its scalar one.
func (p *program) variant(args []backend.Arg) int {
	v := variantUnitStride | variantIndex32
	for i, prm := range p.k.Entry.Params {
		if !prm.IsArray() {
			continue
		}
		if !args[i].Array.UnitInner(prm.NDim) {
			v &^= variantUnitStride
		}
		if !fitsInt32(&args[i].Array, prm.NDim) {
			v &^= variantIndex32
		}
	}
	if len(p.vec) == 0 || p.debug {
		return v
	}
	for _, n := range p.vec {
		prm := p.k.Entry.Params[n.Param]
		if !vectorAligned(&args[n.Param].Array, prm.NDim, prm.Elem.Size(), n.Lanes) {
			return v
		}
	}
	return v | variantVector
}

// vectorAligned reports whether every element of a (ndim axes of size-byte
// values) starts, at index 0 of its last axis, on a multiple of lanes
// values' bytes, with its lanes contiguous: what the vector accesses of
// lanes 0..lanes-1 need. The stride of an axis of extent 1 does not
// matter (its index is 0); an array without elements is never accessed.
func vectorAligned(a *backend.Array, ndim, size, lanes int) bool {
	for k := range ndim {
		if a.Shape[k] == 0 {
			return true
		}
	}
	if a.Data%uintptr(size*lanes) != 0 || a.Strides[ndim-1] != 1 {
		return false
	}
	for k := range ndim - 1 {
		if a.Shape[k] > 1 && a.Strides[k]%lanes != 0 {
			return false
		}
	}
	return true
}

// fitsInt32 reports whether every in-bounds element offset of a (of ndim
// axes), and every index, fits in an int32: each partial sum of
// index * stride is then bounded by the largest, sum (extent-1)*|stride|.
func fitsInt32(a *backend.Array, ndim int) bool {
	span := int64(0)
	for k := range ndim {
		n, s := int64(a.Shape[k]), int64(a.Strides[k])
		if n == 0 {
			return true // no element: nothing is accessed
		}
		if n > math.MaxInt32 || s > math.MaxInt32 || s < -math.MaxInt32 {
			return false
		}
		span += (n - 1) * max(s, -s)
		if span > math.MaxInt32 {
			return false
		}
	}
	return true
}

// makeCurrent makes d's context current on the caller's thread. A pinned
// caller keeps it current between launches and GEMMs: once set, work on
// the same device skips the driver's check.
func makeCurrent(env *backend.Env, d *cudadev.Dev) error {
	ctx := d.Ctx
	if env.Pinned && env.Current == ctx.Handle() {
		return nil
	}
	if err := ctx.SetCurrent(); err != nil {
		return err
	}
	if env.Pinned {
		env.Current = ctx.Handle()
	}
	return nil
}

// relaxedDo runs f in d's context; while d captures, with the calling
// thread in relaxed capture mode, restored afterwards: loading a module
// and allocating memory are unsafe calls in global mode, which would
// invalidate the capture.
func relaxedDo(d *cudadev.Dev, f func() error) error {
	return d.Ctx.Do(func() error {
		if d.Capturing() {
			prev, err := d.Drv.ThreadExchangeStreamCaptureMode(cuda.CaptureModeRelaxed)
			if err != nil {
				return err
			}
			defer d.Drv.ThreadExchangeStreamCaptureMode(prev)
		}
		return f()
	})
}

// module returns the variant's module, building and loading it on first
// use.
func (p *program) module(variant int) (*Kernel, error) {
	if m := p.mods[variant]; m != nil {
		return m, nil
	}
	b, err := processBuilder()
	if err != nil {
		return nil, err
	}
	d := p.d
	var m *Kernel
	// A kernel first launched inside a capture block loads there.
	err = relaxedDo(d, func() error {
		return d.RetryOOM(func() error {
			var err error
			m, err = b.Build(p.k, d.Info, Options{Debug: p.debug, UnitStride: variant&variantUnitStride != 0,
				Index32: variant&variantIndex32 != 0, FastMath: p.fast, Vector: variant&variantVector != 0})
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	p.mods[variant] = m
	return m, nil
}
