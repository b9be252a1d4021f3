package cpu

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Warp ops and block collectives, with lang/ir/doc.go's orders written
// out lane by lane so that every lane gets the bits the CUDA backend's
// shuffle trees give it. Every lane of the warp (every thread of the
// block, for collectives) must reach a warp op: a full-mask shuffle on
// CUDA is undefined otherwise, so a warp with some lanes away fails the
// launch (barrier.checkWarps).

const warp = ir.WarpSize

// warpOp compiles the warp ops and block collectives, which check first
// that every lane of the warp, or every thread of the block, reached them.
func (c *compiler) warpOp(ctx *fnCtx, in *ir.Inst, o operands) (instFn, error) {
	info, _ := in.Op.Info()
	if c.p.blk == nil || !ctx.kernel || c.p.blk.threads%warp != 0 || len(o.args) != info.Arity || o.dst < 0 ||
		!info.Types.Has(o.types[0]) || (info.Form == ir.FormLane && o.types[1] != ir.I32) {
		return nil, c.errf(ctx, in.Pos, "%s of %v into %s needs a block kernel's entry with whole warps", in.Op, o.types, o.dt)
	}
	d, a := o.dst, o.args[0]
	var f instFn
	switch {
	case info.Form == ir.FormLane:
		f = mkShuffle(in.Op, o.dt, d, a, o.args[1])
	case info.Types == ir.Bools:
		f = mkVote(in.Op, d, a)
	default:
		f = mkNumCollective(in.Op, o.dt, d, a)
	}
	if f == nil || o.dt != info.ResultType(o.types[0]) {
		return c.check(ctx, in, o, nil)
	}
	b := c.newBarrier(in, !info.Barrier)
	b.race = b.race && info.Barrier // a warp op orders no memory
	return b.guard(f), nil
}

// forWarps calls f for each warp with active lanes, in order, with its
// first lane and its active lanes (nil when all 32 are).
func forWarps(fr *frame, m mask, f func(base int, idx []int32)) {
	if m.all {
		for base := 0; base < fr.n; base += warp {
			f(base, nil)
		}
		return
	}
	for idx := m.idx; len(idx) > 0; {
		w := idx[0] / warp
		k := 1
		for k < len(idx) && idx[k]/warp == w {
			k++
		}
		if k == warp {
			f(int(w)*warp, nil)
		} else {
			f(int(w)*warp, idx[:k])
		}
		idx = idx[k:]
	}
}

// put writes the warp at base's lane results r to its active lanes idx
// (nil: all).
func put[T any](D []T, base int, idx []int32, r *[warp]T) {
	if idx == nil {
		copy(D[base:base+warp], r[:])
		return
	}
	for _, i := range idx {
		D[i] = r[i%warp]
	}
}

// shflSrc is the lane a shuffle reads for lane l with operand b: its own
// lane when the source is out of range (doc.go).
func shflSrc(op ir.Op, l, b int32) int32 {
	switch op { // each shuffle's own source rule, per lane
	case ir.OpShfl:
		return b & (warp - 1)
	case ir.OpShflXor:
		return l ^ (b & (warp - 1))
	case ir.OpShflDown:
		if uint32(b) < warp && l+b < warp {
			return l + b
		}
	case ir.OpShflUp:
		if uint32(b) < warp && l >= b {
			return l - b
		}
	}
	return l
}

// kShuffle moves register elements of one size between the lanes of each
// warp; the warp's values are copied first, as D may be A.
func kShuffle[T uint8 | uint32 | uint64](fr *frame, m mask, op ir.Op, d, a, b int) {
	D, A, B := vec[T](fr, d), vec[T](fr, a), vec[int32](fr, b)
	forWarps(fr, m, func(base int, idx []int32) {
		var v, r [warp]T
		copy(v[:], A[base:])
		for l := range int32(warp) {
			r[l] = v[shflSrc(op, l, B[base+int(l)])]
		}
		put(D, base, idx, &r)
	})
}

func mkShuffle(op ir.Op, t ir.Type, d, a, b int) instFn {
	k := kShuffle[uint64]
	switch t.Size() {
	case 1:
		k = kShuffle[uint8]
	case 4:
		k = kShuffle[uint32]
	}
	return func(fr *frame, m mask) error { k(fr, m, op, d, a, b); return nil }
}

