package mem

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// The automatic prefetch of MEMORY.md section 8. Each managed buffer
// remembers where it was last touched: by the host (in-place host access,
// a cpu launch) or by a CUDA device (a launch). Work about to touch it
// somewhere else prefetches it there first when autoPrefetch says so:
// a launch, in one batch for all its arguments on the launch stream; a
// host access, the bytes it reads or writes. Explicit prefetch and advice
// are in advise.go.

// PrefetchMode is config.prefetch. The zero value is the default, auto.
type PrefetchMode uint8

const (
	PrefetchAuto PrefetchMode = iota // prefetch managed memory where it is about to be used
	PrefetchOff                      // leave it to page faults
)

var prefetchModeNames = [...]string{"auto", "off"}

func (m PrefetchMode) String() string {
	if int(m) < len(prefetchModeNames) {
		return prefetchModeNames[m]
	}
	return fmt.Sprintf("PrefetchMode(%d)", int(m))
}

// ParsePrefetchMode parses "auto" or "off".
func ParsePrefetchMode(s string) (PrefetchMode, error) {
	for i, n := range prefetchModeNames {
		if s == n {
			return PrefetchMode(i), nil
		}
	}
	return 0, fmt.Errorf("invalid prefetch %q: want \"auto\" or \"off\"", s)
}

// SetPrefetch sets config.prefetch for the arrays t makes: launches and
// host accesses follow the setting of the tracker that made the array.
func (t *Tracker) SetPrefetch(m PrefetchMode) { t.prefetchOff.Store(m == PrefetchOff) }

// Prefetch is t's config.prefetch.
func (t *Tracker) Prefetch() PrefetchMode {
	if t.prefetchOff.Load() {
		return PrefetchOff
	}
	return PrefetchAuto
}

// AutoPrefetchMin is the smallest buffer a launch prefetches, and the
// smallest access a host access prefetches for: below it, the page faults
// cost less than a prefetch call and its wait.
const AutoPrefetchMin = 2 << 20

// autoFacts are what the automatic policy reads for one buffer about to be
// used on Target.
type autoFacts struct {
	Mode      PrefetchMode
	Kind      Kind
	Bytes     int    // the buffer's size (a launch) or the bytes accessed (the host)
	Last      Device // where it was last touched
	Target    Device
	Caps      Caps // of the GPU at the other end: Target for a launch, Last for the host
	Advised   bool // preferred_location or read_mostly advice is set
	Capturing bool // a capture records somewhere in the process
}

// autoPrefetch is the automatic policy, pure: whether to prefetch, and
// why not. Never during a capture: prefetching fails with error 900 and
// invalidates it (GPU.md).
func autoPrefetch(f autoFacts) (bool, string) {
	switch {
	case f.Mode == PrefetchOff:
		return false, `config.prefetch = "off"`
	case f.Kind != CUDAManaged:
		return false, "not managed memory"
	case f.Last == f.Target:
		return false, "already where it was last touched"
	case f.Capturing:
		return false, "a capture is recording in the process"
	case f.Advised:
		return false, "preferred_location or read_mostly advice: left to the driver"
	case f.Bytes < AutoPrefetchMin:
		return false, "less than 2 MiB: faulting is cheaper"
	case !f.Caps.ConcurrentManagedAccess:
		return false, "no concurrent managed access: the driver migrates it as a whole"
	case f.Caps.Integrated:
		return false, "integrated GPU: the CPU and the GPU share its memory"
	}
	return true, ""
}

// place is where a managed buffer was last touched: placeOwner (the zero
// value: the owner device, where the allocator's zero fill left it),
// placeHost, or CUDA device N as N+1.
type place int32

const (
	placeOwner place = 0
	placeHost  place = -1
)

func placeOf(d Device) place {
	if d.IsCUDA() {
		return place(d.Ordinal + 1)
	}
	return placeHost
}

func (p place) device(owner Device) Device {
	switch p {
	case placeOwner:
		return owner
	case placeHost:
		return CPUDevice
	}
	return Device{Type: CUDA, Ordinal: int(p) - 1}
}

