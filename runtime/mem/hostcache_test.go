package mem

import (
	"testing"
	"unsafe"
)

// TestHostBlockCache: a freed block of 1 MiB or more is handed to the
// next AllocUninit of its size (and of no other size), never
// to Alloc, whose memory stays zero; small blocks are not kept; the bound
// unmaps the oldest; TrimCache empties the cache.
func TestHostBlockCache(t *testing.T) {
	var h cachingHost
	if err := h.TrimCache(CPUDevice); err != nil {
		t.Fatal(err)
	}
	const n = 3<<20 + 5 // not a page multiple
	p, err := h.Alloc(CPUDevice, n)
	if err != nil {
		t.Fatal(err)
	}
	b := unsafe.Slice((*byte)(HostPointer(p)), n)
	b[0], b[n-1] = 7, 9
	if err := h.Free(CPUDevice, p, n); err != nil {
		t.Fatal(err)
	}
	if got := hostCache.cached(); got != n {
		t.Fatalf("cached %d bytes, want %d", got, n)
	}
	// Alloc of the same size: fresh zero pages, the block stays cached
	z, err := h.Alloc(CPUDevice, n)
	if err != nil {
		t.Fatal(err)
	}
	if zb := unsafe.Slice((*byte)(HostPointer(z)), n); z == p || zb[0] != 0 || zb[n-1] != 0 {
		t.Fatalf("Alloc reused the cached block (%#x, %#x) or is not zero", z, p)
	}
	if err := h.Free(CPUDevice, z, n); err != nil { // cached too: two blocks now
		t.Fatal(err)
	}
	// another size, even within the same pages: not from the cache
	o, err := h.AllocUninit(CPUDevice, n-3)
	if err != nil {
		t.Fatal(err)
	}
	if o == p || o == z {
		t.Fatal("AllocUninit of another size got a cached block")
	}
	if err := h.Free(CPUDevice, o, n-3); err != nil {
		t.Fatal(err)
	}
	// the same size: the most recently freed block
	u, err := h.AllocUninit(CPUDevice, n)
	if err != nil {
		t.Fatal(err)
	}
	if u != z {
		t.Fatalf("AllocUninit got %#x, want the last freed block %#x", u, z)
	}
	u2, err := h.AllocUninit(CPUDevice, n)
	if err != nil {
		t.Fatal(err)
	}
	if u2 != p || unsafe.Slice((*byte)(HostPointer(u2)), n)[n-1] != 9 {
		t.Fatalf("AllocUninit got %#x, want the first block %#x with its bytes", u2, p)
	}
	for _, q := range []uintptr{u, u2} {
		if err := h.Free(CPUDevice, q, n); err != nil {
			t.Fatal(err)
		}
	}
	// small blocks are unmapped at once
	before := hostCache.cached()
	s, err := h.Alloc(CPUDevice, 4096)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Free(CPUDevice, s, 4096); err != nil || hostCache.cached() != before {
		t.Fatalf("a 4 KiB block was kept (err %v)", err)
	}
	// the bound: blocks past hostCacheBytes unmap the oldest
	const big = 200 << 20
	var ps []uintptr
	for range 3 {
		q, err := h.AllocUninit(CPUDevice, big)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, q)
	}
	for _, q := range ps {
		if err := h.Free(CPUDevice, q, big); err != nil {
			t.Fatal(err)
		}
	}
	if got := hostCache.cached(); got > hostCacheBytes {
		t.Fatalf("cached %d bytes, more than the bound %d", got, hostCacheBytes)
	}
	if q, ok := hostCache.take(big); !ok || q != ps[2] {
		t.Fatalf("take got %#x %v, want the newest block %#x", q, ok, ps[2])
	} else if err := unmap(q, big); err != nil {
		t.Fatal(err)
	}
	if err := h.TrimCache(CPUDevice); err != nil || hostCache.cached() != 0 {
		t.Fatalf("TrimCache left %d bytes (err %v)", hostCache.cached(), err)
	}
}
