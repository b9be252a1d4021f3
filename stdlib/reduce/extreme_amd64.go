package reduce

import "golang.org/x/sys/cpu"

// useAVX says the processor and the OS run AVX, for extreme_amd64.s's
// loops (a variable: tests compare them with the Go loops).
var useAVX = cpu.X86.HasAVX

func maxF32(x []float32) (m float32, nan bool)
func minF32(x []float32) (m float32, nan bool)
func maxF64(x []float64) (m float64, nan bool)
func minF64(x []float64) (m float64, nan bool)

// extremeVec is the max or min of the first n elements of xs and whether
// a NaN is among them, by the vector loops: n is len(xs) rounded down to
// their iteration's 128 bytes, 0 (nothing done) without AVX.
func extremeVec[T float32 | float64](xs []T, isMax bool) (m T, nan bool, n int) {
	if !useAVX {
		return 0, false, 0
	}
	switch x := any(xs).(type) {
	case []float32:
		if n = len(x) &^ 31; n == 0 {
			return 0, false, 0
		}
		var v float32
		if isMax {
			v, nan = maxF32(x[:n])
		} else {
			v, nan = minF32(x[:n])
		}
		return T(v), nan, n
	case []float64:
		if n = len(x) &^ 15; n == 0 {
			return 0, false, 0
		}
		var v float64
		if isMax {
			v, nan = maxF64(x[:n])
		} else {
			v, nan = minF64(x[:n])
		}
		return T(v), nan, n
	}
	return 0, false, 0
}
