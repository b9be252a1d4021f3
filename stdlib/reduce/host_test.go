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
	sizes := []int{1, 2, 15, 17, 31, 255, 256, 257, 1000, 3*256 + 1, 4095, 4096, 16384, 16385, 65543, 256*64*5 + 77, 1<<20 + 13}
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

// TestHostRowSumsMatchKernels: the cpu's backend.RowSummer, given
// HostRowSums's order and finished by RowValue, gives the bits of the Row
// kernel of an axis sum, mean or norm, for row lengths around the loops'
// boundaries, NaN, infinities and -0 included, on 1 and 3 workers.
func TestHostRowSumsMatchKernels(t *testing.T) {
	b, _ := backend.For(mem.CPUDevice)
	rs, ok := b.(backend.RowSummer)
	if !ok {
		t.Fatal("the cpu backend has no RowSummer")
	}
	for _, ty := range []ir.Type{ir.F32, ir.F64} {
		for _, k := range []Kind{Sum, Mean, Norm} {
			s := Spec{Kind: k, In: [2]ir.Type{ty}}
			for i, dims := range [][2]int{{1, 256}, {3, 257}, {17, 1000}, {4, 4096}, {5, 4101}, {2, 16385}} {
				m, kk := dims[0], dims[1]
				flat := hostData(ty, m*kk, uint64(i), i%2 == 1)
				x := newTensor(ty, []int{m, kk}, func(j int) uint64 { return mem.LoadBits(flat.buf, ty, j) })
				p, err := PlanAxis(x.layout(), []int{1}, false, Target{})
				if err != nil {
					t.Fatal(err)
				}
				p.Strategy, p.Grid = Row, p.M
				want := axisOnCPU(t, s, x, p)
				req, ok := HostRowSums(k, ty, p)
				if !ok {
					t.Fatalf("%v: HostRowSums refuses a Row plan", s)
				}
				req.X = x.buf[:m*kk*ty.Size()]
				for _, workers := range []int{1, 3} {
					req.Workers = workers
					got := make([]float64, m)
					if err := rs.RowSums(&req, got); err != nil {
						t.Fatal(err)
					}
					for r, a := range got {
						if g := ir.FromFloat(RowValue(k, a, kk), AxisOut(k, ty)); g != want[r] {
							t.Errorf("%v %dx%d workers=%d: row %d is %x, kernel %x", s, m, kk, workers, r, g, want[r])
						}
					}
				}
			}
		}
	}
}

// axisOnCPU runs plan p's kernel of s over x and returns the outputs.
func axisOnCPU(t *testing.T, s Spec, x *tensor, p AxisPlan) []uint64 {
	t.Helper()
	k, err := AxisKernel(s, nil, p.Strategy, p.Kept, len(p.Ext)-p.Kept, false)
	if err != nil {
		t.Fatal(err)
	}
	v := x.view(p.View)
	out := newTensor(AxisOut(s.Kind, s.In[0]), []int{p.M}, func(int) uint64 { return 0 })
	args := []backend.Arg{v.arg(), out.arg(), scalar(ir.I32, int64(p.M)), scalar(ir.I32, int64(p.K))}
	for g, e := range p.Ext {
		if g != 0 && g != p.Kept {
			args = append(args, scalar(ir.I32, int64(e)))
		}
	}
	run(t, k, p.Grid, args, v, out)
	return out.elems()
}
