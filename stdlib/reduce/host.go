package reduce

import (
	"sync"
	"sync/atomic"

	"github.com/gscript-lang/gscript/lang/ir"
)

// HostFloat is an element type HostSum reads.
type HostFloat interface{ float32 | float64 }

// HostSum is the full reduction of a float sum, mean or 2-norm (Kind Sum,
// Mean or Norm) over the contiguous elements x, for arrays in host memory:
// the f64 accumulator that Pass1 and Pass2 of FullKernels leave in res,
// bit for bit, computed by Go loops instead of the cpu backend's lane
// executor (TestHostSumMatchesKernels holds it to that). It follows the
// kernels' order exactly: Blocks(len(x)) blocks of blockThreads lanes, each
// lane adding every grid-stride element into one of unroll accumulators
// (acc + f64(x), squared for Norm), a tail into the first, the
// accumulators merged pairwise, block_sum's butterflies over the block,
// then one block the same way over the partials. Blocks run on workers
// goroutines, in groups of neighbours. canceled is polled between blocks; HostSum then returns
// false.
//
// Why: the lane executor spends about 3.4 ns of CPU an element on pass 1
// (an index, a gather, a conversion, an add and a move, each a loop over
// the lanes); these loops spend a few tenths, so the cpu's sum reads at
// memory speed, as NumPy's does.
func HostSum[T HostFloat](x []T, k Kind, workers int, canceled func() bool) (float64, bool) {
	n := len(x)
	g := Blocks(n)
	step := g * blockThreads
	square := k == Norm
	parts := make([]float64, g)
	workers = max(1, min(workers, g))
	group := min(hostMaxGroup, max(1, g/(2*workers))) // two groups a worker, or more
	var next atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := getAcc(unroll * group * blockThreads)
			defer accPool.Put(acc)
			for {
				b := int(next.Add(int64(group))) - group
				if b >= g || stop.Load() {
					return
				}
				if canceled != nil && canceled() {
					stop.Store(true)
					return
				}
				hostBlocks(x, b*blockThreads, n, step, square, *acc, parts[b:min(b+group, g)])
			}
		}()
	}
	wg.Wait()
	if stop.Load() {
		return 0, false
	}
	return hostBlocks(parts, 0, g, blockThreads, false, make([]float64, unroll*blockThreads), make([]float64, 1)), true
}

// accPool keeps workers' accumulators (up to 4 MiB each) between calls,
// so that a loop of sums does not allocate them again and again.
var accPool sync.Pool

// getAcc returns an accumulator slice of n elements from the pool, or a
// new one (hostBlocks clears what it uses).
func getAcc(n int) *[]float64 {
	if p, ok := accPool.Get().(*[]float64); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	a := make([]float64, n)
	return &a
}

// hostMaxGroup bounds the blocks a worker runs together: their lanes read
// neighbouring elements, so each step of the loop reads a long run of
// memory, which the processor's prefetchers stream (one block alone reads
// 1 KiB of f32, then jumps a grid stride). On the 2-core development
// machine, HostSum of 2^26 f32 read 4.4-6.7 GB/s one block at a time,
// 8.5 with 16 together, 10.9 with 256, 11.3 with 512 (then 4 MiB of
// accumulators a worker) and 8.0-10.3 with 1024.
const hostMaxGroup = 512

// hostBlocks runs len(out) neighbouring blocks of the strided loop
// (fb.strided) and block_sum, the first starting at element start, and
// returns the first block's result: lane t (of all the blocks' lanes in a
// row) adds x[start+t], x[start+t+step], ... below end into the
// accumulators acc (unroll runs of at least as many lanes).
func hostBlocks[T HostFloat](x []T, start, end, step int, square bool, acc []float64, out []float64) float64 {
	lanes := len(out) * blockThreads
	accs := [unroll][]float64{}
	for u := range accs {
		accs[u] = acc[u*lanes : (u+1)*lanes]
		clear(accs[u])
	}
	lim := end - (unroll-1)*step
	// The main loop: lane t runs an iteration while its index is below
	// lim, and the lanes' indices rise with t, so the running lanes are a
	// prefix.
	for base := start; base < lim; base += unroll * step {
		nl := min(lanes, lim-base)
		for u := range unroll {
			xs := x[base+u*step : base+u*step+nl]
			a := accs[u][:len(xs)] // one length: no bounds checks in the loops
			if square {
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
	for t := range lanes {
		at := start + t
		if at < lim {
			at += (lim - at + unroll*step - 1) / (unroll * step) * (unroll * step)
		}
		for ; at < end; at += step {
			y := float64(x[at])
			if square {
				y *= y
			}
			accs[0][t] += y
		}
	}
	for b := range out {
		var v [blockThreads]float64
		for t := range v {
			var a [unroll]float64
			for u := range a {
				a[u] = accs[u][b*blockThreads+t]
			}
			v[t] = mergePairs(a)
		}
		out[b] = blockSum(&v)
	}
	return out[0]
}

// mergePairs is fb.mergeUnrolled: neighbours added in pairs, round after
// round, an odd one out carried to the next round.
func mergePairs(a [unroll]float64) float64 {
	for n := unroll; n > 1; {
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

// blockSum is block_sum's order (lang/ir/doc.go, runtime/cpu's
// blockReduce): each warp's butterfly, lane 0's value in its warp's slot,
// then the butterfly of the slots (zeros past the last warp); lane 0's
// result.
func blockSum(v *[blockThreads]float64) float64 {
	var slot [ir.WarpSize]float64
	for w := range warps {
		var l [ir.WarpSize]float64
		copy(l[:], v[w*ir.WarpSize:])
		butterfly(&l)
		slot[w] = l[0]
	}
	butterfly(&slot)
	return slot[0]
}

// butterfly: for m in 16, 8, 4, 2, 1 every lane l computes v[l] + v[l^m]
// (its own value first).
func butterfly(v *[ir.WarpSize]float64) {
	for m := ir.WarpSize / 2; m >= 1; m /= 2 {
		u := *v
		for l := range v {
			v[l] = u[l] + u[l^m]
		}
	}
}
