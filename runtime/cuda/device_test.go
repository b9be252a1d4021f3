package cuda

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParadigmTable(t *testing.T) {
	cases := []struct {
		name string
		caps Capabilities
		want Paradigm
	}{
		{"no concurrent access", Capabilities{ManagedMemory: true}, ParadigmLimited},
		// The first row wins: pageable access does not rescue a device
		// without concurrent managed access.
		{"limited despite pageable", Capabilities{ManagedMemory: true, PageableMemoryAccess: true,
			PageableMemoryAccessUsesHostPageTables: true}, ParadigmLimited},
		{"H200 here", h200Caps, ParadigmManagedOnly},
		{"host page tables without pageable", Capabilities{ConcurrentManagedAccess: true,
			PageableMemoryAccessUsesHostPageTables: true}, ParadigmManagedOnly},
		{"HMM", Capabilities{ManagedMemory: true, ConcurrentManagedAccess: true, PageableMemoryAccess: true}, ParadigmHMM},
		{"ATS", Capabilities{ManagedMemory: true, ConcurrentManagedAccess: true, PageableMemoryAccess: true,
			PageableMemoryAccessUsesHostPageTables: true}, ParadigmATS},
		{"ATS with direct host access", Capabilities{ConcurrentManagedAccess: true, PageableMemoryAccess: true,
			PageableMemoryAccessUsesHostPageTables: true, DirectManagedMemAccessFromHost: true}, ParadigmATS},
	}
	for _, c := range cases {
		if got := ParadigmOf(c.caps); got != c.want {
			t.Errorf("%s: ParadigmOf = %v, want %v", c.name, got, c.want)
		}
	}
	names := []string{ParadigmLimited.String(), ParadigmManagedOnly.String(), ParadigmHMM.String(), ParadigmATS.String()}
	if !reflect.DeepEqual(names, []string{"limited", "managed-only", "HMM", "ATS"}) {
		t.Errorf("paradigm names %v", names)
	}
}

// h200Caps are the capabilities measured on the H200 (GPU.md).
var h200Caps = Capabilities{UnifiedAddressing: true, ManagedMemory: true, ConcurrentManagedAccess: true,
	MemoryPoolsSupported: true, CanMapHostMemory: true}

// TestAttributeNumbers pins the CUdevice_attribute numbers MEMORY.md and
// cuda.h give: a wrong number would silently read another capability.
func TestAttributeNumbers(t *testing.T) {
	want := map[string]DeviceAttribute{
		"unified_addressing": 41, "managed_memory": 83, "concurrent_managed_access": 89,
		"pageable_memory_access": 88, "pageable_memory_access_uses_host_page_tables": 100,
		"direct_managed_mem_access_from_host": 101, "host_native_atomic_supported": 86,
		"memory_pools_supported": 115, "integrated": 18, "can_map_host_memory": 19,
		"compute_capability_major": 75, "compute_capability_minor": 76, "multiprocessor_count": 16,
		"max_threads_per_block": 1, "max_threads_per_multiprocessor": 39, "warp_size": 10, "max_shared_memory_per_block": 8,
		"max_shared_memory_per_block_optin": 97,
		"pci_bus_id":                        33, "pci_device_id": 34, "pci_domain_id": 50, "tcc_driver": 35,
		"ipc_event_supported": 125, "handle_type_posix_file_descriptor_supported": 103,
		"mempool_supported_handle_types": 119,
	}
	seen := map[DeviceAttribute]bool{}
	for _, f := range attrFields {
		if w, ok := want[f.Name]; !ok || w != f.Attr {
			t.Errorf("attribute %s = %d, want %d (known %v)", f.Name, f.Attr, w, ok)
		}
		if seen[f.Attr] {
			t.Errorf("attribute %d read twice", f.Attr)
		}
		seen[f.Attr] = true
	}
	if len(attrFields) != len(want) {
		t.Errorf("%d attributes in the table, %d expected", len(attrFields), len(want))
	}
}

// TestNewDeviceInfo feeds the H200's attribute values through the table
// and checks that each lands in its own field.
func TestNewDeviceInfo(t *testing.T) {
	vals := map[DeviceAttribute]int{
		AttrComputeCapabilityMajor: 9, AttrComputeCapabilityMinor: 0, AttrMultiprocessorCount: 132,
		AttrUnifiedAddressing: 1, AttrManagedMemory: 1, AttrConcurrentManagedAccess: 1,
		AttrMemoryPoolsSupported: 1, AttrCanMapHostMemory: 1, AttrMaxThreadsPerBlock: 1024, AttrWarpSize: 32,
		AttrMempoolSupportedHandleTypes: 9, AttrIPCEventSupported: 1, AttrPCIBusID: 0x1b,
	}
	info, err := newDeviceInfo(0, "NVIDIA H200", 150<<30, func(a DeviceAttribute) (int, error) { return vals[a], nil })
	if err != nil {
		t.Fatal(err)
	}
	if info.Caps != h200Caps {
		t.Errorf("caps %+v, want %+v", info.Caps, h200Caps)
	}
	if info.Major != 9 || info.Minor != 0 || info.MultiprocessorCount != 132 || info.WarpSize != 32 ||
		info.MaxThreadsPerBlock != 1024 || info.PCIBus != 0x1b || info.TotalMem != 150<<30 {
		t.Errorf("numbers wrong: %+v", info)
	}
	if !info.IPC.EventSupported || info.IPC.MempoolSupportedHandleTypes != 9 || info.IPC.TCCDriver {
		t.Errorf("IPC support wrong: %+v", info.IPC)
	}
	if info.Paradigm != ParadigmManagedOnly {
		t.Errorf("paradigm %v", info.Paradigm)
	}
	attrs := info.Attributes()
	if len(attrs) != len(attrFields) || attrs[0].Name != "compute_capability_major" || attrs[0].Value != 9 {
		t.Errorf("Attributes() = %v", attrs)
	}
	// Each boolean capability comes from its own attribute alone.
	for _, f := range attrFields {
		one, _ := newDeviceInfo(0, "x", 0, func(a DeviceAttribute) (int, error) {
			if a == f.Attr {
				return 1, nil
			}
			return 0, nil
		})
		if n := countTrue(one.Caps) + countTrue(one.IPC); n > 1 {
			t.Errorf("attribute %s set %d flags", f.Name, n)
		}
	}
}

