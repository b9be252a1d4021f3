package cpu

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// oddFloats is n random values of wide range with NaNs, infinities and
// zeros of both signs among them.
func oddFloats(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat32}
	for i := range x {
		switch k := r.IntN(40); {
		case k < len(special):
			x[i] = special[k]
		default:
			x[i] = (r.Float64() - 0.5) * math.Exp2(float64(r.IntN(60)-30))
		}
	}
	return x
}

// withGo runs f with the Go loops instead of the vector ones.
func withGo[R any](f func() R) R {
	defer func(v bool) { useAVX = v }(useAVX)
	useAVX = false
	return f()
}

// TestAddVecMatchesGo: the vector loops leave the Go loops' bits in each
// accumulator, for every length up to 1000, unaligned starts, squares or
// not, both dtypes, with NaNs, infinities and signed zeros.
func TestAddVecMatchesGo(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(1, 2))
	src := oddFloats(r, 1003)
	acc := oddFloats(r, 1003)
	f32 := make([]float32, len(src))
	for i, v := range src {
		f32[i] = float32(v)
	}
	for n := 0; n <= 1000; n++ {
		off := n % 3
		for _, sq := range []bool{false, true} {
			check32 := func(a []float64) { addVec(a, f32[off:off+n], sq) }
			check64 := func(a []float64) { addVec(a, src[off:off+n], sq) }
			for name, f := range map[string]func([]float64){"f32": check32, "f64": check64} {
				vec := append([]float64(nil), acc[off:off+n]...)
				f(vec)
				goLoop := append([]float64(nil), acc[off:off+n]...)
				if name == "f32" {
					goAdd(goLoop, f32[off:off+n], sq)
				} else {
					goAdd(goLoop, src[off:off+n], sq)
				}
				for i := range vec {
					if math.Float64bits(vec[i]) != math.Float64bits(goLoop[i]) {
						t.Fatalf("%s n=%d square=%v lane %d: %x, Go %x", name, n, sq, i,
							math.Float64bits(vec[i]), math.Float64bits(goLoop[i]))
					}
				}
			}
		}
	}
}

// goAdd is hostBlocks's Go loop.
func goAdd[T hostFloat](a []float64, xs []T, square bool) {
	for t, v := range xs {
		y := float64(v)
		if square {
			y *= y
		}
		a[t] += y
	}
}

// TestHostSumsVecMatchGo: full sums and row sums of large arrays come out
// with the Go loops' bits (lengths around the block and group sizes, an
// unaligned start).
func TestHostSumsVecMatchGo(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 1000, 16383, 1 << 20, 3<<20 + 77} {
		x := make([]float32, n+1)
		for i := range x {
			x[i] = float32((r.Float64() - 0.5) * 1e3)
		}
		x = x[1:] // an unaligned start
		for _, sq := range []bool{false, true} {
			s := f32Sum(x)
			s.Square, s.Workers = sq, 2
			vec, err := (cpuBackend{}).Sum(&s)
			goSum, err2 := withGo(func() float64 { v, _ := (cpuBackend{}).Sum(&s); return v }), err
			if err != nil || err2 != nil || math.Float64bits(vec) != math.Float64bits(goSum) {
				t.Fatalf("n=%d square=%v: %v (%v), Go %v", n, sq, vec, err, goSum)
			}
		}
		rows := 1 // the most rows up to 97 that n splits into
		for d := 97; d > 1 && rows == 1; d-- {
			if n%d == 0 {
				rows = d
			}
		}
		s := backend.Sum{DType: ir.F32, X: unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*n),
			Order: backend.SumOrder{Threads: 256, Unroll: 4, Blocks: 1}, Workers: 2}
		vec := make([]float64, rows)
		if err := (cpuBackend{}).RowSums(&s, vec); err != nil {
			t.Fatal(err)
		}
		goRows := withGo(func() []float64 { o := make([]float64, rows); (cpuBackend{}).RowSums(&s, o); return o })
		for i := range vec {
			if math.Float64bits(vec[i]) != math.Float64bits(goRows[i]) {
				t.Fatalf("n=%d row %d: %v, Go %v", n, i, vec[i], goRows[i])
			}
		}
	}
}

// TestMerge4VecMatchesGo: the vector merge of four accumulators gives
// the Go loop's bits, at every length of whole groups of 8 up to 1000,
// with NaNs, infinities and signed zeros.
func TestMerge4VecMatchesGo(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX")
	}
	r := rand.New(rand.NewPCG(9, 10))
	var a [4][]float64
	for u := range a {
		a[u] = oddFloats(r, 1000)
	}
	for n := 0; n <= 1000; n += 8 {
		v := make([]float64, n)
		if !merge4Vec(v, a[0][:n], a[1][:n], a[2][:n], a[3][:n]) {
			t.Fatal("merge4Vec refused a multiple of 8")
		}
		for i := range v {
			want := (a[0][i] + a[1][i]) + (a[2][i] + a[3][i])
			if math.Float64bits(v[i]) != math.Float64bits(want) {
				t.Fatalf("n=%d lane %d: %x, Go %x", n, i, math.Float64bits(v[i]), math.Float64bits(want))
			}
		}
	}
}
