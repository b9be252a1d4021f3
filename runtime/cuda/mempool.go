package cuda

import (
	"unsafe"
)

// MemPool is a CUmemoryPool.
type MemPool uintptr

// MemAllocationType is a CUmemAllocationType.
type MemAllocationType int32

const (
	MemAllocationPinned  MemAllocationType = 1 // device (or host) memory that does not migrate
	MemAllocationManaged MemAllocationType = 2 // managed memory (CUDA 13 managed pools)
)

// MemAccessFlags is a CUmemAccess_flags value.
type MemAccessFlags int32

const (
	MemAccessNone      MemAccessFlags = 0
	MemAccessRead      MemAccessFlags = 1
	MemAccessReadWrite MemAccessFlags = 3
)

// MemPoolProps describes a pool for MemPoolCreate (CUmemPoolProps without
// the Windows-only field). HandleTypes 0 makes a pool without IPC.
type MemPoolProps struct {
	AllocType   MemAllocationType
	HandleTypes uint32
	Location    MemLocation
	MaxSize     uint64 // 0: system default
	Usage       uint16
}

// cMemPoolProps is CUmemPoolProps_v1 byte for byte (88 bytes on 64-bit).
type cMemPoolProps struct {
	allocType   int32
	handleTypes uint32
	locType     int32
	locID       int32
	win32       uintptr
	maxSize     uint64
	usage       uint16
	reserved    [54]byte
}

func (p MemPoolProps) c() cMemPoolProps {
	return cMemPoolProps{
		allocType: int32(p.AllocType), handleTypes: p.HandleTypes,
		locType: int32(p.Location.Type), locID: p.Location.ID,
		maxSize: p.MaxSize, usage: p.Usage,
	}
}

// MemAccessDesc is a CUmemAccessDesc: the access loc gets to a pool.
type MemAccessDesc struct {
	Location MemLocation
	Flags    MemAccessFlags
}

// cMemAccessDesc is CUmemAccessDesc_v1 (12 bytes).
type cMemAccessDesc struct {
	locType int32
	locID   int32
	flags   int32
}

// DeviceGetDefaultMemPool is the pool MemAllocAsync uses on a device.
func (d *Driver) DeviceGetDefaultMemPool(ordinal int) (MemPool, error) {
	h, err := d.handle(ordinal)
	if err != nil {
		return 0, err
	}
	var p MemPool
	err = d.call2(&d.cuDeviceGetDefaultMemPool, uintptr(unsafe.Pointer(&p)), h)
	return p, err
}

// MemPoolCreate makes a pool. A managed pool (CUDA 13) is AllocType
// MemAllocationManaged with a device location.
func (d *Driver) MemPoolCreate(props MemPoolProps) (MemPool, error) {
	c := props.c()
	var p MemPool
	err := d.call2(&d.cuMemPoolCreate, uintptr(unsafe.Pointer(&p)), uintptr(unsafe.Pointer(&c)))
	return p, err
}

// MemPoolDestroy destroys a pool made by MemPoolCreate.
func (d *Driver) MemPoolDestroy(p MemPool) error { return d.call1(&d.cuMemPoolDestroy, uintptr(p)) }

// MemAllocFromPoolAsync allocates n bytes from pool in stream order; it is
// recorded as a graph allocation node during capture.
func (d *Driver) MemAllocFromPoolAsync(n int, pool MemPool, s Stream) (DevicePtr, error) {
	var p DevicePtr
	err := d.call4(&d.cuMemAllocFromPoolAsync, uintptr(unsafe.Pointer(&p)), uintptr(n), uintptr(pool), uintptr(s))
	return p, err
}

