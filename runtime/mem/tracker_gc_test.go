package mem

import (
	"sync/atomic"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

const mib = 1 << 20

// dropArrays allocates n 4 MiB host arrays (off the Go heap) and drops
// each at once, as `let a = ones(...)` in a loop does; check runs after
// each allocation.
func dropArrays(t *testing.T, tr *Tracker, n int, check func()) {
	t.Helper()
	for i := range n {
		a, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{mib})
		if err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
		_ = a
		check()
	}
}

// TestDroppedArraysFitTheLimit: under a limit of three arrays, dropped
// arrays are collected and freed before the limit is reported.
func TestDroppedArraysFitTheLimit(t *testing.T) {
	tr := NewTracker(nil)
	tr.Limit = 3 * 4 * mib
	dropArrays(t, tr, 50, func() {})
	tr.FreeAll()
}

// TestDroppedArraysDriveCollection: without a limit, tracked memory stays
// within GCThreshold plus one array.
func TestDroppedArraysDriveCollection(t *testing.T) {
	tr := NewTracker(nil)
	tr.GCThreshold = 16 * mib
	dropArrays(t, tr, 50, func() {
		if u := tr.Used(); u > 20*mib {
			t.Fatalf("%d MiB tracked", u/mib)
		}
	})
	tr.FreeAll()
}

// TestFailedAllocationCollects: an allocator that fails while dropped
// arrays hold memory gets a second try after they are freed.
func TestFailedAllocationCollects(t *testing.T) {
	tr := NewTracker(nil)
	f := &scarceAlloc{fakeAlloc: newFake(Host)}
	f.room.Store(2)
	for i := range 10 {
		if _, err := tr.New(f, CPUDevice, ir.F32, []int{16}); err != nil {
			t.Fatalf("iteration %d: %v", i, err)
		}
	}
}

// scarceAlloc has room for a fixed number of live allocations. Free may
// run on a cleanup goroutine: room is atomic.
type scarceAlloc struct {
	*fakeAlloc
	room atomic.Int32
}

func (s *scarceAlloc) Alloc(dev Device, n int) (uintptr, error) {
	if s.room.Add(-1) < 0 {
		s.room.Add(1)
		return 0, errBoom
	}
	return s.fakeAlloc.Alloc(dev, n)
}

func (s *scarceAlloc) Free(dev Device, p uintptr, n int) error {
	s.room.Add(1)
	return s.fakeAlloc.Free(dev, p, n)
}

// TestDeviceArraysCollectLess: allocations on a CUDA device count toward
// DefaultDeviceGCThreshold, host ones toward DefaultGCThreshold, so a
// statement that makes a GiB on a GPU does not pay a Go collection.
func TestDeviceArraysCollectLess(t *testing.T) {
	tr := NewTracker(nil)
	dev := Device{Type: CUDA}
	f := newFake(CUDADevice)
	const n = 512 * mib
	for i := 1; i <= 8; i++ {
		if _, err := tr.New(f, dev, ir.U8, []int{n}); err != nil {
			t.Fatal(err)
		}
		if got := tr.sinceGCDev.Load(); got != int64(i*n) {
			t.Fatalf("after %d device arrays of 512 MiB: %d bytes since the last collection, want %d (no collection)", i, got, i*n)
		}
	}
	if _, err := tr.New(f, dev, ir.U8, []int{n}); err != nil {
		t.Fatal(err)
	}
	if got := tr.sinceGCDev.Load(); got != 0 {
		t.Errorf("past 4 GiB: %d bytes since the last collection, want a collection", got)
	}
	if _, err := tr.New(HostAllocator{}, CPUDevice, ir.U8, []int{DefaultGCThreshold + 1}); err != nil {
		t.Fatal(err)
	}
	if got := tr.sinceGC.Load(); got != 0 {
		t.Errorf("a host array past 256 MiB: %d host bytes since the last collection, want a collection", got)
	}
	tr.FreeAll()
}

// TestFreedArraysDoNotDriveCollection: an array freed by its owner gives
// its bytes back to the count since the last collection, so a loop whose
// temporaries are all freed (a sort's) never pays a collection; dropped
// arrays still count.
func TestFreedArraysDoNotDriveCollection(t *testing.T) {
	tr := NewTracker(nil)
	dev := Device{Type: CUDA}
	f := newFake(CUDADevice)
	const n = 1 << 30
	for i := range 12 {
		a, err := tr.New(f, dev, ir.U8, []int{n})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Free(); err != nil {
			t.Fatal(err)
		}
		if got := tr.collected.Load(); got != 0 {
			t.Fatalf("after %d freed GiB arrays: a collection ran", i+1)
		}
	}
	if got := tr.sinceGCDev.Load(); got != 0 {
		t.Errorf("%d bytes since the last collection after freeing everything, want 0", got)
	}
	kept, err := tr.New(f, dev, ir.U8, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	dropped, err := tr.New(f, dev, ir.U8, []int{n})
	if err != nil {
		t.Fatal(err)
	}
	_ = dropped
	if err := kept.Free(); err != nil {
		t.Fatal(err)
	}
	if got := tr.sinceGCDev.Load(); got != n {
		t.Errorf("one GiB array dropped, one freed: %d bytes since the last collection, want %d", got, n)
	}
	tr.FreeAll()
}