func countTrue(v any) int {
	n := 0
	rv := reflect.ValueOf(v)
	for i := range rv.NumField() {
		if f := rv.Field(i); f.Kind() == reflect.Bool && f.Bool() {
			n++
		}
	}
	return n
}

func TestNewDeviceInfoError(t *testing.T) {
	boom := errors.New("boom")
	_, err := newDeviceInfo(3, "x", 0, func(a DeviceAttribute) (int, error) {
		if a == AttrManagedMemory {
			return 0, boom
		}
		return 1, nil
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "cuda:3: reading managed_memory (83)") {
		t.Errorf("error %v", err)
	}
}

func TestDeviceOrdinalRange(t *testing.T) {
	d := fakeDriver(t)
	if _, err := d.Device(1); err == nil || !strings.Contains(err.Error(), "no CUDA device cuda:1 (1 found)") {
		t.Errorf("Device(1) on a 1-device driver: %v", err)
	}
	if _, err := d.DeviceCanAccessPeer(0, -1); err == nil {
		t.Error("negative ordinal accepted")
	}
}

// TestSymbolTable checks that every proc of the driver is in the
// resolution table (a forgotten one would be a nil call) and that the
// versioned names cuda.h maps to are the ones used.
func TestSymbolTable(t *testing.T) {
	var p procs
	got := map[string]bool{}
	p.resolve(func(name string) uintptr { got[name] = true; return 1 })
	rv := reflect.ValueOf(p)
	for i := range rv.NumField() {
		if f := rv.Field(i); f.FieldByName("addr").Uint() == 0 || f.FieldByName("names").Len() == 0 {
			t.Errorf("proc %s is not in the symbol table", rv.Type().Field(i).Name)
		}
	}
	for _, n := range []string{"cuCtxSynchronize", "cuMemAlloc_v2", "cuMemFree_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2",
		"cuMemcpyDtoD_v2", "cuMemcpyDtoHAsync_v2", "cuMemGetInfo_v2", "cuDevicePrimaryCtxRelease_v2",
		"cuStreamDestroy_v2", "cuEventDestroy_v2", "cuIpcOpenMemHandle_v2", "cuGraphInstantiateWithFlags",
		"cuMemPrefetchAsync_v2", "cuStreamBeginCapture_v2", "cuDeviceTotalMem_v2", "cuMemsetD8_v2",
		"cuEventElapsedTime_v2", "cuMemHostAlloc"} {
		if !got[n] {
			t.Errorf("symbol %s is not resolved", n)
		}
	}
	if got["cuMemAlloc"] || got["cuGraphInstantiate"] {
		t.Error("an unversioned (old ABI) symbol is looked up")
	}
	// The v1 prefetch and advice symbols are looked up, each as a proc of
	// its own: never as a fallback name of the v2 proc.
	for _, q := range []proc{p.cuMemPrefetchAsync, p.cuMemAdvise} {
		if len(q.names) != 1 || !strings.HasSuffix(q.names[0], "_v2") {
			t.Errorf("%v: the v2 proc must resolve its _v2 symbol only", q.names)
		}
	}
	if p.cuMemPrefetchAsyncV1.name() != "cuMemPrefetchAsync" || p.cuMemAdviseV1.name() != "cuMemAdvise" {
		t.Error("the v1 fallbacks are not bound")
	}
}

func TestSymbolFallbackAndRequired(t *testing.T) {
	var p procs
	missing := p.resolve(func(name string) uintptr {
		if name == "cuEventElapsedTime_v2" || name == "cuMemPrefetchAsync_v2" {
			return 0 // an older driver
		}
		return 1
	})
	if missing != "" {
		t.Errorf("optional symbol reported missing: %s", missing)
	}
	if p.cuEventElapsedTime.addr == 0 {
		t.Error("cuEventElapsedTime did not fall back to the unversioned symbol")
	}
	if p.cuMemPrefetchAsync.addr != 0 || p.cuMemPrefetchAsyncV1.addr == 0 {
		t.Error("cuMemPrefetchAsync_v2 must stay unresolved, with the old signature in a proc of its own")
	}
	var q procs
	if miss := q.resolve(func(name string) uintptr {
		if name == "cuMemAlloc_v2" {
			return 0
		}
		return 1
	}); miss != "cuMemAlloc_v2" {
		t.Errorf("missing required symbol reported as %q", miss)
	}
}
