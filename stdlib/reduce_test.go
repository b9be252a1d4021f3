package stdlib_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestReduceTransposedViews reduces views that scripts cannot make yet
// (axes permuted: no axis is contiguous) against sums computed here.
func TestReduceTransposedViews(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	run(t, in, "let m = arange(60, dtype=f64).reshape([3, 4, 5])\nlet v = nil")
	m, _ := in.Global("m")
	view, err := m.(*interp.Array).A.Permute([]int{2, 0, 1}) // v[i, j, k] = m[j, k, i] = 20j + 5k + i
	if err != nil {
		t.Fatal(err)
	}
	if err := in.SetGlobal("v", &interp.Array{A: view}); err != nil {
		t.Fatal(err)
	}
	run(t, in, "print(sum(v), argmax(v), argmin(v), max(v, axis=[1, 2]), list(sum(v, axis=1)), argmax(v, axis=2))")
	// sum(v, axis=1)[i, k] = sum_j 20j + 5k + i = 60 + 15k + 3i;
	// argmax(v) is the C-order index of v[4, 2, 3] = 59: 4*12 + 2*4 + 3.
	var axis1 []string
	for i := range 5 {
		var row []string
		for k := range 4 {
			row = append(row, fmt.Sprintf("%d.0", 60+15*k+3*i))
		}
		axis1 = append(axis1, "["+strings.Join(row, ", ")+"]")
	}
	want := fmt.Sprintf("1770.0 59 0 [55.0, 56.0, 57.0, 58.0, 59.0] [%s] %s\n", strings.Join(axis1, ", "),
		"[[3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3], [3, 3, 3]]")
	if out.String() != want {
		t.Errorf("got  %s want %s", out.String(), want)
	}
}

// TestSumDeterministicAndAccurate sums 10^6 random f32 twice (identical
// bits) and against the exact sum (math/big): f64 accumulation of f32
// values errs by far less than one f32 ulp of the total.
func TestSumDeterministicAndAccurate(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, 1_000_000)
	exact, abs := new(big.Float).SetPrec(2000), 0.0
	for i := range xs {
		xs[i] = float32(r.NormFloat64() * 100)
		exact.Add(exact, big.NewFloat(float64(xs[i])))
		abs += math.Abs(float64(xs[i]))
	}
	x, err := interp.WrapSlice(in, xs)
	if err != nil {
		t.Fatal(err)
	}
	sum := stdlib.Universe()["sum"]
	var got [2]float64
	for k := range got {
		v, err := in.Call(context.Background(), sum, x)
		if err != nil {
			t.Fatal(err)
		}
		got[k] = float64(v.(interp.Float))
	}
	if math.Float64bits(got[0]) != math.Float64bits(got[1]) {
		t.Fatalf("two sums of one array differ: %v and %v", got[0], got[1])
	}
	want, _ := exact.Float64()
	// Each of the n additions rounds by at most 2^-53 of a partial sum
	// bounded by sum |x|.
	if bound := float64(len(xs)) * 0x1p-53 * abs; math.Abs(got[0]-want) > bound {
		t.Errorf("sum = %v, exact %v: error %g over the bound %g", got[0], want, math.Abs(got[0]-want), bound)
	}
}

// TestReductionScratchKept checks that a loop of reductions allocates its
// scratch arrays once.
func TestReductionScratchKept(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	run(t, in, "let x = ones(100000)\nprint(sum(x), argmax(x))")
	live := len(in.Tracker().Live())
	run(t, in, "for i in range(20) { let s = sum(x) + float(argmax(x)) }")
	if n := len(in.Tracker().Live()); n != live {
		t.Errorf("live arrays went from %d to %d over a loop of full reductions", live, n)
	}
}

// TestReduceCUDAMatchesCPU reduces one array of random f32 on the cpu and
// on cuda:0: full reductions give the same bits on both (their order
// depends on the element count alone), axis reductions of f32 the same
// values.
func TestReduceCUDAMatchesCPU(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	r := rand.New(rand.NewPCG(3, 4))
	xs := make([]float32, 3_000_017)
	for i := range xs {
		xs[i] = float32(r.NormFloat64())
	}
	x, err := interp.WrapSlice(in, xs)
	if err != nil {
		t.Fatal(err)
	}
	run(t, in, "let x = nil")
	if err := in.SetGlobal("x", x); err != nil {
		t.Fatal(err)
	}
	src := `
fn all_of(a) {
    let m = a[0:3000000].reshape([3000, 1000])
    return [sum(a), prod(a), min(a), max(a), mean(a), argmin(a), argmax(a), count_nonzero(a), norm(a), dot(a, a),
        sum(m, axis=0)[17], sum(m, axis=1)[17], max(m, axis=0)[3], argmax(m, axis=1)[5]]
}
let g = x.to("cuda:0")
let c = all_of(x)
let d = all_of(g)
for i in range(len(c)) {
    print(i, c[i], d[i], c[i] == d[i])
}
`
	run(t, in, src)
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.HasSuffix(line, "true") {
			t.Errorf("cpu and cuda:0 differ: %s", line)
		}
	}
}

