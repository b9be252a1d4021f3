package mem

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// origin says where a buffer's memory came from; IPC export and the
// classification rules depend on it.
type origin uint8

const (
	fromAllocator origin = iota // a built-in or registered allocator
	fromWrap                    // an external pointer (Wrap)
	fromIPC                     // another process's memory (FromIPC)
)

// allocation is the part of a buffer that its release needs. It is kept
// apart from Buffer so that a Go cleanup attached to the Buffer can free the
// memory without keeping the Buffer reachable.
type allocation struct {
	ptr     uintptr
	nbytes  int
	alloc   Allocator
	dev     Device
	freed   atomic.Bool
	owner   *Tracker
	counted bool // nbytes count toward the tracker's Used and Limit
	mustRun bool // Free runs even for zero bytes (external releasers)
	// graph marks memory allocated while a capture recorded: a graph
	// allocation node's, which the graph frees itself (free).
	graph bool
}

// release frees the memory once; later calls do nothing. While the
// tracker defers frees (a graph capture is active) the free is queued.
func (a *allocation) release() error {
	if a.freed.Swap(true) || (a.nbytes == 0 && !a.mustRun) {
		return nil
	}
	if a.owner.enqueue(a) {
		return nil
	}
	return a.free()
}

// freeNow is release for a buffer its owner frees (Array.Free): its bytes
// also leave the count since the last collection (Tracker.unpace).
func (a *allocation) freeNow() error {
	if err := a.release(); err != nil {
		return err
	}
	a.owner.unpace(a)
	return nil
}

// free calls the allocator, in the owning context when it needs one.
// Graph memory is left to its graph: instantiated with
// AutoFreeOnLaunch, it frees what a launch allocated at the next launch,
// and a free outside it before its first launch (an array dropped inside
// the capture, freed as the capture ends) fails with
// CUDA_ERROR_INVALID_VALUE.
func (a *allocation) free() error {
	if a.counted {
		a.owner.used.Add(-int64(a.nbytes))
	}
	if a.graph {
		return nil
	}
	err := a.callFree()
	if err != nil {
		return fmt.Errorf("%s allocator: freeing %d bytes on %s failed: %w", a.alloc.Name(), a.nbytes, a.dev, err)
	}
	return nil
}

func (a *allocation) callFree() error {
	if !a.dev.IsCUDA() || !FreeNeedsContext(a.alloc, a.dev) {
		return a.alloc.Free(a.dev, a.ptr, a.nbytes)
	}
	d, err := getCUDADevice(a.dev.Ordinal)
	if err != nil {
		return err
	}
	return d.Ctx.Do(func() error { return a.alloc.Free(a.dev, a.ptr, a.nbytes) })
}

// Buffer is one allocation shared by an array and its views.
type Buffer struct {
	id      uint64
	a       *allocation
	kind    Kind
	origin  origin
	pool    cuda.MemPool // pool of a wrapped CUDA_MEMPOOL pointer (0 otherwise)
	hostAcc atomic.Int32 // 0: not decided yet; 1: CPU may touch in place; 2: may not
	acc     accessCache
	// users has bit N set when work queued on cuda:N's stream may touch
	// the buffer (its owner, and every device a kernel used it on): host
	// access and launches on other devices wait for those streams.
	users atomic.Uint64
	// graphMem marks memory allocated during a graph capture (a graph
	// allocation node): never accessible from the cpu.
	graphMem bool
	last     touchState // where managed memory was last touched (prefetch.go)
	// grad is the gradient buffer, wantsGrad whether the buffer has or
	// wants one, version its count of writes (grad.go).
	grad      atomic.Pointer[Buffer]
	wantsGrad atomic.Bool
	version   atomic.Uint64
}

