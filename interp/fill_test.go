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
		if err := ir.Verify(fillKernel(dt)); err != nil {
			t.Errorf("%s: %v", dt, err)
		}
		if _, err := codegen.Source(fillKernel(dt), codegen.Options{UnitStride: true}); err != nil {
			t.Errorf("%s: codegen: %v", dt, err)
		}
	}
	p, err := backend.Compile(fillKernel(ir.F32), mem.CPUDevice, backend.Options{})
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
