package cpu

import (
	"math"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestFastMathContraction: a fast kernel computes f64 z + x*y as one
// math.FMA, a strict one rounds twice; f32, and a product whose operand
// is overwritten before the add, stay as written.
func TestFastMathContraction(t *testing.T) {
	b := kernel("k", arr("x", ir.F64, 1), arr("out", ir.F64, 1), arr("x32", ir.F32, 1), arr("out32", ir.F32, 1))
	i := b.tid(0)
	x, y, z := b.load(0, i), b.load(0, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1))), b.load(0, b.op(ir.OpAdd, ir.I32, i, i32c(b, 2)))
	b.store(1, i, b.op(ir.OpAdd, ir.F64, z, b.op(ir.OpMul, ir.F64, x, y)))
	// v*y + v after v = z: must not become fma(z, y, z).
	v := b.f.NewReg(ir.F64)
	b.mov(v, x)
	p := b.op(ir.OpMul, ir.F64, v, y)
	b.mov(v, z)
	b.store(1, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1)), b.op(ir.OpAdd, ir.F64, p, v))
	x32, y32, z32 := b.load(2, i), b.load(2, b.op(ir.OpAdd, ir.I32, i, i32c(b, 1))), b.load(2, b.op(ir.OpAdd, ir.I32, i, i32c(b, 2)))
	b.store(3, i, b.op(ir.OpAdd, ir.F32, b.op(ir.OpMul, ir.F32, x32, y32), z32))

	a, c := 1+math.Ldexp(1, -30), 1-math.Ldexp(1, -30)                       // a*c = 1 - 2^-60 rounds to 1
	a32, c32 := float32(1+math.Ldexp(1, -13)), float32(1-math.Ldexp(1, -13)) // 1 - 2^-26 rounds to 1
	run := func(opts backend.Options) ([]float64, []float32) {
		p, err := Compile(b.k, opts)
		if err != nil {
			t.Fatal(err)
		}
		out, out32 := make([]float64, 2), make([]float32, 1)
		xs, xs32 := []float64{a, c, -1}, []float32{a32, c32, -1}
		if err := p.Launch([]int{1}, []Arg{slice(xs), slice(out), slice(xs32), slice(out32)}, Options{}); err != nil {
			t.Fatal(err)
		}
		return out, out32
	}
	strict, strict32 := run(backend.Options{})
	fast, fast32 := run(backend.Options{FastMath: true})
	if strict[0] != 0 || fast[0] != -math.Ldexp(1, -60) {
		t.Errorf("z + x*y: strict %g, fast %g; want 0 and -2^-60", strict[0], fast[0])
	}
	if want := a*c - 1; strict[1] != want || fast[1] != want {
		t.Errorf("product of an overwritten operand: strict %g, fast %g, want %g", strict[1], fast[1], want)
	}
	if strict32[0] != fast32[0] || strict32[0] != 0 {
		t.Errorf("f32: strict %g, fast %g, want both 0", strict32[0], fast32[0])
	}
	b.k.FastMath = true
	if k, _ := run(backend.Options{}); k[0] != fast[0] {
		t.Errorf("Kernel.FastMath: %g, Options.FastMath: %g", k[0], fast[0])
	}
}
