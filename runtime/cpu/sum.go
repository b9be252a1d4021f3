package cpu

import (
	"fmt"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// Sum is the backend.Summer of the cpu: a full float sum in host memory,
// the bits of the reduction kernels whose order s gives (stdlib/reduce's
// TestHostSumMatchesKernels holds it to that), computed by Go loops
// instead of the lane executor. Blocks run on s.Workers goroutines, in
// groups of neighbours; s.Canceled is polled between groups.
//
// Why: the lane executor spends about 3.4 ns of CPU an element on pass 1
// (an index, a gather, a conversion, an add and a move, each a loop over
// the lanes); these loops spend a few tenths, so the cpu's sum reads at
// memory speed, as NumPy's does.
func (cpuBackend) Sum(s *backend.Sum) (float64, error) {
	if err := s.Check(); err != nil {
		return 0, err
	}
	p, n := unsafe.Pointer(unsafe.SliceData(s.X)), len(s.X)/s.DType.Size()
	if s.DType == ir.F32 {
		return hostSum(unsafe.Slice((*float32)(p), n), s)
	}
	return hostSum(unsafe.Slice((*float64)(p), n), s)
}

type hostFloat interface{ float32 | float64 }

// sumShape is a checked SumOrder, and whether elements are squared.
type sumShape struct {
	threads, unroll int
	square          bool
}

func hostSum[T hostFloat](x []T, s *backend.Sum) (float64, error) {
	n, g := len(x), s.Order.Blocks
	sh := sumShape{threads: s.Order.Threads, unroll: s.Order.Unroll, square: s.Square}
	step := g * sh.threads
	parts := make([]float64, g)
	workers := max(1, min(s.Workers, g))
	group := min(hostMaxGroup, max(1, g/(2*workers))) // two groups a worker, or more
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := getAcc(sh.unroll*group*sh.threads + sh.threads)
			defer putAcc(acc)
			for {
				b := int(next.Add(int64(group))) - group
				if b >= g || stop.Load() {
					return
				}
				if s.Canceled != nil && s.Canceled() {
					stop.Store(true)
					return
				}
				hostBlocks(x, b*sh.threads, n, step, sh, *acc, parts[b:min(b+group, g)])
			}
		}()
	}
	wg.Wait()
	if stop.Load() {
		return 0, backend.ErrCanceled
	}
	last := sumShape{threads: sh.threads, unroll: sh.unroll}
	acc := getAcc((sh.unroll + 1) * sh.threads) // from the pool: a loop of small sums allocates no accumulators
	defer putAcc(acc)
	var out [1]float64
	return hostBlocks(parts, 0, g, sh.threads, last, *acc, out[:]), nil
}

// accPools keep workers' accumulators (up to 4 MiB each) between calls,
// so that a loop of sums does not allocate them again and again; pool k
// holds slices of capacity 2^k. With one pool for every size, a call
// needing a larger slice than the one it got dropped it and made another:
// full sums, row sums and their final merge want different sizes, and on
// a 16-core host a few reductions made tens of MB of accumulators a run.
var accPools [64]sync.Pool

// getAcc returns an accumulator slice of n elements from the pool of its
// size class, or a new one (hostBlocks clears what it uses).
func getAcc(n int) *[]float64 {
	k := bits.Len(uint(max(n, 1) - 1))
	if p, ok := accPools[k].Get().(*[]float64); ok {
		*p = (*p)[:n]
		return p
	}
	a := make([]float64, n, 1<<k)
	return &a
}

// putAcc returns an accumulator from getAcc to its pool.
func putAcc(p *[]float64) {
	accPools[bits.Len(uint(cap(*p)-1))].Put(p)
}

// hostMaxGroup bounds the blocks a worker runs together: their lanes read
// neighbouring elements, so each step of the loop reads a long run of
// memory, which the processor's prefetchers stream (one block alone reads
// 1 KiB of f32, then jumps a grid stride). On the 2-core development
// machine, a sum of 2^26 f32 in blocks of 256 read 4.4-6.7 GB/s one block
// at a time, 8.5 with 16 together, 10.9 with 256, 11.3 with 512 (then
// 4 MiB of accumulators a worker) and 8.0-10.3 with 1024.
const hostMaxGroup = 512

// hostBlocks runs len(out) neighbouring blocks of the strided loop and
// block_sum, the first starting at element start, and returns the first
// block's result: lane t (of all the blocks' lanes in a row) adds
// x[start+t], x[start+t+step], ... below end into the accumulators acc
// (sh.unroll runs of at least as many lanes, then sh.threads more for
// one block's lanes).
func hostBlocks[T hostFloat](x []T, start, end, step int, sh sumShape, acc []float64, out []float64) float64 {
	lanes := len(out) * sh.threads
	var accs [backend.MaxSumUnroll][]float64
	for u := range sh.unroll {
		accs[u] = acc[u*lanes : (u+1)*lanes]
		clear(accs[u])
	}
	lim := end - (sh.unroll-1)*step
	// The main loop: lane t runs an iteration while its index is below
	// lim, and the lanes' indices rise with t, so the running lanes are a
	// prefix.
	for base := start; base < lim; base += sh.unroll * step {
		nl := min(lanes, lim-base)
		for u := range sh.unroll {
			xs := x[base+u*step : base+u*step+nl]
			a := accs[u][:len(xs)] // one length: no bounds checks in the loops
			if addVec(a, xs, sh.square) {
				continue
			}
			if sh.square {
				for t, v := range xs {
					y := float64(v)
					a[t] += y * y
				}
			} else {
				for t, v := range xs {
					a[t] += float64(v)
				}
			}
		}
	}
	// The tail, into the first accumulator: lane t goes on from the
	// index of its first iteration that did not run.
	round := sh.unroll * step
	rounds, cut := tailRounds(start, lim, round)
	for t := range lanes {
		at := start + t + rounds*round
		if t >= cut {
			at -= round
		}
		for ; at < end; at += step {
			y := float64(x[at])
			if sh.square {
				y *= y
			}
			accs[0][t] += y
		}
	}
	v := acc[sh.unroll*lanes:][:sh.threads]
	for b := range out {
		if sh.unroll == 4 { // mergePairs's order for four, as one loop
			a0, a1 := accs[0][b*sh.threads:][:len(v)], accs[1][b*sh.threads:][:len(v)]
			a2, a3 := accs[2][b*sh.threads:][:len(v)], accs[3][b*sh.threads:][:len(v)]
			if !merge4Vec(v, a0, a1, a2, a3) {
				for t := range v {
					v[t] = (a0[t] + a1[t]) + (a2[t] + a3[t])
				}
			}
			out[b] = blockSum(v)
			continue
		}
		for t := range v {
			var a [backend.MaxSumUnroll]float64
			for u := range sh.unroll {
				a[u] = accs[u][b*sh.threads+t]
			}
			v[t] = mergePairs(a, sh.unroll)
		}
		out[b] = blockSum(v)
	}
	return out[0]
}

