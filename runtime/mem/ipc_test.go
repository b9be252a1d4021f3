package mem

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// builtinFake makes an array that claims a built-in allocator (nothing is
// allocated: ipcCheck only reads metadata).
func builtinFake(alloc Allocator, kind Kind, dev Device, o origin) *Array {
	buf := &Buffer{a: &allocation{ptr: 0x1000, nbytes: 64, alloc: alloc, dev: dev}, kind: kind, origin: o}
	return newArray(buf, 0, []int{16})
}

func TestIPCRejectionOrder(t *testing.T) {
	good := &cuda.DeviceInfo{Caps: cuda.Capabilities{UnifiedAddressing: true}}
	noUVA := &cuda.DeviceInfo{}
	tcc := &cuda.DeviceInfo{Caps: cuda.Capabilities{UnifiedAddressing: true}, IPC: cuda.IPCSupport{TCCDriver: true}}
	view := func(a *Array) *Array { v, _ := a.Slice(0, 4); return v }
	dev := builtinFake(DeviceAllocator{}, CUDADevice, cuda0, fromAllocator)
	tests := []struct {
		name string
		a    *Array
		info *cuda.DeviceInfo
		want string // "" accepted
	}{
		{"cpu", builtinFake(HostAllocator{}, Host, CPUDevice, fromAllocator), noUVA, "not a CUDA device"},
		{"pinned cpu", builtinFake(PinnedAllocator{}, Pinned, CPUDevice, fromAllocator), good, "not a CUDA device"},
		{"managed before device support", builtinFake(ManagedAllocator{}, CUDAManaged, cuda0, fromAllocator), noUVA, "IPC is not supported for managed memory"},
		{"managed view", view(builtinFake(ManagedPoolAllocator{}, CUDAManaged, cuda0, fromAllocator)), good, "IPC is not supported for managed memory"},
		{"device support before mempool", builtinFake(MempoolAllocator{}, CUDAMempool, cuda0, fromAllocator), noUVA, "does not support IPC (unified_addressing=0)"},
		{"tcc", dev, tcc, "tcc_driver=1"},
		{"mempool", builtinFake(MempoolAllocator{}, CUDAMempool, cuda0, fromAllocator), good, "`using device`"},
		{"mempool view", view(builtinFake(MempoolAllocator{}, CUDAMempool, cuda0, fromAllocator)), good, "`using device`"},
		{"view", view(dev), good, "not supported for views"},
		{"wrapped view", view(builtinFake(external{name: "wrapped"}, CUDADevice, cuda0, fromWrap)), good, "not supported for views"},
		{"wrapped", builtinFake(external{name: "wrapped"}, CUDADevice, cuda0, fromWrap), good, "externally wrapped"},
		{"from ipc", builtinFake(ipcMapping{}, CUDADevice, cuda0, fromIPC), good, "externally wrapped"},
		{"custom", builtinFake(newFake(CUDADevice), CUDADevice, cuda0, fromAllocator), good, "from the fake allocator"},
		{"device", dev, good, ""},
	}
	for _, tc := range tests {
		err := ipcCheck(tc.a, func(Device) (*cuda.DeviceInfo, error) { return tc.info, nil })
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
