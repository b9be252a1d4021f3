package mem

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// cudaAlloc runs fn in dev's primary context and wraps any failure in an
// AllocError naming the allocator, device and byte count.
func cudaAlloc(name string, dev Device, nbytes int, fn func(d *cudaDev) (uintptr, error)) (uintptr, error) {
	fail := func(err error) (uintptr, error) {
		return 0, &AllocError{Allocator: name, Device: dev, Bytes: nbytes, Err: err}
	}
	if !dev.IsCUDA() {
		return fail(fmt.Errorf("the %s allocator serves CUDA devices only", name))
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return fail(err)
	}
	var p uintptr
	err = d.Ctx.Do(func() error {
		var err error
		p, err = fn(d)
		return err
	})
	if err != nil {
		return fail(err)
	}
	return p, nil
}

// cudaFree runs fn in dev's primary context.
func cudaFree(dev Device, fn func(d *cudaDev) error) error {
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return err
	}
	return d.Ctx.Do(func() error { return fn(d) })
}

// zeroOnStream queues a memset of fresh memory on gscript's stream when
// zero is set (Alloc; AllocUninit skips it), so it is ordered before every
// later use without waiting for it; on failure the memory is released with
// undo.
func zeroOnStream(d *cudaDev, p cuda.DevicePtr, nbytes int, zero bool, undo func(cuda.DevicePtr) error) (uintptr, error) {
	if !zero {
		return uintptr(p), nil
	}
	if err := d.Drv.MemsetD8Async(p, 0, nbytes, d.Stream); err != nil {
		undo(p)
		return 0, err
	}
	return uintptr(p), nil
}

// DeviceAllocator is the `device` allocator: plain device memory from
// cuMemAlloc in the device's primary context, zero-filled by Alloc.
type DeviceAllocator struct{}

func (DeviceAllocator) Name() string              { return "device" }
func (DeviceAllocator) Kind() Kind                { return CUDADevice }
func (DeviceAllocator) AppliesTo(dev Device) bool { return dev.IsCUDA() }
func (DeviceAllocator) CaptureSafe() bool         { return false }
func (DeviceAllocator) FreeNeedsContext() bool    { return true }

// Alloc implements Allocator.
func (a DeviceAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	return a.alloc(dev, nbytes, true)
}

// AllocUninit implements UninitAllocator.
func (a DeviceAllocator) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	return a.alloc(dev, nbytes, false)
}

func (DeviceAllocator) alloc(dev Device, nbytes int, zero bool) (uintptr, error) {
	return cudaAlloc("device", dev, nbytes, func(d *cudaDev) (uintptr, error) {
		p, err := d.Drv.MemAlloc(nbytes)
		if err != nil {
			return 0, err
		}
		return zeroOnStream(d, p, nbytes, zero, d.Drv.MemFree)
	})
}

// Free implements Allocator: in the owning context, made current on
// whatever thread the free runs on.
func (DeviceAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return cudaFree(dev, func(d *cudaDev) error { return d.Drv.MemFree(cuda.DevicePtr(ptr)) })
}

// MempoolAllocator is the `mempool` allocator: stream-ordered memory from
// the device's default pool (cuMemAllocAsync on gscript's stream), freed in
// the same stream order. It is capture-safe: during capture an allocation
// becomes a graph allocation node.
type MempoolAllocator struct{}

func (MempoolAllocator) Name() string              { return "mempool" }
func (MempoolAllocator) Kind() Kind                { return CUDAMempool }
func (MempoolAllocator) AppliesTo(dev Device) bool { return dev.IsCUDA() }
func (MempoolAllocator) CaptureSafe() bool         { return true }
func (MempoolAllocator) FreeNeedsContext() bool    { return true }

// Alloc implements Allocator.
func (a MempoolAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	return a.alloc(dev, nbytes, true)
}

// AllocUninit implements UninitAllocator.
func (a MempoolAllocator) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	return a.alloc(dev, nbytes, false)
}

func (MempoolAllocator) alloc(dev Device, nbytes int, zero bool) (uintptr, error) {
	return cudaAlloc("mempool", dev, nbytes, func(d *cudaDev) (uintptr, error) {
		if !d.Info.Caps.MemoryPoolsSupported {
			return 0, fmt.Errorf("device %s does not support memory pools (memory_pools_supported=0): use the device allocator", dev)
		}
		d.keepPool()
		p, err := d.Drv.MemAllocAsync(nbytes, d.Stream)
		if err != nil {
			return 0, err
		}
		return zeroOnStream(d, p, nbytes, zero, func(p cuda.DevicePtr) error { return d.Drv.MemFreeAsync(p, d.Stream) })
	})
}

// Free implements Allocator: queued on gscript's stream, after the work
// that uses the memory.
func (MempoolAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return cudaFree(dev, func(d *cudaDev) error { return d.Drv.MemFreeAsync(cuda.DevicePtr(ptr), d.Stream) })
}

