package mem

import (
	"errors"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

func TestAllocErrorCarriesCUDAError(t *testing.T) {
	oom := &cuda.Error{Code: cuda.CodeOutOfMemory, Name: "CUDA_ERROR_OUT_OF_MEMORY", Msg: "out of memory", Func: "cuMemAlloc_v2"}
	f := newFake(CUDADevice)
	f.name = "device"
	f.allocErr = oom
	tr := NewTracker(nil)
	_, err := tr.New(f, cuda1, ir.F64, []int{1000})
	var ae *AllocError
	if !errors.As(err, &ae) || ae.Allocator != "device" || ae.Device != cuda1 || ae.Bytes != 8000 {
		t.Fatalf("error %#v", err)
	}
	if !cuda.IsCode(err, cuda.CodeOutOfMemory) {
		t.Errorf("the CUDA error does not unwrap: %v", err)
	}
	for _, p := range []string{"device allocator", "8000 bytes", "cuda:1", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"} {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%q lacks %q", err, p)
		}
	}
	if tr.Used() != 0 || len(tr.Live()) != 0 {
		t.Errorf("a failed allocation is still counted: %d bytes, %d live", tr.Used(), len(tr.Live()))
	}
}

func TestCUDAAllocatorsWithoutCUDA(t *testing.T) {
	if gpuPresent() {
		t.Skip("a GPU is present")
	}
	for _, a := range []Allocator{DeviceAllocator{}, MempoolAllocator{}, ManagedAllocator{}, ManagedPoolAllocator{}} {
		_, err := NewTracker(nil).New(a, cuda0, ir.F32, []int{4})
		var ae *AllocError
		if !errors.As(err, &ae) || ae.Allocator != a.Name() || ae.Device != cuda0 || ae.Bytes != 16 || !errors.Is(err, cuda.ErrNotAvailable) {
			t.Errorf("%s: %v", a.Name(), err)
		}
	}
	_, err := NewTracker(nil).New(PinnedAllocator{}, CPUDevice, ir.F32, []int{4})
	if err == nil || !strings.Contains(err.Error(), "pinned allocator needs CUDA") {
		t.Errorf("pinned: %v", err)
	}
	if d := NewRegistry().Default(cuda0).Name(); d != "device" {
		t.Errorf("default without pool support: %s", d)
	}
}

func TestCheckManaged(t *testing.T) {
	tests := []struct {
		caps  Caps
		n     int
		free  uint64
		allow bool
		want  string // "" ok
	}{
		{capsManagedOnly, 100, 1000, false, ""},
		{capsManagedOnly, 1000, 1000, false, ""},
		{capsManagedOnly, 1001, 1000, false, "1001 bytes exceed the 1000 bytes free on cuda:0; set config.allow_oversubscription = true"},
		{capsManagedOnly, 1001, 1000, true, ""},
		{capsNone, 1, 1000, true, "device cuda:0 does not support managed memory (managed_memory=0)"},
	}
	for _, tc := range tests {
		err := checkManaged("managed", cuda0, tc.caps, tc.n, tc.free, tc.allow)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("checkManaged(%d of %d free, allow=%v) = %v, want %q", tc.n, tc.free, tc.allow, err, tc.want)
		}
	}
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterAllocator("device", newFake(CUDADevice)); err == nil {
		t.Error("replaced a built-in allocator")
	}
	f := newFake(CUDADevice)
	if err := r.RegisterAllocator("arena", f); err != nil {
		t.Fatal(err)
	}
	if a, err := r.Lookup("arena"); err != nil || a != Allocator(f) {
		t.Errorf("lookup: %v %v", a, err)
	}
	if _, err := r.Lookup("nope"); err == nil || !strings.Contains(err.Error(), "host, pinned, device, mempool, managed, managed_pool, arena") {
		t.Errorf("unknown allocator: %v", err)
	}
	if r.Default(CPUDevice).Name() != "host" {
		t.Errorf("cpu default %s", r.Default(CPUDevice).Name())
	}
	if err := r.SetDefault(CPUDevice, DeviceAllocator{}); err == nil {
		t.Error("device allocator accepted as the cpu default")
	}
	if err := r.SetDefault(cuda1, f); err != nil || r.Default(cuda1) != Allocator(f) {
		t.Errorf("per-device default: %v", err)
	}
	r.SetAllowOversubscription(true)
	m, _ := r.Lookup("managed")
	if !m.(ManagedAllocator).Opts.AllowOversubscription() {
		t.Error("the registry's managed allocator does not see its options")
	}
	if NewRegistry().AllowOversubscription() || newBuiltins(nil)["managed"].(ManagedAllocator).Opts.AllowOversubscription() {
		t.Error("oversubscription allowed by default")
	}
}

func TestAllocatorProperties(t *testing.T) {
	safe := map[string]bool{"mempool": true, "managed_pool": true}
	kinds := map[string]Kind{"host": Host, "pinned": Pinned, "device": CUDADevice, "mempool": CUDAMempool, "managed": CUDAManaged, "managed_pool": CUDAManaged}
	for name, a := range newBuiltins(nil) {
		if CaptureSafe(a) != safe[name] {
			t.Errorf("%s: capture-safe %v", name, CaptureSafe(a))
		}
		if a.Kind() != kinds[name] || a.Name() != name || !IsBuiltin(a) {
			t.Errorf("%s: kind %s name %s", name, a.Kind(), a.Name())
		}
	}
	// Every built-in allocator can skip zero-filling: host's AllocUninit
	// reuses a freed block (hostcache.go).
	for name, a := range newBuiltins(nil) {
		if _, ok := a.(UninitAllocator); !ok {
			t.Errorf("%s: UninitAllocator %v", name, ok)
		}
	}
	if CaptureSafe(newFake(Host)) || IsBuiltin(newFake(Host)) {
		t.Error("fake allocator")
	}
	if !FreeNeedsContext(newFake(Host), cuda0) == newFake(Host).FreeNeedsContext() {
		t.Error("FreeNeedsContext ignores the allocator's answer")
	}
	if !FreeNeedsContext(struct{ Allocator }{HostAllocator{}}, cuda0) || FreeNeedsContext(struct{ Allocator }{HostAllocator{}}, CPUDevice) {
		t.Error("default FreeNeedsContext: CUDA devices need their context, the cpu none")
	}
}

