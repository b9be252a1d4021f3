package stdlib_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// BenchmarkConstructors times constructors of 2^24 f32 elements (64 MiB)
// on the cpu and on cuda:0 (skipped without a GPU): each iteration makes
// and frees one array, and the loop ends with a synchronisation, as
// `cupy.ones(n)` in a loop followed by a device synchronisation does. A
// first, untimed loop builds the kernels. The MB/s count the bytes made.
func BenchmarkConstructors(b *testing.B) {
	const n = 1 << 24
	exprs := []struct{ name, expr string }{{"ones", "ones(n)"}, {"arange", "arange(n, dtype=f32)"},
		{"linspace", "linspace(0, 1, n)"}, {"zeros", "zeros(n)"}, {"empty", "empty(n)"}}
	for _, dev := range []string{"cpu", "cuda:0"} {
		for _, e := range exprs {
			b.Run(dev+"/"+e.name, func(b *testing.B) {
				if dev != "cpu" && mem.CUDADeviceCount() == 0 {
					b.Skip("no CUDA device")
				}
				loop := func(times int) string {
					return fmt.Sprintf("for i in range(%d) {\n    let x = %s\n    free(x)\n}\nsynchronize()", times, e.expr)
				}
				in := newInterp(b, dev, io.Discard)
				run(b, in, fmt.Sprintf("let n = %d", n))
				run(b, in, loop(3))
				b.SetBytes(4 * n)
				b.ResetTimer()
				run(b, in, loop(b.N))
			})
		}
	}
}
