package reduce

import (
	"math"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// HostScan runs the scan s that p plans with Go loops in host memory, in
// the kernels' order of combining, so that it gives their bits for every
// dtype (TestHostScanMatchesKernels): a Column row in sequence; a Row
// tile in rounds of blockThreads elements, each blockScan's ladders
// combined with the carry; with several tiles a row, each tile's total
// in the totals kernel's order (strided's accumulators, blockReduce's
// butterflies) and the tiles' offsets in rounds of scanTotalsThreads. x
// and out are element [0, ...] of the input and the output seen through
// p.View, xst and ost their strides in elements, one per group of p.Ext;
// the two must not overlap. ok is false when the scanned axes did not
// merge into one group (the kernels run those). canceled is polled
// between groups of rows or tiles; a cancellation returns
// backend.ErrCanceled with out partly written.
func HostScan(s ScanSpec, p ScanPlan, x, out unsafe.Pointer, xst, ost []int, canceled func() bool) (ok bool, err error) {
	if len(p.Ext)-p.Kept != 1 || len(xst) != len(p.Ext) || len(ost) != len(p.Ext) || s.Check() != nil {
		return false, nil
	}
	done := false
	switch ScanOut(s.In) {
	case ir.F32:
		done = newScanJob[float32](s, p, x, out, xst, ost).run(canceled)
	case ir.F64:
		done = newScanJob[float64](s, p, x, out, xst, ost).run(canceled)
	default: // i64 and u64: wrapping sums and products have the same bits
		done = newScanJob[uint64](s, p, x, out, xst, ost).run(canceled)
	}
	if !done {
		return true, backend.ErrCanceled
	}
	return true, nil
}

// scanAcc is an accumulator's Go type: the output dtype's (i64 as u64).
type scanAcc interface{ ~float32 | ~float64 | ~uint64 }

// scanJob is one HostScan of accumulator type T.
type scanJob[T scanAcc] struct {
	p        ScanPlan
	mul      bool // cumprod
	ident    T    // the combine's exact identity (scanner.ident)
	load     func(dst []T, src unsafe.Pointer, stride int)
	x, out   unsafe.Pointer
	xsz      int   // the input's element size
	xst, ost []int // strides, elements
}

func newScanJob[T scanAcc](s ScanSpec, p ScanPlan, x, out unsafe.Pointer, xst, ost []int) *scanJob[T] {
	j := &scanJob[T]{p: p, mul: s.Kind == CumProd, x: x, out: out, xsz: s.In.Size(), xst: xst, ost: ost}
	j.load = loader[T](s.In)
	switch {
	case j.mul:
		j.ident = 1
	case ScanOut(s.In).IsFloat():
		negZero := math.Copysign(0, -1)
		j.ident = T(negZero)
	}
	return j
}

// loader converts elements of dtype in to the accumulator's type, as the
// kernels' element does (bools are bytes 0 and 1; signed ints are sign
// extended).
func loader[T scanAcc](in ir.Type) func(dst []T, src unsafe.Pointer, stride int) {
	switch in {
	case ir.Bool, ir.U8:
		return loadAs[uint8, T]
	case ir.I32:
		return loadAs[int32, T]
	case ir.U32:
		return loadAs[uint32, T]
	case ir.I64:
		return loadAs[int64, T]
	case ir.F32:
		return loadAs[float32, T]
	case ir.F64:
		return loadAs[float64, T]
	}
	return loadAs[uint64, T]
}

type scanElem interface {
	~uint8 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// loadAs reads len(dst) elements of type E stride elements apart.
func loadAs[E scanElem, T scanAcc](dst []T, src unsafe.Pointer, stride int) {
	if stride == 1 {
		for i, v := range unsafe.Slice((*E)(src), len(dst)) {
			dst[i] = T(v)
		}
		return
	}
	var e E
	step := stride * int(unsafe.Sizeof(e))
	for i := range dst {
		dst[i] = T(*(*E)(unsafe.Add(src, i*step)))
	}
}

// store writes src to len(src) output elements stride elements apart.
func store[T scanAcc](dst unsafe.Pointer, stride int, src []T) {
	if stride == 1 {
		copy(unsafe.Slice((*T)(dst), len(src)), src)
		return
	}
	var e T
	step := stride * int(unsafe.Sizeof(e))
	for i, v := range src {
		*(*T)(unsafe.Add(dst, i*step)) = v
	}
}

// rowBase is the input's and the output's element 0 of row m (kept
// indices in C order over the kept groups).
func (j *scanJob[T]) rowBase(m int) (x, out unsafe.Pointer) {
	xo, oo := 0, 0
	for g := j.p.Kept - 1; g >= 0; g-- {
		i := m % j.p.Ext[g]
		m /= j.p.Ext[g]
		xo, oo = xo+i*j.xst[g], oo+i*j.ost[g]
	}
	var e T
	return unsafe.Add(j.x, xo*j.xsz), unsafe.Add(j.out, oo*int(unsafe.Sizeof(e)))
}

// loadRun reads elements [lo, lo+len(dst)) of row m.
func (j *scanJob[T]) loadRun(m, lo int, dst []T) {
	x, _ := j.rowBase(m)
	st := j.xst[j.p.Kept]
	j.load(dst, unsafe.Add(x, lo*st*j.xsz), st)
}

// storeRun writes src to elements [lo, lo+len(src)) of row m's output.
func (j *scanJob[T]) storeRun(m, lo int, src []T) {
	_, out := j.rowBase(m)
	var e T
	st := j.ost[j.p.Kept]
	store(unsafe.Add(out, lo*st*int(unsafe.Sizeof(e))), st, src)
}

// hostScanGroup is the elements a worker takes at once (rows or tiles
// rounded up): 64 Ki, under a millisecond between polls.
const hostScanGroup = 1 << 16

// run runs the plan's passes on every core and reports false when
// canceled stopped it.
func (j *scanJob[T]) run(canceled func() bool) bool {
	p := j.p
	rows := max(1, hostScanGroup/p.K)
	switch {
	case p.Strategy == Column:
		return chunkedBy(p.M, rows, canceled, func(lo, hi int) {
			var buf [blockThreads]T
			for m := lo; m < hi; m++ {
				j.column(m, &buf)
			}
		})
	case p.Tiles <= 1:
		return chunkedBy(p.M, rows, canceled, func(lo, hi int) {
			var buf [blockThreads]T
			for m := lo; m < hi; m++ {
				j.tile(m, 0, p.K, j.ident, &buf)
			}
		})
	}
	return j.tiled(canceled)
}

// tiled is the three passes of rows split into tiles: the tiles' totals,
// each row's offsets (in place of its totals), and the tiles' scans.
func (j *scanJob[T]) tiled(canceled func() bool) bool {
	p := j.p
	tots := make([]T, p.M*p.Tiles)
	group := max(1, hostScanGroup/p.Tile)
	each := func(f func(b, m, lo, hi int, buf *[blockThreads]T)) bool {
		return chunkedBy(len(tots), group, canceled, func(b0, b1 int) {
			var buf [blockThreads]T
			for b := b0; b < b1; b++ {
				lo := b % p.Tiles * p.Tile
				f(b, b/p.Tiles, lo, min(lo+p.Tile, p.K), &buf)
			}
		})
	}
	ok := each(func(b, m, lo, hi int, buf *[blockThreads]T) { tots[b] = j.total(m, lo, hi, buf) })
	if !ok {
		return false
	}
	for m := range p.M {
		j.offsets(tots[m*p.Tiles : (m+1)*p.Tiles])
	}
	return each(func(b, m, lo, hi int, buf *[blockThreads]T) { j.tile(m, lo, hi, tots[b], buf) })
}
