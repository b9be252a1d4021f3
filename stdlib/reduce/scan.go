package reduce

import (
	"fmt"
	"math"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
)

// ScanKind is a scan: cumsum or cumprod.
type ScanKind uint8

const (
	CumSum ScanKind = iota
	CumProd
)

func (k ScanKind) String() string {
	if k == CumProd {
		return "cumprod"
	}
	return "cumsum"
}

// ScanSpec is a scan of an array of dtype In. It is comparable: kernels
// are cached by it.
type ScanSpec struct {
	Kind ScanKind
	In   ir.Type
}

// Check reports a dtype the scan does not take.
func (s ScanSpec) Check() error {
	if !ir.Scalars.Has(s.In) {
		return fmt.Errorf("%s of an array of %s", s.Kind, s.In)
	}
	return nil
}

// ScanOut is the dtype of a scan's result, NumPy's: floats keep theirs,
// bools and signed ints give i64, unsigned ints u64. Scans accumulate in
// it (package doc).
func ScanOut(t ir.Type) ir.Type { return AxisOut(Sum, t) }

// scanTile is the elements of a row one block scans when rows are split
// into tiles; scanTotalsThreads is the block of the pass that scans the
// tiles' totals (one block per row: a wider block takes fewer rounds).
const (
	scanTile          = 16 * blockThreads
	scanTotalsThreads = 1024
)

// ScanPlan is a scan along one axis, or of the flattened array: input and
// output are seen through View as Kept kept axes (in C order) then the
// scanned axes (in C order), extents Ext; M rows of K elements, each
// scanned by Strategy. Row scans split rows into Tiles tiles of Tile
// elements (Tiles 1: a block per row). Out is the output's shape, in
// which the output is seen after a reshape to the input's shape.
type ScanPlan struct {
	View        View
	Kept        int
	Ext         []int
	M, K        int
	Strategy    Strategy
	Tile, Tiles int
	Out         []int
	Wide        bool // 64-bit indices
}

// PlanScan plans the scan of l (at least 1-D) along axis, or of its
// elements in C order when flat (as NumPy's cumsum without an axis).
func PlanScan(l Layout, axis int, flat bool, t Target) (ScanPlan, error) {
	nd := len(l.Shape)
	if nd == 0 {
		return ScanPlan{}, fmt.Errorf("a scan needs an array of at least one axis")
	}
	var kept, scanned []int
	out := slices.Clone(l.Shape)
	if flat {
		scanned = identity(nd)
		out = []int{product(l.Shape)}
	} else {
		if err := CheckAxes([]int{axis}, nd); err != nil {
			return ScanPlan{}, err
		}
		for ax := range nd {
			if ax != axis {
				kept = append(kept, ax)
			}
		}
		scanned = []int{axis}
	}
	perm := slices.Concat(kept, scanned)
	// Axes merge only where they do in the input and in the C-ordered
	// output alike: both are indexed with the same indices.
	ins := []Layout{l, {Shape: l.Shape, Strides: contiguousStrides(l.Shape)}}
	kg := groups(ins, perm, 0, len(kept))
	v := View{Perm: perm, Groups: append(kg, groups(ins, perm, len(kept), nd)...)}
	p := ScanPlan{View: v, Kept: len(kg), Ext: v.Extents(l.Shape), Out: out}
	p.M, p.K = product(p.Ext[:p.Kept]), product(p.Ext[p.Kept:])
	p.Wide = Wide(p.M * p.K)
	p.Strategy, p.Tile, p.Tiles = scanStrategy(p, abs(innerStride(l, scanned)) == 1, t)
	return p, nil
}