// touchState is where a managed buffer was last touched, and which of its
// bytes. A launch touches all of them; a host access the bytes it reads or
// writes, so that a launch after `x[i] = v` prefetches one page back, not
// the buffer. Where the other bytes went before is not tracked.
type touchState struct {
	at     atomic.Int32 // a place; read without mu on the launch path
	mu     sync.Mutex   // guards lo and hi, and changes of at
	lo, hi int          // the bytes touched at `at`; hi == 0: all of them
	advice atomic.Uint32
}

// Advice bits the automatic policy yields to.
const (
	advisedPreferred = 1 << iota
	advisedReadMostly
)

// lastTouch is where b was last touched and the bytes [lo, hi) touched there.
func (b *Buffer) lastTouch() (Device, int, int) {
	t := &b.last
	t.mu.Lock()
	defer t.mu.Unlock()
	hi := t.hi
	if hi == 0 {
		hi = b.a.nbytes
	}
	return place(t.at.Load()).device(b.a.dev), t.lo, hi
}

// touched records that p touched bytes [lo, hi) of b (hi == 0: all).
func (b *Buffer) touched(p place, lo, hi int) {
	t := &b.last
	t.mu.Lock()
	defer t.mu.Unlock()
	if place(t.at.Load()).device(b.a.dev) != p.device(b.a.dev) {
		t.at.Store(int32(p))
		t.lo, t.hi = lo, hi
		return
	}
	t.at.Store(int32(p)) // placeOwner becomes the owner's own place
	if t.hi == 0 || hi == 0 {
		t.lo, t.hi = 0, 0
	} else {
		t.lo, t.hi = min(t.lo, lo), max(t.hi, hi)
	}
}

// moved records an explicit prefetch of bytes [lo, hi) to p: it becomes
// the last touch when it moved every byte the last toucher touched.
func (b *Buffer) moved(p place, lo, hi int) {
	_, llo, lhi := b.lastTouch()
	if lo > llo || hi < lhi {
		return
	}
	if p != placeHost {
		lo, hi = 0, 0 // the device side of the model: whole buffers
	}
	b.touched(p, lo, hi)
}

func (b *Buffer) advised() bool { return b.last.advice.Load() != 0 }

// pageSize is the granule prefetch ranges are widened to.
const pageSize = 4 << 10

// pages is bytes [lo, hi) of b widened to whole pages within the buffer,
// as an address and a byte count: the driver migrates pages, and an
// element's bytes rarely start on one.
func (b *Buffer) pages(lo, hi int) (cuda.DevicePtr, int) {
	lo &^= pageSize - 1
	hi = min((hi+pageSize-1)&^(pageSize-1), b.a.nbytes)
	return cuda.DevicePtr(b.a.ptr + uintptr(lo)), hi - lo
}

// LaunchPrefetch is the automatic prefetch of one launch: Start it, Add
// each array argument, Issue it just before the launch, on the same
// goroutine. It keeps its slices from launch to launch: no allocation in
// steady state.
type LaunchPrefetch struct {
	dev   Device
	at    place
	bufs  []*Buffer
	batch prefetchBatch
}

// Start begins the arguments of a launch on dev.
func (p *LaunchPrefetch) Start(dev Device) {
	p.reset()
	p.dev, p.at = dev, placeOf(dev)
}

// reset drops the buffers, so that they may be collected.
func (p *LaunchPrefetch) reset() {
	clear(p.bufs)
	p.bufs = p.bufs[:0]
}

// Add notes an array argument. Other memory costs a kind check; a managed
// buffer last touched by the launch device one comparison (and, while a
// capture records, a second: the capture lists its buffers). Graph memory
// is left out: it is mapped only while its graph runs.
func (p *LaunchPrefetch) Add(a *Array) {
	b := a.buf
	if b.kind != CUDAManaged || p.at == placeHost || b.a.nbytes == 0 || b.graphMem {
		return
	}
	if place(b.last.at.Load()) == p.at && captures.Load() == 0 {
		return
	}
	p.bufs = append(p.bufs, b)
}

// Issue queues, on the launch device's stream, the prefetch of the added
// buffers that autoPrefetch calls for, and records the launch as their
// last touch. While a capture records the device's stream nothing is
// queued: the capture lists the buffers, and its graph prefetches them
// before it replays.
func (p *LaunchPrefetch) Issue() error {
	if len(p.bufs) == 0 {
		return nil
	}
	d, err := getCUDADevice(p.dev.Ordinal)
	if err != nil {
		return err
	}
	defer p.reset()
	if c := d.capture.Load(); c != nil {
		c.note(p.bufs)
		return nil
	}
	return d.autoPrefetch(p.bufs, &p.batch, true)
}

