package interp_test

import (
	"context"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// The host engine's benchmarks (HOST.md section 4): each compiles its
// script once and runs it once per op, so an op is the engine's work only
// (no parsing or checking). bench/host/run.sh runs the full-size programs
// beside their CPython twins.

// benchHost runs src once per op in one interpreter and checks that the
// global result holds want after the last run.
func benchHost(b *testing.B, src string, want int64) {
	b.Helper()
	env := stdlib.Universe()
	prog, err := interp.Compile("bench.gs", []byte(src), env)
	if err != nil {
		b.Fatal(err)
	}
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env})
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := in.Run(ctx, prog); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if v, ok := in.Global("result"); !ok || v != interp.Int(want) {
		b.Fatalf("result = %v (%v), want %d", v, ok, want)
	}
}

// BenchmarkFib is fib(20) per op: 21 891 calls of a recursive fn.
func BenchmarkFib(b *testing.B) {
	benchHost(b, `
fn fib(n) {
    if n < 2 {
        return n
    }
    return fib(n - 1) + fib(n - 2)
}
let result = fib(20)
`, 6765)
}

// BenchmarkLoopTop is 10^5 iterations of `s += i` per op on globals.
func BenchmarkLoopTop(b *testing.B) {
	benchHost(b, `
let result = 0
for i in range(100000) {
    result += i
}
`, 4999950000)
}

// BenchmarkLoopFn is 10^5 iterations of `s += i` per op on a fn's locals.
func BenchmarkLoopFn(b *testing.B) {
	benchHost(b, `
fn loop(n) {
    let s = 0
    for i in range(n) {
        s += i
    }
    return s
}
let result = loop(100000)
`, 4999950000)
}

// BenchmarkAppend is 10^5 `l.append(i)` then a sum loop over the list per
// op (bench/host/append.gs at a tenth of its size).
func BenchmarkAppend(b *testing.B) {
	benchHost(b, `
fn build(n) {
    let l = []
    for i in range(n) {
        l.append(i)
    }
    let s = 0
    for v in l {
        s += v
    }
    return s
}
let result = build(100000)
`, 4999950000)
}