// tailRounds is the rounds (of round elements from start) that the main
// loop ran for lane 0, and the lane from which on it ran one fewer: lane
// t runs while start+t is below lim, and t < round (len(out) blocks are
// at most the grid), so lanes run rounds or rounds-1 of them. It replaces
// a division a lane (at 256 lanes a row, a third of a row sum's time).
func tailRounds(start, lim, round int) (rounds, cut int) {
	if lim <= start {
		return 0, math.MaxInt // no lane ran, none one fewer
	}
	rounds = (lim - start + round - 1) / round
	return rounds, lim - start - (rounds-1)*round
}

// mergePairs is the kernels' merge of a lane's n accumulators:
// neighbours added in pairs, round after round, an odd one out carried
// to the next round.
func mergePairs(a [backend.MaxSumUnroll]float64, n int) float64 {
	for n > 1 {
		m := 0
		for i := 0; i+1 < n; i += 2 {
			a[m] = a[i] + a[i+1]
			m++
		}
		if n%2 == 1 {
			a[m] = a[n-1]
			m++
		}
		n = m
	}
	return a[0]
}

// blockSum is block_sum's order (lang/ir/doc.go, blockReduce): each
// warp's butterfly, lane 0's value in its warp's slot, then the butterfly
// of the slots (zeros past the last warp); lane 0's result.
func blockSum(v []float64) float64 {
	var slot [ir.WarpSize]float64
	for w := range len(v) / ir.WarpSize {
		var l [ir.WarpSize]float64
		copy(l[:], v[w*ir.WarpSize:])
		slot[w] = butterfly0(&l)
	}
	return butterfly0(&slot)
}

// butterfly0 is lane 0's value after butterfly's order for a sum: for m
// in 16, 8, 4, 2, 1 every lane l computes v[l] + v[l^m] (its own value
// first). Lane 0's result reads only lanes below m after the round of
// m, and for those l^m is l+m, so the rounds run in place over the lanes
// below m: 31 adds, the same ones in the same order as the full
// butterfly's 160 (whose copies of v made a row sum of 4096 f32 spend a
// third of its time there).
func butterfly0(v *[ir.WarpSize]float64) float64 {
	for m := ir.WarpSize / 2; m >= 1; m /= 2 {
		for l := range m {
			v[l] += v[l+m]
		}
	}
	return v[0]
}

// RowSums is the backend.RowSummer of the cpu: each row is hostBlocks's
// one block, so its bits are those of the Row kernel of an axis sum
// (stdlib/reduce's TestHostRowSumsMatchKernels). Rows run on s.Workers
// goroutines, rowGroup rows at a time; s.Canceled is polled between
// groups.
func (cpuBackend) RowSums(s *backend.Sum, out []float64) error {
	if err := s.Check(); err != nil {
		return err
	}
	n := len(s.X) / s.DType.Size()
	if len(out) == 0 || n%len(out) != 0 {
		return fmt.Errorf("host row sums of %d elements into %d rows", n, len(out))
	}
	p := unsafe.Pointer(unsafe.SliceData(s.X))
	if s.DType == ir.F32 {
		return hostRows(unsafe.Slice((*float32)(p), n), s, out)
	}
	return hostRows(unsafe.Slice((*float64)(p), n), s, out)
}

// rowGroup is the rows a worker takes at once.
const rowGroup = 8

func hostRows[T hostFloat](x []T, s *backend.Sum, out []float64) error {
	k := len(x) / len(out)
	sh := sumShape{threads: s.Order.Threads, unroll: s.Order.Unroll, square: s.Square}
	groups := (len(out) + rowGroup - 1) / rowGroup
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range max(1, min(s.Workers, groups)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := getAcc((sh.unroll + 1) * sh.threads)
			defer putAcc(acc)
			for {
				g := int(next.Add(1) - 1)
				if g >= groups || stop.Load() {
					return
				}
				if s.Canceled != nil && s.Canceled() {
					stop.Store(true)
					return
				}
				for m := g * rowGroup; m < min(len(out), (g+1)*rowGroup); m++ {
					hostBlocks(x[m*k:(m+1)*k], 0, k, sh.threads, sh, *acc, out[m:m+1])
				}
			}
		}()
	}
	wg.Wait()
	if stop.Load() {
		return backend.ErrCanceled
	}
	return nil
}
