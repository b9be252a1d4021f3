package mem

import (
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// GPU tests: they skip without a CUDA device and stay small (a few MiB).

func needGPU(t *testing.T) *cudaDev {
	t.Helper()
	if CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	d, err := getCUDADevice(0)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

const gpuN = 1 << 18 // f32 elements: 1 MiB

// classifyLive classifies an array's pointer the way Wrap does.
func classifyLive(t *testing.T, a *Array) Kind {
	t.Helper()
	p, _ := a.Ptr()
	pi, err := pointerInfo(a.Device(), p)
	if err != nil {
		t.Fatal(err)
	}
	k, err := wrapKind(a.Device(), pi, nil)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestGPUAllocatorsKinds(t *testing.T) {
	d := needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	r := NewRegistry()
	cases := []struct {
		name string
		dev  Device
		kind Kind
	}{
		{"device", cuda0, CUDADevice}, {"mempool", cuda0, CUDAMempool}, {"managed", cuda0, CUDAManaged},
		{"managed_pool", cuda0, CUDAManaged}, {"pinned", CPUDevice, Pinned}, {"host", CPUDevice, Host},
	}
	for _, c := range cases {
		alloc, _ := r.Lookup(c.name)
		a, err := tr.New(alloc, c.dev, ir.F32, []int{gpuN})
		if c.name == "managed_pool" && err != nil && strings.Contains(err.Error(), "managed memory pool") {
			t.Logf("managed_pool unavailable here: %v", err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if a.Kind() != c.kind || a.Device() != c.dev {
			t.Errorf("%s: %s on %s", c.name, a.Kind(), a.Device())
		}
		if k := classifyLive(t, a); k != c.kind {
			t.Errorf("%s: driver classifies it as %s, want %s", c.name, k, c.kind)
		}
		if err := a.StoreElem(gpuN-1, 0x3f800000); err != nil {
			t.Errorf("%s: store: %v", c.name, err)
		}
		b, err := a.ReadHost()
		if err != nil || len(b) != 4*gpuN || b[0] != 0 || b[len(b)-1] != 0x3f {
			t.Errorf("%s: read back: %v (zero-filled, last element 1.0)", c.name, err)
		}
		if err := a.Free(); err != nil {
			t.Errorf("%s: free: %v", c.name, err)
		}
	}
	if def := r.Default(cuda0).Name(); d.Info.Caps.MemoryPoolsSupported && def != "mempool" {
		t.Errorf("default allocator %s on a device with pools", def)
	}
}

// Every allocator serves arrays without zero-fill (NewUninit): written
// once in full, they read back what was written.
func TestGPUAllocUninit(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	r := NewRegistry()
	for _, name := range []string{"device", "mempool", "managed", "managed_pool", "pinned", "host"} {
		alloc, _ := r.Lookup(name)
		dev := cuda0
		if !alloc.AppliesTo(cuda0) {
			dev = CPUDevice
		}
		a, err := tr.NewUninit(alloc, dev, ir.U8, []int{3 * StagingChunk / 2})
		if name == "managed_pool" && err != nil && strings.Contains(err.Error(), "managed memory pool") {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		off := 0
		err = a.WriteStream(func(b []byte) error {
			for i := range b {
				b[i] = byte(off + i)
			}
			off += len(b)
			return nil
		})
		b, rerr := a.ReadHost()
		if err != nil || rerr != nil || len(b) != a.NBytes() || b[1] != 1 || b[len(b)-1] != byte(len(b)-1) {
			t.Errorf("%s: write %v, read %v", name, err, rerr)
		}
		if err := a.Free(); err != nil {
			t.Errorf("%s: free: %v", name, err)
		}
	}
}

func TestGPUManagedInPlace(t *testing.T) {
	d := needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	a, err := tr.New(ManagedAllocator{}, cuda0, ir.I32, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	want := d.Info.Caps.ConcurrentManagedAccess || d.Info.Caps.DirectManagedMemAccessFromHost
	if a.HostAccessible() != want {
		t.Fatalf("HostAccessible %v with caps %+v", a.HostAccessible(), d.Info.Caps)
	}
	if !want {
		t.Skip("managed memory is not host-accessible on this device")
	}
	b, err := a.ReadHost()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := a.Ptr()
	if uintptr(HostPointer(p)) != uintptr(unsafeData(b)) {
		t.Error("ReadHost of managed memory copied instead of reading in place")
	}
	a.StoreElem(7, 42)
	if v, err := a.LoadElem(7); err != nil || v != 42 || b[28] != 42 {
		t.Errorf("in-place element: %d, %v", v, err)
	}
	if !NewAccessState().CanAccess(CPUDevice, a).Access.ok() {
		t.Error("can_access(cpu, managed) is false on a concurrent-access device")
	}
}

func (x Accessibility) ok() bool { return x == Accessible }

func TestGPUPinnedFromCPU(t *testing.T) {
	d := needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	a, err := tr.New(PinnedAllocator{}, CPUDevice, ir.F64, []int{512})
	if err != nil {
		t.Fatal(err)
	}
	if !a.HostAccessible() {
		t.Error("pinned memory not host-accessible")
	}
	r := NewAccessState().CanAccess(cuda0, a)
	if (r.Access == Accessible) != d.Info.Caps.UnifiedAddressing {
		t.Errorf("can_access(cuda:0, pinned) = %v", r)
	}
	p, _ := a.Ptr()
	w, err := Wrap(tr, p, ir.F64, []int{512}, cuda0, nil)
	if err != nil || w.Kind() != Pinned || !w.HostAccessible() {
		t.Errorf("pinned wrapped on cuda:0: %v, %v", w, err)
	}
}

func TestGPUWrap(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	for _, alloc := range []Allocator{DeviceAllocator{}, MempoolAllocator{}, ManagedAllocator{}} {
		a, err := tr.New(alloc, cuda0, ir.F32, []int{256})
		if err != nil {
			t.Fatal(err)
		}
		p, _ := a.Ptr()
		released := 0
		w, err := Wrap(tr, p, ir.F32, []int{256}, cuda0, func() error { released++; return nil })
		if err != nil || w.Kind() != a.Kind() {
			t.Fatalf("wrap of %s memory: %v, %v", alloc.Name(), w, err)
		}
		if alloc.Name() == "mempool" && w.buf.pool == 0 {
			t.Error("wrapped pool pointer without its pool handle")
		}
		if err := w.Free(); err != nil || released != 1 {
			t.Errorf("release: %v, %d", err, released)
		}
		if CUDADeviceCount() > 1 {
			if _, err := Wrap(tr, p, ir.F32, []int{256}, cuda1, nil); err == nil {
				t.Errorf("a cuda:0 %s pointer wrapped as cuda:1", alloc.Name())
			}
		}
		if _, err := Wrap(tr, p, ir.F32, []int{256}, CPUDevice, nil); err == nil && alloc.Name() != "pinned" {
			t.Errorf("a cuda:0 %s pointer wrapped as cpu", alloc.Name())
		}
	}
}

func TestGPUIPC(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	for _, alloc := range []Allocator{MempoolAllocator{}, ManagedAllocator{}} {
		a, err := tr.New(alloc, cuda0, ir.U8, []int{64})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := IPCHandle(a); err == nil || strings.Contains(err.Error(), "CUDA_ERROR") {
			t.Errorf("IPC of %s memory: %v, want gscript's own rejection", alloc.Name(), err)
		}
	}
	a, err := tr.New(DeviceAllocator{}, cuda0, ir.U8, []int{4096})
	if err != nil {
		t.Fatal(err)
	}
	a.WriteHost(func(b []byte) error {
		for i := range b {
			b[i] = byte(i * 7)
		}
		return nil
	})
	h, err := IPCHandle(a)
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestGPUIPCChild$", "-test.v")
	cmd.Env = append(os.Environ(), "GSCRIPT_MEM_IPC_HANDLE="+h.String())
	out, err := cmd.CombinedOutput()
	t.Logf("child:\n%s", out)
	if err != nil || !strings.Contains(string(out), "mem IPC child ok") {
		t.Fatalf("child failed: %v", err)
	}
}

func TestGPUIPCChild(t *testing.T) {
	hx := os.Getenv("GSCRIPT_MEM_IPC_HANDLE")
	if hx == "" {
		t.Skip("run by TestGPUIPC")
	}
	needGPU(t)
	var h IPCMemHandle
	if b, err := hex.DecodeString(hx); err != nil || len(b) != len(h) {
		t.Fatalf("bad handle %q", hx)
	} else {
		copy(h[:], b)
	}
	tr := NewTracker(nil)
	a, err := FromIPC(tr, h, ir.U8, []int{4096}, cuda0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != CUDADevice {
		t.Errorf("opened IPC memory classified as %s", a.Kind())
	}
	b, err := a.ReadHost()
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		if b[i] != byte(i*7) {
			t.Fatalf("byte %d is %d, want %d", i, b[i], byte(i*7))
		}
	}
	if _, err := IPCHandle(a); err == nil {
		t.Error("re-exporting opened IPC memory")
	}
	if err := a.Free(); err != nil {
		t.Fatal(err)
	}
	t.Log("mem IPC child ok")
}

func TestGPUNoLeak(t *testing.T) {
	d := needGPU(t)
	freeMem := func() uint64 {
		var f uint64
		err := d.Ctx.Do(func() error {
			if err := d.Drv.CtxSynchronize(); err != nil {
				return err
			}
			if pool, err := d.DefaultPool(); err == nil {
				d.Drv.MemPoolTrimTo(pool, 0)
			}
			if d.mpool.pool != 0 {
				d.Drv.MemPoolTrimTo(d.mpool.pool, 0)
			}
			var err error
			f, _, err = d.Drv.MemGetInfo()
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	round := func() {
		tr := NewTracker(nil)
		for _, alloc := range []Allocator{DeviceAllocator{}, MempoolAllocator{}, ManagedAllocator{}, ManagedPoolAllocator{}} {
			for i := 0; i < 4; i++ {
				if _, err := tr.New(alloc, cuda0, ir.F32, []int{1 << 20}); err != nil && alloc.Name() != "managed_pool" {
					t.Fatal(err)
				}
			}
		}
		if err := tr.FreeAll(); err != nil {
			t.Fatal(err)
		}
	}
	round() // first use sets up pools and caches
	before := freeMem()
	round()
	after := freeMem()
	const slack = 8 << 20 // 64 MiB was allocated: a leak shows beyond this
	if after+slack < before {
		t.Errorf("free memory %d before, %d after FreeAll: %d bytes leaked", before, after, before-after)
	}
}

func TestGPUDeferredMempoolFree(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	a, err := tr.New(MempoolAllocator{}, cuda0, ir.F32, []int{1024})
	if err != nil {
		t.Fatal(err)
	}
	tr.SetCapturing(true)
	a.Free()
	if tr.Queued() != 1 {
		t.Errorf("%d queued", tr.Queued())
	}
	if _, err := tr.New(DeviceAllocator{}, cuda0, ir.F32, []int{4}); err == nil {
		t.Error("device allocation during capture")
	}
	if err := tr.SetCapturing(false); err != nil {
		t.Error(err)
	}
	if tr.Used() != 0 {
		t.Errorf("%d bytes used", tr.Used())
	}
}

func TestGPUPeerAndPoolAccess(t *testing.T) {
	needGPU(t)
	if CUDADeviceCount() < 2 {
		t.Skip("needs two GPUs")
	}
	tr := NewTracker(nil)
	defer tr.FreeAll()
	st := NewAccessState()
	dev, err := tr.New(DeviceAllocator{}, cuda0, ir.F32, []int{16})
	if err != nil {
		t.Fatal(err)
	}
	pool, err := tr.New(MempoolAllocator{}, cuda0, ir.F32, []int{16})
	if err != nil {
		t.Fatal(err)
	}
	if st.CanAccess(cuda1, dev).Access != Inaccessible || st.CanAccess(cuda1, pool).Access != Inaccessible {
		t.Error("accessible before peer/pool access")
	}
	if err := st.EnablePeerAccess(cuda0, cuda1); err != nil {
		t.Fatal(err)
	}
	if err := st.EnablePeerAccess(cuda0, cuda1); err != nil {
		t.Errorf("EnablePeerAccess is not idempotent: %v", err)
	}
	if st.CanAccess(cuda1, dev).Access != Accessible || st.CanAccess(cuda1, pool).Access != Inaccessible {
		t.Error("after peer access")
	}
	if err := st.EnableMempoolAccess(cuda0, cuda1); err != nil {
		t.Fatal(err)
	}
	if st.CanAccess(cuda1, pool).Access != Accessible {
		t.Error("after pool access")
	}
	p, _ := pool.Ptr()
	w, err := Wrap(tr, p, ir.F32, []int{16}, cuda0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := NewAccessState().CanAccess(cuda1, w); r.Access != Accessible {
		t.Errorf("wrapped pool pointer: %v (its pool grants cuda:1)", r)
	}
	if errors.Is(err, ErrFreed) {
		t.Fatal(err)
	}
}

// TestElemsOnDevice: LoadElems and StoreElems of device memory read and
// write the elements at their offsets, in one copy for a short run, one by
// one for a long or gappy one, and leave the elements in between alone.
func TestElemsOnDevice(t *testing.T) {
	needGPU(t)
	tr := NewTracker(nil)
	defer tr.FreeAll()
	a, err := tr.New(DeviceAllocator{}, Device{Type: CUDA}, ir.U8, []int{3 * maxSpan})
	if err != nil {
		t.Fatal(err)
	}
	a.WriteHost(func(b []byte) error {
		for i := range b {
			b[i] = byte(i)
		}
		return nil
	})
	for _, offs := range [][]int{{5, 6, 7, 8}, {40, 42, 44}, {1, 2 * maxSpan}} {
		got, err := a.LoadElems(offs)
		if err != nil {
			t.Fatal(err)
		}
		bits := make([]uint64, len(offs))
		for i, o := range offs {
			if got[i] != uint64(byte(o)) {
				t.Errorf("LoadElems(%v)[%d] = %d, want %d", offs, i, got[i], byte(o))
			}
			bits[i] = 200 + uint64(i)
		}
		if err := a.StoreElems(offs, bits); err != nil {
			t.Fatal(err)
		}
		b, err := a.ReadHost()
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range offs {
			if b[o] != byte(200+i) {
				t.Errorf("StoreElems(%v): element %d holds %d", offs, o, b[o])
			}
		}
		if offs[1]-offs[0] == 2 && b[offs[0]+1] != byte(offs[0]+1) {
			t.Errorf("StoreElems(%v) rewrote the element between", offs)
		}
	}
}
