package interp

import (
	"math"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// escaped keeps test data on the heap: a stack that grows moves without
// updating the uintptr addresses of launch arguments.
var escaped any

// The fill kernel is IR built by hand: check that both backends accept it
// and that it means what it should (run on the cpu backend).
func TestFillKernelIR(t *testing.T) {
	for _, dt := range dtypes {
		for nd := 1; nd <= mem.MaxDims; nd++ {
			for _, k := range []*ir.Kernel{fillKernel(dt, nd), copyKernel(dt, dt, nd), copyKernel(dt, ir.F64, nd)} {
				if err := ir.Verify(k); err != nil {
					t.Errorf("%s: %v", k.Entry.Name, err)
				}
				if _, err := codegen.Source(k, codegen.Options{UnitStride: true}); err != nil {
					t.Errorf("%s: codegen: %v", k.Entry.Name, err)
				}
			}
		}
	}
	p, err := backend.Compile(fillKernel(ir.F32, 1), mem.CPUDevice, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]float32, 5)
	escaped = xs // on the heap: a launch takes its address as a uintptr
	args := []backend.Arg{
		{Array: backend.Array{Data: uintptr(unsafe.Pointer(&xs[0])), Shape: [4]int{5}, Strides: [4]int{1}}},
		{Bits: uint64(math.Float32bits(2.5))},
	}
	if err := p.Launch(&backend.Env{}, []int{5}, args); err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x != 2.5 {
			t.Fatalf("filled %v", xs)
		}
	}
}

// The copy kernel indexes through strides, negative ones included: a
// reversed source (data pointing at its last element, stride -1) on the
// cpu backend.
func TestCopyKernelNegativeStride(t *testing.T) {
	p, err := backend.Compile(copyKernel(ir.F32, ir.F32, 1), mem.CPUDevice, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, dst := []float32{1, 2, 3, 4}, make([]float32, 4)
	escaped = [][]float32{src, dst}
	args := []backend.Arg{
		{Array: backend.Array{Data: uintptr(unsafe.Pointer(&dst[0])), Shape: [4]int{4}, Strides: [4]int{1}}},
		{Array: backend.Array{Data: uintptr(unsafe.Pointer(&src[3])), Shape: [4]int{4}, Strides: [4]int{-1}}},
	}
	if err := p.Launch(&backend.Env{}, []int{4}, args); err != nil {
		t.Fatal(err)
	}
	if dst[0] != 4 || dst[3] != 1 {
		t.Fatalf("copied %v", dst)
	}
}
