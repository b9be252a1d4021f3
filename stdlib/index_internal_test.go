package stdlib

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// The mask kernels are IR built by hand: both backends must accept them
// for each mode, dtype and mask rank (the script tests check what they
// compute on the cpu, the conformance run on the GPU).
func TestMaskKernelsIR(t *testing.T) {
	for _, dt := range []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.F32, ir.F64} {
		for _, nk := range [][2]int{{1, 1}, {2, 2}, {3, 1}} {
			for _, mode := range []maskMode{maskSelectMode, maskExpandMode, maskCoordsMode} {
				k, err := maskKernel(mode, dt, ir.F64, nk[0], nk[1])
				if err != nil {
					t.Fatal(err)
				}
				if err := ir.Verify(k); err != nil {
					t.Errorf("%s: %v", k.Entry.Name, err)
				}
				if _, err := codegen.Source(k, codegen.Options{}); err != nil {
					t.Errorf("%s: codegen: %v", k.Entry.Name, err)
				}
				if _, err := backend.Compile(k, mem.CPUDevice, backend.Options{}); err != nil {
					t.Errorf("%s: cpu: %v", k.Entry.Name, err)
				}
			}
		}
	}
}
