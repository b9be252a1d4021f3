package stdlib_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/runtime/cpu"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// BenchmarkMatmulCPU times matmul of 1024^2 f32 matrices into out= on the
// cpu through each BLAS library, as NumPy's `np.matmul(a, b, out=c)` in a
// loop, after one untimed product; openblas is skipped where
// libopenblas.so.0 does not load. Beside NumPy in one run (same OpenBLAS):
//
//	go test -run X -bench MatmulCPU -benchtime 40x ./stdlib; python3 -c \
//	'import numpy as np,timeit; a=np.ones((1024,)*2,np.float32); c=a.copy()
//	print(timeit.timeit(lambda: np.matmul(a,a,out=c),number=40)/40)'
func BenchmarkMatmulCPU(b *testing.B) {
	const n = 1024
	defer cpu.SetBLAS("")
	for _, lib := range []string{"openblas", "gonum"} {
		b.Run("blas="+lib, func(b *testing.B) {
			if err := cpu.SetBLAS(lib); err != nil {
				b.Skip(err)
			}
			in := newInterp(b, "cpu", io.Discard)
			run(b, in, fmt.Sprintf(`let a = ones([%d, %[1]d])
let b = full([%[1]d, %[1]d], 0.5)
let c = zeros([%[1]d, %[1]d])
matmul(a, b, out=c)`, n))
			b.ResetTimer()
			run(b, in, fmt.Sprintf("for i in range(%d) {\n    matmul(a, b, out=c)\n}", b.N))
			b.StopTimer()
			b.ReportMetric(2*n*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			run(b, in, fmt.Sprintf("assert c[%d, 0] == %d.0, \"c = n/2 everywhere\"", n-1, n/2))
		})
	}
}

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
