package mem

import (
	"fmt"
	"syscall"
	"unsafe"
)

// Allocator is the allocation protocol of MEMORY.md section 2. The CUDA
// allocators and the full protocol (owning contexts, capture safety,
// classification) arrive with the memory issue; the host allocator is the
// first implementation.
type Allocator interface {
	// Name is the allocator's name in scripts ("host", "managed", ...).
	Name() string
	// Kind is the memory kind of every allocation (Unknown: classify).
	Kind() Kind
	// AppliesTo reports whether the allocator serves arrays on dev.
	AppliesTo(dev Device) bool
	// Alloc returns nbytes (> 0) of memory for dev.
	Alloc(dev Device, nbytes int) (uintptr, error)
	// Free releases memory returned by Alloc for dev. A CUDA allocator
	// frees in dev's (primary) context, made current on the calling thread.
	Free(dev Device, ptr uintptr, nbytes int) error
}

// HostAllocator is the `host` allocator: pageable CPU memory from mmap, so
// that it never lives on the Go heap (the GC must not move or scan it, and a
// GPU may later be given access to it).
type HostAllocator struct{}

// Name implements Allocator.
func (HostAllocator) Name() string { return "host" }

// Kind implements Allocator.
func (HostAllocator) Kind() Kind { return Host }

// AppliesTo implements Allocator: host memory is for the cpu device.
func (HostAllocator) AppliesTo(dev Device) bool { return dev.Type == CPU }

// Alloc maps nbytes of zeroed anonymous memory.
func (HostAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	b, err := syscall.Mmap(-1, 0, nbytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return 0, &AllocError{Allocator: "host", Device: dev, Bytes: nbytes, Err: err}
	}
	return uintptr(unsafe.Pointer(&b[0])), nil
}

// Free unmaps memory from Alloc.
func (HostAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	b := unsafe.Slice((*byte)(HostPointer(ptr)), nbytes)
	return syscall.Munmap(b)
}

// AllocError is an allocation failure: it names the allocator, the device,
// the byte count and the underlying cause.
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