func TestCaptureRefusesUnsafeAllocators(t *testing.T) {
	tr := NewTracker(nil)
	tr.SetCapturing(true)
	msgs := map[Allocator]string{
		HostAllocator{}:     "host allocations are not recorded in a graph",
		PinnedAllocator{}:   "host allocations are not recorded in a graph",
		DeviceAllocator{}:   "cannot allocate with the device allocator during capture: allocate before the capture or use the mempool allocator",
		ManagedAllocator{}:  "managed allocator during capture",
		newFake(CUDADevice): "does not declare itself capture-safe",
	}
	for a, want := range msgs {
		dev := cuda0
		if a.AppliesTo(CPUDevice) && !a.AppliesTo(cuda0) {
			dev = CPUDevice
		}
		// Arrays that skip the zero-fill obey the same rules.
		for name, newArray := range map[string]func(Allocator, Device, ir.Type, []int) (*Array, error){"New": tr.New, "NewUninit": tr.NewUninit} {
			if _, err := newArray(a, dev, ir.F32, []int{4}); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %s during capture: %v", name, a.Name(), err)
			}
		}
	}
	safe := &uninitFake{fakeAlloc: newFake(CUDAMempool)}
	safe.safe = true
	if _, err := tr.New(safe, cuda0, ir.F32, []int{4}); err != nil {
		t.Errorf("capture-safe allocator refused: %v", err)
	}
	if _, err := tr.NewUninit(safe, cuda0, ir.F32, []int{4}); err != nil || safe.uninit != 1 {
		t.Errorf("capture-safe allocator refused an array without zero-fill: %v", err)
	}
	if _, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{0}); err != nil {
		t.Errorf("zero-size arrays reach no allocator: %v", err)
	}
	tr.SetCapturing(false)
	if _, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{4}); err != nil {
		t.Errorf("after capture: %v", err)
	}
}

// uninitFake is a fakeAlloc that can skip the zero-fill.
type uninitFake struct {
	*fakeAlloc
	uninit int
}

func (f *uninitFake) AllocUninit(dev Device, n int) (uintptr, error) {
	f.uninit++
	return f.grab(dev, n)
}

// NewUninit asks an allocator for memory without its zero-fill where it
// offers that, and for Alloc's zero-filled memory otherwise.
func TestNewUninit(t *testing.T) {
	tr := NewTracker(nil)
	u := &uninitFake{fakeAlloc: newFake(CUDADevice)}
	plain := newFake(CUDADevice)
	for _, a := range []Allocator{u, plain} {
		if _, err := tr.New(a, cuda0, ir.F32, []int{4}); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.NewUninit(a, cuda0, ir.F32, []int{4}); err != nil {
			t.Fatal(err)
		}
		if _, err := tr.NewUninit(a, cuda0, ir.F32, []int{0}); err != nil {
			t.Fatal(err)
		}
	}
	if u.allocs != 1 || u.uninit != 1 {
		t.Errorf("an allocator with AllocUninit: %d zero-filled, %d uninitialised allocations, want 1 and 1", u.allocs, u.uninit)
	}
	if plain.allocs != 2 {
		t.Errorf("an allocator without AllocUninit: %d zero-filled allocations, want 2", plain.allocs)
	}
	if tr.Used() != 4*16 || len(tr.Live()) != 6 {
		t.Errorf("accounting: %d bytes, %d live arrays", tr.Used(), len(tr.Live()))
	}
}

func TestClassifyMyPointersOnCPU(t *testing.T) {
	a, err := NewTracker(nil).New(&struct{ classifyingHost }{}, CPUDevice, ir.U8, []int{64})
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != Host {
		t.Errorf("mmap memory classified as %s, want HOST", a.Kind())
	}
	if err := a.Free(); err != nil {
		t.Error(err)
	}
}

// classifyingHost is the host allocator declaring "classify my pointers".
type classifyingHost struct{ HostAllocator }

func (classifyingHost) Kind() Kind { return Unknown }

// bareAlloc is a custom allocator whose Alloc fails with a plain error.
type bareAlloc struct{ *fakeAlloc }

func (bareAlloc) Alloc(Device, int) (uintptr, error) { return 0, errBoom }

func TestCustomAllocatorErrorIsAllocError(t *testing.T) {
	tr := NewTracker(nil)
	_, err := tr.New(bareAlloc{&fakeAlloc{name: "arena", kind: Host, noCtx: true}}, CPUDevice, ir.F32, []int{4})
	var ae *AllocError
	if !errors.As(err, &ae) || !errors.Is(err, errBoom) {
		t.Fatalf("want an *AllocError wrapping the cause, got %v", err)
	}
	if want := "arena allocator: cannot allocate 16 bytes on cpu: boom"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
	if tr.Used() != 0 {
		t.Errorf("a failed allocation stays counted: %d bytes", tr.Used())
	}
}
