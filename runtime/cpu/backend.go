package cpu

import (
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

func init() { backend.Register(mem.CPU, cpuBackend{}) }

// cpuBackend is the cpu device's implementation of the backend interface.
type cpuBackend struct{}

// Compile compiles k for the executor; the cpu has one device and always
// checks bounds, so dev changes nothing and opts.Debug only adds race
// detection.
func (cpuBackend) Compile(k *ir.Kernel, dev mem.Device, opts backend.Options) (backend.Program, error) {
	p, err := Compile(k, opts)
	if err != nil {
		return nil, err
	}
	return program{p}, nil
}

// program adapts Program to backend.Program.
type program struct{ *Program }

// Launch runs the kernel to completion on every core.
func (p program) Launch(env *backend.Env, dims []int, args []backend.Arg) error {
	return p.Program.Launch(dims, args, Options{Out: env.Out, Cancel: env.Cancel, Steps: env.Steps, MaxSteps: env.MaxSteps, FrameBudget: env.FrameBudget})
}

// Geometry is the executor's: blocks of width lanes run together; a
// block kernel's blocks are its own, dims being the grid.
func (p program) Geometry(dims []int) backend.Geometry {
	n := 1
	for _, d := range dims {
		n *= d
	}
	if p.blk == nil {
		n = (n + p.width - 1) / p.width
	}
	return backend.Geometry{Block: p.width, Blocks: n, PerThread: 1}
}
