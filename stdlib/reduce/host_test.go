package reduce

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// hostData is n elements of t whose sums depend on the order of adding:
// magnitudes over 30 binades, both signs, and (special) NaN, infinities
// and negative zeros sprinkled in.
func hostData(t ir.Type, n int, seed uint64, special bool) *tensor {
	r := rand.New(rand.NewPCG(seed, 7))
	return newTensor(t, []int{n}, func(int) uint64 {
		v := (r.Float64() - 0.3) * math.Ldexp(1, r.IntN(30)-15)
		if special {
			switch r.IntN(64) {
			case 0:
				v = math.NaN()
			case 1:
				v = math.Inf(1 - 2*r.IntN(2))
			case 2:
				v = math.Copysign(0, -1)
			}
		}
		return ir.FromFloat(v, t)
	})
}

// TestHostSumMatchesKernels: HostSum gives the bits of Pass1 and Pass2 run
// by the cpu backend, for sums, means and norms of f32 and f64, at sizes
// around every boundary of the loops (one block, a partial first
// iteration, tails, many iterations per lane), on 1 and 3 workers.
func TestHostSumMatchesKernels(t *testing.T) {
	sizes := []int{1, 2, 31, 255, 256, 257, 1000, 3*256 + 1, 4095, 16384, 16385, 65543, 256*64*5 + 77, 1<<20 + 13}
	for _, ty := range []ir.Type{ir.F32, ir.F64} {
		for _, k := range []Kind{Sum, Mean, Norm} {
			s := Spec{Kind: k, In: [2]ir.Type{ty}}
			for i, n := range sizes {
				x := hostData(ty, n, uint64(i), i%3 == 2)
				want := fullOnCPU(t, s, []*tensor{x}, nil, false)[0]
				for _, workers := range []int{1, 3} {
					var got float64
					var ok bool
					if ty == ir.F32 {
						got, ok = HostSum(unsafe.Slice((*float32)(unsafe.Pointer(&x.buf[0])), n), k, workers, nil)
					} else {
						got, ok = HostSum(unsafe.Slice((*float64)(unsafe.Pointer(&x.buf[0])), n), k, workers, nil)
					}
					if !ok || math.Float64bits(got) != want {
						t.Errorf("%v n=%d workers=%d: got %x (%v), kernels %x (%v)", s, n, workers,
							math.Float64bits(got), got, want, math.Float64frombits(want))
					}
				}
			}
		}
	}
}

// TestHostSumCanceled: a cancelled HostSum stops between groups of
// blocks and says so (2^20 elements: 64 blocks, in two groups on one
// worker).
func TestHostSumCanceled(t *testing.T) {
	x := make([]float32, 1<<20)
	calls := 0
	if _, ok := HostSum(x, Sum, 1, func() bool { calls++; return calls > 1 }); ok || calls != 2 {
		t.Errorf("ok %v after %d polls", ok, calls)
	}
}

// BenchmarkHostSum is HostSum of 2^26 f32 on every processor (compare
// with numpy.sum of the same on this machine).
func BenchmarkHostSum(b *testing.B) {
	x := make([]float32, 1<<26)
	for i := range x {
		x[i] = float32(i%1024) / 1024
	}
	b.SetBytes(int64(4 * len(x)))
	for b.Loop() {
		HostSum(x, Sum, runtime.GOMAXPROCS(0), nil)
	}
}
