package fuse_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// The inputs of the op checks: positive, below 1 (every math function's
// domain), x and z never equal (no ties of minimum, maximum and where),
// lo and hi putting x below, inside and above clip's range.
var (
	vx  = input{name: "x", shape: []int{4}, vals: []float64{0.15, 0.4, 0.6, 0.85}}
	vz  = input{name: "z", shape: []int{4}, vals: []float64{0.5, 0.35, 0.7, 0.25}}
	vlo = input{name: "lo", shape: []int{4}, vals: []float64{0.3, 0.2, 0.7, 0.1}}
	vhi = input{name: "hi", shape: []int{4}, vals: []float64{0.6, 0.5, 0.9, 0.5}}
	vs  = input{name: "s", shape: []int{4}, vals: []float64{-0.7, 0.3, -0.2, 1.1}} // signed
)

// opCase is one expression of the op checks and its inputs.
type opCase struct {
	expr string
	ins  []input
}

// mathCases are the op table's elementwise math functions with an
// adjoint rule, one case each (two for abs: both signs).
func mathCases(t *testing.T) []opCase {
	var cases []opCase
	for _, op := range ir.MathOps() {
		info, _ := op.Info()
		if !fuse.IsMath(info.Builtin) || op.Diff() != ir.DiffRule {
			continue
		}
		switch info.Arity {
		case 1:
			cases = append(cases, opCase{info.Builtin + "(x)", []input{vx}})
		case 2:
			cases = append(cases, opCase{info.Builtin + "(x, z)", []input{vx, vz}})
		default:
			t.Errorf("%s: no gradient check for arity %d", info.Builtin, info.Arity)
		}
	}
	if len(cases) < 19 {
		t.Fatalf("only %d math functions with a gradient", len(cases))
	}
	return append(cases, opCase{"abs(s)", []input{vs}})
}

// operatorCases are the operators and the other functions of
// expressions, each op of the table's rules they reach.
var operatorCases = []opCase{
	{"x + z", []input{vx, vz}}, {"x - z", []input{vx, vz}}, {"x * z", []input{vx, vz}},
	{"x / z", []input{vx, vz}}, {"x ** z", []input{vx, vz}}, {"-x", []input{vx}},
	{"x * 2.5 + 1", []input{vx}}, {"x ** 2", []input{vx}}, {"2.0 ** x", []input{vx}}, {"1 / x", []input{vx}},
	{"minimum(x, z)", []input{vx, vz}}, {"maximum(x, z)", []input{vx, vz}},
	{"clip(x, lo, hi)", []input{vx, vlo, vhi}}, {"clip(x, 0.3, 0.7)", []input{vx}},
	{"where(x > z, x * z, x - z)", []input{vx, vz}},
	{"x * x + sin(x) * z", []input{vx, vz}},
	{"floor(x * 3.0) * x + sign(x - z) + where(isnan(z), 0.0, z)", []input{vx, vz}}, // ops passing none
	{"tanh(x * z) + exp(-x) / (1 + z * z)", []input{vx, vz}},
	{"x * k.astype(x.dtype) + k", []input{vx, {name: "k", shape: []int{4}, vals: []float64{1, -2, 3, 0}, dtype: "i32"}}},
}

// tolerance is issue 31's: f64 to 1e-6, f32 to 1e-2.
func tolerance(dt ir.Type) float64 {
	if dt == ir.F32 {
		return 1e-2
	}
	return 1e-6
}

// TestGradOps checks every op's gradient against finite differences, in
// f64 and f32, on the cpu.
func TestGradOps(t *testing.T) {
	cases := append(mathCases(t), operatorCases...)
	for _, dt := range []ir.Type{ir.F64, ir.F32} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%s", dt, c.expr), func(t *testing.T) {
				(&gradCheck{t: t, dev: "cpu", dt: dt, ins: c.ins, expr: c.expr}).run(tolerance(dt))
			})
		}
	}
}

// TestGradAsType: a conversion's gradient converts back to the leaf's
// dtype, both ways (the steps of an f32 one are f32's).
func TestGradAsType(t *testing.T) {
	for _, c := range []struct {
		dt   ir.Type
		expr string
	}{
		{ir.F64, "(x.astype(f32) * z.astype(f32)).astype(f64)"},
		{ir.F32, "exp(x.astype(f64)) * z"},
	} {
		(&gradCheck{t: t, dev: "cpu", dt: c.dt, ins: []input{vx, vz}, expr: c.expr, h: 1e-3}).run(tolerance(ir.F32))
	}
}

// TestGradBroadcast: an operand stretched or prepended along axes gets
// its gradient summed over them.
func TestGradBroadcast(t *testing.T) {
	m := input{name: "m", shape: []int{2, 3}, vals: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}}
	x := input{name: "x", shape: []int{3}, vals: []float64{0.7, 0.8, 0.9}}
	c := input{name: "c", shape: []int{2, 1}, vals: []float64{0.25, 0.75}}
	for _, dt := range []ir.Type{ir.F64, ir.F32} {
		for _, expr := range []string{"x + m", "x * m + m", "c * m - x", "exp(c) * x"} {
			(&gradCheck{t: t, dev: "cpu", dt: dt, ins: []input{m, x, c}, expr: expr}).run(tolerance(dt))
		}
	}
}

// TestGradKernelsMatchHost: the cpu's gradients are the same bits through
// the generated kernels as through the host path (what lets cuda:0's
// match them, TestGPUGradMatchesCPU).
func TestGradKernelsMatchHost(t *testing.T) {
	cases := append(mathCases(t), operatorCases...)
	for _, dt := range []ir.Type{ir.F64, ir.F32} {
		for _, c := range cases {
			host, _ := (&gradCheck{t: t, dev: "cpu", dt: dt, ins: c.ins, expr: c.expr}).grads()
			restore := fuse.KernelsOnly()
			kern, _ := (&gradCheck{t: t, dev: "cpu", dt: dt, ins: c.ins, expr: c.expr}).grads()
			restore()
			for name, g := range host {
				if !slices.Equal(g, kern[name]) {
					t.Errorf("%s %s: d/d%s through kernels %v, the host path %v", dt, c.expr, name, kern[name], g)
				}
			}
		}
	}
}

// TestGradDeepChain: a chain of clips, whose rule uses the gradient
// several times, stays correct (and small: the gradient is computed into
// an array once it grows past a bound).
func TestGradDeepChain(t *testing.T) {
	expr := "x"
	for i := range 12 {
		expr = fmt.Sprintf("clip(%s * %g, lo, hi)", expr, 1.0+0.01*float64(i))
	}
	(&gradCheck{t: t, dev: "cpu", dt: ir.F64, ins: []input{vx, vlo, vhi}, expr: expr}).run(1e-6)
}
