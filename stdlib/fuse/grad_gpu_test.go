package fuse_test

import (
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestGPUGradMatchesCPU: gradients on cuda:0 are the cpu's bit for bit
// (the same kernels, the reductions' fixed order), for every op check and
// the broadcast and gather ones (unrepeated indices: repeated ones add
// with atomics, in the order the threads land).
func TestGPUGradMatchesCPU(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	m := input{name: "m", shape: []int{2, 4}, vals: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8}}
	ix := input{name: "i", shape: []int{3}, vals: []float64{3, 0, 2}, dtype: "i64"}
	cases := append(mathCases(t), operatorCases...)
	cases = append(cases, opCase{"x * m + exp(m)", []input{vx, m}}, opCase{"sin(x[i]) * z[i]", []input{vx, vz, ix}})
	for _, dt := range []ir.Type{ir.F64, ir.F32} {
		for _, c := range cases {
			cpu, _ := (&gradCheck{t: t, dev: "cpu", dt: dt, ins: c.ins, expr: c.expr}).grads()
			gpu, _ := (&gradCheck{t: t, dev: "cuda:0", dt: dt, ins: c.ins, expr: c.expr}).grads()
			for name, g := range cpu {
				if !slices.Equal(g, gpu[name]) {
					t.Errorf("%s %s: d/d%s on cuda:0 %v, on the cpu %v", dt, c.expr, name, gpu[name], g)
				}
			}
		}
	}
}