// Options are the interpreter settings the allocators read at allocation
// time (config.allow_oversubscription). The zero value refuses
// oversubscription.
type Options struct {
	allowOversub atomic.Bool
}

// SetAllowOversubscription sets config.allow_oversubscription.
func (o *Options) SetAllowOversubscription(allow bool) { o.allowOversub.Store(allow) }

// AllowOversubscription reports config.allow_oversubscription.
func (o *Options) AllowOversubscription() bool { return o != nil && o.allowOversub.Load() }

// checkManaged refuses a managed request on a device without managed
// memory, or one larger than the device's free memory unless allowed
// (oversubscribing can stall a GPU that others share).
func checkManaged(name string, dev Device, caps Caps, nbytes int, free uint64, allow bool) error {
	if !caps.ManagedMemory {
		return fmt.Errorf("device %s does not support managed memory (managed_memory=0)", dev)
	}
	if uint64(nbytes) > free && !allow {
		return fmt.Errorf("%s allocator: %d bytes exceed the %d bytes free on %s; set config.allow_oversubscription = true to oversubscribe", name, nbytes, free, dev)
	}
	return nil
}

// managedGuard reads the free memory of the current device and applies
// checkManaged.
func managedGuard(name string, d *cudaDev, nbytes int, opts *Options) error {
	if !d.Info.Caps.ManagedMemory {
		return checkManaged(name, d.Device, d.caps(), nbytes, 0, false)
	}
	free, _, err := d.Drv.MemGetInfo()
	if err != nil {
		return err
	}
	if uint64(nbytes) > free {
		// cuMemGetInfo counts the memory gscript's pools keep for reuse
		// as used: hand it back before refusing (or oversubscribing).
		if d.trimPools() == nil {
			if f, _, err := d.Drv.MemGetInfo(); err == nil {
				free = f
			}
		}
	}
	return checkManaged(name, d.Device, d.caps(), nbytes, free, opts.AllowOversubscription())
}

// ManagedAllocator is the `managed` allocator: cuMemAllocManaged with
// global attachment, zero-filled on gscript's stream by Alloc. Opts (may be nil:
// refuse oversubscription) carries config.allow_oversubscription.
type ManagedAllocator struct {
	Opts *Options
}

func (ManagedAllocator) Name() string              { return "managed" }
func (ManagedAllocator) Kind() Kind                { return CUDAManaged }
func (ManagedAllocator) AppliesTo(dev Device) bool { return dev.IsCUDA() }
func (ManagedAllocator) CaptureSafe() bool         { return false }

// FreeNeedsContext implements ContextFreer: managed memory may be freed
// from any context (MEMORY.md section 7); gscript still frees it in the
// owner's context, which is always at hand.
func (ManagedAllocator) FreeNeedsContext() bool { return false }

// Alloc implements Allocator.
func (m ManagedAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	return m.alloc(dev, nbytes, true)
}

// AllocUninit implements UninitAllocator.
func (m ManagedAllocator) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	return m.alloc(dev, nbytes, false)
}

func (m ManagedAllocator) alloc(dev Device, nbytes int, zero bool) (uintptr, error) {
	return cudaAlloc("managed", dev, nbytes, func(d *cudaDev) (uintptr, error) {
		if err := managedGuard("managed", d, nbytes, m.Opts); err != nil {
			return 0, err
		}
		p, err := d.Drv.MemAllocManaged(nbytes, cuda.MemAttachGlobal)
		if err != nil {
			return 0, err
		}
		return zeroOnStream(d, p, nbytes, zero, d.Drv.MemFree)
	})
}

// Free implements Allocator.
func (ManagedAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return cudaFree(dev, func(d *cudaDev) error { return d.Drv.MemFree(cuda.DevicePtr(ptr)) })
}

// PinnedAllocator is the `pinned` allocator: page-locked host memory from
// cuMemHostAlloc (portable) in the primary context of cuda:0. Its arrays
// live on the cpu device with kind PINNED: with unified addressing, GPUs
// reach them at the same address.
type PinnedAllocator struct{}

func (PinnedAllocator) Name() string              { return "pinned" }
func (PinnedAllocator) Kind() Kind                { return Pinned }
func (PinnedAllocator) AppliesTo(dev Device) bool { return dev.Type == CPU }
func (PinnedAllocator) CaptureSafe() bool         { return false }

// FreeNeedsContext implements ContextFreer: the array's device is the cpu,
// which has no context; Free makes cuda:0's current itself.
func (PinnedAllocator) FreeNeedsContext() bool { return false }

// Alloc implements Allocator.
func (a PinnedAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	p, err := a.AllocUninit(dev, nbytes)
	if err == nil {
		clear(hostSlice(p, nbytes)) // cuMemHostAlloc does not zero
	}
	return p, err
}

