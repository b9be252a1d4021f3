package mem

import (
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// GPU tests of prefetch and advice (MEMORY.md section 8). They skip
// without a device, or without concurrent managed access.

func needConcurrent(t *testing.T) *cudaDev {
	t.Helper()
	d := needGPU(t)
	if !d.Info.Caps.ConcurrentManagedAccess {
		t.Skip("no concurrent managed access: prefetch and advice are refused there")
	}
	return d
}

func newManaged(t *testing.T, tr *Tracker, n int) *Array {
	t.Helper()
	a, err := tr.New(ManagedAllocator{}, cuda0, ir.U8, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestGPUPrefetchAdvise(t *testing.T) {
	needConcurrent(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	a := newManaged(t, tr, 8<<20)
	view, _ := a.Slice(1<<20, 3<<20)
	for _, dev := range []Device{cuda0, CPUDevice} {
		for _, x := range []*Array{a, view} {
			if err := x.Prefetch(dev); err != nil {
				t.Errorf("prefetch of %d bytes to %s: %v", x.NBytes(), dev, err)
			}
		}
	}
	if got, _, _ := a.buf.lastTouch(); got != CPUDevice {
		t.Errorf("after a whole prefetch to the cpu the last touch is %s", got)
	}
	for adv := AdviseReadMostly; adv <= AdviseUnsetAccessedBy; adv++ {
		for _, dev := range []Device{cuda0, CPUDevice} {
			if err := view.Advise(adv, dev); err != nil {
				t.Errorf("advise %s for %s: %v", adv, dev, err)
			}
		}
	}
	if a.buf.advised() {
		t.Error("every advice was unset again")
	}
	if err := SyncDevice(cuda0, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"device", "mempool"} {
		alloc, _ := NewRegistry().Lookup(name)
		x, err := tr.New(alloc, cuda0, ir.F32, []int{16})
		if err != nil {
			t.Fatal(err)
		}
		if err := x.Prefetch(cuda0); err == nil || !strings.Contains(err.Error(), "prefetch needs managed memory") {
			t.Errorf("prefetch of %s memory: %v", name, err)
		}
		if err := x.Advise(AdviseReadMostly, cuda0); err == nil || !strings.Contains(err.Error(), "advise needs managed memory") {
			t.Errorf("advise of %s memory: %v", name, err)
		}
	}
}

// TestGPUCaptureRefusesPrefetch: inside a capture, prefetch and advice are
// refused before any CUDA call, a launch's automatic prefetch is listed
// instead of queued, and the capture ends with a graph: never invalidated.
func TestGPUCaptureRefusesPrefetch(t *testing.T) {
	d := needConcurrent(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	a := newManaged(t, tr, 4<<20)
	a.buf.touched(placeHost, 0, 16) // as if the host wrote it
	c, err := BeginCapture(cuda0, tr)
	if err != nil {
		t.Fatal(err)
	}
	perr, aerr := a.Prefetch(cuda0), a.Advise(AdvisePreferredLocation, cuda0)
	var p LaunchPrefetch
	p.Start(cuda0)
	p.Add(a)
	ierr := p.Issue()
	// Something for the graph to hold: a memset node.
	merr := d.Ctx.Do(func() error { return d.Drv.MemsetD8Async(cuda.DevicePtr(a.buf.a.ptr), 1, 16, d.Stream) })
	g, err := c.End(true)
	if err != nil || g == nil {
		t.Fatalf("the capture was invalidated: %v", err)
	}
	if perr == nil || !strings.Contains(perr.Error(), "capture") || aerr == nil || !strings.Contains(aerr.Error(), "capture") {
		t.Errorf("prefetch %v, advise %v inside a capture", perr, aerr)
	}
	if ierr != nil || merr != nil {
		t.Errorf("automatic prefetch inside a capture: %v; memset: %v", ierr, merr)
	}
	if len(g.managed) != 1 {
		t.Errorf("the graph lists %d managed buffers, want 1", len(g.managed))
	}
	if got, _, _ := a.buf.lastTouch(); got != cuda0 {
		t.Errorf("after the capture the buffer was not prefetched to cuda:0: last touch %s", got)
	}
	a.buf.touched(placeHost, 0, 16)
	if err := g.Replay(3, func() error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := a.buf.lastTouch(); got != cuda0 {
		t.Errorf("a replay after a host touch did not prefetch: last touch %s", got)
	}
	if b, err := a.ReadHost(); err != nil || b[0] != 1 || b[16] != 0 {
		t.Errorf("after the replays: %v %v", b[:17], err)
	}
}

// TestGPUHostPrefetch times host reads of 256 MiB of managed memory that
// the GPU touched last (its zero fill): with the automatic prefetch to the
// cpu, and with config.prefetch = "off" (page faults). Figures only.
func TestGPUHostPrefetch(t *testing.T) {
	needConcurrent(t)
	const n = 256 << 20
	for _, mode := range []PrefetchMode{PrefetchOff, PrefetchAuto, PrefetchOff, PrefetchAuto} {
		tr := NewTracker(nil)
		tr.SetPrefetch(mode)
		a := newManaged(t, tr, n)
		if err := a.Prefetch(cuda0); err != nil {
			t.Fatal(err)
		}
		if err := SyncDevice(cuda0, nil); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		b, err := a.ReadHost()
		if err != nil {
			t.Fatal(err)
		}
		var s uint64
		for i := 0; i < len(b); i += 4096 { // one byte a page: the migration's cost
			s += uint64(b[i])
		}
		dt := time.Since(t0)
		if s != 0 {
			t.Errorf("zero-filled memory read %d", s)
		}
		t.Logf("host read of 256 MiB last touched by cuda:0, config.prefetch = %q: %.1f ms, %.1f GB/s", mode, dt.Seconds()*1e3, n/dt.Seconds()/1e9)
		tr.FreeAll()
	}
}
