package mem

import (
	"strings"
	"testing"
)

// TestChoose covers the selection order of MEMORY.md section 2 case by
// case, on simulated devices: cuda:0 supports memory pools, cuda:1 does
// not, and the registry has a per-device default (arena) on cuda:2 only.
func TestChoose(t *testing.T) {
	r := NewRegistry()
	r.Caps = func(d Device) Caps {
		if d == cuda0 {
			return capsManagedOnly // memory_pools_supported=1
		}
		return capsNone
	}
	arena := newFake(CUDADevice)
	arena.name = "arena"
	if err := r.SetDefault(cuda2, arena); err != nil {
		t.Fatal(err)
	}
	lookup := func(name string) Allocator {
		a, err := r.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	host, pinned, managed, device := lookup("host"), lookup("pinned"), lookup("managed"), lookup("device")
	cpu := CPUDevice
	on := func(a Allocator, d Device) AllocScope { return AllocScope{Alloc: a, Device: &d} }
	every := func(a Allocator) AllocScope { return AllocScope{Alloc: a} }
	tests := []struct {
		name     string
		explicit Allocator
		scopes   []AllocScope // outermost first
		dev      Device
		want     string // allocator name, or the error's text
	}{
		// the explicit allocator wins over everything, and must apply
		{"explicit", managed, []AllocScope{every(device)}, cuda2, "managed"},
		{"explicit not for cpu", managed, nil, cpu, "allocator managed does not apply to device cpu"},
		{"explicit not for cuda", host, []AllocScope{every(managed)}, cuda0, "allocator host does not apply to device cuda:0"},
		// the innermost scope that applies to the device
		{"innermost scope", nil, []AllocScope{every(device), every(managed)}, cuda0, "managed"},
		{"inner scope for cuda skipped on cpu", nil, []AllocScope{every(pinned), every(managed)}, cpu, "pinned"},
		{"no scope for cpu", nil, []AllocScope{every(managed)}, cpu, "host"},
		{"scope beats the per-device default", nil, []AllocScope{every(device)}, cuda2, "device"},
		// scopes restricted to a device
		{"scope on this device", nil, []AllocScope{every(device), on(managed, cuda1)}, cuda1, "managed"},
		{"scope on another device", nil, []AllocScope{every(device), on(managed, cuda1)}, cuda0, "device"},
		{"only a scope on another device", nil, []AllocScope{on(device, cuda1)}, cuda0, "mempool"},
		// the per-device default set by the embedding program
		{"per-device default", nil, nil, cuda2, "arena"},
		{"default of another device", nil, []AllocScope{on(managed, cuda2)}, cuda1, "device"},
		// the built-in default per device kind
		{"cpu", nil, nil, cpu, "host"},
		{"cuda with pools", nil, nil, cuda0, "mempool"},
		{"cuda without pools", nil, nil, cuda1, "device"},
	}
	for _, tc := range tests {
		a, err := r.Choose(tc.explicit, tc.scopes, tc.dev)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case a != nil:
			got = a.Name()
		}
		if got != tc.want {
			t.Errorf("%s: Choose = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCheckApplies(t *testing.T) {
	if err := CheckApplies(HostAllocator{}, CPUDevice); err != nil {
		t.Errorf("host on cpu: %v", err)
	}
	err := CheckApplies(DeviceAllocator{}, CPUDevice)
	if err == nil || !strings.Contains(err.Error(), "allocator device does not apply to device cpu") {
		t.Errorf("device on cpu: %v", err)
	}
}
