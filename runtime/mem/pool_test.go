package mem

import (
	"errors"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

func TestPoolThreshold(t *testing.T) {
	if v, set := poolThreshold(0); !set || v != PoolKeep {
		t.Errorf("CUDA's default 0: %d %v, want PoolKeep and set", v, set)
	}
	if v, set := poolThreshold(1 << 30); set || v != 1<<30 {
		t.Errorf("a threshold someone chose: %d %v, want it kept", v, set)
	}
}

// fakeMemory is a device of capacity bytes shared by the fake allocators
// below: the bytes of live allocations plus those a pool caches.
type fakeMemory struct {
	capacity int
	live     int
	cached   []int // blocks a pool keeps for reuse
}

func (m *fakeMemory) inCache() int {
	n := 0
	for _, b := range m.cached {
		n += b
	}
	return n
}

// take maps n new bytes if the device has them.
func (m *fakeMemory) take(dev Device, name string, n int) (uintptr, error) {
	if m.live+m.inCache()+n > m.capacity {
		return 0, &AllocError{Allocator: name, Device: dev, Bytes: n, Err: errors.New("CUDA_ERROR_OUT_OF_MEMORY")}
	}
	m.live += n
	return uintptr(0x1000 + m.live), nil
}

// poolFake is a caching allocator: a freed block stays cached and serves
// a later request it is large enough for, as a pool's blocks do.
type poolFake struct {
	mem    *fakeMemory
	allocs int
	trims  int
}

func (p *poolFake) Name() string            { return "fakepool" }
func (p *poolFake) Kind() Kind              { return CUDAMempool }
func (p *poolFake) AppliesTo(d Device) bool { return d.IsCUDA() }
func (p *poolFake) FreeNeedsContext() bool  { return false }
func (p *poolFake) Alloc(dev Device, n int) (uintptr, error) {
	p.allocs++
	for i, b := range p.mem.cached {
		if b >= n {
			p.mem.cached = append(p.mem.cached[:i], p.mem.cached[i+1:]...)
			p.mem.live += b
			return uintptr(0x1000 + p.mem.live), nil
		}
	}
	return p.mem.take(dev, p.Name(), n)
}
func (p *poolFake) Free(dev Device, ptr uintptr, n int) error {
	p.mem.live -= n
	p.mem.cached = append(p.mem.cached, n)
	return nil
}
func (p *poolFake) TrimCache(Device) error {
	p.trims++
	p.mem.cached = nil
	return nil
}

// plainFake maps and unmaps on every call (the device allocator).
type plainFake struct {
	mem    *fakeMemory
	allocs int
}

func (p *plainFake) Name() string            { return "fakedevice" }
func (p *plainFake) Kind() Kind              { return CUDADevice }
func (p *plainFake) AppliesTo(d Device) bool { return d.IsCUDA() }
func (p *plainFake) FreeNeedsContext() bool  { return false }
func (p *plainFake) Alloc(dev Device, n int) (uintptr, error) {
	p.allocs++
	return p.mem.take(dev, p.Name(), n)
}
func (p *plainFake) Free(dev Device, ptr uintptr, n int) error { p.mem.live -= n; return nil }

// fillCache allocates three 1 KiB arrays from pool and frees them: the
// pool then caches 3 KiB of the 4 KiB device in blocks too small for 2 KiB.
func fillCache(t *testing.T, tr *Tracker, pool *poolFake) {
	t.Helper()
	for range 3 {
		a, err := tr.New(pool, cuda0, ir.F32, []int{256})
		if err != nil {
			t.Fatal(err)
		}
		defer a.Free()
	}
}

// TestTrimRetryOwnCache: a pool that cannot serve a request from its
// cache or the device trims its own cache and succeeds on the retry.
func TestTrimRetryOwnCache(t *testing.T) {
	m := &fakeMemory{capacity: 4096}
	pool := &poolFake{mem: m}
	tr := NewTracker(nil)
	hook := 0
	tr.Trim = func(Device) error { hook++; return nil }
	fillCache(t, tr, pool)
	if m.inCache() != 3072 || hook != 0 {
		t.Fatalf("cache %d bytes, %d trims before any failure", m.inCache(), hook)
	}
	pool.allocs = 0
	a, err := tr.NewUninit(pool, cuda0, ir.F32, []int{512})
	if err != nil {
		t.Fatalf("2 KiB with 3 KiB cached on a 4 KiB device: %v", err)
	}
	defer a.Free()
	if pool.allocs != 2 || pool.trims != 1 || hook != 1 {
		t.Errorf("allocs %d, own trims %d, hook trims %d; want 2, 1, 1", pool.allocs, pool.trims, hook)
	}
}

// TestTrimRetryOtherAllocator: memory one allocator caches must not make
// another's allocation fail: the tracker's Trim returns it first.
func TestTrimRetryOtherAllocator(t *testing.T) {
	m := &fakeMemory{capacity: 4096}
	pool, plain := &poolFake{mem: m}, &plainFake{mem: m}
	r := NewRegistry()
	if err := r.RegisterAllocator("fakepool", pool); err != nil {
		t.Fatal(err)
	}
	tr := NewTracker(nil)
	tr.Trim = r.TrimCaches
	fillCache(t, tr, pool)
	a, err := tr.New(plain, cuda0, ir.F32, []int{512})
	if err != nil {
		t.Fatalf("device allocation with the pool caching 3 KiB: %v", err)
	}
	defer a.Free()
	if plain.allocs != 2 || pool.trims != 1 || m.inCache() != 0 {
		t.Errorf("allocs %d, trims %d, cache %d; want 2, 1, 0", plain.allocs, pool.trims, m.inCache())
	}
}

// TestTrimRetryRealOOM: a request the device cannot hold even with an
// empty cache fails, once retried, with the allocator's own error.
func TestTrimRetryRealOOM(t *testing.T) {
	m := &fakeMemory{capacity: 4096}
	pool := &poolFake{mem: m}
	tr := NewTracker(nil)
	hook := 0
	tr.Trim = func(Device) error { hook++; return nil }
	_, err := tr.New(pool, cuda0, ir.F32, []int{2048})
	var ae *AllocError
	if !errors.As(err, &ae) || ae.Allocator != "fakepool" || ae.Bytes != 8192 || !strings.Contains(err.Error(), "OUT_OF_MEMORY") {
		t.Fatalf("8 KiB on a 4 KiB device: %v", err)
	}
	if pool.allocs != 2 || pool.trims != 1 || hook != 1 || tr.Used() != 0 {
		t.Errorf("allocs %d, trims %d/%d, used %d; want 2, 1/1, 0", pool.allocs, pool.trims, hook, tr.Used())
	}
}

// TestTrimOnlyOnFailure: allocations that succeed never trim (the cache
// is what makes them cheap), and a failing trim is reported, not fatal.
func TestTrimOnlyOnFailure(t *testing.T) {
	m := &fakeMemory{capacity: 4096}
	pool := &poolFake{mem: m}
	var warned []string
	tr := NewTracker(func(err error) { warned = append(warned, err.Error()) })
	hook := 0
	tr.Trim = func(Device) error { hook++; return errBoom }
	for range 10 {
		a, err := tr.New(pool, cuda0, ir.F32, []int{768})
		if err != nil {
			t.Fatal(err)
		}
		a.Free()
	}
	if hook != 0 || pool.trims != 0 || pool.allocs != 10 || m.inCache() != 3072 {
		t.Fatalf("reuse: %d hook trims, %d own, %d allocs, %d cached", hook, pool.trims, pool.allocs, m.inCache())
	}
	a, err := tr.New(pool, cuda0, ir.F32, []int{1024}) // 4 KiB: only after the trim
	if err != nil {
		t.Fatal(err)
	}
	a.Free()
	if hook != 1 || len(warned) != 1 || !strings.Contains(warned[0], "boom") {
		t.Errorf("hook %d, warnings %q", hook, warned)
	}
}

// TestRegistryTrimCaches trims the caching allocators that serve the
// device, and nothing for the cpu (the built-in pools included: no device
// set up here means nothing cached).
func TestRegistryTrimCaches(t *testing.T) {
	r := NewRegistry()
	pool := &poolFake{mem: &fakeMemory{capacity: 1}}
	if err := r.RegisterAllocator("arena", pool); err != nil {
		t.Fatal(err)
	}
	if err := r.TrimCaches(CPUDevice); err != nil || pool.trims != 0 {
		t.Errorf("cpu: %v, %d trims", err, pool.trims)
	}
	if !gpuPresent() {
		if err := r.TrimCaches(cuda0); err != nil || pool.trims != 1 {
			t.Errorf("cuda:0: %v, %d trims", err, pool.trims)
		}
		if err := TrimCaches(cuda0); err != nil {
			t.Errorf("built-in pools of a device never set up: %v", err)
		}
	}
	if n, err := PoolCached(CPUDevice); n != 0 || err != nil {
		t.Errorf("cpu cache: %d %v", n, err)
	}
	for _, name := range []string{"mempool", "managed_pool"} {
		a, _ := r.Lookup(name)
		if _, ok := a.(Cacher); !ok {
			t.Errorf("%s keeps a cache but is no Cacher", name)
		}
	}
}
