package reduce

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// runScan runs the launches of p for s over x on the cpu and returns the
// output's elements as p.View sees them (M rows of K).
func runScan(t *testing.T, s ScanSpec, x *tensor, p ScanPlan) []uint64 {
	t.Helper()
	ls, err := ScanKernels(s, p)
	if err != nil {
		t.Fatal(err)
	}
	out := newTensor(ScanOut(s.In), x.shape, func(int) uint64 { return 0 })
	xv, ov := x.view(p.View), out.view(p.View)
	ix := indexType(p.Wide)
	args := []backend.Arg{xv.arg(), ov.arg()}
	for _, v := range []int{p.M, p.K, p.Tile, p.Tiles} {
		args = append(args, scalar(ix, int64(v)))
	}
	for g, e := range p.Ext {
		if g != 0 && g != p.Kept {
			args = append(args, scalar(ix, int64(e)))
		}
	}
	for _, l := range ls {
		run(t, l.Kernel, l.Grid, args, xv, ov)
	}
	return ov.elems()
}

// scanRef scans the rows of elements (raw bits of type in, rows of k) in
// order, in the output dtype: ints wrap (the bits of u64 arithmetic),
// floats in float64, exact for the test data.
func scanRef(s ScanSpec, elems []uint64, k int) []uint64 {
	ot := ScanOut(s.In)
	out := make([]uint64, len(elems))
	var acc uint64
	var facc float64
	for i, e := range elems {
		v := ir.Convert(e, s.In, ot)
		if i%k == 0 {
			acc, facc = v, value(ot, v)
		} else if s.Kind == CumSum {
			acc, facc = acc+v, facc+value(ot, v)
		} else {
			acc, facc = acc*v, facc*value(ot, v)
		}
		out[i] = acc
		if ot.IsFloat() {
			out[i] = ir.FromFloat(facc, ot)
		}
	}
	return out
}

// scanData is small ints (ones and minus ones for float products, which
// stay exact over any length and order).
func scanData(s ScanSpec, seed uint64) func(int) uint64 {
	if s.Kind == CumProd && s.In.IsFloat() {
		r := rand.New(rand.NewPCG(seed, 3))
		return func(int) uint64 { return ir.FromFloat(float64(1-2*r.IntN(2)), s.In) }
	}
	return smallInts(s.In, seed, 0)
}

// withStrategy is p forced to Column, Row with a block per row, or Row
// in tiles of tile elements.
func withStrategy(p ScanPlan, st Strategy, tile int) ScanPlan {
	p.Strategy, p.Tile, p.Tiles = st, p.K, 1
	if tile > 0 {
		p.Tile, p.Tiles = tile, (p.K+tile-1)/tile
	}
	return p
}

type scanCase struct {
	st   Strategy
	tile int
}

var scanCases = []scanCase{{Column, 0}, {Row, 0}, {Row, 256}, {Row, 1024}}

// TestScanMatchesReference scans every dtype along each axis of 2-D and
// 3-D tensors, plain, transposed and sliced, and flattened, with every
// strategy, against the reference.
func TestScanMatchesReference(t *testing.T) {
	views := map[string]func(x *tensor) *tensor{
		"contiguous": func(x *tensor) *tensor { return x },
		"transposed": func(x *tensor) *tensor { return x.permute([]int{2, 0, 1}) },
		"slice":      func(x *tensor) *tensor { return x.permute([]int{0, 2, 1}).slice0(1, 3) },
	}
	for _, kind := range []ScanKind{CumSum, CumProd} {
		for _, dt := range dtypes {
			s := ScanSpec{Kind: kind, In: dt}
			for name, view := range views {
				x := view(newTensor(dt, []int{3, 40, 70}, scanData(s, 5)))
				for axis := -1; axis < 3; axis++ {
					for _, c := range scanCases {
						for _, wide := range []bool{false, true} {
							checkScan(t, s, x, axis, c, wide, name)
						}
					}
				}
			}
		}
	}
}

