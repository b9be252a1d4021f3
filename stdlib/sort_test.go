package stdlib_test

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// sortCases make 2^20 random keys of each dtype, with repeats (so that
// stability shows) and, for floats, NaN, infinities and both zeros.
var sortCases = []struct{ dtype, make string }{
	{"bool", "randint(0, 2, n, seed=1) > 0"},
	{"u8", "randint(0, 256, n, seed=2).astype(u8)"},
	{"i32", "randint(-1000, 1000, n, seed=3)"},
	{"u32", "(randint(0, 2000000000, n, seed=4).astype(u32) * u32(2))"},
	{"i64", "randint(-2000000000, 2000000000, n, seed=5).astype(i64) * 4000000000"},
	{"u64", "randint(0, 1000, n, seed=6).astype(u64) * u64(18000000000000000)"},
	{"f32", "floor(randn(n, seed=7) * 100.0)"},
	{"f64", "floor(randn(n, seed=8, dtype=f64) * 1000.0) / 7.0"},
}

// floatSpecials puts NaN, infinities and signed zeros among the keys.
const floatSpecials = `
x[3] = nan
x[100] = -nan
x[5000] = inf
x[7] = -inf
x[2] = 0.0
x[9] = -0.0
x[11] = 0.0
x[n - 1] = nan
`

// TestSortMatchesGo sorts 2^20 keys of every dtype on the cpu, through
// the radix kernels and through the host path, and checks sort against
// Go's stable sort of the same values (NaN last), and argsort as the
// permutation that sorts the keys stably.
func TestSortMatchesGo(t *testing.T) {
	for _, kernels := range []bool{true, false} {
		name := "host"
		if kernels {
			name = "kernels"
		}
		t.Run(name, func(t *testing.T) {
			if kernels && testing.Short() {
				t.Skip("the kernels sort 2^20 keys of 8 dtypes in about a minute on the cpu")
			}
			defer stdlib.SetSortOnHost(!kernels)()
			sortEveryDtype(t, "cpu")
		})
	}
}

// TestSortMatchesGoCUDA is TestSortMatchesGo's check of the kernels on
// cuda:0.
func TestSortMatchesGoCUDA(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	sortEveryDtype(t, "cuda:0")
}

func sortEveryDtype(t *testing.T, dev string) {
	const n = 1 << 20
	for _, c := range sortCases {
		t.Run(c.dtype, func(t *testing.T) {
			in := newInterp(t, dev, nil)
			src := fmt.Sprintf("let n = %d\nlet x = %s\n", n, c.make)
			if c.dtype == "f32" || c.dtype == "f64" {
				src += floatSpecials
			}
			run(t, in, src+"let s = sort(x)\nlet a = argsort(x)\n")
			x, s, a := hostArray(t, in, "x"), hostArray(t, in, "s"), hostArray(t, in, "a")
			if x.t.String() != c.dtype || s.t != x.t || a.t != ir.I64 {
				t.Fatalf("dtypes x %s s %s a %s", x.t, s.t, a.t)
			}
			checkSorted(t, x, s, a)
		})
	}
}

// keyed is a host copy of an array's elements as raw bits.
type keyed struct {
	t    ir.Type
	bits []uint64
}

func hostArray(t *testing.T, in *interp.Interp, name string) keyed {
	t.Helper()
	v, ok := in.Global(name)
	if !ok {
		t.Fatalf("no global %s", name)
	}
	a := v.(*interp.Array).A
	b, err := a.ReadHost()
	if err != nil {
		t.Fatal(err)
	}
	k := keyed{t: a.DType(), bits: make([]uint64, a.Size())}
	for i := range k.bits {
		k.bits[i] = mem.LoadBits(b, a.DType(), i)
	}
	runtime.KeepAlive(a)
	return k
}

// less orders raw bits of t as NumPy's sort: by value, NaN last, -0.0
// equal to 0.0.
func less(t ir.Type, x, y uint64) bool {
	switch {
	case t.IsFloat():
		fx, fy := float(t, x), float(t, y)
		return fx < fy || !math.IsNaN(fx) && math.IsNaN(fy)
	case t.IsSigned():
		sh := 64 - 8*t.Size()
		return int64(x<<sh)>>sh < int64(y<<sh)>>sh
	}
	return x < y
}

func float(t ir.Type, b uint64) float64 {
	if t == ir.F32 {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// same says whether two elements are one value (any NaN is NaN).
func same(t ir.Type, x, y uint64) bool { return !less(t, x, y) && !less(t, y, x) }

func checkSorted(t *testing.T, x, s, a keyed) {
	t.Helper()
	order := make([]int, len(x.bits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		switch {
		case less(x.t, x.bits[i], x.bits[j]):
			return -1
		case less(x.t, x.bits[j], x.bits[i]):
			return 1
		}
		return 0
	})
	for i, j := range order {
		if !same(x.t, s.bits[i], x.bits[j]) {
			t.Fatalf("sort: element %d is %#x, want %#x", i, s.bits[i], x.bits[j])
		}
		if int(a.bits[i]) != j {
			t.Fatalf("argsort: element %d is %d, want %d (the stable order)", i, a.bits[i], j)
		}
	}
}

// pathsScript sorts along axes (rows of one and of many tiles, and rows
// short enough to sort a thread each) and takes
// unique of ints and of floats with NaN: its output must not depend on
// whether the cpu takes the host path or the kernels.
const pathsScript = `
let r = floor(rand([3, 9000], seed=5) * 50.0)
r[1, 7] = nan
let s = sort(r, axis=1)
let a = argsort(r, axis=0)
print(s[:, :5], s[:, 8990:], a[:, 100:105], sum(argsort(r)[2]))
print(sort(r.T, axis=0)[8999], argsort(r[0].astype(i32))[:8], unique(r, return_counts=true))
print(unique(randint(-5, 5, 20000, seed=1).astype(i64), return_counts=true), unique(array([true, true])))
let short = floor(randn([700, 32], seed=6) * 3.0)
short[5, 3] = nan
short[9, 0] = -0.0
print(sort(short)[:12], argsort(short, axis=-1)[:12], sort(short[:, :1]).shape, argsort(short.astype(i32))[600:604])
print(argsort(short[:, :7], axis=1)[100:110], sort(short.astype(u8)[:, 5:20])[:4], unique(short[3]))
`

// TestSortPathsAgree runs pathsScript through the kernels and the host
// path on the cpu.
func TestSortPathsAgree(t *testing.T) {
	var outs [2]string
	for i, host := range []bool{false, true} {
		restore := stdlib.SetSortOnHost(host)
		outs[i] = runOn(t, "cpu", pathsScript)
		restore()
	}
	if outs[0] != outs[1] || len(outs[0]) < 100 {
		t.Errorf("kernels:\n%s\nhost:\n%s", outs[0], outs[1])
	}
}
