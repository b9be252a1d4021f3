package reduce

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
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

// TestHostSumMatchesKernels: the cpu's backend.Summer, given HostSum's
// order, gives the bits of Pass1 and Pass2 run by the cpu backend, for
// sums, means and norms of f32 and f64, at sizes around every boundary of
// the loops (one block, a partial first iteration, tails, many iterations
// per lane), on 1 and 3 workers.
func TestHostSumMatchesKernels(t *testing.T) {
	summer, ok := backend.SummerFor(mem.CPUDevice)
	if !ok {
		t.Fatal("the cpu backend has no Summer")
	}
	sizes := []int{1, 2, 31, 255, 256, 257, 1000, 3*256 + 1, 4095, 16384, 16385, 65543, 256*64*5 + 77, 1<<20 + 13}
	for _, ty := range []ir.Type{ir.F32, ir.F64} {
		for _, k := range []Kind{Sum, Mean, Norm} {
			s := Spec{Kind: k, In: [2]ir.Type{ty}}
			for i, n := range sizes {
				x := hostData(ty, n, uint64(i), i%3 == 2)
				want := fullOnCPU(t, s, []*tensor{x}, nil, false)[0]
				req, ok := HostSum(k, ty, n)
				if !ok {
					t.Fatalf("%v: HostSum refuses it", s)
				}
				req.X = x.buf[:n*ty.Size()]
				for _, workers := range []int{1, 3} {
					req.Workers = workers
					got, err := summer.Sum(&req)
					if err != nil || math.Float64bits(got) != want {
						t.Errorf("%v n=%d workers=%d: got %x (%v, %v), kernels %x (%v)", s, n, workers,
							math.Float64bits(got), got, err, want, math.Float64frombits(want))
					}
				}
			}
		}
	}
}
