package cpu

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Arg and ArrayArg are the backend interface's launch arguments; array
// data addresses are host memory on the cpu.
type (
	Arg      = backend.Arg
	ArrayArg = backend.Array
)

// Options for one launch. Out receives device print output (nil: discard).
// Cancel, when non-nil, is polled between blocks of threads (and on every
// loop iteration); when it becomes true Launch stops and returns
// ErrCanceled. Steps and MaxSteps are backend.Env's step budget, counted
// at the same polls. Workers is the number of goroutines (0 = GOMAXPROCS).
type Options struct {
	Out      io.Writer
	Cancel   *atomic.Bool
	Steps    *atomic.Int64
	MaxSteps int64
	Workers  int
	// FrameBudget, when positive, bounds the bytes of the workers' local
	// and shared arrays together (backend.Env.FrameBudget).
	FrameBudget int64
}

// ErrCanceled is returned by a launch stopped through Options.Cancel.
var ErrCanceled = backend.ErrCanceled

// KernelError is a run-time failure inside a kernel: out-of-bounds index,
// integer division by zero.
type KernelError = backend.KernelError

// maxChunk is the most blocks a worker claims at once: 16 blocks of 1024
// f32 lanes are 64 KiB of each array streamed in order.
const maxChunk = 16

// maxThreads is the largest number of threads of one launch (tid is i32).
const maxThreads = backend.MaxThreads

// arrayInfo is one array argument as the instructions read it.
type arrayInfo struct {
	data    unsafe.Pointer
	shape   [4]int
	strides [4]int
	name    string
	ndim    int
}

// launch is the state shared by the workers of one Launch. A Program keeps
// one between launches (Program.spare), so that a launch allocates
// nothing in steady state: its argument slices, its WaitGroup and the
// closure its goroutines run are made once.
type launch struct {
	p      *Program
	nd     int
	dims   [4]int      // the launch's threads per axis; a block kernel's blocks
	inner  [4]int      // product of the extents after each axis
	total  int         // threads of a flat kernel
	blocks int         // frame blocks: of Program.width threads, or a block kernel's
	arrays []arrayInfo // by kernel parameter index; zero for scalars
	bits   []uint64    // by kernel parameter index; scalars only
	cancel *atomic.Bool
	steps  *atomic.Int64 // Options.Steps: nil, no budget
	max    int64
	stop   atomic.Bool // set on error or cancellation: workers finish up
	next   atomic.Int64
	chunk  int // blocks a worker claims at once

	out   io.Writer
	outMu sync.Mutex

	errMu     sync.Mutex
	err       error
	errThread int
	canceled  bool

	wg     sync.WaitGroup
	worker func() // work, then wg.Done: what each extra goroutine runs
}

// Launch runs the kernel over dims (1-4 extents, product <= 2^31-1)
// threads, or a block kernel over a grid of dims blocks (as many extents
// as the block's), after backend.CheckLaunch's checks: it returns errors,
// never panics. The caller runs one worker, goroutines the others.
func (p *Program) Launch(dims []int, args []Arg, opts Options) error {
	if err := backend.CheckLaunch(p.k, p.fields, dims, args); err != nil {
		return err
	}
	ln := p.take()
	defer p.release(ln)
	ln.start(dims, args, opts)
	if ln.blocks == 0 {
		return nil
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, ln.blocks, p.maxWorkers)
	if b := opts.FrameBudget; b > 0 && p.memBytes > 0 {
		if int64(p.memBytes) > b {
			return &KernelError{Pos: p.k.Entry.Pos, Kernel: p.k.Entry.Name,
				Msg: fmt.Sprintf("its local and shared arrays take %d bytes per cpu worker, more than the %d bytes left under the memory limit", p.memBytes, b)}
		}
		workers = int(min(int64(workers), b/int64(p.memBytes)))
	}
	// Each worker claims a chunk of consecutive blocks, so that a core
	// streams its arrays in order (the hardware prefetchers follow one
	// stream across pages; blocks handed out one by one make each core's
	// stream jump) while leaving enough chunks for the load to balance.
	ln.chunk = max(1, min(maxChunk, ln.blocks/(workers*8)))
	ln.wg.Add(workers - 1)
	for range workers - 1 {
		go ln.worker()
	}
	ln.work()
	ln.wg.Wait()
	return ln.result()
}

// take returns the Program's spare launch, or a new one while another
// launch of the Program (on another goroutine) holds it.
func (p *Program) take() *launch {
	if ln := p.spare.Swap(nil); ln != nil {
		return ln
	}
	n := len(p.k.Entry.Params)
	ln := &launch{p: p, arrays: make([]arrayInfo, n), bits: make([]uint64, n)}
	ln.worker = func() {
		defer ln.wg.Done()
		ln.work()
	}
	return ln
}

// start sets the launch up over dims (checked) with args and opts.
func (ln *launch) start(dims []int, args []Arg, opts Options) {
	ln.cancel, ln.steps, ln.max, ln.out = opts.Cancel, opts.Steps, opts.MaxSteps, opts.Out
	ln.stop.Store(false)
	ln.next.Store(0)
	ln.err, ln.errThread, ln.canceled = nil, 0, false
	ln.nd, ln.dims, ln.inner = len(dims), [4]int{}, [4]int{}
	n := 1
	for i, d := range dims {
		ln.dims[i] = d
		n *= d // at most 2^31-1 (CheckLaunch)
	}
	inner := 1
	for i := ln.nd - 1; i >= 0; i-- {
		ln.inner[i] = inner
		inner *= ln.dims[i]
	}
	if ln.p.blk != nil {
		ln.blocks = n
	} else {
		ln.total = n
		ln.blocks = (n + ln.p.width - 1) / ln.p.width
	}
	ln.bind(args)
}