// Tracker makes arrays and keeps a weak list of live buffers, so that the
// interpreter can list them (mem_info, :mem) and free them all on close.
type Tracker struct {
	mu     sync.Mutex
	nextID uint64
	live   map[uint64]liveBuffer
	// Warn receives failures of frees that nobody waits for (Go cleanups).
	Warn func(error)
	// Limit, when positive, caps the bytes of live arrays and of the
	// large host values HoldHost counts: an allocation past it fails (the
	// embedding API's memory budget).
	Limit int64
	// GCThreshold is how many tracked bytes may be allocated between two
	// Go collections (0: DefaultGCThreshold for host memory and
	// DefaultDeviceGCThreshold for a CUDA device's, or Limit/2 when
	// smaller). Array memory lives outside the Go heap, so without this
	// the Go GC would not run for it and dropped arrays would pile up.
	GCThreshold int64
	used        atomic.Int64
	sinceGC     atomic.Int64 // tracked host bytes allocated since the last collect
	sinceGCDev  atomic.Int64 // tracked CUDA device bytes, likewise
	collected   atomic.Int64 // when the last collect's Go collection ended (Unix ns; gcpace.go)
	gcTook      atomic.Int64 // how long it took (ns)
	host        []hostHold   // large host values counted in used (HoldHost)

	prefetchOff atomic.Bool // config.prefetch = "off" (prefetch.go)

	// Trim returns the memory that allocators keep for reuse on a device
	// (Cacher) when an allocation there fails, before the one retry; the
	// interpreter sets its registry's TrimCaches. nil: TrimCaches, the
	// built-in pools. The failing allocator's own cache is trimmed too.
	Trim func(dev Device) error

	qmu       sync.Mutex
	deferring bool
	capturing bool
	queue     []*allocation
}

// DefaultGCThreshold is GCThreshold's default: 256 MiB of arrays
// allocated between collections keeps the cost of a GC (about a
// millisecond for a small heap) far below that of touching the memory.
// Host memory is collected sooner where time allows (gcpace.go).
const DefaultGCThreshold = 256 << 20

// DefaultDeviceGCThreshold is GCThreshold's default for memory on a CUDA
// device: a collection (0.1-1 ms) costs more than writing a GiB there
// (0.25 ms at 4 TB/s), so collecting every 256 MiB made a loop of
// `z = a * x + y` over 1 GiB arrays pay a collection per statement (0.90x
// of the kernel on the H200). Dropped device arrays are bounded by the
// allocation that fails: reserve and the allocators' out-of-memory retry
// collect before they give up.
const DefaultDeviceGCThreshold = 4 << 30

// liveBuffer is a live list entry: the weak pointer finds the buffer while
// it is reachable; the allocation lets collect free it once it is not.
type liveBuffer struct {
	w weak.Pointer[Buffer]
	a *allocation
}

// Used is the number of bytes of live arrays, and under a Limit of the
// large host values HoldHost counts.
func (t *Tracker) Used() int64 { return t.used.Load() }

// NewTracker returns an empty tracker that reports failed background frees
// to warn (which may be nil to drop them).
func NewTracker(warn func(error)) *Tracker {
	return &Tracker{live: map[uint64]liveBuffer{}, Warn: warn}
}

// New allocates a zero-filled C-contiguous array of dtype and shape on dev
// through alloc. A zero-size array never reaches the allocator. While a
// capture is active (SetCapturing), allocators that are not capture-safe
// are refused before they are called.
func (t *Tracker) New(alloc Allocator, dev Device, dtype ir.Type, shape []int) (*Array, error) {
	return t.create(alloc, dev, dtype, shape, true)
}

// NewUninit is New for an array whose every element the caller writes
// before any is read: the allocator's AllocUninit skips the zero-fill where
// it has one (UninitAllocator); any other allocator keeps its contract and
// zero-fills. Selection, capture checks, limits and accounting are New's.
func (t *Tracker) NewUninit(alloc Allocator, dev Device, dtype ir.Type, shape []int) (*Array, error) {
	return t.create(alloc, dev, dtype, shape, false)
}