// ballots gives each warp's ballot of the bool register a.
func ballots(fr *frame, a int, bal *[lanes / warp]uint32) {
	A := vec[bool](fr, a)
	for w := range fr.n / warp {
		var x uint32
		for l, v := range A[w*warp : (w+1)*warp] {
			x |= uint32(b2i(v)) << l
		}
		bal[w] = x
	}
}

// mkVote compiles the ops that count where a bool holds: per warp
// (ballot, warp_all, warp_any) or over the block (block_count, block_any,
// block_all), exact in any order.
func mkVote(op ir.Op, d, a int) instFn {
	return func(fr *frame, m mask) error {
		var bal [lanes / warp]uint32
		ballots(fr, a, &bal)
		count := 0
		for _, x := range bal {
			count += bits.OnesCount32(x)
		}
		switch op { // each vote's own result: per warp or for the block, u32 or bool
		case ir.OpBallot:
			D := vec[uint32](fr, d)
			lanesDo(fr, m, func(i int) { D[i] = bal[i/warp] })
		case ir.OpWarpAll:
			D := vec[bool](fr, d)
			lanesDo(fr, m, func(i int) { D[i] = bal[i/warp] == math.MaxUint32 })
		case ir.OpWarpAny:
			D := vec[bool](fr, d)
			lanesDo(fr, m, func(i int) { D[i] = bal[i/warp] != 0 })
		case ir.OpBlockCount:
			kFill(fr, m, d, uint32(count))
		case ir.OpBlockAny:
			kFill(fr, m, d, uint8(b2i(count > 0)))
		case ir.OpBlockAll:
			kFill(fr, m, d, uint8(b2i(count == fr.n)))
		}
		return nil
	}
}

// combine is the fold of a numeric collective and its identity (the
// value of the slots past the last warp in block reductions).
type combine[T number] struct {
	f  func(a, b T) T
	id T
}

func add[T number](a, b T) T { return a + b }

// intComb is op (add, min or max) on integers from lo to hi: sums wrap.
func intComb[T integer](op ir.Op, lo, hi T) combine[T] {
	switch op { // the fold op of foldOp: its function and identity
	case ir.OpMin:
		return combine[T]{f: func(a, b T) T { return min(a, b) }, id: hi}
	case ir.OpMax:
		return combine[T]{f: func(a, b T) T { return max(a, b) }, id: lo}
	}
	return combine[T]{f: add[T]}
}

// floatComb is op on floats, rounding to T at every step; min and max
// are OpMin and OpMax (a NaN operand yields the other).
func floatComb[T float](op ir.Op) combine[T] {
	switch op { // the fold op of foldOp: its function and identity
	case ir.OpMin:
		return combine[T]{f: ir.FMin[T], id: T(math.Inf(1))}
	case ir.OpMax:
		return combine[T]{f: ir.FMax[T], id: T(math.Inf(-1))}
	}
	return combine[T]{f: add[T]}
}

// foldOp is the binary op a numeric collective folds with.
var foldOp = map[ir.Op]ir.Op{
	ir.OpWarpSum: ir.OpAdd, ir.OpWarpMin: ir.OpMin, ir.OpWarpMax: ir.OpMax,
	ir.OpBlockSum: ir.OpAdd, ir.OpBlockMin: ir.OpMin, ir.OpBlockMax: ir.OpMax,
	ir.OpBlockScan: ir.OpAdd, ir.OpBlockScanExcl: ir.OpAdd,
}

func mkNumCollective(op ir.Op, t ir.Type, d, a int) instFn {
	f := foldOp[op]
	switch t {
	case ir.U8:
		return numCollective(op, intComb[uint8](f, 0, math.MaxUint8), d, a)
	case ir.I32:
		return numCollective(op, intComb[int32](f, math.MinInt32, math.MaxInt32), d, a)
	case ir.I64:
		return numCollective(op, intComb[int64](f, math.MinInt64, math.MaxInt64), d, a)
	case ir.U32:
		return numCollective(op, intComb[uint32](f, 0, math.MaxUint32), d, a)
	case ir.U64:
		return numCollective(op, intComb[uint64](f, 0, math.MaxUint64), d, a)
	case ir.F32:
		return numCollective(op, floatComb[float32](f), d, a)
	case ir.F64:
		return numCollective(op, floatComb[float64](f), d, a)
	}
	return nil
}

