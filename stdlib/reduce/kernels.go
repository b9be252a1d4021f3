package reduce

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
)

// blockThreads is the block of every kernel here: 256 threads, 8 warps.
const blockThreads = 256

const warps = blockThreads / ir.WarpSize

// unroll is the number of independent accumulators per thread: loads of
// that many elements are in flight per loop iteration.
const unroll = 4

// indexType is the type of flat indices: i32, or i64 for wide kernels.
func indexType(wide bool) ir.Type {
	if wide {
		return ir.I64
	}
	return ir.I32
}

// sig collects a kernel's parameters and remembers where each group
// starts.
type sig struct{ ps []ir.Param }

// add appends parameters and returns the index of the first.
func (s *sig) add(ps ...ir.Param) int {
	s.ps = append(s.ps, ps...)
	return len(s.ps) - len(ps)
}

func (s *sig) arrays(prefix string, ts []ir.Type, ndim int) int {
	at := len(s.ps)
	for i, t := range ts {
		s.add(ir.Param{Name: fmt.Sprintf("%s%d", prefix, i), Elem: t, NDim: ndim})
	}
	return at
}

// types appends one scalar parameter of each type.
func (s *sig) types(prefix string, ts []ir.Type) int {
	at := len(s.ps)
	for i, t := range ts {
		s.add(ir.Param{Name: fmt.Sprintf("%s%d", prefix, i), Elem: t})
	}
	return at
}

func (s *sig) scalars(prefix string, t ir.Type, n int) int {
	at := len(s.ps)
	for i := range n {
		s.add(ir.Param{Name: fmt.Sprintf("%s%d", prefix, i), Elem: t})
	}
	return at
}

func inputTypes(s Spec) []ir.Type { return s.In[:s.Kind.Inputs()] }

// params reads scalar parameters at..at+n-1.
func (b *fb) params(at, n int) []ir.Reg {
	rs := make([]ir.Reg, n)
	for i := range rs {
		rs[i] = b.Param(at + i)
	}
	return rs
}

// unflatten splits the flat C-order index i over extents e (e[0] is not
// needed and not given: ext holds e[1:]) into one index per axis.
func (b *fb) unflatten(i ir.Reg, ext []ir.Reg) []ir.Reg {
	idx := make([]ir.Reg, len(ext)+1)
	for d := len(ext); d >= 1; d-- {
		idx[d] = b.bin(ir.OpRem, i, ext[d-1])
		i = b.bin(ir.OpDiv, i, ext[d-1])
	}
	idx[0] = i
	return idx
}

// loadAll loads element idx of input arrays first..first+len(ts)-1.
func (b *fb) loadAll(first int, ts []ir.Type, idx []ir.Reg) []ir.Reg {
	xs := make([]ir.Reg, len(ts))
	for j, t := range ts {
		xs[j] = b.load(ir.SpaceParam, first+j, t, idx...)
	}
	return xs
}

// mergeUnrolled combines the unroll accumulators in a fixed tree:
// neighbours pairwise, then the pairs.
func (b *fb) mergeUnrolled(r *reducer, accs [][]ir.Reg) []ir.Reg {
	for len(accs) > 1 {
		var next [][]ir.Reg
		for i := 0; i+1 < len(accs); i += 2 {
			next = append(next, r.comb(b, accs[i], accs[i+1]))
		}
		if len(accs)%2 == 1 {
			next = append(next, accs[len(accs)-1])
		}
		accs = next
	}
	return accs[0]
}

// strided runs the loop `for at = start; at < end; at += step` with
// unroll accumulators: each iteration of the main loop adds unroll
// indices step apart, each into its own accumulator, and a tail loop the
// rest; add(acc, at) returns acc with index at added, and each
// accumulator sees its indices in increasing order. It returns the merged
// accumulator. The main loop's bound end - (unroll-1)*step cannot
// overflow where start and end are valid indices (see narrowMax).
func (b *fb) strided(r *reducer, start, end, step ir.Reg, add func(acc []ir.Reg, at ir.Reg) []ir.Reg) []ir.Reg {
	accs := make([][]ir.Reg, unroll)
	for u := range accs {
		accs[u] = b.vars(r.ident(b))
	}
	at := b.vars([]ir.Reg{start})[0]
	steps := make([]ir.Reg, unroll+1) // u*step; steps[0] is unused
	for u := 1; u <= unroll; u++ {
		steps[u] = b.bin(ir.OpMul, step, b.Const(b.ix, int64(u)))
	}
	lim := b.bin(ir.OpSub, end, steps[unroll-1])
	b.While(func() ir.Reg { return b.test(ir.OpLt, at, lim) }, func() {
		for u := range unroll {
			au := at
			if u > 0 {
				au = b.bin(ir.OpAdd, at, steps[u])
			}
			b.assign(accs[u], func() []ir.Reg { return add(accs[u], au) })
		}
		b.advance(at, steps[unroll])
	})
	b.While(func() ir.Reg { return b.test(ir.OpLt, at, end) }, func() {
		b.assign(accs[0], func() []ir.Reg { return add(accs[0], at) })
		b.advance(at, step)
	})
	return b.mergeUnrolled(r, accs)
}

