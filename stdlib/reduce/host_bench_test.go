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

// BenchmarkHostScan runs HostScan's cumsum of 2^24 f32 (the plan of the
// 2-core machine: tiles of 4096) into an existing output.
func BenchmarkHostScan(b *testing.B) {
	n := 1 << 24
	x, out := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i] = float32(i%7) - 3
	}
	s := ScanSpec{Kind: CumSum, In: ir.F32}
	p, err := PlanScan(Layout{Shape: []int{n}, Strides: []int{1}}, 0, true, Target{Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	st := []int{1}
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		if _, err := HostScan(s, p, unsafe.Pointer(&x[0]), unsafe.Pointer(&out[0]), st, st, never); err != nil {
			b.Fatal(err)
		}
	}
}
