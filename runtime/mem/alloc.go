package mem

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Allocator is the allocation protocol of MEMORY.md section 2. Alloc gets
// the device (whose primary context is the owning context) and a byte count
// (> 0: zero-size arrays never reach an allocator) and returns zero-filled
// memory; Free gets the same device, the pointer and the byte count.
//
// Three more properties of the protocol are optional methods, so that small
// allocators (the embedding API's Go-slice allocator) need not spell them
// out: CaptureSafe (default false), FreeNeedsContext (default: true on
// CUDA devices) and AllocUninit (default: Alloc, zero-filled). A Kind of
// Unknown means "classify my pointers": the tracker asks the driver once
// per allocation.
type Allocator interface {
	// Name is the allocator's name in scripts ("host", "managed", ...).
	Name() string
	// Kind is the memory kind of every allocation (Unknown: classify).
	Kind() Kind
	// AppliesTo reports whether the allocator serves arrays on dev.
	AppliesTo(dev Device) bool
	// Alloc returns nbytes (> 0) of zero-filled memory for dev.
	Alloc(dev Device, nbytes int) (uintptr, error)
	// Free releases memory returned by Alloc for dev.
	Free(dev Device, ptr uintptr, nbytes int) error
}

// CaptureSafer is implemented by allocators that may allocate while a CUDA
// graph capture is active (MEMORY.md section 6: mempool, managed_pool, and
// custom allocators that say so).
type CaptureSafer interface {
	CaptureSafe() bool
}

// ContextFreer is implemented by allocators that say whether their Free
// needs the owning context made current. When it does (the default for
// CUDA devices), the tracker runs Free inside that context's Context.Do.
type ContextFreer interface {
	FreeNeedsContext() bool
}

// UninitAllocator is implemented by allocators that can skip Alloc's
// zero-fill. The tracker calls AllocUninit only for arrays whose every
// element is written before any is read (Tracker.NewUninit: empty, load,
// and constructors that fill on the device), so they do not pay for a
// memset that is overwritten at once. The memory's contents are
// unspecified; everything else is Alloc's contract.
type UninitAllocator interface {
	AllocUninit(dev Device, nbytes int) (uintptr, error)
}

// CaptureSafe reports whether alloc may allocate during graph capture.
func CaptureSafe(alloc Allocator) bool {
	c, ok := alloc.(CaptureSafer)
	return ok && c.CaptureSafe()
}

// FreeNeedsContext reports whether alloc's Free must run with dev's
// primary context current.
func FreeNeedsContext(alloc Allocator, dev Device) bool {
	if c, ok := alloc.(ContextFreer); ok {
		return c.FreeNeedsContext()
	}
	return dev.IsCUDA()
}

// HostAllocator is the `host` allocator: pageable CPU memory from mmap, so
// that it never lives on the Go heap (the GC must not move or scan it, and a
// GPU may later be given access to it). It has no AllocUninit: the kernel
// hands out zeroed pages whatever one asks for. The registry's `host` is
// cachingHost, which adds the host block cache.
type HostAllocator struct{}

// Name implements Allocator.
func (HostAllocator) Name() string { return "host" }

// Kind implements Allocator.
func (HostAllocator) Kind() Kind { return Host }

// AppliesTo implements Allocator: host memory is for the cpu device.
func (HostAllocator) AppliesTo(dev Device) bool { return dev.Type == CPU }

// CaptureSafe implements CaptureSafer: host allocations are not recorded
// in a graph.
func (HostAllocator) CaptureSafe() bool { return false }

// FreeNeedsContext implements ContextFreer.
func (HostAllocator) FreeNeedsContext() bool { return false }

// hugePageMin is the size from which host arrays ask for transparent huge
// pages, as NumPy does for its large allocations: a 1 GiB array then takes
// 512 page faults instead of 262144 on first touch, and far fewer TLB
// misses in cpu kernels (measured on the H200 machine: .npy load of 1 GiB
// into a fresh host array 1.6-1.9 GB/s without, 2.5-3.5 GB/s with).
const hugePageMin = 4 << 20

// madvHugePage is Linux's MADV_HUGEPAGE (syscall has no constant for it).
const madvHugePage = 14

// Alloc maps nbytes of zeroed anonymous memory.
func (HostAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	b, err := syscall.Mmap(-1, 0, nbytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil && hostCache.cached() > 0 {
		// the cache's blocks may be what the mapping lacks
		_ = hostCache.trim()
		b, err = syscall.Mmap(-1, 0, nbytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	}
	if err != nil {
		return 0, &AllocError{Allocator: "host", Device: dev, Bytes: nbytes, Err: err}
	}
	if nbytes >= hugePageMin {
		// Advice only: a kernel without transparent huge pages refuses
		// it (EINVAL), and the memory works the same.
		_ = syscall.Madvise(b, madvHugePage)
	}
	return uintptr(unsafe.Pointer(&b[0])), nil
}

// Free unmaps memory from Alloc.
func (HostAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return unmap(ptr, nbytes)
}

// cachingHost is the built-in `host` allocator: HostAllocator with the
// host block cache (hostcache.go) behind AllocUninit, Free and
// TrimCache. HostAllocator itself keeps its plain methods, so that an
// allocator embedding it (to count or wrap its Alloc) does not get
// another's cached blocks, nor put its own there.
type cachingHost struct{ HostAllocator }

// AllocUninit implements UninitAllocator: a recently freed block of the
// same size when the cache has one (its pages are warm, and hold old
// values), else Alloc's fresh pages.
func (a cachingHost) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	if p, ok := hostCache.take(nbytes); ok {
		return p, nil
	}
	return a.Alloc(dev, nbytes)
}

// Free keeps the block in the host block cache, or unmaps it.
func (cachingHost) Free(dev Device, ptr uintptr, nbytes int) error {
	if hostCache.put(ptr, nbytes) {
		return nil
	}
	return unmap(ptr, nbytes)
}

// TrimCache implements Cacher: the host block cache's blocks are
// unmapped (they serve every cpu device).
func (cachingHost) TrimCache(dev Device) error { return hostCache.trim() }

// AllocError is an allocation failure: it names the allocator, the device,
// the byte count and the underlying cause. A CUDA cause is a *cuda.Error,
// whose text carries CUDA's error name and string.
type AllocError struct {
	Allocator string
	Device    Device
	Bytes     int
	Err       error
}

func (e *AllocError) Error() string {
	return fmt.Sprintf("%s allocator: cannot allocate %d bytes on %s: %v", e.Allocator, e.Bytes, e.Device, e.Err)
}

func (e *AllocError) Unwrap() error { return e.Err }

// HostPointer turns the address of memory that Go does not manage (mmap,
// CUDA host or managed memory) into a pointer. Going through memory keeps
// go vet's unsafeptr check quiet: the check guards Go heap pointers, which
// these addresses never are.
func HostPointer(p uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&p))
}