// create is New (zero set) and NewUninit.
func (t *Tracker) create(alloc Allocator, dev Device, dtype ir.Type, shape []int, zero bool) (*Array, error) {
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	if !alloc.AppliesTo(dev) {
		return nil, fmt.Errorf("allocator %q does not apply to device %s", alloc.Name(), dev)
	}
	nbytes := n * dtype.Size()
	a := &allocation{nbytes: nbytes, alloc: alloc, dev: dev, owner: t, counted: true}
	kind, pool := alloc.Kind(), cuda.MemPool(0)
	if nbytes > 0 {
		if err := t.captureCheck(alloc, dev, nbytes); err != nil {
			return nil, err
		}
		if err := t.reserve(alloc, dev, nbytes); err != nil {
			return nil, err
		}
		if a.ptr, err = t.alloc(alloc, dev, nbytes, zero); err != nil {
			t.used.Add(-int64(nbytes))
			return nil, asAllocError(alloc, dev, nbytes, err)
		}
		if kind == Unknown {
			if kind, pool, err = classifyOwn(alloc, dev, a.ptr, nbytes); err != nil {
				a.free()
				return nil, err
			}
		}
	}
	buf := &Buffer{a: a, kind: kind, pool: pool}
	buf.noteUse(dev)
	if t.isCapturing() && dev.IsCUDA() {
		// Memory allocated while a capture records is graph memory: the
		// GPU maps it when the graph runs, the CPU never does, whatever
		// its kind says. Host access goes through staging copies.
		buf.graphMem = true
		buf.hostAcc.Store(2)
		a.graph = true
	}
	t.track(buf)
	return newArray(buf, dtype, shape), nil
}

// reserve counts nbytes against the limit. Past the limit it collects
// the arrays nothing refers to any more and tries once more; every
// GCThreshold bytes it collects anyway (host memory sooner: gcpace.go).
func (t *Tracker) reserve(alloc Allocator, dev Device, nbytes int) error {
	due := dev.IsCUDA() && t.sinceGCDev.Add(int64(nbytes)) > t.gcThreshold(DefaultDeviceGCThreshold) ||
		!dev.IsCUDA() && t.hostCollectDue(t.sinceGC.Add(int64(nbytes)))
	if due {
		t.collect()
	}
	if err := t.tryReserve(alloc, dev, nbytes); err == nil {
		return nil
	}
	t.collect()
	return t.tryReserve(alloc, dev, nbytes)
}

// unpace takes an explicitly freed allocation's bytes back from the
// count since the last collection (not below 0): a collection can only
// find arrays nobody freed, so those are what the count should measure.
// Counting the freed ones too made a loop of sort(x) over 2^28 f32,
// whose 2.2 GB of temporaries a call are all freed, collect every other
// call, 0.9 ms of 8 on the H200 (docs/benchmarks.md).
func (t *Tracker) unpace(a *allocation) {
	if !a.counted {
		return
	}
	since := &t.sinceGC
	if a.dev.IsCUDA() {
		since = &t.sinceGCDev
	}
	for {
		n := since.Load()
		if since.CompareAndSwap(n, max(0, n-int64(a.nbytes))) {
			return
		}
	}
}

// gcThreshold is the bytes allocated between collections, def unless
// GCThreshold or Limit say otherwise.
func (t *Tracker) gcThreshold(def int64) int64 {
	th := t.GCThreshold
	if th <= 0 {
		th = def
	}
	if t.Limit > 0 {
		th = min(th, t.Limit/2)
	}
	return th
}

// collect runs a Go collection and frees, now, the buffers it found
// unreachable. The collection clears their weak pointers; their cleanups
// would free them too, but later and on another goroutine, so a caller
// could not wait for them. release is idempotent: those cleanups then do
// nothing.
func (t *Tracker) collect() {
	t.sinceGC.Store(0)
	t.sinceGCDev.Store(0)
	t.timeCollection(runtime.GC)
	var dead []*allocation
	t.mu.Lock()
	for id, e := range t.live {
		if e.w.Value() == nil {
			dead = append(dead, e.a)
			delete(t.live, id)
		}
	}
	t.sweepHost()
	t.mu.Unlock()
	for _, a := range dead {
		if err := a.release(); err != nil && t.Warn != nil {
			t.Warn(err)
		}
	}
}

