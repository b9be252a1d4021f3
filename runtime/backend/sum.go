package backend

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Sum is one full float sum (or sum of squares) of contiguous elements in
// host memory, in the order of a reduction's two kernels, so that a
// backend summing them with its own loops gives the kernels' bits. The
// caller, which builds the kernels, gives that order.
type Sum struct {
	DType  ir.Type // F32 or F64 (Summer.Sum refuses others)
	X      []byte  // the elements, in host memory
	Square bool    // add each element's square (a 2-norm's sum)
	Order  SumOrder
	// Workers is the number of goroutines to sum on (at least 1 is used).
	Workers int
	// Canceled, when non-nil, is polled between groups of blocks; true
	// stops the sum with ErrCanceled.
	Canceled func() bool
}

// SumOrder is the kernels' order of adding, each addition in f64:
// Blocks blocks of Threads lanes, lane t of block b adding elements
// b*Threads+t, then a grid stride (Blocks*Threads) on, round robin into
// Unroll accumulators while a whole round of Unroll elements is left, the
// rest into the first; its accumulators merged in pairs, round after
// round; block_sum's order over each block's lanes (lang/ir/doc.go); then
// one block the same way over the Blocks partial sums.
type SumOrder struct {
	Threads int // a multiple of ir.WarpSize, at most WarpSize*WarpSize
	Unroll  int // 1 to MaxSumUnroll
	Blocks  int // at least 1
}

// MaxSumUnroll bounds SumOrder.Unroll.
const MaxSumUnroll = 8

// Summer is the optional interface of a backend that sums floats in host
// memory without launching kernels (the cpu: Go loops at memory speed
// instead of its lane executor).
type Summer interface {
	// Sum returns the f64 sum s describes, to completion.
	Sum(s *Sum) (float64, error)
}

// SummerFor returns the Summer of dev's backend; ok is false when the
// backend has none (the caller launches its kernels).
func SummerFor(dev mem.Device) (s Summer, ok bool) {
	b, err := For(dev)
	if err != nil {
		return nil, false
	}
	s, ok = b.(Summer)
	return s, ok
}

// Check reports a Sum that its order or dtype makes impossible to run.
func (s *Sum) Check() error {
	if s.DType != ir.F32 && s.DType != ir.F64 {
		return fmt.Errorf("host sum of %s: only f32 and f64", s.DType)
	}
	if len(s.X)%s.DType.Size() != 0 {
		return fmt.Errorf("host sum of %d bytes of %s", len(s.X), s.DType)
	}
	o := s.Order
	if o.Threads <= 0 || o.Threads%ir.WarpSize != 0 || o.Threads > ir.WarpSize*ir.WarpSize ||
		o.Unroll < 1 || o.Unroll > MaxSumUnroll || o.Blocks < 1 {
		return fmt.Errorf("host sum order %+v: want whole warps up to %d threads, 1-%d accumulators, a block or more",
			o, ir.WarpSize*ir.WarpSize, MaxSumUnroll)
	}
	return nil
}

// RowSummer is the optional interface of a Summer that also sums rows
// (the Row strategy of an axis reduction): X as len(out) rows of equal
// length, each row summed as one block of s.Order would sum it (lane t
// adding elements t, t+Threads, ... into Unroll accumulators, merged,
// then block_sum's order; Blocks is ignored and there is no second
// pass), into out.
type RowSummer interface {
	RowSums(s *Sum, out []float64) error
}
