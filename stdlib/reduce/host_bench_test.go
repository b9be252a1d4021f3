package reduce

import (
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// BenchmarkHostLoops runs the cpu's host reductions on 2^24 f32 (a
// 4096 x 4096 matrix for the row sums): HostExtreme's max, the full sum
// (backend.Summer) and the row sums (backend.RowSummer).
func BenchmarkHostLoops(b *testing.B) {
	const side = 4096
	x := make([]float32, side*side)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x))
	be, _ := backend.For(mem.CPUDevice)
	b.Run("max", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			HostExtreme(ir.F32, true, unsafe.Pointer(&x[0]), len(x), never)
		}
	})
	b.Run("sum", func(b *testing.B) {
		req, _ := HostSum(Sum, ir.F32, len(x))
		req.X, req.Workers = raw, 2
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := be.(backend.Summer).Sum(&req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rows", func(b *testing.B) {
		req, _ := HostRowSums(Sum, ir.F32, AxisPlan{Strategy: Row, M: side, K: side})
		req.X, req.Workers = raw, 2
		out := make([]float64, side)
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if err := be.(backend.RowSummer).RowSums(&req, out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
