package mem

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// CUDADev is one CUDA device as the runtime uses it: its primary context,
// capabilities read once, and the stream all of gscript's work on it goes
// to (so host reads need only wait for that stream).
type CUDADev struct {
	Device Device
	Drv    *cuda.Driver
	Ctx    *cuda.Context
	Info   *cuda.DeviceInfo
	Stream cuda.Stream
}

var cudaDevs struct {
	mu   sync.Mutex
	devs map[int]*CUDADev
}

// CUDADriver loads the CUDA driver once per process.
func CUDADriver() (*cuda.Driver, error) { return cuda.Load() }

// CUDADeviceCount is the number of CUDA devices (0 without a driver).
func CUDADeviceCount() int {
	drv, err := cuda.Load()
	if err != nil {
		return 0
	}
	return drv.DeviceCount()
}

// GetCUDADevice returns the state of cuda:ordinal, setting it up on first
// use. The error says what is missing: the driver, or the device.
func GetCUDADevice(ordinal int) (*CUDADev, error) {
	cudaDevs.mu.Lock()
	defer cudaDevs.mu.Unlock()
	if d := cudaDevs.devs[ordinal]; d != nil {
		return d, nil
	}
	drv, err := cuda.Load()
	if err != nil {
		return nil, fmt.Errorf("device cuda:%d is not available: %w", ordinal, err)
	}
	if ordinal < 0 || ordinal >= drv.DeviceCount() {
		return nil, fmt.Errorf("device cuda:%d is not available: this machine has %d CUDA device(s)", ordinal, drv.DeviceCount())
	}
	d := &CUDADev{Device: Device{Type: CUDA, Ordinal: ordinal}, Drv: drv}
	if d.Info, err = drv.Device(ordinal); err != nil {
		return nil, err
	}
	if d.Ctx, err = drv.PrimaryContext(ordinal); err != nil {
		return nil, err
	}
	err = d.Ctx.Do(func() error {
		var err error
		d.Stream, err = drv.StreamCreate(cuda.StreamNonBlocking)
		return err
	})
	if err != nil {
		return nil, err
	}
	if cudaDevs.devs == nil {
		cudaDevs.devs = map[int]*CUDADev{}
	}
	cudaDevs.devs[ordinal] = d
	return d, nil
}

// Sync waits for all work queued on the device's stream.
func (d *CUDADev) Sync() error {
	return d.Ctx.Do(func() error { return d.Drv.StreamSynchronize(d.Stream) })
}

// DeviceAllocator is the `device` allocator: plain device memory from
// cuMemAlloc in the device's primary context, zero-filled.
type DeviceAllocator struct{}

// Name implements Allocator.
func (DeviceAllocator) Name() string { return "device" }

// Kind implements Allocator.
func (DeviceAllocator) Kind() Kind { return CUDADevice }

// AppliesTo implements Allocator: CUDA devices only.
func (DeviceAllocator) AppliesTo(dev Device) bool { return dev.IsCUDA() }

// Alloc implements Allocator.
func (DeviceAllocator) Alloc(dev Device, nbytes int) (uintptr, error) {
	d, err := GetCUDADevice(dev.Ordinal)
	if err != nil {
		return 0, &AllocError{Allocator: "device", Device: dev, Bytes: nbytes, Err: err}
	}
	var p cuda.DevicePtr
	err = d.Ctx.Do(func() error {
		var err error
		if p, err = d.Drv.MemAlloc(nbytes); err != nil {
			return err
		}
		// Arrays start zeroed. Queued on gscript's stream, the memset is
		// ordered before every later use without waiting for it here.
		if err = d.Drv.MemsetD8Async(p, 0, nbytes, d.Stream); err != nil {
			d.Drv.MemFree(p)
		}
		return err
	})
	if err != nil {
		return 0, &AllocError{Allocator: "device", Device: dev, Bytes: nbytes, Err: err}
	}
	return uintptr(p), nil
}

// Free implements Allocator: in the owning context, made current on
// whatever thread the free runs on.
func (DeviceAllocator) Free(dev Device, ptr uintptr, nbytes int) error {
	d, err := GetCUDADevice(dev.Ordinal)
	if err != nil {
		return err
	}
	return d.Ctx.Do(func() error { return d.Drv.MemFree(cuda.DevicePtr(ptr)) })
}

