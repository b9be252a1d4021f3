package interp

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ad"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Launches on a tape: the adjoint kernel (lang/ad, or the kernel's
// declared adjoint) is built when the launch is recorded, so a kernel
// that is not differentiable is refused at the launch; the backward
// launches it with the forward's geometry and arguments, then one
// gradient array per float array parameter.

// kernelAD is what tapes need of a kernel, built once per kernel value:
// the accesses on the first launch (every launch counts its writes), the
// adjoint on the first launch a tape records (a kernel never recorded
// never has one built).
type kernelAD struct {
	reads, writes []int // IR params read and written (ad.Accesses)
	source        []int // by IR param, its source argument (sourceOf)
	once          sync.Once
	adj           *ad.Adjoint
	err           error // why the kernel has no adjoint
}

// autodiff is k's kernelAD, its accesses found on first use.
func (k *Kernel) autodiff() *kernelAD {
	if a := k.ad.Load(); a != nil {
		return a
	}
	a := &kernelAD{}
	a.reads, a.writes = ad.Accesses(k.IR)
	a.source = k.sourceOf()
	k.ad.CompareAndSwap(nil, a)
	return k.ad.Load()
}

// adjoint is k's adjoint kernel: the declared one, else lang/ad's,
// built on first use.
func (a *kernelAD) adjoint(k *Kernel) (*ad.Adjoint, error) {
	a.once.Do(func() {
		if k.Adjoint != nil {
			a.adj = &ad.Adjoint{Kernel: k.Adjoint.IR, Grads: ad.GradParams(k.IR.Entry)}
			return
		}
		a.adj, a.err = ad.Kernel(k.IR)
	})
	return a.adj, a.err
}

// kernelADCache is the field of Kernel that autodiff fills.
type kernelADCache = atomic.Pointer[kernelAD]

// touchWritten counts a write to each array k's launch wrote (the
// versions backward checks), and records the launch on a recording tape
// when it read an array that requires a gradient. Outside a tape it
// allocates nothing: launches are the hot path.
func (th *Thread) touchWritten(k *Kernel, dev mem.Device, dims []int, vals []Value, packed []backend.Arg) error {
	kad := k.autodiff()
	for _, p := range kad.writes {
		if a := argArray(vals, kad.source[p]); a != nil {
			a.Touch()
		}
	}
	if th.tape == nil {
		return nil
	}
	arrays := make([]*mem.Array, len(kad.source))
	for p, s := range kad.source {
		arrays[p] = argArray(vals, s)
	}
	if !recordsLaunch(kad, arrays) {
		return nil
	}
	adj, err := kad.adjoint(k)
	if err != nil {
		var ae *ad.Error
		if errors.As(err, &ae) {
			return fmt.Errorf("%s (at %s): a tape cannot record it", ae.Msg, ae.Pos)
		}
		return fmt.Errorf("kernel %s is not differentiable: %w", k.Name, err)
	}
	op := &launchOp{k: k, kad: kad, adj: adj, arrays: arrays, dev: dev, dims: slices.Clone(dims),
		vals: slices.Clone(vals), args: slices.Clone(packed)}
	return th.Record(op)
}

// tapeWritesLaunch refuses, before it runs, a launch on a recording tape
// that would write over an array the tape recorded (Thread.TapeWrites).
func (th *Thread) tapeWritesLaunch(k *Kernel, vals []Value) error {
	kad := k.autodiff()
	for _, p := range kad.writes {
		if a := argArray(vals, kad.source[p]); a != nil {
			if err := th.TapeWrites("kernel "+k.Name, a); err != nil {
				return err
			}
		}
	}
	return nil
}

// argArray is the memory of argument s when it is an array (s < 0: a
// scalar's IR parameter).
func argArray(vals []Value, s int) *mem.Array {
	if s < 0 || s >= len(vals) {
		return nil
	}
	if a, ok := vals[s].(*Array); ok {
		return a.A
	}
	return nil
}

func recordsLaunch(kad *kernelAD, arrays []*mem.Array) bool {
	for _, p := range kad.reads {
		if a := arrays[p]; a != nil && a.DType().IsFloat() && a.RequiresGrad() {
			return true
		}
	}
	return false
}

// sourceOf maps each IR parameter of k to the source argument whose
// array it is, -1 for the IR parameters of scalars and vectors: an
// array argument is one IR parameter.
func (k *Kernel) sourceOf() []int {
	out := make([]int, len(k.IR.Entry.Params))
	i := 0
	for s, p := range k.sourceParams() {
		for j := range p.IRParams() {
			out[i+j] = -1
		}
		if p.NDim > 0 {
			out[i] = s
		}
		i += p.IRParams()
	}
	return out
}

// launchOp is a recorded launch.
type launchOp struct {
	k      *Kernel
	kad    *kernelAD
	adj    *ad.Adjoint
	dev    mem.Device
	dims   []int
	vals   []Value       // the arguments, kept alive for args' addresses
	args   []backend.Arg // the forward's packed arguments
	arrays []*mem.Array  // by IR param
}

func (o *launchOp) Name() string { return "kernel " + o.k.Name }

func (o *launchOp) Inputs() []*mem.Array  { return o.pick(o.kad.reads) }
func (o *launchOp) Outputs() []*mem.Array { return o.pick(o.kad.writes) }

func (o *launchOp) pick(params []int) []*mem.Array {
	var out []*mem.Array
	for _, p := range params {
		if a := o.arrays[p]; a != nil {
			out = append(out, a)
		}
	}
	return out
}

// Backward launches the adjoint: the forward's arguments, then each float
// array's gradient (a zero scratch array for one that requires none).
func (o *launchOp) Backward(th *Thread) error {
	adj := o.adj.Kernel
	prog, err := th.program(adj, o.dev, th.Config.FastMath)
	if err != nil {
		return err
	}
	args := slices.Clone(o.args)
	nf := len(o.k.IR.Entry.Params)
	for j, p := range o.adj.Grads {
		g, err := o.gradFor(th, p)
		if err != nil {
			return err
		}
		gp := adj.Entry.Params[nf+j]
		arg, err := th.packArray(adj.Entry.Name, gp, g, gp.Name, o.dev)
		if err != nil {
			return err
		}
		args = append(args, arg)
	}
	err = th.run1(prog, o.dev, o.dims, args)
	runtime.KeepAlive(o)
	return th.launchError(adj.Entry.Name, th.pos(), err)
}

// gradFor is the gradient array passed for IR param p: a's gradient, or
// for an array that requires none a scratch array the adjoint adds into
// and nothing reads.
func (o *launchOp) gradFor(th *Thread, p int) (*mem.Array, error) {
	a := o.arrays[p]
	if a.RequiresGrad() {
		return th.GradArray(a)
	}
	return th.scratchGrad(a)
}

// scratchKey names a thread's scratch gradient of one dtype, shape and
// device.
type scratchKey struct {
	t     ir.Type
	shape string
	dev   mem.Device
}

// scratchGrad is a scratch array of a's dtype, shape and device, kept by
// the thread and reused by every later backward: its values are never
// read, and allocating none inside a capture lets a captured backward
// replay.
func (th *Thread) scratchGrad(a *mem.Array) (*mem.Array, error) {
	key := scratchKey{a.DType(), ShapeString(a.Shape()), a.Device()}
	if s, ok := th.Local(key).(*mem.Array); ok && !s.Freed() {
		return s, nil
	}
	s, err := th.NewArrayUninit(a.DType(), a.Shape(), String(a.Device().String()), nil)
	if err == nil {
		th.SetLocal(key, s)
	}
	return s, err
}