// scanStrategy picks Row or Column as strategy does for reductions, and
// for Row the tiling: rows are split into tiles of scanTile elements
// (three passes) when the rows alone give too few blocks to fill the
// device, two per SM of an H200 or four per cpu worker. The tiling
// depends on the shape and the kind of device only, never on timing.
func scanStrategy(p ScanPlan, unit bool, t Target) (Strategy, int, int) {
	row := false
	fill := 4 * max(t.Workers, 1)
	switch {
	case p.M >= narrowMax: // more blocks than a grid holds
	case t.CUDA:
		row = p.K >= 32 && (unit || p.M < 32768)
		fill = 2048
	default:
		row = p.K >= 256 && (p.M < blockThreads*max(t.Workers, 1) || unit && p.K >= 4096)
	}
	switch {
	case !row:
		return Column, 0, 0
	case p.M >= fill || p.K <= scanTile:
		return Row, p.K, 1
	}
	return Row, scanTile, (p.K + scanTile - 1) / scanTile
}

// ScanLaunch is one kernel of a scan and its grid.
type ScanLaunch struct {
	Kernel *ir.Kernel
	Grid   int
}

// ScanKernels returns the launches of the scan s planned by p, in order.
// Every kernel takes the same parameters: x (the input seen through
// p.View), out (the output seen the same way), m, k, tile and tiles (of
// the index type), ek1.. and er1.. (the kept and the scanned extents but
// the first). Column gives each row a thread; Row with one tile per row
// a block; with more, pass 1 writes each tile's total into the tile's
// first output element, pass 2 (a block per row) turns those into the
// exclusive scan of the totals, and pass 3 scans each tile starting from
// its first element's value.
func ScanKernels(s ScanSpec, p ScanPlan) ([]ScanLaunch, error) {
	kept, red := p.Kept, len(p.Ext)-p.Kept
	get := func(what string) (*ir.Kernel, error) {
		k := key{what: "scan_" + what, scan: s, r1: kept, r2: red, wide: p.Wide}
		return cached(k, func() (*ir.Kernel, error) {
			return scanKernel(s, what, kept, red, indexType(p.Wide))
		})
	}
	var whats []string
	var grids []int
	switch {
	case p.Strategy == Column:
		whats, grids = []string{"column"}, []int{(p.M + blockThreads - 1) / blockThreads}
	case p.Tiles > 1:
		whats, grids = []string{"totals", "offsets", "row"}, []int{p.M * p.Tiles, p.M, p.M * p.Tiles}
	default:
		whats, grids = []string{"row"}, []int{p.M}
	}
	ls := make([]ScanLaunch, len(whats))
	for i, what := range whats {
		k, err := get(what)
		if err != nil {
			return nil, err
		}
		ls[i] = ScanLaunch{Kernel: k, Grid: grids[i]}
	}
	return ls, nil
}

// scanner is a scan's combine: t is the accumulator (the output dtype),
// op OpAdd or OpMul.
type scanner struct {
	t  ir.Type
	op ir.Op
}

func newScanner(s ScanSpec) scanner {
	sc := scanner{t: ScanOut(s.In), op: ir.OpAdd}
	if s.Kind == CumProd {
		sc.op = ir.OpMul
	}
	return sc
}

// ident is the combine's exact identity: ident op x is x for every x,
// which for float sums needs -0.0 (0.0 + -0.0 is 0.0).
func (sc scanner) ident(b *fb) ir.Reg {
	switch {
	case sc.op == ir.OpMul:
		return b.Const(sc.t, int64(1))
	case sc.t.IsFloat():
		return b.Const(sc.t, math.Copysign(0, -1))
	}
	return b.Const(sc.t, int64(0))
}

func (sc scanner) comb(b *fb, x, y ir.Reg) ir.Reg { return b.bin(sc.op, x, y) }

// reducer is the combine as a reduction, for the tiles' totals.
func (sc scanner) reducer() *reducer {
	return &reducer{
		acc:   []ir.Type{sc.t},
		ident: func(b *fb) []ir.Reg { return []ir.Reg{sc.ident(b)} },
		comb:  func(b *fb, x, y []ir.Reg) []ir.Reg { return []ir.Reg{sc.comb(b, x[0], y[0])} },
	}
}

