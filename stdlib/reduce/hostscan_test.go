package reduce

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// hostScan runs HostScan of p for s over x and returns the output's
// elements as p.View sees them.
func hostScan(t *testing.T, s ScanSpec, x *tensor, p ScanPlan) []uint64 {
	t.Helper()
	out := newTensor(ScanOut(s.In), x.shape, func(int) uint64 { return 0 })
	xv, ov := x.view(p.View), out.view(p.View)
	ok, err := HostScan(s, p, xv.ptr(), ov.ptr(), xv.strides, ov.strides, never)
	if !ok || err != nil {
		t.Fatalf("%v: HostScan refused it (%v, %v)", s, ok, err)
	}
	return ov.elems()
}

func (x *tensor) ptr() unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(&x.buf[0]), x.off*x.t.Size())
}

// orderData is elements of t whose scans depend on the order of
// combining: for float sums magnitudes over 30 binades of both signs with
// NaN, infinities and -0 sprinkled in, for float products factors near
// 1, for ints any bits (sums and products wrap).
func orderData(s ScanSpec, seed uint64) func(int) uint64 {
	r := rand.New(rand.NewPCG(seed, 11))
	return func(int) uint64 {
		switch {
		case s.In == ir.Bool:
			return uint64(r.IntN(2))
		case !s.In.IsFloat():
			return ir.Convert(r.Uint64(), ir.U64, s.In)
		case s.Kind == CumProd:
			return ir.FromFloat(0.75+r.Float64()/2, s.In)
		}
		v := (r.Float64() - 0.3) * math.Ldexp(1, r.IntN(30)-15)
		switch r.IntN(200) {
		case 0:
			v = math.NaN()
		case 1:
			v = math.Inf(1 - 2*r.IntN(2))
		case 2:
			v = math.Copysign(0, -1)
		}
		return ir.FromFloat(v, s.In)
	}
}

// TestHostScanMatchesKernels: HostScan gives the bits of the scan
// kernels run by the cpu backend, for every dtype and both scans, along
// each axis of plain, transposed and sliced 3-D tensors and flattened,
// with every strategy (tiles of 256 and 1024 elements too).
func TestHostScanMatchesKernels(t *testing.T) {
	views := map[string]func(x *tensor) *tensor{
		"contiguous": func(x *tensor) *tensor { return x },
		"transposed": func(x *tensor) *tensor { return x.permute([]int{2, 0, 1}) },
		"slice":      func(x *tensor) *tensor { return x.permute([]int{0, 2, 1}).slice0(1, 3) },
	}
	for _, kind := range []ScanKind{CumSum, CumProd} {
		for _, dt := range dtypes {
			s := ScanSpec{Kind: kind, In: dt}
			for name, view := range views {
				x := view(newTensor(dt, []int{3, 40, 300}, orderData(s, 5)))
				for axis := -1; axis < 3; axis++ {
					for _, c := range scanCases {
						p, err := PlanScan(x.layout(), max(axis, 0), axis < 0, Target{})
						if err != nil {
							t.Fatal(err)
						}
						if len(p.Ext)-p.Kept != 1 {
							continue // the kernels' alone
						}
						p = withStrategy(p, c.st, c.tile)
						got, want := hostScan(t, s, x, p), runScan(t, s, x, p)
						if i := firstDiff(got, want); i >= 0 {
							t.Fatalf("%v %s axis %d %v tile %d: element %d is %x, the kernels' %x",
								s, name, axis, c.st, c.tile, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestHostScanManyTiles: a row of more than scanTotalsThreads tiles,
// whose offsets take several rounds, with the plan's own tiling and with
// tiles of 256, float sums and products.
func TestHostScanManyTiles(t *testing.T) {
	n := 300001
	for _, kind := range []ScanKind{CumSum, CumProd} {
		for _, dt := range []ir.Type{ir.F32, ir.F64} {
			s := ScanSpec{Kind: kind, In: dt}
			x := newTensor(dt, []int{n}, orderData(s, 3))
			p, err := PlanScan(x.layout(), 0, true, Target{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []ScanPlan{p, withStrategy(p, Row, 256)} {
				got, want := hostScan(t, s, x, q), runScan(t, s, x, q)
				if i := firstDiff(got, want); i >= 0 || q.Tiles < 2 {
					t.Fatalf("%v tiles %d of %d: element %d differs", s, q.Tiles, q.Tile, i)
				}
			}
		}
	}
}

// TestHostScanRefusesSplitAxes: a flattened scan of a transposed tensor
// (scanned axes that do not merge) is left to the kernels.
func TestHostScanRefusesSplitAxes(t *testing.T) {
	s := ScanSpec{Kind: CumSum, In: ir.F32}
	x := newTensor(ir.F32, []int{4, 5}, func(int) uint64 { return 0 }).permute([]int{1, 0})
	p, err := PlanScan(x.layout(), 0, true, Target{})
	if err != nil {
		t.Fatal(err)
	}
	xv := x.view(p.View)
	if ok, _ := HostScan(s, p, xv.ptr(), xv.ptr(), xv.strides, xv.strides, never); ok {
		t.Error("HostScan took a scan over two groups")
	}
}

// TestHostScanCanceled: a cancellation stops the scan with an error.
func TestHostScanCanceled(t *testing.T) {
	s := ScanSpec{Kind: CumSum, In: ir.I64}
	x := newTensor(ir.I64, []int{1 << 18}, func(int) uint64 { return 1 })
	p, err := PlanScan(x.layout(), 0, true, Target{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(x.buf)
	st := []int{1}
	ok, err := HostScan(s, p, x.ptr(), unsafe.Pointer(&out[0]), st, st, func() bool { return true })
	if !ok || err == nil {
		t.Errorf("canceled scan: ok %v, err %v", ok, err)
	}
}
