package stdlib_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// BenchmarkMatmulCUDA times matmul of 4096^2 f32 matrices into out= on
// cuda:0 (cuBLAS; skipped without a GPU), TF32 off and on, as
// `torch.matmul(a, b, out=c)` in a loop ended by a synchronisation. The
// first, untimed product makes the handle and lets cuBLAS pick its kernel.
func BenchmarkMatmulCUDA(b *testing.B) {
	const n = 4096
	for _, tf32 := range []bool{false, true} {
		b.Run(fmt.Sprintf("tf32=%v", tf32), func(b *testing.B) {
			if mem.CUDADeviceCount() == 0 {
				b.Skip("no CUDA device")
			}
			in := newInterp(b, "cuda:0", io.Discard)
			run(b, in, fmt.Sprintf(`config.allow_tf32 = %v
let a = ones([%d, %d])
let b = full([%[2]d, %[2]d], 0.5)
let c = zeros([%[2]d, %[2]d])
matmul(a, b, out=c)
synchronize()`, tf32, n, n))
			b.ResetTimer()
			run(b, in, fmt.Sprintf("for i in range(%d) {\n    matmul(a, b, out=c)\n}\nsynchronize()", b.N))
			b.StopTimer()
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e12, "TFLOP/s")
			run(b, in, fmt.Sprintf("assert c[%d, 0] == %d.0, \"c = n/2 everywhere\"", n-1, n/2))
		})
	}
}
