package mem

import (
	"errors"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

var (
	cuda0 = Device{Type: CUDA, Ordinal: 0}
	cuda1 = Device{Type: CUDA, Ordinal: 1}
	cuda2 = Device{Type: CUDA, Ordinal: 2}
)

// fakeAlloc hands out made-up addresses that nothing dereferences, so
// arrays of any kind on any device exist without a GPU.
type fakeAlloc struct {
	name     string
	kind     Kind
	safe     bool
	noCtx    bool
	next     uintptr
	allocs   int // calls of Alloc
	frees    atomic.Int32
	freeErr  error
	allocErr error
}

func (f *fakeAlloc) Name() string           { return f.name }
func (f *fakeAlloc) Kind() Kind             { return f.kind }
func (f *fakeAlloc) AppliesTo(Device) bool  { return true }
func (f *fakeAlloc) CaptureSafe() bool      { return f.safe }
func (f *fakeAlloc) FreeNeedsContext() bool { return !f.noCtx }
func (f *fakeAlloc) Alloc(dev Device, n int) (uintptr, error) {
	f.allocs++
	return f.grab(dev, n)
}
func (f *fakeAlloc) grab(dev Device, n int) (uintptr, error) {
	if f.allocErr != nil {
		return 0, &AllocError{Allocator: f.name, Device: dev, Bytes: n, Err: f.allocErr}
	}
	f.next += 0x10000
	return f.next, nil
}
func (f *fakeAlloc) Free(Device, uintptr, int) error {
	f.frees.Add(1)
	return f.freeErr
}

func newFake(kind Kind) *fakeAlloc { return &fakeAlloc{name: "fake", kind: kind, noCtx: true} }

// fakeArray makes a 16-element f32 array of kind on dev.
func fakeArray(t testing.TB, tr *Tracker, kind Kind, dev Device) *Array {
	t.Helper()
	if kind == Unknown { // a wrap CUDA cannot classify
		return tr.adopt(0x1000, 64, dev, external{name: "wrapped"}, Unknown, 0, fromWrap, ir.F32, []int{16})
	}
	a, err := tr.New(newFake(kind), dev, ir.F32, []int{16})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

var errBoom = errors.New("boom")

func gpuPresent() bool { return CUDADeviceCount() > 0 }

func unsafeData(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