// bind copies the arguments into the launch.
func (ln *launch) bind(args []Arg) {
	for i, prm := range ln.p.k.Entry.Params {
		if !prm.IsArray() {
			ln.bits[i] = args[i].Bits
			continue
		}
		a := &args[i].Array
		info := arrayInfo{data: mem.HostPointer(a.Data), shape: a.Shape, strides: a.Strides, name: a.Name, ndim: prm.NDim}
		if info.name == "" {
			info.name = prm.Name
		}
		ln.arrays[i] = info
	}
}

// result is the launch's outcome once its workers are done.
func (ln *launch) result() error {
	switch {
	case ln.err != nil:
		return ln.err
	case ln.canceled:
		return ErrCanceled
	}
	return nil
}

// release makes the finished launch the Program's spare, first dropping
// what it refers to so that the spare keeps no caller's arrays, writer or
// error alive.
func (p *Program) release(ln *launch) {
	clear(ln.arrays)
	ln.cancel, ln.steps, ln.out, ln.err = nil, nil, nil, nil
	p.spare.Store(ln)
}

// work runs blocks taken from the shared counter until none are left or the
// launch stops. Each worker has its own frame, kept by the program between launches
// (framestore.go).
func (ln *launch) work() {
	fr := ln.p.getFrame()
	defer func() {
		fr.ln = nil // do not keep the launch's arrays alive from the pool
		fr.ownAll() // nor point into them (zero-copy loads)
		ln.p.putFrame(fr)
	}()
	defer func() {
		if r := recover(); r != nil {
			fr.clearFlags()
			fr.out = fr.out[:0]
			ln.fail(fr.base, &KernelError{Pos: ln.p.k.Entry.Pos, Kernel: ln.p.k.Entry.Name,
				Msg: fmt.Sprintf("internal error in the cpu executor: %v", r)})
		}
	}()
	fr.ln = ln
	ln.p.runSetup(fr)
	for !ln.stop.Load() {
		first := int(ln.next.Add(int64(ln.chunk)) - int64(ln.chunk))
		for b := first; b < min(first+ln.chunk, ln.blocks); b++ {
			if ln.cancel != nil && ln.cancel.Load() {
				ln.cancelNow()
				return
			}
			if b > first && ln.stop.Load() && !ln.failedAbove(b) {
				return // a claimed block above the first failure still runs, as it would unchunked
			}
			if !ln.p.begin(fr, b) {
				return // stopped: canceled (cancelNow recorded it) or failed
			}
			_, err := ln.p.body(fr, mask{all: true})
			ln.flush(fr)
			if err != nil {
				fr.clearFlags()
				if err != errStopped {
					ln.fail(fr.base, err)
				}
				return
			}
		}
		if first+ln.chunk >= ln.blocks {
			return
		}
	}
}

// failedAbove reports whether the launch stopped for an error of a block
// after block b (so that b, claimed, must still run: its error would be
// the lowest).
func (ln *launch) failedAbove(b int) bool {
	ln.errMu.Lock()
	defer ln.errMu.Unlock()
	return ln.err != nil && !ln.canceled && b*ln.p.width < ln.errThread
}

// flush writes a block's print output in one piece so blocks do not
// interleave.
func (ln *launch) flush(fr *frame) {
	if len(fr.out) == 0 {
		return
	}
	ln.outMu.Lock()
	_, _ = ln.out.Write(fr.out) // print is best effort, like device printf
	ln.outMu.Unlock()
	fr.out = fr.out[:0]
}

// fail records err (keeping the one of the lowest block) and stops the
// launch; err came from the block starting at thread base.
func (ln *launch) fail(base int, err error) {
	ln.errMu.Lock()
	if ln.err == nil || base < ln.errThread {
		ln.err, ln.errThread = err, base
	}
	ln.errMu.Unlock()
	ln.stop.Store(true)
}

func (ln *launch) cancelNow() {
	ln.errMu.Lock()
	ln.canceled = true
	ln.errMu.Unlock()
	ln.stop.Store(true)
}

// stoppedAfter is stopped for a loop about to run another iteration on n
// lanes of the block at base: with a step budget it counts them first
// (one atomic add per block iteration, beside the cancellation poll).
func (ln *launch) stoppedAfter(base, n int) bool {
	if ln.steps != nil && ln.steps.Add(int64(n)) > ln.max {
		ln.fail(base, &KernelError{Pos: ln.p.k.Entry.Pos, Kernel: ln.p.k.Entry.Name,
			Msg: fmt.Sprintf("step budget of %d kernel loop iterations exhausted", ln.max), Err: backend.ErrStepBudget})
		return true
	}
	return ln.stopped()
}

// stopped reports whether a long-running loop should give up: another
// worker failed or the caller canceled.
func (ln *launch) stopped() bool {
	if ln.stop.Load() {
		return true
	}
	if ln.cancel != nil && ln.cancel.Load() {
		ln.cancelNow()
		return true
	}
	return false
}