// prefetchBatch is the arguments of one batched prefetch, kept for reuse.
type prefetchBatch struct {
	ptrs  []cuda.DevicePtr
	sizes []uintptr
}

// autoPrefetch applies the policy to bufs, about to be used by work on d's
// stream: it prefetches those last touched elsewhere, in one batch, and
// records d as the last touch of those it prefetched, or of all when the
// work touches them (a launch, a replay; not the end of a capture).
func (d *cudaDev) autoPrefetch(bufs []*Buffer, batch *prefetchBatch, touches bool) error {
	capturing, at := captures.Load() != 0, placeOf(d.Device)
	batch.ptrs, batch.sizes = batch.ptrs[:0], batch.sizes[:0]
	for _, b := range bufs {
		last, lo, hi := b.lastTouch()
		f := autoFacts{Mode: b.a.owner.Prefetch(), Kind: b.kind, Bytes: b.a.nbytes, Last: last, Target: d.Device,
			Caps: d.caps(), Advised: b.advised(), Capturing: capturing}
		ok, _ := autoPrefetch(f)
		if ok {
			p, n := b.pages(lo, hi)
			batch.ptrs = append(batch.ptrs, p)
			batch.sizes = append(batch.sizes, uintptr(n))
		}
		if ok || touches {
			b.touched(at, 0, 0)
		}
	}
	if len(batch.ptrs) == 0 {
		return nil
	}
	if err := d.prefetch(batch, cuda.DeviceLocation(d.Device.Ordinal)); err != nil {
		return fmt.Errorf("automatic prefetch to %s (config.prefetch = \"off\" turns it off): %w", d.Device, err)
	}
	return nil
}

// prefetch queues the batch's ranges to loc on d's stream: one
// cuMemPrefetchBatchAsync where the driver has it, else one call each.
func (d *cudaDev) prefetch(batch *prefetchBatch, loc cuda.MemLocation) error {
	return d.Ctx.Do(func() error {
		if len(batch.ptrs) > 1 && d.Drv.HasMemPrefetchBatch() {
			return d.Drv.MemPrefetchBatchAsync(batch.ptrs, batch.sizes, []cuda.MemLocation{loc}, []uintptr{0}, 0, d.Stream)
		}
		for i, p := range batch.ptrs {
			if err := d.Drv.MemPrefetchAsync(p, int(batch.sizes[i]), loc, 0, d.Stream); err != nil {
				return err
			}
		}
		return nil
	})
}

// hostTouch records an in-place host access to bytes [lo, lo+n) of b,
// after prefetching them to the CPU when they were last touched by a GPU
// and autoPrefetch calls for it. The GPU's work on b is done (SyncForHost
// waited for it), so the prefetch runs at once; the access waits for it.
func (b *Buffer) hostTouch(lo, n int) error {
	if n == 0 {
		return nil
	}
	if last := place(b.last.at.Load()).device(b.a.dev); last.IsCUDA() {
		if err := b.prefetchToHost(last, lo, n); err != nil {
			return fmt.Errorf("automatic prefetch to the cpu (config.prefetch = \"off\" turns it off): %w", err)
		}
	}
	b.touched(placeHost, lo, lo+n)
	return nil
}

func (b *Buffer) prefetchToHost(last Device, lo, n int) error {
	d, err := getCUDADevice(last.Ordinal)
	if err != nil {
		return err
	}
	f := autoFacts{Mode: b.a.owner.Prefetch(), Kind: b.kind, Bytes: n, Last: last, Target: CPUDevice,
		Caps: d.caps(), Advised: b.advised(), Capturing: captures.Load() != 0}
	if ok, _ := autoPrefetch(f); !ok {
		return nil
	}
	p, size := b.pages(lo, lo+n)
	return d.Ctx.Do(func() error {
		if err := d.Drv.MemPrefetchAsync(p, size, cuda.HostLocation, 0, d.Stream); err != nil {
			return err
		}
		return d.Drv.StreamSynchronize(d.Stream)
	})
}
