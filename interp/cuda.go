package interp

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/cuda/kernel"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// builder compiles kernels for every CUDA device of the process; its disk
// cache is shared by all interpreters.
var builder struct {
	once sync.Once
	b    *kernel.Builder
	err  error
}

func kernelBuilder() (*kernel.Builder, error) {
	builder.once.Do(func() {
		drv, err := mem.CUDADriver()
		if err != nil {
			builder.err = err
			return
		}
		builder.b = kernel.NewBuilder(drv, &kernel.Cache{Dir: kernel.DefaultCacheDir()})
	})
	return builder.b, builder.err
}

// cudaKernel is a kernel's state for CUDA launches: one loaded module per
// (device, debug) and reusable argument storage.
type cudaKernel struct {
	mods map[cudaKey]*kernel.Kernel
	unit bool // every array argument of this launch has unit innermost stride
	// last is the module of the previous launch: a loop of launches skips
	// the map lookup.
	last    *kernel.Kernel
	lastKey cudaKey
	args    []kernel.Arg
	names   []string // argument names, for debug-mode messages
	shapes  [][]int
	arrays  []*mem.Array // the arrays args was packed from
	units   []bool       // per argument: unit innermost stride
	// changed says args changed since the last launch, which was of
	// module launched over dims launchedDims: a launch with none of
	// these changed repeats it (kernel.Kernel.Relaunch).
	changed      bool
	launched     *kernel.Kernel
	launchedDims []int
}

type cudaKey struct {
	ordinal int
	debug   bool
	unit    bool // the codegen.Options.UnitStride variant
}

// cudaModule returns k built for d (compiling or loading on first use).
func (th *Thread) cudaModule(k *Kernel, d *mem.CUDADev) (*kernel.Kernel, error) {
	key := cudaKey{d.Device.Ordinal, th.Config.Debug, k.cuda.unit}
	if k.cuda.last != nil && k.cuda.lastKey == key {
		return k.cuda.last, nil
	}
	if m := k.cuda.mods[key]; m != nil {
		k.cuda.last, k.cuda.lastKey = m, key
		return m, nil
	}
	b, err := kernelBuilder()
	if err != nil {
		return nil, err
	}
	var m *kernel.Kernel
	err = d.Ctx.Do(func() error {
		// Loading a module is an unsafe call in global capture mode: a
		// kernel first launched inside a capture block loads with this
		// thread in relaxed mode, then the mode is restored.
		if th.capturing != nil {
			prev, err := d.Drv.ThreadExchangeStreamCaptureMode(cuda.CaptureModeRelaxed)
			if err != nil {
				return err
			}
			defer d.Drv.ThreadExchangeStreamCaptureMode(prev)
		}
		var err error
		m, err = b.Build(k.IR, d.Info, kernel.Options{Debug: th.Config.Debug, UnitStride: key.unit})
		return err
	})
	if err != nil {
		return nil, err
	}
	if k.cuda.mods == nil {
		k.cuda.mods = map[cudaKey]*kernel.Kernel{}
	}
	k.cuda.mods[key] = m
	k.cuda.last, k.cuda.lastKey = m, key
	return m, nil
}

// packCUDAArg stores argument i for a CUDA launch.
func (k *Kernel) packCUDAArg(i int, p ir.Param, bits uint64, a *mem.Array, ptr uintptr, name string) {
	c := &k.cuda
	if len(c.args) != len(k.IR.Entry.Params) {
		n := len(k.IR.Entry.Params)
		c.args, c.names, c.shapes = make([]kernel.Arg, n), make([]string, n), make([][]int, n)
		c.arrays, c.units = make([]*mem.Array, n), make([]bool, n)
		c.changed = true
	}
	if a == nil {
		if c.args[i].Bits != bits || c.arrays[i] != nil {
			c.args[i] = kernel.Arg{Bits: bits}
			c.arrays[i] = nil
			c.changed = true
		}
		return
	}
	// An array value never changes its address, shape or strides (views
	// are new arrays), so a loop passing the same arrays repacks nothing.
	if c.arrays[i] == a && c.names[i] == name {
		c.unit = c.unit && c.units[i]
		return
	}
	ap := codegen.ArrayParam{Data: uint64(ptr)}
	shape, strides := a.Shape(), a.Strides()
	for d, n := range shape {
		ap.Shape[d] = int64(n)
		ap.Strides[d] = int64(strides[d])
	}
	last := len(shape) - 1
	c.units[i] = strides[last] == 1 || shape[last] <= 1
	c.unit = c.unit && c.units[i]
	c.args[i] = kernel.Arg{Array: ap}
	c.names[i], c.shapes[i], c.arrays[i] = name, a.Shape(), a
	c.changed = true
}

