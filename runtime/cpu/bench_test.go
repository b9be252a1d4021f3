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
