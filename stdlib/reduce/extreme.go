package reduce

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// HostExtreme is the full min (isMax false) or max of n contiguous
// elements of numeric type t at x, in host memory, with Go loops over
// chunks on every core: the kernels' result, which no order changes for
// ints and for floats but in two cases it reports with ok false, for the
// kernels to decide: a NaN (which of several NaNs the merge tree keeps
// depends on the order) and an extreme of zero with both signs present
// (the merge keeps the later of -0 and +0). canceled is polled between
// chunks; a cancellation returns ok false and canceled's true.
func HostExtreme(t ir.Type, isMax bool, x unsafe.Pointer, n int, canceled func() bool) (bits uint64, ok bool) {
	switch t {
	case ir.F32:
		return extremeFloat[float32](x, n, isMax, canceled)
	case ir.F64:
		return extremeFloat[float64](x, n, isMax, canceled)
	case ir.I32:
		return extremeInt[int32](x, n, isMax, canceled)
	case ir.I64:
		return extremeInt[int64](x, n, isMax, canceled)
	case ir.U8:
		return extremeInt[uint8](x, n, isMax, canceled)
	case ir.U32:
		return extremeInt[uint32](x, n, isMax, canceled)
	case ir.U64:
		return extremeInt[uint64](x, n, isMax, canceled)
	}
	return 0, false
}

// extremeChunk is the elements a worker takes at once: 256 KiB of f32.
const extremeChunk = 1 << 16

// chunked runs f over [lo, hi) chunks of n elements on every core (one
// below two chunks) and reports false when canceled stopped it.
func chunked(n int, canceled func() bool, f func(lo, hi int)) bool {
	return chunkedBy(n, extremeChunk, canceled, f)
}

// chunkedBy is chunked with chunks of size elements (or rows, or tiles).
func chunkedBy(n, size int, canceled func() bool, f func(lo, hi int)) bool {
	chunks := (n + size - 1) / size
	workers := min(runtime.GOMAXPROCS(0), chunks)
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	work := func() {
		for !stop.Load() {
			c := int(next.Add(1) - 1)
			if c >= chunks {
				return
			}
			if canceled() {
				stop.Store(true)
				return
			}
			f(c*size, min(n, (c+1)*size))
		}
	}
	wg.Add(workers - 1)
	for range workers - 1 {
		go func() { defer wg.Done(); work() }()
	}
	work()
	wg.Wait()
	return !stop.Load()
}

type integer interface {
	~uint8 | ~int32 | ~int64 | ~uint32 | ~uint64
}

func extremeInt[T integer](x unsafe.Pointer, n int, isMax bool, canceled func() bool) (uint64, bool) {
	xs := unsafe.Slice((*T)(x), n)
	var mu sync.Mutex
	best, have := xs[0], false
	done := chunked(n, canceled, func(lo, hi int) {
		m := xs[lo]
		if isMax {
			for _, v := range xs[lo:hi] {
				m = max(m, v)
			}
		} else {
			for _, v := range xs[lo:hi] {
				m = min(m, v)
			}
		}
		mu.Lock()
		if !have || (isMax && m > best) || (!isMax && m < best) {
			best, have = m, true
		}
		mu.Unlock()
	})
	return rawBits(best), done
}

// rawBits is v's bits as mem.LoadBits reads them: zero-extended.
func rawBits[T any](v T) uint64 {
	var bits uint64
	*(*T)(unsafe.Pointer(&bits)) = v
	return bits
}

func extremeFloat[T float32 | float64](x unsafe.Pointer, n int, isMax bool, canceled func() bool) (uint64, bool) {
	xs := unsafe.Slice((*T)(x), n)
	var mu sync.Mutex
	best, odd := xs[0], false
	done := chunked(n, canceled, func(lo, hi int) {
		m, nan := floatExtreme(xs[lo:hi], isMax)
		mu.Lock()
		odd = odd || nan
		if (isMax && m > best) || (!isMax && m < best) {
			best = m
		}
		mu.Unlock()
	})
	if !done || odd {
		return 0, false
	}
	if best == 0 && hasZeros(xs) {
		return 0, false
	}
	return rawBits(best), true
}

// floatExtreme is the min or max of xs (not empty) and whether a NaN is
// among them: the vector loops' (extremeVec) over a prefix, goExtreme's
// over the rest.
func floatExtreme[T float32 | float64](xs []T, isMax bool) (m T, nan bool) {
	vm, vnan, n := extremeVec(xs, isMax)
	switch {
	case n == 0:
		return goExtreme(xs, isMax)
	case n == len(xs):
		return vm, vnan
	}
	m, nan = goExtreme(xs[n:], isMax)
	if isMax {
		return max(m, vm), nan || vnan
	}
	return min(m, vm), nan || vnan
}

// goExtreme is floatExtreme with Go loops: one compare per element in the common case (v within the
// bound so far), NaN failing both compares. Eight bounds, one for each
// element of a group of eight, let the compares of a group run together
// (one bound makes each compare wait on the last: BenchmarkHostLoops/max,
// 2^24 f32 on the 2-core machine, 5.2 ms with one, 4.1 with four, 3.3-3.6
// with eight, no better with sixteen); which bound meets an element does
// not change the extreme, and the zeros of both signs that could are
// left to hasZeros.
func goExtreme[T float32 | float64](xs []T, isMax bool) (m T, nan bool) {
	m = xs[0]
	var b [8]T
	for k := range b {
		b[k] = m
	}
	i := 0
	if isMax {
		for ; i+8 <= len(xs); i += 8 {
			q := (*[8]T)(xs[i : i+8])
			for k := range 8 {
				if v := q[k]; !(v <= b[k]) {
					if v > b[k] {
						b[k] = v
					} else {
						nan = true
					}
				}
			}
		}
		for _, v := range xs[i:] {
			if !(v <= b[0]) {
				if v > b[0] {
					b[0] = v
				} else {
					nan = true
				}
			}
		}
		m = b[0]
		for _, v := range b[1:] {
			m = max(m, v)
		}
		return m, nan || m != m
	}
	for ; i+8 <= len(xs); i += 8 {
		q := (*[8]T)(xs[i : i+8])
		for k := range 8 {
			if v := q[k]; !(v >= b[k]) {
				if v < b[k] {
					b[k] = v
				} else {
					nan = true
				}
			}
		}
	}
	for _, v := range xs[i:] {
		if !(v >= b[0]) {
			if v < b[0] {
				b[0] = v
			} else {
				nan = true
			}
		}
	}
	m = b[0]
	for _, v := range b[1:] {
		m = min(m, v)
	}
	return m, nan || m != m
}

// hasZeros reports whether xs holds both +0 and -0 (a pass made only
// when the extreme is a zero).
func hasZeros[T float32 | float64](xs []T) bool {
	pos, neg := false, false
	for _, v := range xs {
		if v == 0 {
			neg = neg || math.Signbit(float64(v))
			pos = pos || !math.Signbit(float64(v))
		}
	}
	return pos && neg
}
