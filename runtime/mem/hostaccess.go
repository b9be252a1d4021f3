package mem

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// HostAccessible reports whether the CPU may dereference a's memory in
// place (MEMORY.md section 4 with T = cpu): always for HOST and PINNED,
// for CUDA_MANAGED when the owner has concurrent_managed_access or
// direct_managed_mem_access_from_host, for UNKNOWN memory of the cpu
// device (rule 1); never for CUDA_DEVICE and CUDA_MEMPOOL. The decision is
// made once per buffer.
func (a *Array) HostAccessible() bool {
	b := a.buf
	if v := b.hostAcc.Load(); v != 0 {
		return v == 1
	}
	ok := hostAccessible(b.kind, b.a.dev, deviceCaps)
	v := int32(2)
	if ok {
		v = 1
	}
	b.hostAcc.Store(v)
	return ok
}

// hostAccessible is HostAccessible's rule, pure for tests.
func hostAccessible(k Kind, owner Device, caps func(Device) Caps) bool {
	switch k {
	case Host, Pinned:
		return true
	case CUDAManaged:
		c := caps(owner)
		return c.ConcurrentManagedAccess || c.DirectManagedMemAccessFromHost
	case Unknown:
		return owner.Type == CPU
	}
	return false
}

// KernelReaches reports whether a kernel on a's own device may read and
// write a's memory in place, so that a fill or a copy into or out of it
// runs there: always on the cpu; on a CUDA device for device, pool,
// managed and unknown memory, not for host memory wrapped as a CUDA array
// (HOST or PINNED: the GPU may not reach the pages, and the host always
// may, so such an array is filled and copied from the host).
func (a *Array) KernelReaches() bool { return kernelReaches(a.Device(), a.buf.kind) }

// kernelReaches is KernelReaches's rule, pure for tests.
func kernelReaches(dev Device, k Kind) bool {
	return !dev.IsCUDA() || k != Host && k != Pinned
}

// maxTrackedDevices bounds the CUDA ordinals Buffer.users can record.
const maxTrackedDevices = 64

func (b *Buffer) noteUse(dev Device) {
	if !dev.IsCUDA() || dev.Ordinal >= maxTrackedDevices {
		return
	}
	if bit := uint64(1) << dev.Ordinal; b.users.Load()&bit == 0 {
		b.users.Or(bit)
	}
}

// NoteDeviceUse records that work queued on dev's stream may touch a's
// memory (a launch on dev with a as argument): host access, and launches
// on other devices, then wait for that stream first.
func (a *Array) NoteDeviceUse(dev Device) { a.buf.noteUse(dev) }

// WaitForUsers waits for the streams of every CUDA device whose queued
// work may touch a's memory, except except's own stream (work on one
// stream is ordered already). gscript has one stream per device, so this
// orders a host access or a launch on another device after that work.
func (a *Array) WaitForUsers(except Device) error {
	m := a.buf.users.Load()
	if except.IsCUDA() && except.Ordinal < maxTrackedDevices {
		m &^= uint64(1) << except.Ordinal
	}
	for m != 0 {
		ord := bits.TrailingZeros64(m)
		m &^= uint64(1) << ord
		d, err := getCUDADevice(ord)
		if err != nil {
			return err
		}
		if err := d.Sync(); err != nil {
			return err
		}
	}
	return nil
}

// SyncForHost waits until the CPU may touch a's memory: for the streams of
// every device that may be using it, and for managed memory on a device
// without concurrent managed access, for the whole device (the CPU must not
// touch managed memory while that GPU works). Managed memory that the CPU
// then touches in place is a host touch of the automatic prefetch policy:
// prefetched to the CPU first when a GPU touched it last (prefetch.go).
func (a *Array) SyncForHost() error {
	lo, hi := a.span()
	return a.syncForHost(a.off+lo, hi-lo)
}

// syncForHost is SyncForHost for an access to n bytes from byte off of
// the buffer.
func (a *Array) syncForHost(off, n int) error {
	if a.Freed() {
		return ErrFreed
	}
	if err := a.WaitForUsers(CPUDevice); err != nil {
		return err
	}
	if a.buf.kind != CUDAManaged || !a.Device().IsCUDA() {
		return nil
	}
	d, err := getCUDADevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	if d.Info.Caps.ConcurrentManagedAccess {
		if !a.HostAccessible() { // graph memory: read through staging copies
			return nil
		}
		return a.buf.hostTouch(off, n)
	}
	return d.Ctx.Do(func() error { return d.Drv.CtxSynchronize() })
}

