package cuda

import (
	"fmt"
	"unsafe"
)

// DeviceAttribute is a CUdevice_attribute value.
type DeviceAttribute int32

// The attributes read for every device (cuda.h, CUdevice_attribute).
const (
	AttrMaxThreadsPerBlock                     DeviceAttribute = 1
	AttrMaxSharedMemoryPerBlock                DeviceAttribute = 8
	AttrWarpSize                               DeviceAttribute = 10
	AttrMultiprocessorCount                    DeviceAttribute = 16
	AttrIntegrated                             DeviceAttribute = 18
	AttrCanMapHostMemory                       DeviceAttribute = 19
	AttrPCIBusID                               DeviceAttribute = 33
	AttrPCIDeviceID                            DeviceAttribute = 34
	AttrTCCDriver                              DeviceAttribute = 35
	AttrMaxThreadsPerMultiprocessor            DeviceAttribute = 39
	AttrMaxSharedMemoryPerBlockOptin           DeviceAttribute = 97
	AttrUnifiedAddressing                      DeviceAttribute = 41
	AttrPCIDomainID                            DeviceAttribute = 50
	AttrComputeCapabilityMajor                 DeviceAttribute = 75
	AttrComputeCapabilityMinor                 DeviceAttribute = 76
	AttrManagedMemory                          DeviceAttribute = 83
	AttrHostNativeAtomicSupported              DeviceAttribute = 86
	AttrPageableMemoryAccess                   DeviceAttribute = 88
	AttrConcurrentManagedAccess                DeviceAttribute = 89
	AttrPageableMemoryAccessUsesHostPageTables DeviceAttribute = 100
	AttrDirectManagedMemAccessFromHost         DeviceAttribute = 101
	AttrHandleTypePosixFileDescriptorSupported DeviceAttribute = 103
	AttrMemoryPoolsSupported                   DeviceAttribute = 115
	AttrMempoolSupportedHandleTypes            DeviceAttribute = 119
	AttrIPCEventSupported                      DeviceAttribute = 125
)

// Capabilities are the memory capabilities of MEMORY.md section 3, each
// read from its own attribute (never inferred from another one).
type Capabilities struct {
	UnifiedAddressing                      bool // 41
	ManagedMemory                          bool // 83
	ConcurrentManagedAccess                bool // 89
	PageableMemoryAccess                   bool // 88
	PageableMemoryAccessUsesHostPageTables bool // 100
	DirectManagedMemAccessFromHost         bool // 101
	HostNativeAtomicSupported              bool // 86
	MemoryPoolsSupported                   bool // 115
	Integrated                             bool // 18
	CanMapHostMemory                       bool // 19
}

// IPCSupport are the attributes that bear on sharing memory between
// processes. Legacy IPC (cuIpcGetMemHandle) has no attribute of its own: it
// needs Linux, unified addressing and no TCC driver.
type IPCSupport struct {
	EventSupported              bool // 125: cuIpcGetEventHandle works
	PosixFDHandleSupported      bool // 103: cuMemCreate memory exports as a POSIX fd
	MempoolSupportedHandleTypes int  // 119: CUmemAllocationHandleType bits for pool IPC
	TCCDriver                   bool // 35: Windows TCC mode
}

// DeviceInfo is everything read about a device, once, at first request.
type DeviceInfo struct {
	Ordinal                     int
	Name                        string
	Major, Minor                int // compute capability
	MultiprocessorCount         int
	TotalMem                    uint64 // bytes
	MaxThreadsPerBlock          int
	MaxThreadsPerMultiprocessor int // threads resident at once per SM
	MaxSharedMemoryPerBlock     int // without opting in (48 KiB)
	// MaxSharedMemoryPerBlockOptin is the most a kernel may use after
	// raising its CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES.
	MaxSharedMemoryPerBlockOptin int
	WarpSize                     int
	PCIDomain, PCIBus, PCIDevice int
	Caps                         Capabilities
	IPC                          IPCSupport
	Paradigm                     Paradigm
	// Attrs holds every attribute read, by number, as the driver gave it.
	Attrs map[DeviceAttribute]int
}

// attrField ties an attribute to its name and the field it fills.
type attrField struct {
	Name string
	Attr DeviceAttribute
	set  func(*DeviceInfo, int)
}

func flag(f func(*DeviceInfo) *bool) func(*DeviceInfo, int) {
	return func(i *DeviceInfo, v int) { *f(i) = v != 0 }
}

func num(f func(*DeviceInfo) *int) func(*DeviceInfo, int) {
	return func(i *DeviceInfo, v int) { *f(i) = v }
}

