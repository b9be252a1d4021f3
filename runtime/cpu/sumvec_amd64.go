package cpu

import "golang.org/x/sys/cpu"

// useAVX says the processor and the OS run AVX, for the vector loops of
// sumvec_amd64.s (a variable: tests compare them with the Go loops).
var useAVX = cpu.X86.HasAVX

func addF32(a []float64, x []float32)
func sqAddF32(a []float64, x []float32)
func addF64(a []float64, x []float64)
func sqAddF64(a []float64, x []float64)

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
