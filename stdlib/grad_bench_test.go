package stdlib_test

import (
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// BenchmarkMatmulBackward times the backward of two chained products, an
// MLP's layers without their activations: h = x @ w1, y = h @ w2, seeded
// with ones (h's gradient written by the GEMM, w1's and w2's added). The
// tape is recorded, untimed, before each backward. Beside torch (the
// cuda:0 sizes; time per backward):
//
//	go test -run X -bench MatmulBackward ./stdlib
//	python3 -c 'import torch,time; d="cuda"; x=torch.rand(4096,1024,device=d)
//	w1=torch.rand(1024,1024,device=d,requires_grad=True); w2=torch.rand(1024,256,device=d,requires_grad=True)
//	g=torch.ones(4096,256,device=d); t=0.0
//	for i in range(50):
//	  y=(x@w1)@w2; torch.cuda.synchronize(); s=time.time(); y.backward(g); torch.cuda.synchronize(); t+=time.time()-s
//	print(t/50)'
func BenchmarkMatmulBackward(b *testing.B) {
	for _, c := range []struct {
		dev           string
		rows, d, h, o int
	}{{"cpu", 256, 256, 256, 64}, {"cuda:0", 4096, 1024, 1024, 256}} {
		b.Run(c.dev, func(b *testing.B) {
			if c.dev != "cpu" && mem.CUDADeviceCount() == 0 {
				b.Skip("no CUDA device")
			}
			in := newInterp(b, c.dev, io.Discard)
			run(b, in, fmt.Sprintf(`let x = rand([%d, %d], seed=1)
let w1 = rand([%[2]d, %[3]d], seed=2, requires_grad=true)
let w2 = rand([%[3]d, %[4]d], seed=3, requires_grad=true)
let g = ones([%[1]d, %[4]d])`, c.rows, c.d, c.h, c.o))
			g := globalArr(b, in, "g")
			for range b.N {
				b.StopTimer()
				tp := interp.NewTape("t")
				if err := in.Record(tp, func() error {
					return in.Exec(context.Background(), "f.gs", []byte("let y = (x @ w1) @ w2\nsynchronize()"))
				}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := in.Backward(tp, interp.Seed{Out: globalArr(b, in, "y").A, Grad: g}); err != nil {
					b.Fatal(err)
				}
				run(b, in, "synchronize()")
			}
			flops := 2.0 * float64(c.rows*c.h*c.o+c.h*c.rows*c.o+c.d*c.rows*c.h)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
