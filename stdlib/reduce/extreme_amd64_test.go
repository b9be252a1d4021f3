package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// oddFloats is n random values with NaNs (rare: about one in 2000, so
// that most slices have none), infinities and zeros of both signs.
func oddFloats(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		switch k := r.IntN(2000); {
		case k == 0:
			x[i] = math.NaN()
		case k < 20:
			x[i] = math.Inf(1 - 2*(k%2))
		case k < 400:
			x[i] = math.Copysign(0, float64(k%2)-0.5)
		default:
			x[i] = (r.Float64() - 0.5) * math.Exp2(float64(r.IntN(40)-20))
		}
	}
	return x
}

// goLoops runs f with floatExtreme's Go loops instead of the vector ones.
func goLoops[R any](f func() R) R {
	defer func(v bool) { useAVX = v }(useAVX)
	useAVX = false
	return f()
}

// TestExtremeVecMatchesGo: floatExtreme with the vector loops finds the
// Go loops' NaN flag and extreme, bit for bit but for the sign of a zero
// extreme when zeros of both signs are there (hasZeros's case), for
// every length up to 1000 from unaligned starts, both dtypes, min and
// max, and all-negative, all-zero and NaN-first slices.
func TestExtremeVecMatchesGo(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(5, 6))
	f64 := oddFloats(r, 1003)
	f32 := make([]float32, len(f64))
	for i, v := range f64 {
		f32[i] = float32(v)
	}
	for n := 1; n <= 1000; n++ {
		off := n % 3
		for _, isMax := range []bool{false, true} {
			compareExtreme(t, f32[off:off+n], isMax)
			compareExtreme(t, f64[off:off+n], isMax)
		}
	}
	neg := make([]float32, 100)
	for i := range neg {
		neg[i] = -float32(i) - 1
	}
	zeros := make([]float32, 100)
	nanFirst := append([]float32{float32(math.NaN())}, neg...)
	for _, xs := range [][]float32{neg, zeros, nanFirst} {
		compareExtreme(t, xs, true)
		compareExtreme(t, xs, false)
	}
}

func compareExtreme[T float32 | float64](t *testing.T, xs []T, isMax bool) {
	t.Helper()
	m, nan := floatExtreme(xs, isMax)
	type res struct {
		m   T
		nan bool
	}
	g := goLoops(func() res { m, nan := goExtreme(xs, isMax); return res{m, nan} })
	same := rawBits(m) == rawBits(g.m) || m == 0 && g.m == 0 && hasZeros(xs)
	if nan != g.nan || !nan && !same {
		t.Fatalf("%T n=%d max=%v: %v %v, Go %v %v", xs[0], len(xs), isMax, m, nan, g.m, g.nan)
	}
}

// TestHostExtremeVecMatchesGo: HostExtreme of 2^20 + 5 f32 (chunks of
// both loops) gives the Go loops' bits and ok, with a NaN, zeros of both
// signs, or neither.
func TestHostExtremeVecMatchesGo(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float32, 1<<20+5)
	for i := range xs {
		xs[i] = -float32(r.Float64()) * 100
	}
	p := unsafe.Pointer(&xs[1])
	n := len(xs) - 1
	cases := []func(){
		func() {},
		func() { xs[777] = 5 },
		func() { xs[n/2] = float32(math.NaN()) },
		func() { xs[n/2], xs[9], xs[99999] = 0, float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1)) },
	}
	for i, setUp := range cases {
		setUp()
		for _, isMax := range []bool{false, true} {
			type res struct {
				bits uint64
				ok   bool
			}
			b, ok := HostExtreme(ir.F32, isMax, p, n, never)
			g := goLoops(func() res { b, ok := HostExtreme(ir.F32, isMax, p, n, never); return res{b, ok} })
			if b != g.bits || ok != g.ok {
				t.Errorf("case %d max=%v: %#x %v, Go %#x %v", i, isMax, b, ok, g.bits, g.ok)
			}
		}
	}
}
