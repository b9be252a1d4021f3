package reduce

import (
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The loops of HostScan, each a scan kernel's order written out (their
// doc comments in scan.go and kernels.go): a change to scanGen, strided,
// blockReduce or blockScan's shape must change these too, which
// TestHostScanMatchesKernels enforces.

// comb is the scan's combine, x op y.
func (j *scanJob[T]) comb(x, y T) T {
	if j.mul {
		return x * y
	}
	return x + y
}

// exact is comb giving the NaN that the lane executor's x op y gives
// (its loops' A[i] op B[i]): x's, quieted, when x is a NaN, else y's,
// else the processor's (the default NaN of inf - inf, 0 * inf). A Go
// expression does not fix which operand the processor sees first (the
// compiler may swap them), which decides the NaN that two NaNs give; so
// the loops take this slower combine, "careful", wherever two NaNs of
// different bits can meet: a NaN carry, or a round (a run, a tile) with
// a NaN input, which makes its total a NaN: such a round runs again
// carefully. Elsewhere every NaN is the processor's default one, and
// which of two the combine keeps does not change the bits.
func (j *scanJob[T]) exact(x, y T) T {
	r := j.comb(x, y)
	switch {
	case r == r:
		return r
	case x != x:
		return quiet(x)
	case y != y:
		return quiet(y)
	}
	return r
}

// quiet is NaN x with its quiet bit set (the top bit of the fraction).
func quiet[T scanAcc](x T) T {
	if unsafe.Sizeof(x) == 4 {
		*(*uint32)(unsafe.Pointer(&x)) |= 1 << 22
	} else {
		*(*uint64)(unsafe.Pointer(&x)) |= 1 << 51
	}
	return x
}

// column is the Column kernel's row m: in sequence from the identity,
// in runs of blockThreads elements; a run that ends in a NaN (maybe an
// input's) runs again carefully.
func (j *scanJob[T]) column(m int, buf *[blockThreads]T) {
	acc := j.ident
	for lo := 0; lo < j.p.K; lo += blockThreads {
		run := buf[:min(blockThreads, j.p.K-lo)]
		j.loadRun(m, lo, run)
		from := acc
		acc = j.columnRun(acc, run, from != from)
		if acc != acc && from == from {
			j.loadRun(m, lo, run)
			acc = j.columnRun(from, run, true)
		}
		j.storeRun(m, lo, run)
	}
}

// columnRun scans run in place from acc and returns the last value.
func (j *scanJob[T]) columnRun(acc T, run []T, careful bool) T {
	switch {
	case careful:
		for i, v := range run {
			acc = j.exact(acc, v)
			run[i] = acc
		}
	case j.mul:
		for i, v := range run {
			acc *= v
			run[i] = acc
		}
	default:
		for i, v := range run {
			acc += v
			run[i] = acc
		}
	}
	return acc
}

// tile is the row kernel over elements [lo, hi) of row m from carry
// init: rounds of blockThreads elements (the identity past hi), each
// block-scanned and combined with the carry, which then takes the
// round's total.
func (j *scanJob[T]) tile(m, lo, hi int, init T, buf *[blockThreads]T) {
	carry := init
	for base := lo; base < hi; base += blockThreads {
		n := min(blockThreads, hi-base)
		j.loadRun(m, base, buf[:n])
		for i := n; i < blockThreads; i++ {
			buf[i] = j.ident
		}
		careful := carry != carry
		total := j.blockScan(buf[:], carry, false, careful)
		if total != total && !careful { // a NaN in the round, maybe an input's
			j.loadRun(m, base, buf[:n])
			total = j.blockScan(buf[:], carry, false, true)
		}
		j.storeRun(m, base, buf[:n])
		carry = j.exact(carry, total)
	}
}

// offsets is the offsets kernel over one row's tile totals, in place:
// rounds of scanTotalsThreads, each tile given carry op (the exclusive
// block scan of the round's totals).
func (j *scanJob[T]) offsets(tots []T) {
	var buf [scanTotalsThreads]T
	carry := j.ident
	for base := 0; base < len(tots); base += scanTotalsThreads {
		n := copy(buf[:], tots[base:])
		for i := n; i < scanTotalsThreads; i++ {
			buf[i] = j.ident
		}
		careful := carry != carry
		total := j.blockScan(buf[:], carry, true, careful)
		if total != total && !careful {
			copy(buf[:], tots[base:base+n])
			total = j.blockScan(buf[:], carry, true, true)
		}
		copy(tots[base:], buf[:n])
		carry = j.exact(carry, total)
	}
}

// blockScan is blockScan's (scan.go) over v, a whole block (whole warps,
// at most WarpSize of them): each warp's ladder, its last lane's value
// in its slot, the ladder over the slots, and each lane's value then
// carry op (p op s), p the warp before's scanned slot (the identity for
// warp 0) and s the lane's inclusive value, or with excl the lane
// before's (the identity for lane 0). It returns the block's total.
// careful: every combine is exact's.
func (j *scanJob[T]) blockScan(v []T, carry T, excl, careful bool) T {
	nw := len(v) / ir.WarpSize
	var slots [ir.WarpSize]T
	for w := range nw {
		l := (*[ir.WarpSize]T)(v[w*ir.WarpSize:])
		j.ladder(l, ir.WarpSize, careful)
		slots[w] = l[ir.WarpSize-1]
		if excl {
			copy(l[1:], l[:ir.WarpSize-1])
			l[0] = j.ident
		}
	}
	j.ladder(&slots, nw, careful)
	for w := range nw {
		p := j.ident
		if w > 0 {
			p = slots[w-1]
		}
		l := (*[ir.WarpSize]T)(v[w*ir.WarpSize:])
		switch {
		case careful:
			for i, s := range l {
				l[i] = j.exact(carry, j.exact(p, s))
			}
		case j.mul:
			for i, s := range l {
				l[i] = carry * (p * s)
			}
		default:
			for i, s := range l {
				l[i] = carry + (p + s)
			}
		}
	}
	return slots[nw-1]
}

// ladder is the inclusive scan of s's first n lanes in block_scan's
// order: for d in 1, 2, 4, ... below n, every lane l >= d becomes s[l-d]
// op s[l] (from the top down, so that s[l-d] is still the round
// before's). Lanes from n on are left alone.
func (j *scanJob[T]) ladder(s *[ir.WarpSize]T, n int, careful bool) {
	if n == ir.WarpSize && !careful && !j.mul {
		warpLadderAdd(s)
		return
	}
	for d := 1; d < n; d *= 2 {
		switch {
		case careful:
			for l := n - 1; l >= d; l-- {
				s[l] = j.exact(s[l-d], s[l])
			}
		case j.mul:
			for l := n - 1; l >= d; l-- {
				s[l] = s[l-d] * s[l]
			}
		default:
			for l := n - 1; l >= d; l-- {
				s[l] = s[l-d] + s[l]
			}
		}
	}
}

// warpLadderAdd is ladder's sum over a whole warp, each round's step a
// constant (no bounds checks, the loop's adds independent).
func warpLadderAdd[T scanAcc](s *[ir.WarpSize]T) {
	for l := ir.WarpSize - 1; l >= 1; l-- {
		s[l] = s[l-1] + s[l]
	}
	for l := ir.WarpSize - 1; l >= 2; l-- {
		s[l] = s[l-2] + s[l]
	}
	for l := ir.WarpSize - 1; l >= 4; l-- {
		s[l] = s[l-4] + s[l]
	}
	for l := ir.WarpSize - 1; l >= 8; l-- {
		s[l] = s[l-8] + s[l]
	}
	for l := ir.WarpSize - 1; l >= 16; l-- {
		s[l] = s[l-16] + s[l]
	}
}

// total is the totals kernel's value of elements [lo, hi) of row m:
// lane t's unroll accumulators in strided's order (element lo+t+q*256 of
// round q into accumulator q%unroll while its main-loop iteration runs,
// that is while lo+t+1024*(q/unroll) < hi-768, else into the first), merged
// in pairs, then blockReduce's butterflies. A NaN total (any NaN
// input's makes it one) is computed again carefully.
func (j *scanJob[T]) total(m, lo, hi int, buf *[blockThreads]T) T {
	if v := j.totalOf(m, lo, hi, buf, false); v == v {
		return v
	}
	return j.totalOf(m, lo, hi, buf, true) // a NaN, maybe an input's
}

// totalOf is total, careful or not.
func (j *scanJob[T]) totalOf(m, lo, hi int, buf *[blockThreads]T, careful bool) T {
	var accs [unroll][blockThreads]T
	for u := range accs {
		for t := range accs[u] {
			accs[u][t] = j.ident
		}
	}
	lim := hi - (unroll-1)*blockThreads
	for q := 0; lo+q*blockThreads < hi; q++ {
		base := lo + q*blockThreads
		run := buf[:min(blockThreads, hi-base)]
		j.loadRun(m, base, run)
		main := min(len(run), max(0, lim-lo-unroll*blockThreads*(q/unroll)))
		j.accumulate(accs[q%unroll][:main], run[:main], careful)
		j.accumulate(accs[0][main:len(run)], run[main:], careful)
	}
	var a [blockThreads]T
	for t := range a {
		a[t] = j.exact(j.exact(accs[0][t], accs[1][t]), j.exact(accs[2][t], accs[3][t]))
	}
	var slots [warps]T
	for w := range warps {
		slots[w] = j.butterfly0(a[w*ir.WarpSize : (w+1)*ir.WarpSize])
	}
	return j.butterfly0(slots[:])
}

// accumulate is acc[t] = acc[t] op x[t] (careful: exact's op).
func (j *scanJob[T]) accumulate(acc, x []T, careful bool) {
	acc = acc[:len(x)]
	switch {
	case careful:
		for t, v := range x {
			acc[t] = j.exact(acc[t], v)
		}
		return
	case j.mul:
		for t, v := range x {
			acc[t] *= v
		}
		return
	}
	for t, v := range x {
		acc[t] += v
	}
}

// butterfly0 is lane 0's value after butterfly over len(v) lanes (a
// power of two): for m in len(v)/2, ..., 1 each lane l below m becomes
// v[l] op v[l+m], the lanes lane 0 reads (as runtime/cpu's butterfly0).
func (j *scanJob[T]) butterfly0(v []T) T {
	for m := len(v) / 2; m >= 1; m /= 2 {
		for l := range m {
			v[l] = j.exact(v[l], v[l+m])
		}
	}
	return v[0]
}
