package cpu

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX says the processor and the OS run AVX, for the vector loops of
// sumvec_amd64.s (a variable: tests compare them with the Go loops).
var useAVX = cpu.X86.HasAVX

func addF32(a []float64, x []float32)
func sqAddF32(a []float64, x []float32)
func addF64(a []float64, x []float64)
func sqAddF64(a []float64, x []float64)
func merge4(v, a0, a1, a2, a3 *float64, n int)

// addVec adds xs (squared when square) into a lane by lane with the
// vector loops and reports true, or reports false without AVX, for the
// caller's Go loop. len(a) >= len(xs).
func addVec[T hostFloat](a []float64, xs []T, square bool) bool {
	if !useAVX {
		return false
	}
	switch x := any(xs).(type) {
	case []float32:
		if square {
			sqAddF32(a, x)
		} else {
			addF32(a, x)
		}
	case []float64:
		if square {
			sqAddF64(a, x)
		} else {
			addF64(a, x)
		}
	}
	return true
}

// merge4Vec sets v[t] = (a0[t] + a1[t]) + (a2[t] + a3[t]) with the vector
// loop and reports true, or reports false without AVX. The slices have
// len(v) elements, a multiple of 8.
func merge4Vec(v, a0, a1, a2, a3 []float64) bool {
	if !useAVX || len(v)%8 != 0 {
		return false
	}
	d := func(s []float64) *float64 { return unsafe.SliceData(s) } // no index: v may be empty
	merge4(d(v), d(a0), d(a1), d(a2), d(a3), len(v))
	return true
}
