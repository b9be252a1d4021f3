package interp_test

import (
	"context"
	"fmt"
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

// BenchmarkAssign times slice assignment on the cpu device, the store
// engine's fills and copies: 2^24 elements (the kernel) and 1000 (the
// per-statement cost), contiguous, converting and strided.
func BenchmarkAssign(b *testing.B) {
	stmts := []struct{ name, stmt string }{{"fill", "y[:] = 1.5"}, {"copy", "y[:] = x"}, {"convert", "y[:] = k"},
		{"strided", "y[::2] = x[1::2]"}, {"broadcast", "m[:, :] = x[0:8]"}}
	for _, n := range []int{1000, saxpyN} {
		for _, s := range stmts {
			b.Run(fmt.Sprintf("%s/%d", s.name, n), func(b *testing.B) {
				in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
				if err != nil {
					b.Fatal(err)
				}
				defer in.Close()
				ctx := context.Background()
				setup := fmt.Sprintf("let n = %d\narray x: f32[n] = 2.0\narray y: f32[n]\narray k: i32[n] = 3\narray m: f32[n / 8, 8]\n", n)
				if err := in.Exec(ctx, "setup.gs", []byte(setup)); err != nil {
					b.Fatal(err)
				}
				stmt := []byte(s.stmt)
				for b.Loop() {
					if err := in.Exec(ctx, "bench.gs", stmt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