// AllocUninit implements UninitAllocator.
func (PinnedAllocator) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	d, err := getCUDADevice(0)
	if err != nil {
		return 0, &AllocError{Allocator: "pinned", Device: dev, Bytes: nbytes,
			Err: fmt.Errorf("the pinned allocator needs CUDA: %w", err)}
	}
	var p uintptr
	err = d.Ctx.Do(func() error {
		p, err = d.Drv.MemHostAlloc(nbytes, cuda.MemHostAllocPortable)
		return err
	})
	if err != nil {
		return 0, &AllocError{Allocator: "pinned", Device: dev, Bytes: nbytes, Err: err}
	}
	return p, nil
}

// Free implements Allocator.
func (PinnedAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return cudaFree(Device{Type: CUDA}, func(d *cudaDev) error { return d.Drv.MemFreeHost(ptr) })
}

// ManagedPoolAllocator is the `managed_pool` allocator: CUDA_MANAGED
// memory from a per-device CUDA 13 managed memory pool, allocated in
// stream order. It is capture-safe; the pool itself is made once, outside
// capture (PrepareCapture makes it ahead of a capture).
type ManagedPoolAllocator struct {
	Opts *Options
}

func (ManagedPoolAllocator) Name() string              { return "managed_pool" }
func (ManagedPoolAllocator) Kind() Kind                { return CUDAManaged }
func (ManagedPoolAllocator) AppliesTo(dev Device) bool { return dev.IsCUDA() }
func (ManagedPoolAllocator) CaptureSafe() bool         { return true }
func (ManagedPoolAllocator) FreeNeedsContext() bool    { return true }

// Alloc implements Allocator.
func (m ManagedPoolAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	return m.alloc(dev, nbytes, true)
}

// AllocUninit implements UninitAllocator.
func (m ManagedPoolAllocator) AllocUninit(dev Device, nbytes int) (uintptr, error) {
	return m.alloc(dev, nbytes, false)
}

func (m ManagedPoolAllocator) alloc(dev Device, nbytes int, zero bool) (uintptr, error) {
	return cudaAlloc("managed_pool", dev, nbytes, func(d *cudaDev) (uintptr, error) {
		if err := managedGuard("managed_pool", d, nbytes, m.Opts); err != nil {
			return 0, err
		}
		pool, err := d.managedPool()
		if err != nil {
			return 0, err
		}
		p, err := d.Drv.MemAllocFromPoolAsync(nbytes, pool, d.Stream)
		if err != nil {
			return 0, err
		}
		return zeroOnStream(d, p, nbytes, zero, func(p cuda.DevicePtr) error { return d.Drv.MemFreeAsync(p, d.Stream) })
	})
}

// Free implements Allocator.
func (ManagedPoolAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	return cudaFree(dev, func(d *cudaDev) error { return d.Drv.MemFreeAsync(cuda.DevicePtr(ptr), d.Stream) })
}

// managedPoolState holds the per-device managed pools, made once each.
// made is the pool once it exists, readable without the once (trimming
// never makes the pool).
type managedPoolState struct {
	once sync.Once
	pool cuda.MemPool
	err  error
	made atomic.Uintptr
}

// managedPool returns the device's managed pool, creating it on first use
// (in the device's context, which the caller has made current).
func (d *cudaDev) managedPool() (cuda.MemPool, error) {
	d.mpool.once.Do(func() {
		if !d.Info.Caps.ManagedMemory {
			d.mpool.err = fmt.Errorf("device %s does not support managed memory (managed_memory=0)", d.Device)
			return
		}
		d.mpool.pool, d.mpool.err = d.Drv.MemPoolCreate(cuda.MemPoolProps{
			AllocType: cuda.MemAllocationManaged,
			Location:  cuda.DeviceLocation(d.Device.Ordinal),
		})
		if d.mpool.err != nil {
			d.mpool.err = fmt.Errorf("the driver of %s cannot make a managed memory pool (needs CUDA 13 managed pools): %w", d.Device, d.mpool.err)
		}
		if d.mpool.err == nil {
			d.mpool.made.Store(uintptr(d.mpool.pool))
		}
	})
	return d.mpool.pool, d.mpool.err
}

// PrepareCapture does the one-time setup that must not happen during a
// graph capture on dev: it raises the default pool's release threshold
// (keepPool) and makes the device's managed pool where the driver
// supports one. A driver without managed pools is not an error
// here; the managed_pool allocator reports it when asked to allocate.
func PrepareCapture(dev Device) error {
	if !dev.IsCUDA() {
		return nil
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return err
	}
	if d.Info.Caps.MemoryPoolsSupported {
		d.Ctx.Do(func() error { d.keepPool(); return nil })
	}
	if !d.Info.Caps.ManagedMemory {
		return nil
	}
	return d.Ctx.Do(func() error {
		_, err := d.managedPool()
		var se *cuda.SymbolError
		if err != nil && (errors.As(err, &se) || cuda.IsCode(err, cuda.CodeNotSupported) || cuda.IsCode(err, cuda.CodeInvalidValue)) {
			return nil
		}
		return err
	})
}