// scanKernel builds one kernel of ScanKernels.
func scanKernel(s ScanSpec, what string, kept, red int, ix ir.Type) (*ir.Kernel, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	sc := newScanner(s)
	var sg sig
	x := sg.add(ir.Param{Name: "x", Elem: s.In, NDim: kept + red})
	out := sg.add(ir.Param{Name: "out", Elem: sc.t, NDim: kept + red})
	sz := sg.add(ir.Param{Name: "m", Elem: ix}, ir.Param{Name: "k", Elem: ix},
		ir.Param{Name: "tile", Elem: ix}, ir.Param{Name: "tiles", Elem: ix})
	ek := sg.scalars("ek", ix, max(kept-1, 0))
	er := sg.scalars("er", ix, red-1)
	name := "gscript_" + s.Kind.String() + "_" + what + "_" + s.In.String()
	if ix == ir.I64 {
		name += "_wide"
	}
	b := newFunc(name, sg.ps, ix)
	g := &scanGen{fb: b, sc: sc, x: x, out: out, in: s.In}
	g.rows, g.rowLen, g.tile, g.tiles = b.Param(sz), b.Param(sz+1), b.Param(sz+2), b.Param(sz+3)
	g.keptExt, g.redExt = b.params(ek, max(kept-1, 0)), b.params(er, red-1)
	g.kept, g.red = kept, red
	switch what {
	case "column":
		g.column()
	case "totals":
		g.totals()
	case "offsets":
		b.k.Block = []int{scanTotalsThreads}
		g.offsets()
	default:
		g.row()
	}
	return b.k, ir.Verify(b.k)
}

// scanGen builds a scan kernel's body.
type scanGen struct {
	*fb
	sc                        scanner
	x, out                    int // parameters
	in                        ir.Type
	rows, rowLen, tile, tiles ir.Reg
	keptExt, redExt           []ir.Reg
	kept, red                 int
}

// at is the index of element i of the row whose kept indices are row.
func (g *scanGen) at(row []ir.Reg, i ir.Reg) []ir.Reg {
	if g.red == 1 {
		return append(slices.Clone(row), i)
	}
	return append(slices.Clone(row), g.unflatten(i, g.redExt)...)
}

// rowIndex splits row number r into the kept indices.
func (g *scanGen) rowIndex(r ir.Reg) []ir.Reg {
	if g.kept == 0 {
		return nil
	}
	return g.unflatten(r, g.keptExt)
}

// element is element idx of x in the accumulator's type.
func (g *scanGen) element(idx []ir.Reg) ir.Reg {
	return g.Conv(g.sc.t, g.load(ir.SpaceParam, g.x, g.in, idx...))
}

// tileOf is the row of block blk and its elements [lo, hi).
func (g *scanGen) tileOf(blk ir.Reg) (row []ir.Reg, lo, hi ir.Reg) {
	r := g.bin(ir.OpDiv, blk, g.tiles)
	lo = g.bin(ir.OpMul, g.bin(ir.OpRem, blk, g.tiles), g.tile)
	hi = g.bin(ir.OpMin, g.bin(ir.OpAdd, lo, g.tile), g.rowLen)
	return g.rowIndex(r), lo, hi
}

// column gives row m to thread m, which scans it in order: NumPy's
// sequence of operations.
func (g *scanGen) column() {
	t, _, first := g.threadIndex()
	m := g.bin(ir.OpAdd, first, t)
	g.If(g.test(ir.OpLt, m, g.rows), func() {
		row := g.rowIndex(m)
		acc := g.vars([]ir.Reg{g.sc.ident(g.fb)})[0]
		i := g.vars([]ir.Reg{g.Const(g.ix, int64(0))})[0]
		g.While(func() ir.Reg { return g.test(ir.OpLt, i, g.rowLen) }, func() {
			idx := g.at(row, i)
			g.assign([]ir.Reg{acc}, func() []ir.Reg { return []ir.Reg{g.sc.comb(g.fb, acc, g.element(idx))} })
			g.store(ir.SpaceParam, g.out, acc, idx...)
			g.advance(i, g.Const(g.ix, int64(1)))
		})
	})
}

