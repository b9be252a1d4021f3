package reduce

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

func never() bool { return false }

// TestHostExtreme compares HostExtreme with a sequential min and max over
// sizes around its chunks, for every numeric dtype, and checks the cases
// it leaves to the kernels.
func TestHostExtreme(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for _, n := range []int{1, 7, extremeChunk, 3*extremeChunk + 11} {
		f := make([]float64, n)
		for i := range f {
			f[i] = r.NormFloat64() * 1e3
		}
		f[r.IntN(n)] = math.Inf(-1)
		checkExtreme(t, ir.F64, f, func(v float64) float64 { return v })
		checkExtreme(t, ir.F32, f, func(v float64) float32 { return float32(v) })
		checkExtreme(t, ir.I32, f, func(v float64) int32 { return int32(v) })
		checkExtreme(t, ir.I64, f, func(v float64) int64 { return int64(v) * 1e12 })
		checkExtreme(t, ir.U8, f, func(v float64) uint8 { return uint8(int(v)) })
		checkExtreme(t, ir.U32, f, func(v float64) uint32 { return uint32(int64(v)) })
		checkExtreme(t, ir.U64, f, func(v float64) uint64 { return uint64(int64(v)) })
	}
	for _, c := range []struct {
		name string
		xs   []float32
		max  bool
		ok   bool
		want float32
	}{
		{"a NaN", []float32{1, float32(math.NaN()), 2}, true, false, 0},
		{"max of +0 and -0", []float32{-1, 0, float32(math.Copysign(0, -1))}, true, false, 0},
		{"min of -0 alone", []float32{float32(math.Copysign(0, -1)), 3}, false, true, float32(math.Copysign(0, -1))},
		{"max of -inf", []float32{float32(math.Inf(-1))}, true, true, float32(math.Inf(-1))},
	} {
		bits, ok := HostExtreme(ir.F32, c.max, unsafe.Pointer(&c.xs[0]), len(c.xs), never)
		if ok != c.ok || ok && uint32(bits) != math.Float32bits(c.want) {
			t.Errorf("%s: %#x %v, want %v %v", c.name, bits, ok, c.want, c.ok)
		}
	}
	// a NaN or the extreme at every position: each of the eight bounds
	// and the tail past the last group of eight
	for at := range 19 {
		for _, isMax := range []bool{false, true} {
			xs := make([]float32, 19)
			for i := range xs {
				xs[i] = float32(i%5) + 1
			}
			xs[at] = float32(math.NaN())
			if _, ok := HostExtreme(ir.F32, isMax, unsafe.Pointer(&xs[0]), len(xs), never); ok {
				t.Errorf("NaN at %d, max=%v: ok", at, isMax)
			}
			want := float32(-7)
			if isMax {
				want = 9
			}
			xs[at] = want
			if bits, ok := HostExtreme(ir.F32, isMax, unsafe.Pointer(&xs[0]), len(xs), never); !ok || uint32(bits) != math.Float32bits(want) {
				t.Errorf("extreme at %d, max=%v: %#x %v, want %v", at, isMax, bits, ok, want)
			}
		}
	}
	xs := make([]float32, 4*extremeChunk)
	if _, ok := HostExtreme(ir.F32, true, unsafe.Pointer(&xs[0]), len(xs), func() bool { return true }); ok {
		t.Error("a canceled max is ok")
	}
}

// checkExtreme converts f to T by conv and compares both extremes.
func checkExtreme[T float32 | float64 | int32 | int64 | uint8 | uint32 | uint64](t *testing.T, dt ir.Type, f []float64, conv func(float64) T) {
	t.Helper()
	xs := make([]T, len(f))
	for i, v := range f {
		xs[i] = conv(v)
	}
	lo, hi := xs[0], xs[0]
	for _, v := range xs {
		lo, hi = min(lo, v), max(hi, v)
	}
	for _, isMax := range []bool{false, true} {
		want := lo
		if isMax {
			want = hi
		}
		bits, ok := HostExtreme(dt, isMax, unsafe.Pointer(&xs[0]), len(xs), never)
		if !ok || bits != rawBits(want) {
			t.Errorf("%s n=%d max=%v: %#x %v, want %v", dt, len(xs), isMax, bits, ok, want)
		}
	}
}
