package mem

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gscript-lang/gscript/lang/ir"
)

func TestFreeExactlyOnce(t *testing.T) {
	tr := NewTracker(nil)
	f := newFake(CUDADevice)
	a, _ := tr.New(f, cuda0, ir.F32, []int{8})
	v, _ := a.Slice(1, 3)
	if err := v.Free(); err != nil {
		t.Fatal(err)
	}
	if err := a.Free(); !errors.Is(err, ErrFreed) {
		t.Errorf("second free: %v", err)
	}
	if err := tr.FreeAll(); err != nil {
		t.Error(err)
	}
	if f.frees.Load() != 1 || tr.Used() != 0 {
		t.Errorf("%d frees, %d bytes used", f.frees.Load(), tr.Used())
	}
}

func TestDeferredFrees(t *testing.T) {
	tr := NewTracker(nil)
	f := newFake(CUDAMempool)
	a, _ := tr.New(f, cuda0, ir.F32, []int{8})
	b, _ := tr.New(f, cuda0, ir.F32, []int{8})
	bad := newFake(CUDADevice)
	bad.freeErr = errBoom
	c, _ := tr.New(bad, cuda0, ir.F32, []int{8})
	tr.Defer(true)
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	c.Free()
	if !a.Freed() || f.frees.Load() != 0 || tr.Queued() != 2 {
		t.Fatalf("during capture: freed=%v, %d frees ran, %d queued", a.Freed(), f.frees.Load(), tr.Queued())
	}
	if tr.Used() != 96 {
		t.Errorf("queued memory is still in use: %d bytes counted, want 96", tr.Used())
	}
	tr.FreeAll() // b too, queued
	if f.frees.Load() != 0 || tr.Queued() != 3 {
		t.Fatalf("FreeAll during capture ran %d frees, queued %d", f.frees.Load(), tr.Queued())
	}
	err := tr.Defer(false)
	if f.frees.Load() != 2 || bad.frees.Load() != 1 || tr.Queued() != 0 || tr.Used() != 0 {
		t.Errorf("after capture: %d+%d frees, %d queued, %d used", f.frees.Load(), bad.frees.Load(), tr.Queued(), tr.Used())
	}
	if err == nil || !strings.Contains(err.Error(), "fake allocator: freeing 32 bytes on cuda:0 failed: boom") {
		t.Errorf("a failed queued free must be reported: %v", err)
	}
	_ = b
}

func TestFreeNeedsContext(t *testing.T) {
	if gpuPresent() {
		t.Skip("a GPU is present")
	}
	f := newFake(CUDADevice)
	f.noCtx = false
	a, _ := NewTracker(nil).New(f, cuda0, ir.F32, []int{8})
	err := a.Free()
	if err == nil || f.frees.Load() != 0 || !strings.Contains(err.Error(), "cuda:0 is not available") {
		t.Errorf("a free that needs the owning context ran without it: %v (%d frees)", err, f.frees.Load())
	}
}

func TestCleanupFreeFailureIsReported(t *testing.T) {
	got := make(chan error, 1)
	tr := NewTracker(func(err error) { got <- err })
	bad := newFake(CUDADevice)
	bad.freeErr = errBoom
	func() { tr.New(bad, cuda0, ir.F32, []int{8}) }()
	for i := 0; i < 50; i++ {
		runtime.GC()
		select {
		case err := <-got:
			if !errors.Is(err, errBoom) || !strings.Contains(err.Error(), "freeing 32 bytes on cuda:0") {
				t.Errorf("warning %v", err)
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the failure of a cleanup free was not reported")
}