func checkScan(t *testing.T, s ScanSpec, x *tensor, axis int, c scanCase, wide bool, name string) {
	t.Helper()
	p, err := PlanScan(x.layout(), max(axis, 0), axis < 0, Target{})
	if err != nil {
		t.Fatal(err)
	}
	p = withStrategy(p, c.st, c.tile)
	p.Wide = wide
	got := runScan(t, s, x, p)
	if want := scanRef(s, x.view(p.View).elems(), p.K); !slices.Equal(got, want) {
		t.Fatalf("%v %s axis %d %v tile %d wide %v: got %v, want %v", s, name, axis, c.st, c.tile, wide, got[:8], want[:8])
	}
}

// TestScanLong scans 1-D arrays of many tiles with the plan's own tiling
// and with tiles small enough that pass 2 takes several rounds.
func TestScanLong(t *testing.T) {
	for _, n := range []int{1 << 21, 300001} {
		s := ScanSpec{Kind: CumSum, In: ir.I32}
		x := newTensor(ir.I32, []int{n}, scanData(s, 9))
		p, err := PlanScan(x.layout(), 0, true, Target{Workers: 4})
		if err != nil {
			t.Fatal(err)
		}
		if p.Tiles < 2 {
			t.Fatalf("n = %d: %d tiles, want several", n, p.Tiles)
		}
		want := scanRef(s, x.elems(), n)
		for _, tile := range []int{0, 256} {
			q := p
			if tile > 0 {
				q = withStrategy(p, Row, tile)
			}
			if got := runScan(t, s, x, q); !slices.Equal(got, want) {
				t.Errorf("n = %d tile %d: wrong at %d", n, q.Tile, firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []uint64) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestScanDeterministic scans random f32 values (whose sums round) twice
// with every strategy: the bits agree, and lie close to a float64 scan.
func TestScanDeterministic(t *testing.T) {
	n := 100000
	r := rand.New(rand.NewPCG(1, 2))
	x := newTensor(ir.F32, []int{n}, func(int) uint64 { return ir.FromFloat(r.Float64(), ir.F32) })
	s := ScanSpec{Kind: CumSum, In: ir.F32}
	p, err := PlanScan(x.layout(), 0, true, Target{})
	if err != nil {
		t.Fatal(err)
	}
	exact := 0.0
	for _, c := range scanCases {
		q := withStrategy(p, c.st, c.tile)
		a, b := runScan(t, s, x, q), runScan(t, s, x, q)
		if !slices.Equal(a, b) {
			t.Fatalf("%v tile %d: two runs differ at %d", c.st, c.tile, firstDiff(a, b))
		}
		exact = 0
		for i, e := range x.elems() {
			exact += value(ir.F32, e)
			if got := value(ir.F32, a[i]); math.Abs(got-exact) > 1e-4*exact {
				t.Fatalf("%v tile %d: out[%d] = %v, want about %v", c.st, c.tile, i, got, exact)
			}
		}
	}
}

// TestScanPlan checks the strategies and tiles the planner picks.
func TestScanPlan(t *testing.T) {
	cuda := Target{CUDA: true}
	for _, c := range []struct {
		shape       []int
		axis        int
		flat        bool
		st          Strategy
		tiles, kept int
	}{
		{[]int{1 << 26}, 0, true, Row, 1 << 14, 0},
		{[]int{4096, 4096}, 1, false, Row, 1, 1},
		{[]int{4096, 4096}, 0, false, Row, 1, 1},
		{[]int{64, 65536}, 0, false, Column, 0, 1},
		{[]int{65536, 64}, 0, false, Row, 16, 1},
		{[]int{3, 1 << 20}, 1, false, Row, 256, 1},
		{[]int{5, 7}, 0, true, Row, 1, 0},
		{[]int{5, 6}, 1, false, Column, 0, 1},
	} {
		p, err := PlanScan(Layout{Shape: c.shape, Strides: contiguousStrides(c.shape)}, c.axis, c.flat, cuda)
		if err != nil {
			t.Fatal(err)
		}
		if p.Strategy != c.st || p.Tiles != c.tiles || p.Kept != c.kept {
			t.Errorf("%v axis %d flat %v: %v, %d tiles, %d kept; want %v, %d, %d", c.shape, c.axis, c.flat, p.Strategy, p.Tiles, p.Kept, c.st, c.tiles, c.kept)
		}
	}
	if _, err := PlanScan(Layout{Shape: []int{2}, Strides: []int{1}}, 1, false, cuda); err == nil {
		t.Error("axis 1 of a 1-D array planned")
	}
}