// HostBytes returns the bytes from the lowest-addressed element up to the
// highest of an array the CPU may access in place; element [0, ...] is
// element HostOrigin of them (not the first when a stride is negative). It does not synchronize: use
// ReadHost, or SyncForHost first. The bytes are a's memory, which is freed
// when a is collected: keep a reachable (runtime.KeepAlive) while using
// them.
func (a *Array) HostBytes() ([]byte, error) {
	p, err := a.Ptr()
	if err != nil {
		return nil, err
	}
	if !a.HostAccessible() {
		return nil, fmt.Errorf("array on %s (memory_kind=%s) is not host-accessible", a.Device(), a.Kind())
	}
	if p == 0 || a.Size() == 0 {
		return nil, nil
	}
	lo, hi := a.span()
	return hostSlice(p+uintptr(lo), hi-lo), nil
}

func hostSlice(p uintptr, n int) []byte { return unsafe.Slice((*byte)(HostPointer(p)), n) }

// ReadHost returns the bytes HostBytes covers for reading on the host: the memory itself when the CPU can access it (after
// SyncForHost; keep a reachable while using them, as for HostBytes), else a
// copy through a staging buffer after the device's queued work finished.
func (a *Array) ReadHost() ([]byte, error) {
	if a.HostAccessible() {
		if err := a.SyncForHost(); err != nil {
			return nil, err
		}
		return a.HostBytes()
	}
	if err := a.SyncForHost(); err != nil {
		return nil, err
	}
	p, err := a.Ptr()
	if err != nil {
		return nil, err
	}
	lo, hi := a.span()
	p, n := p+uintptr(lo), hi-lo
	buf := make([]byte, n)
	if n == 0 {
		return buf, nil
	}
	d, err := getCUDADevice(a.Device().Ordinal)
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
	if err := fn(b); err != nil || a.HostAccessible() || len(b) == 0 {
		return err
	}
	p, _ := a.Ptr()
	lo, _ := a.span()
	p += uintptr(lo) // b starts at the lowest element
	d, err := getCUDADevice(a.Device().Ordinal)
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

// span is the byte range [lo, hi) the elements occupy, relative to element
// [0, ...]: lo is negative when a stride is (a[::-1] starts at its last
// byte). An empty array spans nothing.
func (a *Array) span() (lo, hi int) {
	if a.Size() == 0 {
		return 0, 0
	}
	first, last := elemSpan(a.shape, a.strides)
	size := a.dtype.Size()
	return first * size, (last + 1) * size
}

// elemSpan is the lowest and highest element offset of a non-empty
// array of this shape and strides, relative to element [0, ...].
func elemSpan(shape, strides []int) (first, last int) {
	for k, d := range shape {
		if strides[k] < 0 {
			first += (d - 1) * strides[k]
		} else {
			last += (d - 1) * strides[k]
		}
	}
	return first, last
}

// HostOrigin is the element index of element [0, ...] in the bytes of
// HostBytes and ReadHost: 0 unless a stride is negative. Add it to an
// offset from Offset to index those bytes.
func (a *Array) HostOrigin() int {
	lo, _ := a.span()
	return -lo / a.dtype.Size()
}

// LoadElem reads element off (an offset from Offset) as raw bits, copying
// just that element when the CPU cannot access the memory in place.
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
	if a.HostAccessible() {
		if err := a.syncForHost(a.off+off*size, size); err != nil {
			return err
		}
		b, err := a.HostBytes()
		if err != nil {
			return err
		}
		i := a.HostOrigin() + off
		fn(b[i*size : (i+1)*size])
		return nil
	}
	buf := make([]byte, size)
	if err := a.spanIO(off, buf, false); err != nil || !write {
		fn(buf)
		return err
	}
	fn(buf)
	return a.spanIO(off, buf, true)
}

// maxSpan bounds the elements LoadElems and StoreElems copy in one piece:
// a vector's lanes or a struct's bytes, not a lane view of a huge array.
const maxSpan = 4096