// blockReduce reduces every thread's accumulator a over the block; thread
// 0 (at least) holds the result. Components with a collective use it;
// otherwise each warp runs a butterfly of comb over shuffles, lane 0 of
// each warp leaves its value in a shared slot, and after a barrier every
// warp reduces the slots the same way (block_sum's shape, doc.go).
func (b *fb) blockReduce(r *reducer, a []ir.Reg) []ir.Reg {
	if r.coll != nil {
		out := make([]ir.Reg, len(a))
		for c, op := range r.coll {
			out[c] = b.bin(op, a[c])
		}
		return out
	}
	lane, warp := b.index(ir.OpLaneId), b.index(ir.OpWarpId)
	a = b.butterfly(r, a, ir.WarpSize/2)
	slots := make([]int, len(a))
	for c, t := range r.acc {
		slots[c] = len(b.k.Shared)
		b.k.Shared = append(b.k.Shared, ir.Buffer{Name: fmt.Sprintf("slot%d", c), Elem: t, Dims: []int{warps}})
	}
	b.If(b.test(ir.OpEq, lane, b.Const(ir.I32, int64(0))), func() {
		for c := range a {
			b.store(ir.SpaceShared, slots[c], a[c], warp)
		}
	})
	b.sync()
	v := b.vars(r.ident(b))
	b.If(b.test(ir.OpLt, lane, b.Const(ir.I32, int64(warps))), func() {
		for c, t := range r.acc {
			b.set(v[c], b.load(ir.SpaceShared, slots[c], t, lane))
		}
	})
	return b.butterfly(r, v, warps/2)
}

// butterfly merges a across lanes with shfl_xor for masks from, from/2,
// ... 1: every lane of a group of 2*from lanes ends with the group's value.
func (b *fb) butterfly(r *reducer, a []ir.Reg, from int) []ir.Reg {
	for m := from; m >= 1; m /= 2 {
		mask := b.Const(ir.I32, int64(m))
		other := make([]ir.Reg, len(a))
		for c := range a {
			other[c] = b.Op(ir.OpShflXor, b.typeOf(a[c]), a[c], mask)
		}
		a = r.comb(b, a, other)
	}
	return a
}

// threadIndex is thread_id, block_id and the block's first thread
// block_id*256, in the index type.
func (b *fb) threadIndex() (t, blk, first ir.Reg) {
	t = b.Conv(b.ix, b.index(ir.OpThreadId))
	blk = b.Conv(b.ix, b.index(ir.OpBlockId))
	return t, blk, b.bin(ir.OpMul, blk, b.Const(b.ix, int64(blockThreads)))
}

// Full is the two-pass reduction of every element of its inputs.
//
// Pass1 is launched over Blocks(n) blocks and writes one partial
// accumulator per block. Its parameters: x0.. (the inputs, of the rank
// the kernels were built for), p0.. (1-D partials of types Acc, at least
// as long as the grid), lo and hi (the flat range [lo, hi) to reduce),
// e1.. (the extents of the axes after the first, to split flat indices),
// then the reduction's scalars (allclose's rtol, atol and equal_nan).
// Pass2 is launched over one block: p0.. (the partials), res (1-D, NRes
// elements of type Res), g (i32, the partials to read). Chunk, when
// positive, is the longest range one pass 1 may reduce for an exact
// result (int sums: package doc).
type Full struct {
	Pass1, Pass2 *ir.Kernel
	Acc          []ir.Type
	Res          ir.Type
	NRes         int
	Chunk        int
}

func newFull(s Spec, pr Producer, rank int, wide bool) (*Full, error) {
	ix := indexType(wide)
	r, err := newReducer(s, modeFull, ix)
	if err != nil {
		return nil, err
	}
	p1, err := fullPass1(s, pr, r, rank, ix)
	if err != nil {
		return nil, err
	}
	// Pass 2 depends on the accumulators only: one for every rank.
	p2, err := cached(key{what: "partials", spec: s, wide: wide}, func() (*ir.Kernel, error) { return fullPass2(s, r, ix) })
	if err != nil {
		return nil, err
	}
	f := &Full{Pass1: p1, Pass2: p2, Acc: r.acc, Res: r.res, NRes: r.nres}
	if r.bounded {
		f.Chunk = 1<<31 - 1
	}
	return f, nil
}