// HostAccessible reports whether the CPU may dereference a's memory in
// place (MEMORY.md section 4, rule 3 for the kinds this build makes).
func (a *Array) HostAccessible() bool { return a.hostAccessible() }

func (a *Array) hostAccessible() bool {
	return a.Device().Type == CPU
}

// ReadHost returns the bytes from element [0, ...] to the last element for
// reading on the host: the memory itself when the CPU can access it, else a
// copy through a staging buffer after the device's queued work finished.
func (a *Array) ReadHost() ([]byte, error) {
	if a.hostAccessible() {
		return a.HostBytes()
	}
	p, err := a.Ptr()
	if err != nil {
		return nil, err
	}
	n := a.spanBytes()
	buf := make([]byte, n)
	if n == 0 {
		return buf, nil
	}
	d, err := GetCUDADevice(a.Device().Ordinal)
	if err != nil {
		return nil, err
	}
	err = d.Ctx.Do(func() error {
		// On gscript's stream: ordered after the kernels that write a.
		if err := d.Drv.MemcpyDtoHAsync(unsafe.Pointer(&buf[0]), cuda.DevicePtr(p), n, d.Stream); err != nil {
			return err
		}
		return d.Drv.StreamSynchronize(d.Stream)
	})
	return buf, err
}

// WriteHost lets fn modify a's bytes (as ReadHost returns them) on the host
// and writes them back to device memory when a staging copy was needed.
func (a *Array) WriteHost(fn func(b []byte) error) error {
	b, err := a.ReadHost()
	if err != nil {
		return err
	}
	if err := fn(b); err != nil || a.hostAccessible() || len(b) == 0 {
		return err
	}
	p, _ := a.Ptr()
	d, err := GetCUDADevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	return d.Ctx.Do(func() error {
		if err := d.Drv.MemcpyHtoDAsync(cuda.DevicePtr(p), unsafe.Pointer(&b[0]), len(b), d.Stream); err != nil {
			return err
		}
		return d.Drv.StreamSynchronize(d.Stream) // b must outlive the copy
	})
}

// spanBytes is the byte extent from element [0, ...] to the last element.
func (a *Array) spanBytes() int {
	if a.Size() == 0 {
		return 0
	}
	last := 0
	for k, d := range a.shape {
		last += (d - 1) * a.strides[k]
	}
	return (last + 1) * a.dtype.Size()
}

// LoadElem reads element off (an offset from Offset) as raw bits, copying
// just that element when the memory is on a device.
func (a *Array) LoadElem(off int) (uint64, error) {
	var bits uint64
	err := a.elemIO(off, func(b []byte) { bits = LoadBits(b, a.dtype, 0) }, false)
	return bits, err
}

// StoreElem writes raw bits to element off.
func (a *Array) StoreElem(off int, bits uint64) error {
	return a.elemIO(off, func(b []byte) { StoreBits(b, a.dtype, 0, bits) }, true)
}

func (a *Array) elemIO(off int, fn func(b []byte), write bool) error {
	size := a.dtype.Size()
	if a.hostAccessible() {
		b, err := a.HostBytes()
		if err != nil {
			return err
		}
		fn(b[off*size : (off+1)*size])
		return nil
	}
	p, err := a.Ptr()
	if err != nil {
		return err
	}
	d, err := GetCUDADevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	var buf [8]byte
	addr := cuda.DevicePtr(p + uintptr(off*size))
	return d.Ctx.Do(func() error {
		if err := d.Drv.MemcpyDtoHAsync(unsafe.Pointer(&buf[0]), addr, size, d.Stream); err != nil {
			return err
		}
		if err := d.Drv.StreamSynchronize(d.Stream); err != nil || !write {
			fn(buf[:size])
			return err
		}
		fn(buf[:size])
		if err := d.Drv.MemcpyHtoDAsync(addr, unsafe.Pointer(&buf[0]), size, d.Stream); err != nil {
			return err
		}
		return d.Drv.StreamSynchronize(d.Stream)
	})
}
