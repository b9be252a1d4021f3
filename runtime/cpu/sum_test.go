package cpu

import (
	"errors"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// reduceOrder is stdlib/reduce's order for n elements (HostSum): blocks
// of 256 lanes, 4 accumulators, a block per 16 rounds of a lane, up to
// 4096 blocks. stdlib/reduce's TestHostSumMatchesKernels checks the sums
// against its kernels bit for bit; these tests check the rest.
func reduceOrder(n int) backend.SumOrder {
	return backend.SumOrder{Threads: 256, Unroll: 4, Blocks: min(max((n+256*64-1)/(256*64), 1), 4096)}
}

func f32Sum(x []float32) backend.Sum {
	return backend.Sum{DType: ir.F32, X: unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), 4*len(x)),
		Order: reduceOrder(len(x)), Workers: 1}
}

// TestHostSumCanceled: a cancelled sum stops between groups of blocks
// and says so (2^20 elements: 64 blocks, in two groups on one worker).
func TestHostSumCanceled(t *testing.T) {
	s := f32Sum(make([]float32, 1<<20))
	calls := 0
	s.Canceled = func() bool { calls++; return calls > 1 }
	if _, err := (cpuBackend{}).Sum(&s); !errors.Is(err, backend.ErrCanceled) || calls != 2 {
		t.Errorf("error %v after %d polls", err, calls)
	}
}

// TestHostSumChecks: a sum of another dtype, of a partial element or in
// an order the loops cannot follow is an error, not a wrong value.
func TestHostSumChecks(t *testing.T) {
	x := make([]float32, 1000)
	for i := range x {
		x[i] = 1
	}
	s := f32Sum(x)
	if v, err := (cpuBackend{}).Sum(&s); err != nil || v != 1000 {
		t.Fatalf("sum of 1000 ones: %v, %v", v, err)
	}
	bad := []func(*backend.Sum){
		func(s *backend.Sum) { s.DType = ir.I32 },
		func(s *backend.Sum) { s.X = s.X[:5] },
		func(s *backend.Sum) { s.Order.Threads = 100 },
		func(s *backend.Sum) { s.Order.Threads = 2048 },
		func(s *backend.Sum) { s.Order.Unroll = 0 },
		func(s *backend.Sum) { s.Order.Unroll = backend.MaxSumUnroll + 1 },
		func(s *backend.Sum) { s.Order.Blocks = 0 },
	}
	for i, f := range bad {
		s := f32Sum(x)
		f(&s)
		if _, err := (cpuBackend{}).Sum(&s); err == nil {
			t.Errorf("case %d: %+v summed", i, s.Order)
		}
	}
}

// BenchmarkHostSum is a sum of 2^26 f32 on every processor (compare with
// numpy.sum of the same on this machine).
func BenchmarkHostSum(b *testing.B) {
	x := make([]float32, 1<<26)
	for i := range x {
		x[i] = float32(i%1024) / 1024
	}
	s := f32Sum(x)
	s.Workers = runtime.GOMAXPROCS(0)
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		if _, err := (cpuBackend{}).Sum(&s); err != nil {
			b.Fatal(err)
		}
	}
}
