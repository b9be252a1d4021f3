package reduce

import (
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// HostSum describes the full reduction of kind k (Sum, Mean or Norm) of
// n contiguous elements of float type t to a backend.Summer: the f64
// accumulator that Pass1 and Pass2 of FullKernels leave in res, in their
// order (Blocks(n) blocks of blockThreads lanes, unroll accumulators a
// lane), so that the Summer's loops give their bits
// (TestHostSumMatchesKernels). ok is false for other reductions and
// types, which only the kernels compute. The caller sets X (the n
// elements), Workers and Canceled.
func HostSum(k Kind, t ir.Type, n int) (s backend.Sum, ok bool) {
	if (k != Sum && k != Mean && k != Norm) || !t.IsFloat() {
		return backend.Sum{}, false
	}
	order := backend.SumOrder{Threads: blockThreads, Unroll: unroll, Blocks: Blocks(n)}
	return backend.Sum{DType: t, Square: k == Norm, Order: order}, true
}