// ErrMemoryLimit is what errors.Is finds in a failure caused by the
// Tracker's Limit (an embedder's budget, which a script's try cannot
// catch), as opposed to a device or allocator running out.
var ErrMemoryLimit = errors.New("memory limit reached")

// limitError is a failure of the Limit: its own message, and
// ErrMemoryLimit for errors.Is.
type limitError struct{ msg string }

func (e limitError) Error() string { return e.msg }
func (e limitError) Unwrap() error { return ErrMemoryLimit }

func (t *Tracker) tryReserve(alloc Allocator, dev Device, nbytes int) error {
	if used := t.used.Add(int64(nbytes)); t.Limit > 0 && used > t.Limit {
		t.used.Add(-int64(nbytes))
		return &AllocError{Allocator: alloc.Name(), Device: dev, Bytes: nbytes,
			Err: limitError{fmt.Sprintf("memory limit of %d bytes reached (%d in use)", t.Limit, used-int64(nbytes))}}
	}
	return nil
}

// alloc calls the allocator (AllocUninit when zero is false and it has
// one); when it fails, dropped arrays may be holding the memory it lacks,
// and pools may be keeping freed memory for reuse: it collects the
// dropped arrays, trims the caches of the device (trim) and tries once
// more. A failure after that is a real out-of-memory.
func (t *Tracker) alloc(alloc Allocator, dev Device, nbytes int, zero bool) (uintptr, error) {
	fn := alloc.Alloc
	if u, ok := alloc.(UninitAllocator); ok && !zero {
		fn = u.AllocUninit
	}
	ptr, err := fn(dev, nbytes)
	if err == nil {
		return ptr, nil
	}
	t.collect()
	if err := t.trim(alloc, dev); err != nil && t.Warn != nil {
		t.Warn(fmt.Errorf("returning cached memory of %s before retrying an allocation: %w", dev, err))
	}
	return fn(dev, nbytes)
}

// trim returns the memory kept for reuse on dev: the failing allocator's
// own cache, then those Trim (or TrimCaches) covers.
func (t *Tracker) trim(alloc Allocator, dev Device) error {
	var errs []error
	if c, ok := alloc.(Cacher); ok && !IsBuiltin(alloc) {
		errs = append(errs, c.TrimCache(dev))
	}
	trim := t.Trim
	if trim == nil {
		trim = TrimCaches
	}
	errs = append(errs, trim(dev))
	return errors.Join(errs...)
}

// asAllocError gives an allocator's failure the allocator, device and byte
// count MEMORY.md section 2 asks for: built-in allocators return an
// *AllocError already, a custom one may return any error.
func asAllocError(alloc Allocator, dev Device, nbytes int, err error) error {
	var ae *AllocError
	if errors.As(err, &ae) {
		return err
	}
	return &AllocError{Allocator: alloc.Name(), Device: dev, Bytes: nbytes, Err: err}
}

func newArray(buf *Buffer, dtype ir.Type, shape []int) *Array {
	return &Array{buf: buf, dtype: dtype, shape: append([]int(nil), shape...), strides: ContiguousStrides(shape)}
}

func (t *Tracker) track(buf *Buffer) {
	t.mu.Lock()
	t.nextID++
	buf.id = t.nextID
	t.live[buf.id] = liveBuffer{w: weak.Make(buf), a: buf.a}
	t.mu.Unlock()
	runtime.AddCleanup(buf, func(c cleanupArg) {
		if err := c.a.release(); err != nil && c.t.Warn != nil {
			c.t.Warn(err)
		}
		c.t.mu.Lock()
		delete(c.t.live, c.id)
		c.t.mu.Unlock()
	}, cleanupArg{a: buf.a, t: t, id: buf.id})
}

type cleanupArg struct {
	a  *allocation
	t  *Tracker
	id uint64
}

