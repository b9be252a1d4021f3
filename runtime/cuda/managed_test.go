package cuda

import (
	"errors"
	"testing"
)

func TestV1Device(t *testing.T) {
	if d, err := v1Device(HostLocation); err != nil || d != deviceCPU {
		t.Errorf("host = %d, %v; want CU_DEVICE_CPU", d, err)
	}
	if d, err := v1Device(DeviceLocation(3)); err != nil || d != 3 {
		t.Errorf("device 3 = %d, %v", d, err)
	}
	if _, err := v1Device(MemLocation{Type: MemLocationHostNUMA, ID: 1}); err == nil {
		t.Error("a NUMA location has no v1 form")
	}
}

// TestPrefetchAdviseFallbacks runs the calls against the libc stand-in
// (labs(0) is CUDA_SUCCESS): the v2 entry points when resolved, the v1
// ones on an older driver, and a *SymbolError naming the v2 symbol when
// neither is there.
func TestPrefetchAdviseFallbacks(t *testing.T) {
	d := fakeDriver(t)
	if err := d.MemPrefetchAsync(0, 1, DeviceLocation(0), 0, 0); err != nil {
		t.Errorf("v2 prefetch: %v", err)
	}
	if err := d.MemAdvise(0, 1, MemAdviseSetReadMostly, DeviceLocation(0)); err != nil {
		t.Errorf("v2 advise: %v", err)
	}
	d.cuMemPrefetchAsync.addr, d.cuMemAdvise.addr = 0, 0 // a driver older than 12.2
	if err := d.MemPrefetchAsync(0, 1, HostLocation, 0, 0); err != nil {
		t.Errorf("v1 prefetch: %v", err)
	}
	if err := d.MemPrefetchAsync(0, 1, HostLocation, 1, 0); err == nil {
		t.Error("v1 prefetch accepted flags")
	}
	if err := d.MemAdvise(0, 1, MemAdviseSetPreferredLocation, MemLocation{Type: MemLocationHostNUMA}); err == nil {
		t.Error("v1 advise accepted a NUMA location")
	}
	if err := d.MemAdvise(0, 1, MemAdviseSetAccessedBy, HostLocation); err != nil {
		t.Errorf("v1 advise: %v", err)
	}
	d.cuMemPrefetchAsyncV1.addr, d.cuMemAdviseV1.addr = 0, 0
	var se *SymbolError
	if err := d.MemPrefetchAsync(0, 1, HostLocation, 0, 0); !errors.As(err, &se) || se.Symbol != "cuMemPrefetchAsync_v2" {
		t.Errorf("no prefetch symbol: %v", err)
	}
	if err := d.MemAdvise(0, 1, MemAdviseSetReadMostly, HostLocation); !errors.As(err, &se) || se.Symbol != "cuMemAdvise_v2" {
		t.Errorf("no advise symbol: %v", err)
	}
}

func TestPrefetchBatchLengths(t *testing.T) {
	d := fakeDriver(t)
	if !d.HasMemPrefetchBatch() {
		t.Fatal("the stand-in exports every symbol")
	}
	locs := []MemLocation{DeviceLocation(0)}
	for _, c := range []struct {
		ptrs    []DevicePtr
		sizes   []uintptr
		locs    []MemLocation
		locIdxs []uintptr
	}{
		{nil, nil, locs, []uintptr{0}},
		{[]DevicePtr{1, 2}, []uintptr{1}, locs, []uintptr{0}},
		{[]DevicePtr{1}, []uintptr{1}, nil, nil},
		{[]DevicePtr{1}, []uintptr{1}, locs, []uintptr{0, 1}},
	} {
		if err := d.MemPrefetchBatchAsync(c.ptrs, c.sizes, c.locs, c.locIdxs, 0, 0); err == nil {
			t.Errorf("lengths %d %d %d %d accepted", len(c.ptrs), len(c.sizes), len(c.locs), len(c.locIdxs))
		}
	}
	d.cuMemPrefetchBatchAsync.addr = 0
	if d.HasMemPrefetchBatch() {
		t.Error("HasMemPrefetchBatch without the symbol")
	}
}
