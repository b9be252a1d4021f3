package interp

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// launcher is a thread's launch state: its side of the backends'
// launches, its compiled programs, the stacks launch statements evaluate
// and pack their operands onto, the access checks and automatic prefetch
// of the arguments being packed, and the CUDA devices launched on since
// the last wait. The rules a launch must keep are the backends'
// (backend.CheckLaunch); the launcher only gets launches there.
type launcher struct {
	env    backend.Env  // the thread's side of launches, set per session (begin)
	kSteps atomic.Int64 // cpu kernel loop iterations in this session
	maxK   int64        // Options.MaxKernelSteps
	progs  map[progKey]backend.Program
	// lastKey and lastProg are the last launch's program, found without
	// the map by a loop launching one kernel.
	lastKey  progKey
	lastProg backend.Program
	// Dimensions, argument values and packed arguments go on stacks
	// reused by every launch (a nested launch while evaluating them
	// pushes above and pops back), so that a launch allocates nothing.
	stack    []Value
	dimStack []int
	argStack []backend.Arg
	prefetch mem.LaunchPrefetch // the automatic prefetch of the launch being packed
	launches *mem.LaunchChecker // launch access policy, with its warn-once cache
	used     []bool             // by ordinal: CUDA devices launched on since the last wait
	// room is what is left under the memory limit (mem.Tracker.Room):
	// a cpu launch's frames take it (backend.Env.FrameBudget).
	room func(want int64) int64
}

// progKey names a compiled program: a kernel for one device, with or
// without debug checks, strict or with fast math forced on.
type progKey struct {
	k     *ir.Kernel
	dev   mem.Device
	debug bool
	fast  bool
}

// maxCPUFrames is the most a cpu launch's frames take (the cpu backend's
// own bound): asking Room for it collects only when less is left.
const maxCPUFrames = 1 << 30

// begin starts a session's launches: print output goes to out, cancel
// stops them, and the kernel step budget starts afresh. A new session may
// hold another OS thread, whose current context the backends do not know.
func (l *launcher) begin(out io.Writer, cancel *atomic.Bool) {
	l.env = backend.Env{Out: out, Cancel: cancel, Pinned: true}
	if l.maxK > 0 {
		l.kSteps.Store(0)
		l.env.Steps, l.env.MaxSteps = &l.kSteps, l.maxK
	}
}

// stackMark is the heights of the launch stacks, to pop back to.
type stackMark struct{ dims, vals, args int }

func (l *launcher) mark() stackMark {
	return stackMark{len(l.dimStack), len(l.stack), len(l.argStack)}
}

func (l *launcher) popTo(m stackMark) {
	clear(l.stack[m.vals:]) // the values are the script's: do not keep them alive
	l.dimStack, l.stack, l.argStack = l.dimStack[:m.dims], l.stack[:m.vals], l.argStack[:m.args]
}

// program returns k compiled for dev, with debug checks when debug and
// fast math when fast (or k's own FastMath), compiling on first use.
func (l *launcher) program(k *ir.Kernel, dev mem.Device, debug, fast bool) (backend.Program, error) {
	key := progKey{k, dev, debug, fast}
	if l.lastProg != nil && l.lastKey == key {
		return l.lastProg, nil
	}
	p := l.progs[key]
	if p == nil {
		var err error
		if p, err = backend.Compile(k, dev, backend.Options{Debug: debug, FastMath: fast}); err != nil {
			return nil, err
		}
		if l.progs == nil {
			l.progs = map[progKey]backend.Program{}
		}
		l.progs[key] = p
	}
	l.lastKey, l.lastProg = key, p
	return p, nil
}

// packArray packs a for array parameter p of kernel under mode's access
// policy: it passes the launch access check, is ordered after other
// devices' work on it and joins the automatic prefetch (runtime/mem's
// rules); name is the argument's name in messages.
func (l *launcher) packArray(mode mem.LaunchMode, kernel string, p ir.Param, a *mem.Array, name string, dev mem.Device) (backend.Arg, error) {
	ptr, err := a.Ptr()
	if err != nil {
		return backend.Arg{}, err
	}
	if err := l.launches.Check(mode, kernel, p.Name, name, dev, a); err != nil {
		return backend.Arg{}, err
	}
	if err := a.OrderLaunch(dev); err != nil {
		return backend.Arg{}, err
	}
	l.prefetch.Add(a)
	return backend.ArrayArg(a, ptr, name), nil
}

// run launches prog on dev, after the automatic prefetch of its managed
// arguments, and notes the device's queued work.
func (l *launcher) run(prog backend.Program, dev mem.Device, dims []int, args []backend.Arg) error {
	if dev.IsCUDA() {
		l.markUsed(dev)
		if err := l.prefetch.Issue(); err != nil {
			return err
		}
	} else if l.room != nil {
		l.env.FrameBudget = max(l.room(maxCPUFrames), 1)
		defer func() { l.env.FrameBudget = 0 }()
	}
	return prog.Launch(&l.env, dims, args)
}

// markUsed records that work was queued on CUDA device dev since the last
// wait.
func (l *launcher) markUsed(dev mem.Device) {
	ord := dev.Ordinal
	if ord < len(l.used) && l.used[ord] {
		return
	}
	for len(l.used) <= ord {
		l.used = append(l.used, false)
	}
	l.used[ord] = true
}

// synced records that dev's queued work was waited for.
func (l *launcher) synced(dev mem.Device) {
	if dev.Ordinal < len(l.used) {
		l.used[dev.Ordinal] = false
	}
}

// syncUsed waits for every CUDA device launched on since the last wait
// (cancel ends the waits), so that an asynchronous kernel failure is
// reported by the Exec that caused it.
func (l *launcher) syncUsed(cancel *atomic.Bool) error {
	var errs []error
	for ord, used := range l.used {
		if !used {
			continue
		}
		l.used[ord] = false
		err := mem.SyncDevice(mem.Device{Type: mem.CUDA, Ordinal: ord}, cancel)
		if errors.Is(err, mem.ErrInterrupted) {
			errs = append(errs, err)
		} else if err != nil {
			errs = append(errs, fmt.Errorf("cuda:%d: a kernel failed after its launch: %w", ord, err))
		}
	}
	return errors.Join(errs...)
}
