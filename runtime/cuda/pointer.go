package cuda

import (
	"fmt"
	"unsafe"
)

// PointerAttribute is a CUpointer_attribute value.
type PointerAttribute int32

const (
	PointerAttrMemoryType         PointerAttribute = 2  // CUmemorytype (unsigned int)
	PointerAttrIsManaged          PointerAttribute = 8  // bool (unsigned int)
	PointerAttrDeviceOrdinal      PointerAttribute = 9  // int
	PointerAttrIsLegacyIPCCapable PointerAttribute = 10 // bool (unsigned int)
	PointerAttrMempoolHandle      PointerAttribute = 17 // CUmemoryPool
)

// MemoryType is a CUmemorytype.
type MemoryType int

const (
	MemoryTypeHost    MemoryType = 1
	MemoryTypeDevice  MemoryType = 2
	MemoryTypeArray   MemoryType = 3
	MemoryTypeUnified MemoryType = 4
)

// PointerGetAttributes reads several attributes of p in one call. Each
// value lands in the matching data slot, zero-extended (every attribute
// this package names fits in 8 bytes). For an address CUDA does not know,
// the driver succeeds and leaves the values zero.
func (d *Driver) PointerGetAttributes(p DevicePtr, attrs []PointerAttribute, data []uint64) error {
	if len(data) < len(attrs) {
		return fmt.Errorf("cuPointerGetAttributes: %d attributes but %d data slots", len(attrs), len(data))
	}
	if len(attrs) == 0 {
		return nil
	}
	slots := make([]unsafe.Pointer, len(attrs))
	for i := range attrs {
		data[i] = 0
		slots[i] = unsafe.Pointer(&data[i])
	}
	return d.call4(&d.cuPointerGetAttributes, uintptr(len(attrs)), uintptr(unsafe.Pointer(&attrs[0])),
		uintptr(unsafe.Pointer(&slots[0])), uintptr(p))
}

// PointerInfo is what the driver says about an address: the inputs of the
// memory-kind classification of MEMORY.md section 1.
type PointerInfo struct {
	IsManaged        bool
	MemoryType       MemoryType // 0 when CUDA does not know the address
	DeviceOrdinal    int
	MemPool          MemPool // 0 unless the memory came from a pool
	LegacyIPCCapable bool
}

var pointerInfoAttrs = []PointerAttribute{
	PointerAttrIsManaged, PointerAttrMemoryType, PointerAttrMempoolHandle,
	PointerAttrDeviceOrdinal, PointerAttrIsLegacyIPCCapable,
}

// PointerInfo reads IS_MANAGED, MEMORY_TYPE, MEMPOOL_HANDLE, DEVICE_ORDINAL
// and IS_LEGACY_CUDA_IPC_CAPABLE of p in one batched call.
func (d *Driver) PointerInfo(p DevicePtr) (PointerInfo, error) {
	var v [5]uint64
	if err := d.PointerGetAttributes(p, pointerInfoAttrs, v[:]); err != nil {
		return PointerInfo{}, err
	}
	return PointerInfo{
		IsManaged:        uint32(v[0]) != 0,
		MemoryType:       MemoryType(uint32(v[1])),
		MemPool:          MemPool(v[2]),
		DeviceOrdinal:    int(int32(uint32(v[3]))),
		LegacyIPCCapable: uint32(v[4]) != 0,
	}, nil
}