func fullPass1(s Spec, pr Producer, r *reducer, rank int, ix ir.Type) (*ir.Kernel, error) {
	var sg sig
	in := producerOf(s, pr)
	xs := sg.arrays("x", in.Leaves(), rank)
	ps := sg.arrays("p", r.acc, 1)
	lo := sg.add(ir.Param{Name: "lo", Elem: ix}, ir.Param{Name: "hi", Elem: ix})
	ext := sg.scalars("e", ix, rank-1)
	scal := sg.add(r.scalars...)
	fs := sg.types("f", in.Scalars())
	b := newFunc(fusedName(kernelName(s, "full", ix), pr), sg.ps, ix)
	b.scal = b.params(scal, len(r.scalars))
	fused := b.params(fs, len(in.Scalars()))
	bounds, e := b.params(lo, 2), b.params(ext, rank-1)
	t, blk, first := b.threadIndex()
	grid := b.Conv(ix, b.index(ir.OpGridDim))
	step := b.bin(ir.OpMul, grid, b.Const(ix, int64(blockThreads)))
	start := b.bin(ir.OpAdd, bounds[0], b.bin(ir.OpAdd, first, t))
	a := b.strided(r, start, bounds[1], step, func(acc []ir.Reg, at ir.Reg) []ir.Reg {
		idx := []ir.Reg{at}
		if rank > 1 {
			idx = b.unflatten(at, e)
		}
		return r.add(b, acc, in.Emit(b.Builder, b.loadAll(xs, in.Leaves(), idx), fused), at)
	})
	res := b.blockReduce(r, a)
	b.If(b.test(ir.OpEq, t, b.Const(ix, int64(0))), func() {
		for c := range res {
			b.store(ir.SpaceParam, ps+c, res[c], blk)
		}
	})
	return b.k, ir.Verify(b.k)
}

func fullPass2(s Spec, r *reducer, ix ir.Type) (*ir.Kernel, error) {
	var sg sig
	ps := sg.arrays("p", r.acc, 1)
	res := sg.add(ir.Param{Name: "res", Elem: r.res, NDim: 1})
	g := sg.add(ir.Param{Name: "g", Elem: ir.I32})
	b := newFunc(kernelName(s, "partials", ix), sg.ps, ir.I32)
	t := b.index(ir.OpThreadId)
	a := b.strided(r, t, b.Param(g), b.Const(ir.I32, int64(blockThreads)), func(acc []ir.Reg, at ir.Reg) []ir.Reg {
		vals := make([]ir.Reg, len(r.acc))
		for c, ty := range r.acc {
			vals[c] = b.load(ir.SpaceParam, ps+c, ty, at)
		}
		return r.comb(b, acc, vals)
	})
	out := b.blockReduce(r, a)
	b.If(b.test(ir.OpEq, t, b.Const(ir.I32, int64(0))), func() {
		for k, v := range r.full(b, out) {
			b.store(ir.SpaceParam, res, v, b.Const(ir.I32, int64(k)))
		}
	})
	return b.k, ir.Verify(b.k)
}

// Strategy is how an axis reduction maps onto threads.
type Strategy uint8

const (
	// Row gives each output element a block, whose threads stride over
	// the reduced elements (one block_sum per output): for long reduced
	// rows that are contiguous.
	Row Strategy = iota
	// Column gives each output element a thread that loops over the
	// reduced elements: neighbouring threads read neighbouring elements
	// when the kept axes are innermost.
	Column
)

var strategyNames = [...]string{"row", "column"}

func (s Strategy) String() string { return strategyNames[s] }

