package fuse_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestGPUGradMatchesCPU: gradients on cuda:0 are the cpu's bit for bit
// (the same kernels, the reductions' fixed order) where the forward's
// are, for every op check and the broadcast and gather ones (unrepeated
// indices: repeated ones add with atomics, in the order the threads
// land). The transcendental functions (sin, exp, pow, tanh ...) are
// CUDA's libdevice on cuda:0 and Go's math on the cpu, which differ in
// the last bit of some results (sin(-0.8) in f32 on the H200), forward
// and backward alike: their gradients agree to a few units in the last
// place.
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
				if !closeGrads(g, gpu[name], dt, transcendental(c.expr)) {
					t.Errorf("%s %s: d/d%s on cuda:0 %v, on the cpu %v", dt, c.expr, name, gpu[name], g)
				}
			}
		}
	}
}

// transcendental reports whether expr calls a function whose results
// differ between libdevice and Go's math in their last bits.
func transcendental(expr string) bool {
	for _, f := range []string{"sin", "cos", "tan", "exp", "log", "pow", "**", "atan", "asin", "acos", "cbrt", "erf"} {
		if strings.Contains(expr, f) {
			return true
		}
	}
	return false
}

// closeGrads is bit equality, or for a transcendental expression a
// difference within 8 units in the last place of the largest element.
func closeGrads(a, b []float64, dt ir.Type, approx bool) bool {
	if !approx || len(a) != len(b) {
		return slices.Equal(a, b)
	}
	eps := 0x1p-52
	if dt == ir.F32 {
		eps = 0x1p-23
	}
	scale := 0.0
	for _, v := range a {
		scale = max(scale, math.Abs(v))
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 8*eps*max(scale, 1e-30) {
			return false
		}
	}
	return true
}
