package ir

import "math"

// The float semantics of OpMin, OpMax and OpFma (optab.go), written once:
// the cpu backend executes them and lang/linalg's host evaluator computes
// with them, so a kernel and the host give the same bits.

// FMin is OpMin on floats, C's fmin/fminf: a NaN operand yields the other
// one, and min(-0, +0) is -0 (as math.Min).
func FMin[T ~float32 | ~float64](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a < b:
		return a
	case b < a:
		return b
	case a == 0 && math.Signbit(float64(a)):
		return a
	}
	return b
}

// FMax is OpMax on floats, C's fmax/fmaxf: a NaN operand yields the other
// one, and max(+0, -0) is +0 (as math.Max).
func FMax[T ~float32 | ~float64](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case a > b:
		return a
	case b > a:
		return b
	case a == 0 && !math.Signbit(float64(a)):
		return a
	}
	return b
}

// FMA32 is OpFma on f32, fmaf: a*b+c rounded once to float32. a*b is
// exact in float64; the float64 sum may round, so when it lands exactly on
// a float32 halfway point its rounding error decides the direction
// (avoiding double rounding).
func FMA32(a, b, c float32) float32 {
	p := float64(a) * float64(b)
	hi := p + float64(c)
	r := float32(hi)
	if math.IsInf(hi, 0) || math.IsNaN(hi) || float64(r) == hi {
		return r
	}
	// lo is the exact error of hi (Knuth's TwoSum).
	bv := hi - p
	lo := (p - (hi - bv)) + (float64(c) - bv)
	if lo == 0 {
		return r
	}
	up := hi > float64(r)
	n := math.Nextafter32(r, float32(math.Copysign(math.Inf(1), hi-float64(r))))
	if (float64(r)+float64(n))/2 == hi && (lo > 0) == up {
		return n
	}
	return r
}
