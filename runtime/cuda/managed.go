package cuda

import (
	"errors"
	"fmt"
	"unsafe"
)

// Prefetch and advice for managed memory. The CUDA 12.2+ entry points take
// a CUmemLocation by value (cuMemPrefetchAsync_v2, cuMemAdvise_v2, which
// CUDA 13 calls cuMemPrefetchAsync and cuMemAdvise); older drivers export
// only the original ones, which take a CUdevice ordinal (CU_DEVICE_CPU for
// the host). Each method uses the newer symbol when the driver has it and
// the older one otherwise: a fallback of the binding, not policy.

// deviceCPU is CU_DEVICE_CPU, the host in the v1 entry points.
const deviceCPU = -1

// v1Device is loc as the CUdevice argument of a v1 entry point.
func v1Device(loc MemLocation) (int32, error) {
	switch loc.Type {
	case MemLocationDevice:
		return loc.ID, nil
	case MemLocationHost:
		return deviceCPU, nil
	}
	return 0, fmt.Errorf("location type %d needs the CUDA 12.2 entry points, which this driver lacks", loc.Type)
}

// MemPrefetchAsync migrates n bytes of managed memory at p to loc in
// stream order (cuMemPrefetchAsync_v2; flags must be 0). On a driver
// without it, cuMemPrefetchAsync with loc's ordinal (flags 0 only).
func (d *Driver) MemPrefetchAsync(p DevicePtr, n int, loc MemLocation, flags uint32, s Stream) error {
	if d.cuMemPrefetchAsync.addr != 0 || d.cuMemPrefetchAsyncV1.addr == 0 {
		return d.call5(&d.cuMemPrefetchAsync, uintptr(p), uintptr(n), loc.word(), uintptr(flags), uintptr(s))
	}
	dev, err := v1Device(loc)
	if err == nil && flags != 0 {
		err = errors.New("cuMemPrefetchAsync (v1) takes no flags")
	}
	if err != nil {
		return err
	}
	return d.call4(&d.cuMemPrefetchAsyncV1, uintptr(p), uintptr(n), uintptr(dev), uintptr(s))
}

// HasMemPrefetchBatch reports whether the driver exports
// cuMemPrefetchBatchAsync (CUDA 12.8+).
func (d *Driver) HasMemPrefetchBatch() bool { return d.cuMemPrefetchBatchAsync.addr != 0 }

// MemPrefetchBatchAsync prefetches the ranges {ptrs[i], sizes[i]} in
// stream order, as one operation (cuMemPrefetchBatchAsync): locs[k]
// applies to the ranges from locIdxs[k] up to the next entry's index (the
// last to the end). flags must be 0; s must not be the legacy stream.
// The slices are read during the call only.
func (d *Driver) MemPrefetchBatchAsync(ptrs []DevicePtr, sizes []uintptr, locs []MemLocation, locIdxs []uintptr, flags uint64, s Stream) error {
	if len(ptrs) == 0 || len(ptrs) != len(sizes) || len(locs) == 0 || len(locs) != len(locIdxs) {
		return fmt.Errorf("cuMemPrefetchBatchAsync: %d pointers, %d sizes, %d locations, %d location indices",
			len(ptrs), len(sizes), len(locs), len(locIdxs))
	}
	return d.call8(&d.cuMemPrefetchBatchAsync, uintptr(unsafe.Pointer(&ptrs[0])), uintptr(unsafe.Pointer(&sizes[0])),
		uintptr(len(ptrs)), uintptr(unsafe.Pointer(&locs[0])), uintptr(unsafe.Pointer(&locIdxs[0])), uintptr(len(locs)),
		uintptr(flags), uintptr(s))
}

// MemAdvise is a CUmem_advise value.
type MemAdvise int32

const (
	MemAdviseSetReadMostly          MemAdvise = 1
	MemAdviseUnsetReadMostly        MemAdvise = 2
	MemAdviseSetPreferredLocation   MemAdvise = 3
	MemAdviseUnsetPreferredLocation MemAdvise = 4
	MemAdviseSetAccessedBy          MemAdvise = 5
	MemAdviseUnsetAccessedBy        MemAdvise = 6
)

// MemAdvise advises the driver about the use of n bytes of managed memory
// at p (cuMemAdvise_v2; loc is ignored by the read-mostly and unset
// preferred location advice). On a driver without it, cuMemAdvise with
// loc's ordinal.
func (d *Driver) MemAdvise(p DevicePtr, n int, advice MemAdvise, loc MemLocation) error {
	if d.cuMemAdvise.addr != 0 || d.cuMemAdviseV1.addr == 0 {
		return d.call4(&d.cuMemAdvise, uintptr(p), uintptr(n), uintptr(advice), loc.word())
	}
	dev, err := v1Device(loc)
	if err != nil {
		return err
	}
	return d.call4(&d.cuMemAdviseV1, uintptr(p), uintptr(n), uintptr(advice), uintptr(dev))
}
