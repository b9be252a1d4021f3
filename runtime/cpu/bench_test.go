package cpu

import (
	"math"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// saxpyKernel is `kernel saxpy(x: array[f32], y: array[f32], a: f32)
// { let i = tid(); y[i] = a * x[i] + y[i] }` lowered as the checker does.
func saxpyKernel() *builder {
	b := kernel("saxpy", arr("x", ir.F32, 1), arr("y", ir.F32, 1), scalar("a", ir.F32))
	i := b.tid(0)
	a := b.param(2)
	x := b.load(0, i)
	ax := b.op(ir.OpMul, ir.F32, a, x)
	y := b.load(1, i)
	b.store(1, i, b.op(ir.OpAdd, ir.F32, ax, y))
	return b
}

const saxpyN = 1 << 24

func TestSaxpy(t *testing.T) {
	p := saxpyKernel().compile(t)
	n := 100003 // not a multiple of the block size
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), 2
	}
	if err := p.Launch([]int{n}, []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}, Options{}); err != nil {
		t.Fatal(err)
	}
	for i := range y {
		if want := 3*float32(i) + 2; y[i] != want {
			t.Fatalf("y[%d] = %v, want %v", i, y[i], want)
		}
	}
}

func BenchmarkSaxpy(b *testing.B) {
	p := saxpyKernel().compile(b)
	x, y := make([]float32, saxpyN), make([]float32, saxpyN)
	args := []Arg{slice(x), slice(y), {Bits: uint64(math.Float32bits(3))}}
	b.SetBytes(saxpyN * 12)
	for b.Loop() {
		if err := p.Launch([]int{saxpyN}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSaxpyGoLoop(b *testing.B) {
	x, y := make([]float32, saxpyN), make([]float32, saxpyN)
	a := float32(3)
	b.SetBytes(saxpyN * 12)
	for b.Loop() {
		for i := range y {
			y[i] = a*x[i] + y[i]
		}
	}
}

// BenchmarkTranspose2D is `out[i, j] = m[j, i]` over a 2-D launch: the
// odometer tid and the general (bounds-checked, strided) access path.
func BenchmarkTranspose2D(b *testing.B) {
	const n = 2048
	kb := kernel("t", arr("m", ir.F32, 2), arr("out", ir.F32, 2))
	i, j := kb.tid(0), kb.tid(1)
	kb.store(1, i, j, kb.load(0, j, i))
	p := kb.compile(b)
	m, out := make([]float32, n*n), make([]float32, n*n)
	args := []Arg{slice(m, n, n), slice(out, n, n)}
	b.SetBytes(n * n * 8)
	for b.Loop() {
		if err := p.Launch([]int{n, n}, args, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDivergentLoop is `s = 0; for k in range(0, i % 64) { s += k }
// ; out[i] = s`: masked loops whose lanes leave at different iterations.
func BenchmarkDivergentLoop(b *testing.B) {
	const n = 1 << 20
	kb := kernel("loop", arr("out", ir.I32, 1))
	i := kb.tid(0)
	s := kb.f.NewReg(ir.I32)
	kb.mov(s, i32c(kb, 0))
	kb.forRange(i32c(kb, 0), kb.op(ir.OpRem, ir.I32, i, i32c(kb, 64)), func(k ir.Reg) {
		kb.mov(s, kb.op(ir.OpAdd, ir.I32, s, k))
	})
	kb.store(0, i, s)
	p := kb.compile(b)
	out := make([]int32, n)
	for b.Loop() {
		if err := p.Launch([]int{n}, []Arg{slice(out)}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
