package interp_test

import (
	"context"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

const saxpyN = 1 << 24

// BenchmarkScriptSaxpy times the script statement `launch saxpy[n](x, y,
// 3.0)` over 2^24 f32 elements on the cpu device: parse, check, argument
// checks and the parallel kernel. Compare with BenchmarkScriptSaxpyGoLoop,
// a plain single-threaded Go loop over the same amount of data.
func BenchmarkScriptSaxpy(b *testing.B) {
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	setup := `
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 24
array x: f32[n] = 1.0
array y: f32[n] = 2.0
`
	if err := in.Exec(ctx, "setup.gs", []byte(setup)); err != nil {
		b.Fatal(err)
	}
	stmt := []byte("launch saxpy[n](x, y, 3.0)")
	b.SetBytes(3 * 4 * saxpyN)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := in.Exec(ctx, "bench.gs", stmt); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScriptSaxpyGoLoop(b *testing.B) {
	x := make([]float32, saxpyN)
	y := make([]float32, saxpyN)
	for i := range x {
		x[i], y[i] = 1, 2
	}
	a := float32(3)
	b.SetBytes(3 * 4 * saxpyN)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := range y {
			y[j] = a*x[j] + y[j]
		}
	}
}