// axisKernel reduces along axes: parameters x (the input, seen as its kept
// axes then its reduced axes), out (1-D, the output's elements in C
// order, of type AxisOut), M and K (outputs and elements per output),
// ek1..ek{kept-1} and er1..er{red-1} (the kept and the reduced extents
// but the first, to split indices), then the reduction's scalars. Row
// is launched over M blocks, Column over cdiv(M, 256).
func axisKernel(s Spec, pr Producer, st Strategy, kept, red int, ix ir.Type) (*ir.Kernel, error) {
	r, err := newReducer(s, modeAxis, ix)
	if err != nil {
		return nil, err
	}
	var sg sig
	in := producerOf(s, pr)
	xs := sg.arrays("x", in.Leaves(), kept+red)
	out := sg.add(ir.Param{Name: "out", Elem: r.outT, NDim: 1})
	mk := sg.add(ir.Param{Name: "m", Elem: ix}, ir.Param{Name: "k", Elem: ix})
	ek := sg.scalars("ek", ix, max(kept-1, 0))
	er := sg.scalars("er", ix, max(red-1, 0))
	scal := sg.add(r.scalars...)
	fs := sg.types("f", in.Scalars())
	b := newFunc(fusedName(kernelName(s, "axis_"+st.String(), ix), pr), sg.ps, ix)
	b.scal = b.params(scal, len(r.scalars))
	fused := b.params(fs, len(in.Scalars()))
	sizes := b.params(mk, 2)
	keptExt, redExt := b.params(ek, max(kept-1, 0)), b.params(er, max(red-1, 0))
	t, blk, first := b.threadIndex()
	// add adds reduced element k of the output whose kept indices are
	// keptIdx.
	add := func(keptIdx []ir.Reg) func(acc []ir.Reg, k ir.Reg) []ir.Reg {
		return func(acc []ir.Reg, k ir.Reg) []ir.Reg {
			idx := keptIdx
			if red > 0 {
				idx = append(append([]ir.Reg(nil), keptIdx...), b.unflatten(k, redExt)...)
			}
			return r.add(b, acc, in.Emit(b.Builder, b.loadAll(xs, in.Leaves(), idx), fused), k)
		}
	}
	keptIndex := func(m ir.Reg) []ir.Reg {
		if kept == 0 {
			return nil
		}
		return b.unflatten(m, keptExt)
	}
	if st == Row {
		step := b.Const(ix, int64(blockThreads))
		a := b.blockReduce(r, b.strided(r, t, sizes[1], step, add(keptIndex(blk))))
		b.If(b.test(ir.OpEq, t, b.Const(ix, int64(0))), func() {
			b.store(ir.SpaceParam, out, r.out(b, a, sizes[1]), blk)
		})
		return b.k, ir.Verify(b.k)
	}
	m := b.bin(ir.OpAdd, first, t)
	b.If(b.test(ir.OpLt, m, sizes[0]), func() {
		a := b.strided(r, b.Const(ix, int64(0)), sizes[1], b.Const(ix, int64(1)), add(keptIndex(m)))
		b.store(ir.SpaceParam, out, r.out(b, a, sizes[1]), m)
	})
	return b.k, ir.Verify(b.k)
}

// isCloseKernel is NumPy's isclose, elementwise: parameters x0, x1 (the
// inputs, of rank rank), out (1-D bool, C order), n (ix), e1..e{rank-1},
// then rtol, atol and equal_nan. Its threads stride over the elements,
// on any grid.
func isCloseKernel(in [2]ir.Type, rank int, ix ir.Type) (*ir.Kernel, error) {
	s := Spec{Kind: AllClose, In: in}
	if err := s.Check(); err != nil {
		return nil, err
	}
	var sg sig
	xs := sg.arrays("x", in[:], rank)
	out := sg.add(ir.Param{Name: "out", Elem: ir.Bool, NDim: 1})
	n := sg.add(ir.Param{Name: "n", Elem: ix})
	ext := sg.scalars("e", ix, rank-1)
	scal := sg.add(closeScalars...)
	b := newFunc(kernelName(s, "isclose", ix), sg.ps, ix)
	b.scal = b.params(scal, len(closeScalars))
	e := b.params(ext, rank-1)
	t, _, first := b.threadIndex()
	grid := b.Conv(ix, b.index(ir.OpGridDim))
	step := b.bin(ir.OpMul, grid, b.Const(ix, int64(blockThreads)))
	i := b.vars([]ir.Reg{b.bin(ir.OpAdd, first, t)})[0]
	end := b.Param(n)
	b.While(func() ir.Reg { return b.test(ir.OpLt, i, end) }, func() {
		idx := []ir.Reg{i}
		if rank > 1 {
			idx = b.unflatten(i, e)
		}
		xv := b.loadAll(xs, in[:], idx)
		b.store(ir.SpaceParam, out, isclose(b, xv[0], xv[1]), i)
		b.advance(i, step)
	})
	return b.k, ir.Verify(b.k)
}

// fusedName marks the kernels that compute their inputs (a Producer).
func fusedName(name string, pr Producer) string {
	if pr == nil {
		return name
	}
	return name + "_fused"
}

func kernelName(s Spec, what string, ix ir.Type) string {
	name := "gscript_" + s.Kind.String() + "_" + what
	for _, t := range inputTypes(s) {
		name += "_" + t.String()
	}
	if ix == ir.I64 {
		name += "_wide"
	}
	return name
}
