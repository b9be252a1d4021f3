package fuse_test

import (
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// BenchmarkCPUExpr runs issue 27's expression rows on 2^22 f32 through
// the cpu's host path and through the kernels (the lane executor), in
// place so that allocation does not count: bytes are the arrays read and
// written.
func BenchmarkCPUExpr(b *testing.B) {
	for _, c := range []struct {
		name, stmt string
		bytes      int64
	}{
		{"axpy", "y += a * x", 12},
		{"axpbz", "z[:] = a * x + y", 12},
		{"where", "z[:] = where(x > 0, x, 0)", 8},
		{"x2_plus_y2", "z[:] = x * x + y * y", 12},
		{"row_broadcast", "w[:] = m + r", 8},
		{"sliced", "w[:, 1:] = m[:, 1:] * 2.0", 8},
	} {
		for _, engine := range []string{"host", "kernels"} {
			b.Run(c.name+"/"+engine, func(b *testing.B) {
				if engine == "kernels" {
					defer fuse.KernelsOnly()()
				}
				in, err := interp.New(interp.Options{Device: "cpu", Predeclared: stdlib.Universe()})
				if err != nil {
					b.Fatal(err)
				}
				defer in.Close()
				const setup = "let n = 1 << 22\narray x: f32[n] = -0.5\narray y: f32[n] = 1.0\narray z: f32[n]\nlet a = f32(0.5)\n" +
					"array m: f32[2048, 2048] = 1.0\narray r: f32[2048] = 2.0\narray w: f32[2048, 2048]\n"
				if err := in.Exec(b.Context(), "setup.gs", []byte(setup)); err != nil {
					b.Fatal(err)
				}
				stmt := []byte(c.stmt)
				b.SetBytes(c.bytes << 22)
				for b.Loop() {
					if err := in.Exec(b.Context(), "stmt.gs", stmt); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
