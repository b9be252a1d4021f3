package cuda

import (
	"unsafe"
)

// DevicePtr is a CUdeviceptr: an address in the unified address space
// (device, managed, pool or mapped pinned memory).
type DevicePtr uintptr

// Stream is a CUstream; 0 is the legacy default stream.
type Stream uintptr

// Flags of cuMemAllocManaged.
const (
	MemAttachGlobal = 1 // CU_MEM_ATTACH_GLOBAL: any stream on any device may access
	MemAttachHost   = 2 // CU_MEM_ATTACH_HOST
)

// Flags of cuMemHostAlloc.
const (
	MemHostAllocPortable      = 1 // CU_MEMHOSTALLOC_PORTABLE
	MemHostAllocDeviceMap     = 2 // CU_MEMHOSTALLOC_DEVICEMAP
	MemHostAllocWriteCombined = 4 // CU_MEMHOSTALLOC_WRITECOMBINED
)

// The methods below act on the context current on the calling OS thread:
// call them inside Context.Do.

// MemAlloc allocates n bytes of device memory (cuMemAlloc_v2).
func (d *Driver) MemAlloc(n int) (DevicePtr, error) {
	var p DevicePtr
	err := d.call2(&d.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(n))
	return p, err
}

// MemFree frees memory from MemAlloc or MemAllocManaged (cuMemFree_v2).
func (d *Driver) MemFree(p DevicePtr) error { return d.call1(&d.cuMemFree, uintptr(p)) }

// MemAllocManaged allocates n bytes of managed memory; flags is
// MemAttachGlobal or MemAttachHost.
func (d *Driver) MemAllocManaged(n int, flags uint32) (DevicePtr, error) {
	var p DevicePtr
	err := d.call3(&d.cuMemAllocManaged, uintptr(unsafe.Pointer(&p)), uintptr(n), uintptr(flags))
	return p, err
}

// MemAllocAsync allocates n bytes from the current device's memory pool in
// stream order.
func (d *Driver) MemAllocAsync(n int, s Stream) (DevicePtr, error) {
	var p DevicePtr
	err := d.call3(&d.cuMemAllocAsync, uintptr(unsafe.Pointer(&p)), uintptr(n), uintptr(s))
	return p, err
}

// MemFreeAsync frees pool memory in stream order.
func (d *Driver) MemFreeAsync(p DevicePtr, s Stream) error {
	return d.call2(&d.cuMemFreeAsync, uintptr(p), uintptr(s))
}

// MemHostAlloc allocates n bytes of page-locked host memory; the address is
// valid on the host and, with unified addressing, on devices.
func (d *Driver) MemHostAlloc(n int, flags uint32) (uintptr, error) {
	var p uintptr
	err := d.call3(&d.cuMemHostAlloc, uintptr(unsafe.Pointer(&p)), uintptr(n), uintptr(flags))
	return p, err
}

// MemFreeHost frees memory from MemHostAlloc.
func (d *Driver) MemFreeHost(p uintptr) error { return d.call1(&d.cuMemFreeHost, p) }

// MemGetInfo returns the free and total memory of the current device.
func (d *Driver) MemGetInfo() (free, total uint64, err error) {
	err = d.call2(&d.cuMemGetInfo, uintptr(unsafe.Pointer(&free)), uintptr(unsafe.Pointer(&total)))
	return free, total, err
}

// MemcpyHtoD copies n bytes from host memory at src to dst and returns when
// the copy is done. src may be Go memory.
func (d *Driver) MemcpyHtoD(dst DevicePtr, src unsafe.Pointer, n int) error {
	return d.call3(&d.cuMemcpyHtoD, uintptr(dst), uintptr(src), uintptr(n))
}

// MemcpyDtoH copies n bytes from src to host memory at dst.
func (d *Driver) MemcpyDtoH(dst unsafe.Pointer, src DevicePtr, n int) error {
	return d.call3(&d.cuMemcpyDtoH, uintptr(dst), uintptr(src), uintptr(n))
}

// MemcpyDtoD copies n bytes between device addresses.
func (d *Driver) MemcpyDtoD(dst, src DevicePtr, n int) error {
	return d.call3(&d.cuMemcpyDtoD, uintptr(dst), uintptr(src), uintptr(n))
}

// MemcpyHtoDAsync queues a copy on s. src must stay valid until the copy
// has run: use pinned or other non-Go memory, never a Go slice that the
// collector may free meanwhile.
func (d *Driver) MemcpyHtoDAsync(dst DevicePtr, src unsafe.Pointer, n int, s Stream) error {
	return d.call4(&d.cuMemcpyHtoDAsync, uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
}

// MemcpyDtoHAsync queues a copy to host memory on s (same rule for dst as
// MemcpyHtoDAsync's src).
func (d *Driver) MemcpyDtoHAsync(dst unsafe.Pointer, src DevicePtr, n int, s Stream) error {
	return d.call4(&d.cuMemcpyDtoHAsync, uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
}

// MemcpyDtoDAsync queues a device-to-device copy on s.
func (d *Driver) MemcpyDtoDAsync(dst, src DevicePtr, n int, s Stream) error {
	return d.call4(&d.cuMemcpyDtoDAsync, uintptr(dst), uintptr(src), uintptr(n), uintptr(s))
}

// MemsetD8 sets n bytes at p to v.
func (d *Driver) MemsetD8(p DevicePtr, v byte, n int) error {
	return d.call3(&d.cuMemsetD8, uintptr(p), uintptr(v), uintptr(n))
}

// MemsetD8Async queues MemsetD8 on s.
func (d *Driver) MemsetD8Async(p DevicePtr, v byte, n int, s Stream) error {
	return d.call4(&d.cuMemsetD8Async, uintptr(p), uintptr(v), uintptr(n), uintptr(s))
}

// MemLocationType is a CUmemLocationType.
type MemLocationType int32

const (
	MemLocationNone            MemLocationType = 0 // also INVALID: no preferred location
	MemLocationDevice          MemLocationType = 1 // ID is a device ordinal
	MemLocationHost            MemLocationType = 2 // ID ignored
	MemLocationHostNUMA        MemLocationType = 3 // ID is a NUMA node
	MemLocationHostNUMACurrent MemLocationType = 4
)

// MemLocation is a CUmemLocation {type, id}.
type MemLocation struct {
	Type MemLocationType
	ID   int32
}

// DeviceLocation is the location of device ordinal.
func DeviceLocation(ordinal int) MemLocation {
	return MemLocation{Type: MemLocationDevice, ID: int32(ordinal)}
}

// HostLocation is the host.
var HostLocation = MemLocation{Type: MemLocationHost}

// word packs the 8-byte struct the way the C ABI passes it by value in one
// integer register (amd64 and arm64 alike): type low, id high.
func (l MemLocation) word() uintptr {
	return uintptr(uint32(l.Type)) | uintptr(uint32(l.ID))<<32
}