// LiveBuffer describes one live allocation.
type LiveBuffer struct {
	ID        uint64
	Device    Device
	Kind      Kind
	Bytes     int
	Allocator string
}

// Live lists the buffers that are neither freed nor unreachable, oldest first.
func (t *Tracker) Live() []LiveBuffer {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []LiveBuffer
	for id, e := range t.live {
		b := e.w.Value()
		if b == nil || b.a.freed.Load() {
			continue
		}
		out = append(out, LiveBuffer{ID: id, Device: b.a.dev, Kind: b.kind, Bytes: b.a.nbytes, Allocator: b.a.alloc.Name()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// FreeAll releases every live buffer (interpreter close) and returns the
// failures joined. Frees requested during a capture stay queued until the
// capture ends.
func (t *Tracker) FreeAll() error {
	t.mu.Lock()
	var bufs []*Buffer
	for _, e := range t.live {
		if b := e.w.Value(); b != nil {
			bufs = append(bufs, b)
		}
	}
	t.live = map[uint64]liveBuffer{}
	t.mu.Unlock()
	sort.Slice(bufs, func(i, j int) bool { return bufs[i].id < bufs[j].id })
	var errs []error
	for _, b := range bufs {
		if err := b.a.release(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Defer switches deferred freeing on or off. While on (a graph capture is
// active), every free (Free, FreeAll, Go cleanup) is queued: the memory may
// still be used by the work being captured. Switching it off runs the queue
// in request order, each free in its owning context, and returns the
// failures joined; the caller reports them.
func (t *Tracker) Defer(on bool) error {
	t.qmu.Lock()
	t.deferring = on
	q := t.queue
	if !on {
		t.queue = nil
	}
	t.qmu.Unlock()
	if on {
		return nil
	}
	var errs []error
	for _, a := range q {
		if err := a.free(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Queued is the number of frees waiting for the end of a capture.
func (t *Tracker) Queued() int {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	return len(t.queue)
}

// SetCapturing marks a graph capture as active or ended: while active,
// frees are deferred (Defer) and New refuses allocators that are not
// capture-safe (MEMORY.md section 6). Ending it runs the deferred frees.
func (t *Tracker) SetCapturing(on bool) error {
	t.qmu.Lock()
	t.capturing = on
	t.qmu.Unlock()
	return t.Defer(on)
}

func (t *Tracker) enqueue(a *allocation) bool {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	if t.deferring {
		t.queue = append(t.queue, a)
	}
	return t.deferring
}

// captureCheck refuses, before any CUDA call, an allocation that a graph
// capture cannot record.
func (t *Tracker) captureCheck(alloc Allocator, dev Device, nbytes int) error {
	t.qmu.Lock()
	capturing := t.capturing
	t.qmu.Unlock()
	if !capturing || CaptureSafe(alloc) {
		return nil
	}
	var msg string
	switch alloc.(type) {
	case DeviceAllocator:
		msg = "cannot allocate with the device allocator during capture: allocate before the capture or use the mempool allocator"
	case ManagedAllocator:
		msg = "cannot allocate with the managed allocator during capture: allocate before the capture or use the managed_pool allocator"
	case HostAllocator, cachingHost, PinnedAllocator:
		msg = fmt.Sprintf("cannot allocate with the %s allocator during capture: host allocations are not recorded in a graph", alloc.Name())
	default:
		msg = fmt.Sprintf("cannot allocate with the %s allocator during capture: it does not declare itself capture-safe", alloc.Name())
	}
	return &AllocError{Allocator: alloc.Name(), Device: dev, Bytes: nbytes, Err: errors.New(msg)}
}

// isCapturing reports whether a graph capture is recording allocations.
func (t *Tracker) isCapturing() bool {
	t.qmu.Lock()
	defer t.qmu.Unlock()
	return t.capturing
}

// BufferID is the ID of the buffer a (or the array it views) uses: the
// LiveBuffer.ID that Tracker.Live reports for it.
func (a *Array) BufferID() uint64 { return a.buf.id }
