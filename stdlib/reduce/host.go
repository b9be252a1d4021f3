package reduce

import (
	"math"

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

// HostRowSums describes an axis sum, mean or norm of float type t that
// plan p runs with the Row strategy to a backend.RowSummer: each row of
// p.K elements summed in the Row kernel's order (one block of
// blockThreads lanes, unroll accumulators a lane), so that the loops give
// its f64 accumulator; RowValue finishes it. ok is false for anything
// else (Column plans, other reductions and types), which the kernels
// compute. The caller sets X (the rows, contiguous), Workers and
// Canceled.
func HostRowSums(k Kind, t ir.Type, p AxisPlan) (s backend.Sum, ok bool) {
	if p.Strategy != Row {
		return backend.Sum{}, false
	}
	s, ok = HostSum(k, t, p.K)
	s.Order.Blocks = 1
	return s, ok
}

// RowValue is the Row kernel's output of a row's f64 accumulator a over
// k elements (k > 0), before its conversion to the output's dtype: the
// sum, the mean or the norm.
func RowValue(kind Kind, a float64, k int) float64 {
	switch kind {
	case Mean:
		return a / float64(k)
	case Norm:
		return math.Sqrt(a)
	}
	return a
}