// TestFusedReductionMakesNoTemporary checks that full reductions of
// expressions allocate nothing inside an allocator scope (their scratch
// is the thread's, made before) and axis reductions only their output:
// the expression is computed inside the reduction's kernel instead of
// materialised. An expression bound to a name, the control, allocates
// once.
func TestFusedReductionMakesNoTemporary(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	a := &uninitAlloc{}
	if err := in.RegisterAllocator("a", a); err != nil {
		t.Fatal(err)
	}
	run(t, in, "let x = arange(1000).astype(f32)\nlet y = ones(1000, dtype=f32)\nprint(sum(x), dot(x, y), allclose(x, y))")
	run(t, in, `allocator "a" on "cpu" {
    print(sum(x * y), max(abs(x - y)), mean(x + 1), count_nonzero(x > 3), any(x < y), all(x >= 0))
    print(dot(x * 2, y), allclose(x * 2, x + x), equal(x, x * 1), norm(x - x))
}`)
	if n := a.zeroed + a.uninit; n != 0 {
		t.Errorf("fused reductions allocated %d arrays in the scope; want none", n)
	}
	run(t, in, `allocator "a" on "cpu" { let z = x * y }`)
	if n := a.zeroed + a.uninit; n != 1 {
		t.Errorf("a materialised expression allocated %d arrays in the scope; want 1", n)
	}
	run(t, in, `allocator "a" on "cpu" { let r = sum(x.reshape([10, 100]) * 2, axis=1) }`)
	if n := a.zeroed + a.uninit; n != 2 {
		t.Errorf("a fused axis reduction allocated %d arrays in the scope; want its output alone", n-1)
	}
	want := "499500.0 499500.0 false\n499500.0 998.0 500.5 996 true true\n999000.0 true true 0.0\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

// TestHostSumPathAgrees: sum, mean and norm of a contiguous cpu array
// (reduce.HostSum's Go loops) give the bits of the same values seen
// through a strided view (the kernels on the lane executor), f32 and f64,
// at sizes of one block, several, and several grid strides a lane. (w is
// written in place: an array expression would be reduced fused, by the
// kernels; its magnitudes span 58 binades, so that the order of adding
// shows in f64.)
func TestHostSumPathAgrees(t *testing.T) {
	var out bytes.Buffer
	in := newInterp(t, "cpu", &out)
	for _, dt := range []string{"f32", "f64"} {
		for _, n := range []int{3, 300, 70001, 1 << 20} {
			out.Reset()
			run(t, in, fmt.Sprintf(`
let w = zeros(%d, dtype=%s)
w[:] = (rand(len(w), seed=3) - 0.3) * exp(rand(len(w), seed=4) * 40.0 - 20.0)
let y = zeros(2 * len(w), dtype=%s)
y[::2] = w
let v = y[::2]
print(sum(w) == sum(v), mean(w) == mean(v), norm(w) == norm(v), sum(w) != 0.0)
`, n, dt, dt))
			if out.String() != "true true true true\n" {
				t.Errorf("%s n=%d: %s", dt, n, out.String())
			}
		}
	}
}

// TestReductionsAllocateNoHostCopy: full, fused and axis reductions of
// 128 MiB arrays allocate no host memory in proportion to them (Go's heap
// grows by less than 16 MiB over all of them), on the cpu and, where
// there is one, on cuda:0, whose reductions once copied the array to the
// host.
func TestReductionsAllocateNoHostCopy(t *testing.T) {
	devs := []string{"cpu"}
	if mem.CUDADeviceCount() > 0 {
		devs = append(devs, "cuda:0")
	}
	for _, dev := range devs {
		var out bytes.Buffer
		in := newInterp(t, dev, &out)
		run(t, in, "array x: f32[1 << 25] = 0.5\narray y: f32[1 << 25] = 2.0\nlet m = x.reshape([4096, 8192])")
		src := `let r = [sum(x), max(x), argmax(x), mean(x), norm(x), dot(x, y), sum(x * y), allclose(x, y),
    sum(m, axis=1), max(m, axis=0)]
synchronize()`
		run(t, in, src) // builds the kernels
		// A collection first: the cpu's kernel frames are kept per
		// program and worker across it (runtime/cpu/framestore.go); in
		// a sync.Pool a 16-worker host made ~100 MB of them again.
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		run(t, in, src)
		runtime.ReadMemStats(&after)
		// A host copy of an array is 128 MiB; the sum accumulators (a
		// sync.Pool, up to 4 MiB a worker) may come new after the
		// collection, so the bound is a quarter of a copy.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
			t.Errorf("%s: reductions of 128 MiB arrays allocated %d bytes of host memory", dev, grew)
		}
		in.Close()
	}
}
