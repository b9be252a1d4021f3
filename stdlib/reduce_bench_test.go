package stdlib_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// benchArrays makes an interpreter on dev with the arrays of setup (a
// script) and returns it with the builtins.
func benchInterp(b *testing.B, dev, setup string) (*interp.Interp, map[string]interp.Value) {
	b.Helper()
	u := stdlib.Universe()
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: dev, Predeclared: u})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close() })
	if err := in.Exec(context.Background(), "setup.gs", []byte(setup)); err != nil {
		b.Fatal(err)
	}
	return in, u
}

// benchCall times fn(args...) (a builtin, by name, on globals by name),
// which reads back its result each time: the figure a script sees.
func benchCall(b *testing.B, in *interp.Interp, u map[string]interp.Value, bytes int64, fn string, globals ...string) {
	b.Helper()
	args := make([]interp.Value, len(globals))
	for i, g := range globals {
		v, ok := in.Global(g)
		if !ok {
			b.Fatalf("no global %s", g)
		}
		args[i] = v
	}
	ctx := context.Background()
	if _, err := in.Call(ctx, u[fn], args...); err != nil { // builds and compiles once
		b.Fatal(err)
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		if _, err := in.Call(ctx, u[fn], args...); err != nil {
			b.Fatal(err)
		}
	}
}

// initF32 fills x: f32[n] with values in [0, 1) on the device.
const initF32 = `
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i %% 1024) * 0.0009765625
}
let n = %d
array x: f32[n]
launch init[n](x)
`

// BenchmarkSumCPU is sum of 2^24 f32 on the cpu.
func BenchmarkSumCPU(b *testing.B) {
	n := 1 << 24
	in, u := benchInterp(b, "cpu", fmt.Sprintf(initF32, n))
	benchCall(b, in, u, int64(4*n), "sum", "x")
}

// BenchmarkReduceCUDA times the reductions of ARRAYS.md section 6 on
// cuda:0: sum, max, argmax and dot of 2^28 f32, and sum(m, axis=1) of a
// 16384 x 16384 f32 matrix, and sum of 4096 f32 (a call's fixed cost).
// SetBytes counts the bytes read, so ns/op and
// MB/s compare with ../shared/bench/workloads.py reduce and arraylib.
func BenchmarkReduceCUDA(b *testing.B) {
	if mem.CUDADeviceCount() == 0 {
		b.Skip("no CUDA device")
	}
	n := 1 << 28
	setup := fmt.Sprintf(initF32, n) + "array y: f32[n] = 0.5\nlet m = x.reshape([16384, 16384])\narray small: f32[4096] = 0.5\n"
	in, u := benchInterp(b, "cuda:0", setup)
	for _, fn := range []string{"sum", "max", "argmax"} {
		b.Run(fn, func(b *testing.B) { benchCall(b, in, u, int64(4*n), fn, "x") })
	}
	b.Run("dot", func(b *testing.B) { benchCall(b, in, u, int64(8*n), "dot", "x", "y") })
	b.Run("sum_axis1", func(b *testing.B) { benchAxis(b, in, int64(4*n)) })
	// the cost of a call beyond reading its data: plan, launches, read-back
	b.Run("sum_4096", func(b *testing.B) { benchCall(b, in, u, 4*4096, "sum", "small") })
}

// benchAxis times `let s = sum(m, axis=1)` (a new array each time) with a
// synchronisation, in a script loop.
func benchAxis(b *testing.B, in *interp.Interp, bytes int64) {
	ctx := context.Background()
	if err := in.Exec(ctx, "warm.gs", []byte("let s = sum(m, axis=1)\nsynchronize()")); err != nil {
		b.Fatal(err)
	}
	loop := []byte(fmt.Sprintf("for i in range(%d) { s = sum(m, axis=1) }\nsynchronize()", b.N))
	b.SetBytes(bytes)
	b.ResetTimer()
	if err := in.Exec(ctx, "loop.gs", loop); err != nil {
		b.Fatal(err)
	}
}
