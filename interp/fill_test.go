package interp

import (
	"math"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// The device fill kernel is IR built by hand: check that both backends
// accept it and that it means what it should (run on the cpu executor).
func TestFillKernelIR(t *testing.T) {
	for _, dt := range dtypes {
		k := fillKernel(dt)
		if _, err := codegen.Source(k.IR, codegen.Options{UnitStride: true}); err != nil {
			t.Errorf("%s: codegen: %v", dt, err)
		}
	}
	p, err := cpu.Compile(fillKernel(ir.F32).IR)
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]float32, 5)
	args := []cpu.Arg{
		{Array: cpu.ArrayArg{Data: unsafe.Pointer(&xs[0]), Shape: [4]int{5}, Strides: [4]int{1}}},
		{Bits: uint64(math.Float32bits(2.5))},
	}
	if err := p.Launch([]int{5}, args, cpu.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, x := range xs {
		if x != 2.5 {
			t.Fatalf("filled %v", xs)
		}
	}
}