// LoadElems reads the elements at offs (offsets from Offset, as
// LoadElem's) as raw bits. Memory the CPU cannot access in place is read
// in one copy of the range the offsets span when that is short (the lanes
// of one vector, the bytes of one struct), rather than a copy each.
func (a *Array) LoadElems(offs []int) ([]uint64, error) {
	out := make([]uint64, len(offs))
	lo, n, ok := a.spanOf(offs)
	if !ok {
		for i, o := range offs {
			var err error
			if out[i], err = a.LoadElem(o); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	buf := make([]byte, n*a.dtype.Size())
	if err := a.spanIO(lo, buf, false); err != nil {
		return nil, err
	}
	for i, o := range offs {
		out[i] = LoadBits(buf, a.dtype, o-lo)
	}
	return out, nil
}

// StoreElems writes bits[i] to the element at offs[i] (as StoreElem), in
// one copy when the offsets are a short run with no gaps (so no element
// between them is rewritten).
func (a *Array) StoreElems(offs []int, bits []uint64) error {
	lo, n, ok := a.spanOf(offs)
	if !ok || n != len(offs) {
		for i, o := range offs {
			if err := a.StoreElem(o, bits[i]); err != nil {
				return err
			}
		}
		return nil
	}
	buf := make([]byte, n*a.dtype.Size())
	for i, o := range offs {
		StoreBits(buf, a.dtype, o-lo, bits[i])
	}
	return a.spanIO(lo, buf, true)
}

// spanOf is the first offset of offs and the elements from it to the
// last, with ok when the array is in device memory and the span is short
// enough to copy whole.
func (a *Array) spanOf(offs []int) (lo, n int, ok bool) {
	if len(offs) == 0 || a.HostAccessible() {
		return 0, 0, false
	}
	lo, hi := offs[0], offs[0]
	for _, o := range offs {
		lo, hi = min(lo, o), max(hi, o)
	}
	return lo, hi - lo + 1, hi-lo < maxSpan
}

// spanIO copies buf from (write: to) the device memory of the elements
// from offset lo, on the array's stream after the work queued there.
func (a *Array) spanIO(lo int, buf []byte, write bool) error {
	if err := a.SyncForHost(); err != nil {
		return err
	}
	p, err := a.Ptr()
	if err != nil {
		return err
	}
	d, err := getCUDADevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	addr := cuda.DevicePtr(p + uintptr(lo*a.dtype.Size()))
	return d.Ctx.Do(func() error {
		var err error
		if write {
			err = d.Drv.MemcpyHtoDAsync(addr, unsafe.Pointer(&buf[0]), len(buf), d.Stream)
		} else {
			err = d.Drv.MemcpyDtoHAsync(unsafe.Pointer(&buf[0]), addr, len(buf), d.Stream)
		}
		if err != nil {
			return err
		}
		return d.Drv.StreamSynchronize(d.Stream)
	})
}

// CopyDevice copies src into dst on the GPU when both are contiguous
// arrays of one dtype and shape on the same CUDA device (a copy queued on
// its stream, so it is also recorded by a graph capture). It reports
// false, doing nothing, when the arrays do not qualify.
func CopyDevice(dst, src *Array) (bool, error) {
	dev := dst.Device()
	if !dev.IsCUDA() || src.Device() != dev || dst.dtype != src.dtype || !dst.IsContiguous() || !src.IsContiguous() ||
		len(dst.shape) != len(src.shape) || dst.Size() != src.Size() {
		return false, nil
	}
	for k := range dst.shape {
		if dst.shape[k] != src.shape[k] {
			return false, nil
		}
	}
	dp, err := dst.Ptr()
	if err != nil {
		return true, err
	}
	sp, err := src.Ptr()
	if err != nil || dst.Size() == 0 {
		return true, err
	}
	for _, a := range []*Array{dst, src} {
		if err := a.WaitForUsers(dev); err != nil {
			return true, err
		}
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return true, err
	}
	return true, d.Ctx.Do(func() error {
		return d.Drv.MemcpyDtoDAsync(cuda.DevicePtr(dp), cuda.DevicePtr(sp), dst.NBytes(), d.Stream)
	})
}
