//go:build !amd64

package cpu

// addVec reports false: no vector loops but on amd64 (sumvec_amd64.s);
// the caller runs its Go loop.
func addVec[T hostFloat](a []float64, xs []T, square bool) bool { return false }

// merge4Vec reports false: the caller merges with its Go loop.
func merge4Vec(v, a0, a1, a2, a3 []float64) bool { return false }