// totals (pass 1) reduces each tile and leaves the total in the tile's
// first output element.
func (g *scanGen) totals() {
	t, blk, _ := g.threadIndex()
	row, lo, hi := g.tileOf(blk)
	r := g.sc.reducer()
	a := g.strided(r, g.bin(ir.OpAdd, lo, t), hi, g.Const(g.ix, int64(blockThreads)), func(acc []ir.Reg, at ir.Reg) []ir.Reg {
		return r.comb(g.fb, acc, []ir.Reg{g.element(g.at(row, at))})
	})
	total := g.blockReduce(r, a)[0]
	g.If(g.test(ir.OpEq, t, g.Const(g.ix, int64(0))), func() {
		g.store(ir.SpaceParam, g.out, total, g.at(row, lo)...)
	})
}

// offsets (pass 2, a block per row) replaces each tile's total by the
// combine of the totals before it, in rounds of the block's threads.
func (g *scanGen) offsets() {
	_, blk, _ := g.threadIndex()
	row := g.rowIndex(blk)
	g.rounds(g.Const(g.ix, int64(0)), g.tiles, scanTotalsThreads, func(j, valid ir.Reg, carry ir.Reg) ir.Reg {
		idx := g.at(row, g.bin(ir.OpMul, j, g.tile))
		v := g.vars([]ir.Reg{g.sc.ident(g.fb)})[0]
		g.If(valid, func() { g.set(v, g.load(ir.SpaceParam, g.out, g.sc.t, idx...)) })
		_, excl, total := g.blockScan(v, scanTotalsThreads)
		g.If(valid, func() { g.store(ir.SpaceParam, g.out, g.sc.comb(g.fb, carry, excl), idx...) })
		return total
	})
}

// row (pass 3, or the only pass with one tile per row) scans a tile in
// rounds of 256 elements, each combined with the carry: the combine of
// the rounds before and, with several tiles, the tile's offset, which
// pass 2 left in its first element (read before any thread writes it:
// the first round's barriers come between).
func (g *scanGen) row() {
	_, blk, _ := g.threadIndex()
	row, lo, hi := g.tileOf(blk)
	init := g.vars([]ir.Reg{g.sc.ident(g.fb)})[0]
	g.If(g.test(ir.OpGt, g.tiles, g.Const(g.ix, int64(1))), func() {
		g.set(init, g.load(ir.SpaceParam, g.out, g.sc.t, g.at(row, lo)...))
	})
	g.roundsFrom(init, lo, hi, blockThreads, func(i, valid, carry ir.Reg) ir.Reg {
		idx := g.at(row, i)
		v := g.vars([]ir.Reg{g.sc.ident(g.fb)})[0]
		g.If(valid, func() { g.set(v, g.element(idx)) })
		incl, _, total := g.blockScan(v, blockThreads)
		g.If(valid, func() { g.store(ir.SpaceParam, g.out, g.sc.comb(g.fb, carry, incl), idx...) })
		return total
	})
}

// rounds runs round for base = lo, lo+n, ... while base < hi, with i =
// base + thread_id, valid = i < hi and carry the combine of the totals
// that the rounds before returned (starting at the identity).
func (g *scanGen) rounds(lo, hi ir.Reg, n int, round func(i, valid, carry ir.Reg) ir.Reg) {
	g.roundsFrom(g.sc.ident(g.fb), lo, hi, n, round)
}