// attrFields is the table of attributes read per device. The names are the
// attribute's cuda.h name, lower case and without the prefix.
var attrFields = []attrField{
	{"compute_capability_major", AttrComputeCapabilityMajor, num(func(i *DeviceInfo) *int { return &i.Major })},
	{"compute_capability_minor", AttrComputeCapabilityMinor, num(func(i *DeviceInfo) *int { return &i.Minor })},
	{"multiprocessor_count", AttrMultiprocessorCount, num(func(i *DeviceInfo) *int { return &i.MultiprocessorCount })},
	{"max_threads_per_block", AttrMaxThreadsPerBlock, num(func(i *DeviceInfo) *int { return &i.MaxThreadsPerBlock })},
	{"max_threads_per_multiprocessor", AttrMaxThreadsPerMultiprocessor, num(func(i *DeviceInfo) *int { return &i.MaxThreadsPerMultiprocessor })},
	{"max_shared_memory_per_block", AttrMaxSharedMemoryPerBlock, num(func(i *DeviceInfo) *int { return &i.MaxSharedMemoryPerBlock })},
	{"max_shared_memory_per_block_optin", AttrMaxSharedMemoryPerBlockOptin,
		num(func(i *DeviceInfo) *int { return &i.MaxSharedMemoryPerBlockOptin })},
	{"warp_size", AttrWarpSize, num(func(i *DeviceInfo) *int { return &i.WarpSize })},
	{"pci_domain_id", AttrPCIDomainID, num(func(i *DeviceInfo) *int { return &i.PCIDomain })},
	{"pci_bus_id", AttrPCIBusID, num(func(i *DeviceInfo) *int { return &i.PCIBus })},
	{"pci_device_id", AttrPCIDeviceID, num(func(i *DeviceInfo) *int { return &i.PCIDevice })},
	{"unified_addressing", AttrUnifiedAddressing, flag(func(i *DeviceInfo) *bool { return &i.Caps.UnifiedAddressing })},
	{"managed_memory", AttrManagedMemory, flag(func(i *DeviceInfo) *bool { return &i.Caps.ManagedMemory })},
	{"concurrent_managed_access", AttrConcurrentManagedAccess, flag(func(i *DeviceInfo) *bool { return &i.Caps.ConcurrentManagedAccess })},
	{"pageable_memory_access", AttrPageableMemoryAccess, flag(func(i *DeviceInfo) *bool { return &i.Caps.PageableMemoryAccess })},
	{"pageable_memory_access_uses_host_page_tables", AttrPageableMemoryAccessUsesHostPageTables,
		flag(func(i *DeviceInfo) *bool { return &i.Caps.PageableMemoryAccessUsesHostPageTables })},
	{"direct_managed_mem_access_from_host", AttrDirectManagedMemAccessFromHost,
		flag(func(i *DeviceInfo) *bool { return &i.Caps.DirectManagedMemAccessFromHost })},
	{"host_native_atomic_supported", AttrHostNativeAtomicSupported, flag(func(i *DeviceInfo) *bool { return &i.Caps.HostNativeAtomicSupported })},
	{"memory_pools_supported", AttrMemoryPoolsSupported, flag(func(i *DeviceInfo) *bool { return &i.Caps.MemoryPoolsSupported })},
	{"integrated", AttrIntegrated, flag(func(i *DeviceInfo) *bool { return &i.Caps.Integrated })},
	{"can_map_host_memory", AttrCanMapHostMemory, flag(func(i *DeviceInfo) *bool { return &i.Caps.CanMapHostMemory })},
	{"ipc_event_supported", AttrIPCEventSupported, flag(func(i *DeviceInfo) *bool { return &i.IPC.EventSupported })},
	{"handle_type_posix_file_descriptor_supported", AttrHandleTypePosixFileDescriptorSupported,
		flag(func(i *DeviceInfo) *bool { return &i.IPC.PosixFDHandleSupported })},
	{"mempool_supported_handle_types", AttrMempoolSupportedHandleTypes, num(func(i *DeviceInfo) *int { return &i.IPC.MempoolSupportedHandleTypes })},
	{"tcc_driver", AttrTCCDriver, flag(func(i *DeviceInfo) *bool { return &i.IPC.TCCDriver })},
}

// AttrValue is one attribute of a device, for listings.
type AttrValue struct {
	Name  string
	Attr  DeviceAttribute
	Value int
}

// Attributes lists the attributes read for the device in table order.
func (i *DeviceInfo) Attributes() []AttrValue {
	out := make([]AttrValue, 0, len(attrFields))
	for _, f := range attrFields {
		out = append(out, AttrValue{f.Name, f.Attr, i.Attrs[f.Attr]})
	}
	return out
}