func numCollective[T number](op ir.Op, c combine[T], d, a int) instFn {
	switch op { // a warp reduction, a block reduction and a scan are different loops
	case ir.OpWarpSum, ir.OpWarpMin, ir.OpWarpMax:
		return warpReduce(c, d, a)
	case ir.OpBlockSum, ir.OpBlockMin, ir.OpBlockMax:
		return blockReduce(c, d, a)
	case ir.OpBlockScan, ir.OpBlockScanExcl:
		return blockScan(c, op == ir.OpBlockScanExcl, d, a)
	}
	return nil
}

// butterfly is doc.go's warp reduction: for m in 16, 8, 4, 2, 1 every
// lane l computes v[l] = f(v[l], v[l^m]) (its own value first).
func butterfly[T number](v *[warp]T, f func(a, b T) T) {
	for m := warp / 2; m >= 1; m /= 2 {
		u := *v
		for l := range v {
			v[l] = f(u[l], u[l^m])
		}
	}
}

func warpReduce[T number](c combine[T], d, a int) instFn {
	return func(fr *frame, m mask) error {
		D, A := vec[T](fr, d), vec[T](fr, a)
		forWarps(fr, m, func(base int, idx []int32) {
			var v [warp]T
			copy(v[:], A[base:])
			butterfly(&v, c.f)
			put(D, base, idx, &v)
		})
		return nil
	}
}

// blockReduce: each warp's butterfly, lane 0's result in slot[warp],
// then the butterfly of the slots (the identity past the last warp),
// whose lane l result goes to the threads of lane l.
func blockReduce[T number](c combine[T], d, a int) instFn {
	return func(fr *frame, m mask) error {
		D, A := vec[T](fr, d), vec[T](fr, a)
		var slot [warp]T
		for l := range slot {
			slot[l] = c.id
		}
		for w := range fr.n / warp {
			var v [warp]T
			copy(v[:], A[w*warp:])
			butterfly(&v, c.f)
			slot[w] = v[0]
		}
		butterfly(&slot, c.f)
		forWarps(fr, m, func(base int, idx []int32) { put(D, base, idx, &slot) })
		return nil
	}
}

// warpScan is doc.go's inclusive warp scan: for d in 1, 2, 4, 8, 16, the
// lanes l >= d compute s[l] = f(s[l-d], s[l]).
func warpScan[T number](s *[warp]T, f func(a, b T) T) {
	for d := 1; d < warp; d *= 2 {
		u := *s
		for l := d; l < warp; l++ {
			s[l] = f(u[l-d], u[l])
		}
	}
}

// blockScan: each warp's scan s; p, the left-to-right sum of the slots
// (lane 31's s) of the warps before, is added in front: p + s, or p + e
// for the exclusive scan (e = shfl_up(s, 1), lane 0 gets p alone; warp 0
// has no p, and its lane 0 gets 0). All results are made before any is
// written, as D may be A.
func blockScan[T number](c combine[T], excl bool, d, a int) instFn {
	return func(fr *frame, m mask) error {
		D, A := vec[T](fr, d), vec[T](fr, a)
		R := unsafe.Slice((*T)(unsafe.Pointer(&fr.tmp[0])), lanes)
		var p T
		for w := range fr.n / warp {
			var s [warp]T
			copy(s[:], A[w*warp:])
			warpScan(&s, c.f)
			r := R[w*warp : (w+1)*warp]
			for l := range r {
				switch {
				case excl && l == 0 && w == 0:
					r[l] = 0
				case excl && l == 0:
					r[l] = p
				case excl && w == 0:
					r[l] = s[l-1]
				case excl:
					r[l] = c.f(p, s[l-1])
				case w == 0:
					r[l] = s[l]
				default:
					r[l] = c.f(p, s[l])
				}
			}
			if w == 0 {
				p = s[warp-1]
			} else {
				p = c.f(p, s[warp-1])
			}
		}
		forWarps(fr, m, func(base int, idx []int32) { put(D, base, idx, (*[warp]T)(R[base:])) })
		return nil
	}
}
