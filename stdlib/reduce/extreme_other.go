//go:build !amd64

package reduce

// extremeVec does nothing (n is 0): no vector loops but on amd64
// (extreme_amd64.s); floatExtreme's Go loop runs.
func extremeVec[T float32 | float64](xs []T, isMax bool) (m T, nan bool, n int) { return 0, false, 0 }