// launchCUDA queues k on d. The launch is asynchronous; in debug mode it
// waits and reports a failed bounds or division check.
func (th *Thread) launchCUDA(s *ast.LaunchStmt, k *Kernel, d *mem.CUDADev, dims []int) error {
	m, err := th.cudaModule(k, d)
	if err != nil {
		var ce *kernel.CompileError
		if errors.As(err, &ce) {
			return &EvalError{Pos: ce.Pos, Msg: ce.Error(), Backtrace: th.backtrace(), Cause: err}
		}
		return th.errorAt(s.Pos, err)
	}
	// The interpreter's goroutine holds its OS thread for the whole Exec
	// and Context.Do restores the thread's context, so once made current
	// a context stays current until a launch on another device.
	if th.curCtx != d.Ctx {
		if err := d.Ctx.SetCurrent(); err != nil {
			return th.errorAt(s.Pos, err)
		}
		th.curCtx = d.Ctx
	}
	if err := k.cuda.launch(m, d.Stream, dims); err != nil {
		return th.errorAt(s.Pos, fmt.Errorf("launch of kernel %s on %s: %w", k.Name, d.Device, err))
	}
	th.markUsed(d)
	if !th.Config.Debug || th.capturing != nil {
		return nil // a captured launch runs at replay: nothing to check yet
	}
	if err := m.CheckDebug(d.Stream, k.cuda.names, k.cuda.shapes); err != nil {
		var ke *kernel.KernelError
		if errors.As(err, &ke) {
			bt := append([]CallFrame{{Name: k.Name, Pos: s.Pos}}, th.backtrace()...)
			return &EvalError{Pos: ke.Pos, Msg: "kernel " + k.Name + ": " + ke.Msg, Backtrace: bt, Cause: err}
		}
		return th.errorAt(s.Pos, fmt.Errorf("kernel %s on %s: %w", k.Name, d.Device, err))
	}
	return nil
}

// launch queues m over dims with the packed arguments, repeating the last
// launch when nothing changed since (a launch statement in a loop).
func (c *cudaKernel) launch(m *kernel.Kernel, s cuda.Stream, dims []int) error {
	if !c.changed && c.launched == m && slices.Equal(dims, c.launchedDims) {
		return m.Relaunch(s)
	}
	if err := m.Launch(s, dims, c.args); err != nil {
		c.launched = nil
		return err
	}
	c.changed, c.launched = false, m
	c.launchedDims = append(c.launchedDims[:0], dims...)
	return nil
}

// cudaDevice returns cuda:ordinal's runtime state, cached per thread so the
// launch path takes no lock.
func (th *Thread) cudaDevice(ordinal int) (*mem.CUDADev, error) {
	if ordinal < len(th.cudaDevs) && th.cudaDevs[ordinal] != nil {
		return th.cudaDevs[ordinal], nil
	}
	d, err := mem.GetCUDADevice(ordinal)
	if err != nil {
		return nil, err
	}
	for len(th.cudaDevs) <= ordinal {
		th.cudaDevs = append(th.cudaDevs, nil)
	}
	th.cudaDevs[ordinal] = d
	return d, nil
}

// markUsed records that work was queued on d since the last wait.
func (th *Thread) markUsed(d *mem.CUDADev) {
	ord := d.Device.Ordinal
	if ord < len(th.used) && th.used[ord] == d {
		return
	}
	for len(th.used) <= ord {
		th.used = append(th.used, nil)
	}
	th.used[ord] = d
}

// syncUsed waits for every CUDA device the script launched on, so that an
// asynchronous kernel failure is reported by the Exec that caused it.
func (th *Thread) syncUsed() error {
	var errs []error
	for ord, d := range th.used {
		if d == nil {
			continue
		}
		th.used[ord] = nil
		if err := d.SyncInterruptible(&th.canceled); errors.Is(err, mem.ErrInterrupted) {
			errs = append(errs, err)
		} else if err != nil {
			errs = append(errs, fmt.Errorf("cuda:%d: a kernel failed after its launch: %w", ord, err))
		}
	}
	return errors.Join(errs...)
}
