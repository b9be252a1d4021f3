package ir

import "math"

// The semantics of the ops whose Go expression is more than an operator
// (OpMin, OpMax and OpFma on floats, OpAbs and OpSign), written once: the
// cpu backend executes them and Eval computes with them, so a kernel and
// the host give the same bits.

type integer interface {
	~uint8 | ~int32 | ~int64 | ~uint32 | ~uint64
}

type float interface{ ~float32 | ~float64 }

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

// IAbs is OpAbs on integers; it wraps for the most negative value (abs(MinInt32) = MinInt32), as C.
func IAbs[T integer](a T) T {
	if a < 0 {
		return -a
	}
	return a
}

// ISign is OpSign on integers: -1, 0 or 1 (unsigned: 0 or 1).
func ISign[T integer](a T) T {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return ^T(0) // -1 without a constant overflow for unsigned T
	}
	return 0
}

// FSign is OpSign on floats: -1, +0 or 1; NaN stays NaN. Both zeros give
// +0, as NumPy's np.sign.
func FSign[T float](a T) T {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	case a == 0:
		return 0
	}
	return a
}
