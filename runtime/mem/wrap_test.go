package mem

import (
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

func TestClassify(t *testing.T) {
	dev := cuda.MemoryTypeDevice
	tests := []struct {
		pi   cuda.PointerInfo
		err  error
		want Kind
	}{
		{cuda.PointerInfo{IsManaged: true, MemoryType: dev, MemPool: 7}, nil, CUDAManaged}, // managed pool: IS_MANAGED first
		{cuda.PointerInfo{IsManaged: true, MemoryType: cuda.MemoryTypeUnified}, nil, CUDAManaged},
		{cuda.PointerInfo{MemoryType: cuda.MemoryTypeHost}, nil, Pinned},
		{cuda.PointerInfo{MemoryType: dev, MemPool: 7}, nil, CUDAMempool},
		{cuda.PointerInfo{MemoryType: dev}, nil, CUDADevice},
		{cuda.PointerInfo{MemoryType: cuda.MemoryTypeArray}, nil, Unknown},
		{cuda.PointerInfo{}, nil, Unknown},
		{cuda.PointerInfo{MemoryType: dev}, errBoom, Unknown},
	}
	for _, tc := range tests {
		if got := classify(tc.pi, tc.err); got != tc.want {
			t.Errorf("classify(%+v, %v) = %s, want %s", tc.pi, tc.err, got, tc.want)
		}
	}
}

func TestWrapKind(t *testing.T) {
	devMem := cuda.PointerInfo{MemoryType: cuda.MemoryTypeDevice, DeviceOrdinal: 1}
	tests := []struct {
		dev  Device
		pi   cuda.PointerInfo
		want Kind
		err  string
	}{
		{CPUDevice, cuda.PointerInfo{}, Host, ""},
		{cuda0, cuda.PointerInfo{}, Unknown, ""},
		{CPUDevice, cuda.PointerInfo{MemoryType: cuda.MemoryTypeHost}, Pinned, ""},
		{cuda1, cuda.PointerInfo{MemoryType: cuda.MemoryTypeHost}, Pinned, ""},
		{cuda1, devMem, CUDADevice, ""},
		{cuda0, devMem, 0, "CUDA_DEVICE memory of cuda:1, not of cuda:0"},
		{CPUDevice, devMem, 0, "not cpu memory: wrap it on cuda:1"},
		{cuda0, cuda.PointerInfo{IsManaged: true, DeviceOrdinal: 0}, CUDAManaged, ""},
		{cuda0, cuda.PointerInfo{MemoryType: cuda.MemoryTypeDevice, MemPool: 3, DeviceOrdinal: 2}, 0, "CUDA_MEMPOOL memory of cuda:2"},
	}
	for _, tc := range tests {
		k, err := wrapKind(tc.dev, tc.pi, nil)
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) || (err == nil && k != tc.want) {
			t.Errorf("wrapKind(%s, %+v) = %s, %v; want %s, %q", tc.dev, tc.pi, k, err, tc.want, tc.err)
		}
	}
}

func TestWrapHostMemory(t *testing.T) {
	tr := NewTracker(nil)
	data := make([]float32, 8)
	released := 0
	a, err := Wrap(tr, uintptr(unsafe.Pointer(&data[0])), ir.F32, []int{2, 4}, CPUDevice, func() error { released++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind() != Host || !a.HostAccessible() || a.Allocator().Name() != "wrapped" {
		t.Errorf("cpu wrap: kind %s, host-accessible %v", a.Kind(), a.HostAccessible())
	}
	if err := a.StoreElem(5, uint64(0x40400000)); err != nil || data[5] != 3 {
		t.Errorf("write through the wrap: %v, %v", err, data)
	}
	if tr.Used() != 0 {
		t.Errorf("wrapped memory counted as gscript's: %d", tr.Used())
	}
	if err := a.Free(); err != nil || released != 1 {
		t.Errorf("release: %v, %d calls", err, released)
	}
	tr.FreeAll()
	if released != 1 {
		t.Errorf("released %d times", released)
	}
}

func TestWrapEdgeCases(t *testing.T) {
	tr := NewTracker(nil)
	released := 0
	z, err := Wrap(tr, 0, ir.F32, []int{0}, cuda0, func() error { released++; return errBoom })
	if err != nil || z.Kind() != Unknown {
		t.Fatalf("zero-size wrap: %v, %v", z, err)
	}
	if err := z.Free(); !errors.Is(err, errBoom) || released != 1 {
		t.Errorf("zero-size wrap release: %v, %d", err, released)
	}
	if _, err := Wrap(tr, 0, ir.F32, []int{4}, CPUDevice, nil); err == nil {
		t.Error("null pointer wrapped")
	}
	if !gpuPresent() {
		if _, err := Wrap(tr, 0x1000, ir.F32, []int{4}, cuda0, nil); err == nil || !strings.Contains(err.Error(), "wrap on cuda:0") {
			t.Errorf("CUDA wrap without CUDA: %v", err)
		}
	}
}