// newDeviceInfo builds a DeviceInfo from raw attribute values; get returns
// one attribute. It is the pure half of Device, testable without a GPU.
func newDeviceInfo(ordinal int, name string, totalMem uint64, get func(DeviceAttribute) (int, error)) (*DeviceInfo, error) {
	info := &DeviceInfo{Ordinal: ordinal, Name: name, TotalMem: totalMem, Attrs: map[DeviceAttribute]int{}}
	for _, f := range attrFields {
		v, err := get(f.Attr)
		if err != nil {
			return nil, fmt.Errorf("cuda:%d: reading %s (%d): %w", ordinal, f.Name, f.Attr, err)
		}
		info.Attrs[f.Attr] = v
		f.set(info, v)
	}
	info.Paradigm = ParadigmOf(info.Caps)
	return info, nil
}

// DeviceCount is the number of CUDA devices (at least 1 once Load worked).
func (d *Driver) DeviceCount() int { return len(d.handles) }

// Device returns the device's name, memory and capabilities, read from the
// driver on the first call for that ordinal and cached.
func (d *Driver) Device(ordinal int) (*DeviceInfo, error) {
	if ordinal < 0 || ordinal >= len(d.handles) {
		return nil, fmt.Errorf("no CUDA device cuda:%d (%d found)", ordinal, len(d.handles))
	}
	d.devOnce[ordinal].Do(func() { d.devInfo[ordinal], d.devErr[ordinal] = d.readDevice(ordinal) })
	return d.devInfo[ordinal], d.devErr[ordinal]
}

func (d *Driver) readDevice(ordinal int) (*DeviceInfo, error) {
	h := uintptr(d.handles[ordinal])
	var name [256]byte
	if err := d.call3(&d.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), uintptr(len(name)-1), h); err != nil {
		return nil, err
	}
	var total uint64
	if err := d.call2(&d.cuDeviceTotalMem, uintptr(unsafe.Pointer(&total)), h); err != nil {
		return nil, err
	}
	return newDeviceInfo(ordinal, goString(uintptr(unsafe.Pointer(&name[0]))), total, func(a DeviceAttribute) (int, error) {
		return d.DeviceGetAttribute(ordinal, a)
	})
}

// DeviceGetAttribute reads one attribute of a device (uncached).
func (d *Driver) DeviceGetAttribute(ordinal int, a DeviceAttribute) (int, error) {
	h, err := d.handle(ordinal)
	if err != nil {
		return 0, err
	}
	var v int32
	if err := d.call3(&d.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), h); err != nil {
		return 0, err
	}
	return int(v), nil
}

// DeviceCanAccessPeer reports whether contexts on dev may access memory of
// peer once peer access is enabled.
func (d *Driver) DeviceCanAccessPeer(dev, peer int) (bool, error) {
	h, err := d.handle(dev)
	if err != nil {
		return false, err
	}
	hp, err := d.handle(peer)
	if err != nil {
		return false, err
	}
	var v int32
	if err := d.call3(&d.cuDeviceCanAccessPeer, uintptr(unsafe.Pointer(&v)), h, hp); err != nil {
		return false, err
	}
	return v != 0, nil
}

// handle maps an ordinal to its CUdevice.
func (d *Driver) handle(ordinal int) (uintptr, error) {
	if ordinal < 0 || ordinal >= len(d.handles) {
		return 0, fmt.Errorf("no CUDA device cuda:%d (%d found)", ordinal, len(d.handles))
	}
	return uintptr(d.handles[ordinal]), nil
}

// Paradigm is how a device shares memory with the host (MEMORY.md 3).
type Paradigm int

const (
	// ParadigmLimited: managed memory migrates in bulk; the CPU must not
	// touch it while the GPU works.
	ParadigmLimited Paradigm = iota
	// ParadigmManagedOnly: managed memory with page faults and concurrent
	// access; pageable host memory is not reachable from the GPU.
	ParadigmManagedOnly
	// ParadigmHMM: pageable host memory reachable through software
	// coherence (heterogeneous memory management).
	ParadigmHMM
	// ParadigmATS: pageable host memory reachable through the host's page
	// tables (address translation services).
	ParadigmATS
)

var paradigmNames = [...]string{"limited", "managed-only", "HMM", "ATS"}

func (p Paradigm) String() string {
	if p >= 0 && int(p) < len(paradigmNames) {
		return paradigmNames[p]
	}
	return fmt.Sprintf("Paradigm(%d)", int(p))
}

// ParadigmOf applies the MEMORY.md section 3 table, first matching row
// first: concurrent managed access 0 is limited whatever else is set.
func ParadigmOf(c Capabilities) Paradigm {
	switch {
	case !c.ConcurrentManagedAccess:
		return ParadigmLimited
	case !c.PageableMemoryAccess:
		return ParadigmManagedOnly
	case !c.PageableMemoryAccessUsesHostPageTables:
		return ParadigmHMM
	default:
		return ParadigmATS
	}
}