// roundsFrom is rounds with the carry starting at init.
func (g *scanGen) roundsFrom(init, lo, hi ir.Reg, n int, round func(i, valid, carry ir.Reg) ir.Reg) {
	t := g.Conv(g.ix, g.index(ir.OpThreadId))
	carry := g.vars([]ir.Reg{init})[0]
	base := g.vars([]ir.Reg{lo})[0]
	step := g.Const(g.ix, int64(n))
	g.While(func() ir.Reg { return g.test(ir.OpLt, base, hi) }, func() {
		i := g.bin(ir.OpAdd, base, t)
		total := round(i, g.test(ir.OpLt, i, hi), carry)
		g.set(carry, g.sc.comb(g.fb, carry, total))
		g.advance(base, step)
	})
}

// blockScan scans v over a block of n threads with the combine, in a
// fixed order that both backends follow bit for bit: each warp scans its
// lanes with block_scan's ladder (for d in 1, 2, 4, 8, 16: u = shfl_up(s,
// d); where lane >= d, s = u op s); after a barrier lane 31 leaves s in
// slot[warp_id]; after another barrier every warp scans the slots (the
// identity past the last) with the same ladder, and a warp's prefix p is
// the scanned slot of the warp before (the identity for warp 0). It
// returns p op s (inclusive), p op e (exclusive: e is the lane before's
// s, the identity for lane 0) and the block's total, in every thread.
// The first barrier also keeps the slots of a previous call until every
// warp has read them.
func (g *scanGen) blockScan(v ir.Reg, n int) (incl, excl, total ir.Reg) {
	lane, warp := g.index(ir.OpLaneId), g.index(ir.OpWarpId)
	nw := n / ir.WarpSize
	s := g.ladder(v, lane, ir.WarpSize)
	e := g.Op(ir.OpShflUp, g.sc.t, s, g.Const(ir.I32, int64(1)))
	e = g.sel(g.test(ir.OpEq, lane, g.Const(ir.I32, int64(0))), g.sc.ident(g.fb), e)
	slot := len(g.k.Shared)
	g.k.Shared = append(g.k.Shared, ir.Buffer{Name: fmt.Sprintf("slot%d", slot), Elem: g.sc.t, Dims: []int{nw}})
	g.sync()
	g.If(g.test(ir.OpEq, lane, g.Const(ir.I32, int64(ir.WarpSize-1))), func() {
		g.store(ir.SpaceShared, slot, s, warp)
	})
	g.sync()
	w := g.vars([]ir.Reg{g.sc.ident(g.fb)})[0]
	g.If(g.test(ir.OpLt, lane, g.Const(ir.I32, int64(nw))), func() {
		g.set(w, g.load(ir.SpaceShared, slot, g.sc.t, lane))
	})
	ws := g.ladder(w, lane, nw)
	before := g.Op(ir.OpShfl, g.sc.t, ws, g.bin(ir.OpSub, warp, g.Const(ir.I32, int64(1))))
	p := g.sel(g.test(ir.OpEq, warp, g.Const(ir.I32, int64(0))), g.sc.ident(g.fb), before)
	total = g.Op(ir.OpShfl, g.sc.t, ws, g.Const(ir.I32, int64(nw-1)))
	return g.sc.comb(g.fb, p, s), g.sc.comb(g.fb, p, e), total
}

// ladder is the inclusive scan of v over the first n lanes of each warp
// (lanes past them hold partial values).
func (g *scanGen) ladder(v, lane ir.Reg, n int) ir.Reg {
	s := v
	for d := 1; d < n; d *= 2 {
		dr := g.Const(ir.I32, int64(d))
		u := g.Op(ir.OpShflUp, g.sc.t, s, dr)
		s = g.sel(g.test(ir.OpGe, lane, dr), g.sc.comb(g.fb, u, s), s)
	}
	return s
}

func product(xs []int) int {
	n := 1
	for _, x := range xs {
		n *= x
	}
	return n
}

// contiguousStrides are the strides of a C-contiguous array of shape.
func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i], s = s, s*shape[i]
	}
	return st
}
