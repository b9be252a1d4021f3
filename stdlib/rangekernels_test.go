package stdlib

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// The range kernels are IR built by hand: both backends must accept them
// for every dtype (the script tests check what they compute).
func TestRangeKernelsIR(t *testing.T) {
	for _, dt := range []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64} {
		ks := []*ir.Kernel{seqKernel("gscript_arange_"+dt.String(), dt, false), seqKernel("gscript_linspace_"+dt.String(), dt, true)}
		if dt.IsInt() {
			ks = append(ks, exactRangeKernel(dt))
		}
		for _, k := range ks {
			if err := ir.Verify(k); err != nil {
				t.Errorf("%s: %v", k.Entry.Name, err)
			}
			if _, err := codegen.Source(k, codegen.Options{UnitStride: true}); err != nil {
				t.Errorf("%s: codegen: %v", k.Entry.Name, err)
			}
			if _, err := backend.Compile(k, mem.CPUDevice, backend.Options{}); err != nil {
				t.Errorf("%s: cpu: %v", k.Entry.Name, err)
			}
		}
	}
}

// The rand fill kernels too, for every dtype rand, randn and randint take.
func TestRandKernelsIR(t *testing.T) {
	for _, dt := range []ir.Type{ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64} {
		draws := []randDraw{drawInt}
		if dt.IsFloat() {
			draws = []randDraw{drawUniform, drawNormal}
		}
		for _, d := range draws {
			k := randKernel("gscript_"+string(d)+"_"+dt.String(), d, dt)
			if err := ir.Verify(k); err != nil {
				t.Errorf("%s: %v", k.Entry.Name, err)
			}
			if _, err := codegen.Source(k, codegen.Options{UnitStride: true}); err != nil {
				t.Errorf("%s: codegen: %v", k.Entry.Name, err)
			}
			if _, err := backend.Compile(k, mem.CPUDevice, backend.Options{}); err != nil {
				t.Errorf("%s: cpu: %v", k.Entry.Name, err)
			}
		}
	}
}