// MemPoolSetAccess grants or revokes access to pool memory.
func (d *Driver) MemPoolSetAccess(pool MemPool, descs []MemAccessDesc) error {
	if len(descs) == 0 {
		return nil
	}
	c := make([]cMemAccessDesc, len(descs))
	for i, a := range descs {
		c[i] = cMemAccessDesc{int32(a.Location.Type), a.Location.ID, int32(a.Flags)}
	}
	return d.call3(&d.cuMemPoolSetAccess, uintptr(pool), uintptr(unsafe.Pointer(&c[0])), uintptr(len(c)))
}

// MemPoolGetAccess reports the access loc has to pool memory.
func (d *Driver) MemPoolGetAccess(pool MemPool, loc MemLocation) (MemAccessFlags, error) {
	var f MemAccessFlags
	l := loc
	err := d.call3(&d.cuMemPoolGetAccess, uintptr(unsafe.Pointer(&f)), uintptr(pool), uintptr(unsafe.Pointer(&l)))
	return f, err
}

// MemPoolTrimTo releases pool memory back to the device until the pool
// holds at most keep bytes beyond its live allocations (cuMemPoolTrimTo).
func (d *Driver) MemPoolTrimTo(p MemPool, keep uint64) error {
	return d.call2(&d.cuMemPoolTrimTo, uintptr(p), uintptr(keep))
}

// MemPoolAttribute is a CUmemPool_attribute.
type MemPoolAttribute int32

// The pool attributes. The reuse attributes are C ints (0 or 1); the
// others are cuuint64_t byte counts. Setting ReservedMemHigh or
// UsedMemHigh resets the high-water mark (the value must be 0).
const (
	MemPoolReuseFollowEventDependencies   MemPoolAttribute = 1 // CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES (int)
	MemPoolReuseAllowOpportunistic        MemPoolAttribute = 2 // CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC (int)
	MemPoolReuseAllowInternalDependencies MemPoolAttribute = 3 // CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES (int)
	MemPoolReleaseThreshold               MemPoolAttribute = 4 // CU_MEMPOOL_ATTR_RELEASE_THRESHOLD: bytes kept across synchronizations
	MemPoolReservedMemCurrent             MemPoolAttribute = 5 // CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT: bytes mapped for the pool
	MemPoolReservedMemHigh                MemPoolAttribute = 6 // CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH
	MemPoolUsedMemCurrent                 MemPoolAttribute = 7 // CU_MEMPOOL_ATTR_USED_MEM_CURRENT: bytes of live allocations
	MemPoolUsedMemHigh                    MemPoolAttribute = 8 // CU_MEMPOOL_ATTR_USED_MEM_HIGH
)

// isInt reports whether the attribute's C type is int (else cuuint64_t).
func (a MemPoolAttribute) isInt() bool { return a >= 1 && a <= 3 }

// MemPoolSetAttribute sets a pool attribute (cuMemPoolSetAttribute). The
// value is passed as the attribute's own C type: an int for the reuse
// attributes, a cuuint64_t for the others.
func (d *Driver) MemPoolSetAttribute(p MemPool, attr MemPoolAttribute, v uint64) error {
	if attr.isInt() {
		i := int32(v)
		return d.call3(&d.cuMemPoolSetAttribute, uintptr(p), uintptr(attr), uintptr(unsafe.Pointer(&i)))
	}
	return d.call3(&d.cuMemPoolSetAttribute, uintptr(p), uintptr(attr), uintptr(unsafe.Pointer(&v)))
}

// MemPoolGetAttribute reads a pool attribute (cuMemPoolGetAttribute), read
// as the attribute's own C type and widened.
func (d *Driver) MemPoolGetAttribute(p MemPool, attr MemPoolAttribute) (uint64, error) {
	if attr.isInt() {
		var i int32
		err := d.call3(&d.cuMemPoolGetAttribute, uintptr(p), uintptr(attr), uintptr(unsafe.Pointer(&i)))
		return uint64(i), err
	}
	var v uint64
	err := d.call3(&d.cuMemPoolGetAttribute, uintptr(p), uintptr(attr), uintptr(unsafe.Pointer(&v)))
	return v, err
}
