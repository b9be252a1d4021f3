package reduce

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
)

// The radix sort (sort, argsort, unique): an LSD sort of unsigned keys, 8
// bits a pass, from the least significant digit up, as onesweep (Adinets
// and Merrill 2022, CUB's DeviceRadixSort). The arrays are seen as M rows
// of K contiguous elements sorted each on its own (a 1-D sort is one
// row); every row is cut into tiles of at most SortTile elements, a block
// each. Two kernels:
//
//   - count (SortCountKernel), once: one read of the elements counts the
//     digits of every pass of every row, into hist [row][pass][digit];
//     the exclusive scan of a row's pass over the digits is where each
//     digit's elements start in the row after the pass.
//   - onesweep (SortOnesweepKernel), once a pass: a block takes the next
//     tile from an atomic ticket counter (tiles in row order), counts its
//     digits and publishes each count at once in its flag word of the
//     digit (status aggregate), orders the tile by digit in shared memory
//     (below), then looks back over the row's tiles before it, digit d by
//     thread d, summing their flags until one holds the whole prefix
//     (status prefix), upgrades its own flag to a prefix, and writes the
//     ordered tile out: digit d's elements go from hist's start of d plus
//     the tiles-before count on. Decoupled look-back replaces the
//     reduce-then-scan of counts between kernels: the keys are read once
//     from memory and written once a pass (the tile's second read, for the
//     ordering, is an L2 hit on a GPU).
//
// The look-back spins on other blocks' flags, which is safe because tiles
// go by ticket: a block waits only on tiles whose tickets were taken
// before its own, by blocks that are running or done (CUDA keeps a
// running block resident; runtime/cpu's workers run each block they take
// to its end, and a spinning loop gives up when the launch stops). A flag
// is one word, (count << 2) | status, read and written with atomics (read
// as an atomic add of 0), so no fence is needed: a reader sees the count
// with its status. The flags of a pass are zeroed by the pass before
// (each block clears its tile's words in the other of two arrays); the
// caller zeroes the first's, the tickets and hist.
//
// The ordering, stable (onesweep's comment says how): a tile sits in
// registers (28 keys a thread for a sort of 4-byte keys), and each warp
// ranks its part by digit with shared-memory counts of its own, its
// lanes finding their peers (the lanes of their digit) with a shared
// atomic per key; the block then orders the tile in shared memory and
// writes it out, thread j element j: each digit's elements go to
// consecutive places, so neighbouring threads write neighbouring memory
// (a tile's run of one digit is 28 elements long on average for uniform
// keys). A few barriers a tile, and no ballots or match_any: CUB's
// ranking by __match_any_sync, tried, took a pass of 2^28 f32 keys on
// the H200 from 1.78 to 2.50 ms (docs/benchmarks.md).
//
// The first pass reads the elements and makes their keys (toKey) and,
// for argsort, their indices (32-bit where the kernels are not wide: half
// the payload traffic of i64); the last writes the elements back
// (fromKey), or for argsort only the indices, as i64: no pass of the whole
// array is spent on making or undoing keys (SortPass).
//
// Every position is fixed by the input (the atomics add integer counts,
// the same in any order, and the look-back's sums are the same whichever
// flags it finds published), so the result is the same on every run and
// device, and the cpu runs the same kernels.

// SortTile is the most elements of a row one block sorts in a pass for
// keys of dtype t (with arg, indices too, of SortIndex(wide)): the tile
// and its indices stay in shared memory, with the onesweep's other arrays
// (about 18 KiB of them), within the 48 KiB a CUDA block gets without an
// opt-in. It is a multiple of the block's threads.
func SortTile(t ir.Type, arg, wide bool) int {
	bytes := SortKey(t).Size()
	if arg {
		bytes += SortIndex(wide).Size()
	}
	switch {
	case bytes == 4 && !arg && !wide:
		// sort of 4-byte keys: 28 a thread (7168 a tile, 47 KiB of
		// shared memory, with onesweepBlocks' 3 blocks an SM) sorted 2^28
		// f32 in 7.09 ms on the H200, against 8.05 with 16 (4 blocks), 7.99
		// with 20 and 7.41 with 24: a tile's chain of memory round trips
		// (ticket, keys, look-back) is much of a pass, and a larger tile
		// pays it for more keys.
		return 28 * blockThreads
	case bytes <= 4:
		return 16 * blockThreads
	case bytes == 8 && arg && !wide:
		// argsort of 4-byte keys: 14 keys and indices a thread (3584 a
		// tile, 47 KiB of shared memory) sorted 2^26 f32 in 2.87 ms on
		// the H200, against 3.8 with 8, 3.45 with 10 and 3.00 with 12
		// (onesweepBlocks).
		return 14 * blockThreads
	case bytes <= 8:
		return 8 * blockThreads
	}
	return 4 * blockThreads
}

// SortIndex is the type argsort's passes carry the indices in (the last
// writes them as i64): i32 unless the kernels are wide.
func SortIndex(wide bool) ir.Type { return indexType(wide) }

// SortFlag is the type of the look-back's flag words: u32 unless the
// kernels are wide, so a row must be shorter than 2^30 elements for
// narrow kernels (the caller makes longer rows wide).
func SortFlag(wide bool) ir.Type {
	if wide {
		return ir.U64
	}
	return ir.U32
}

// The statuses of a flag word (its low 2 bits); 0 is not yet published.
const (
	flagAggregate = 1 // the tile's own count
	flagPrefix    = 2 // the count of the row's tiles up to this one
)

const (
	digitBits = 8
	digits    = 1 << digitBits
	sortWarps = blockThreads / ir.WarpSize
)

// SortSpec is a sort of an array of dtype In; Arg carries the elements'
// indices (argsort) and sorts -0.0 with 0.0 (NumPy's stable argsort takes
// them as equal). It is comparable: kernels are cached by it.
type SortSpec struct {
	In  ir.Type
	Arg bool
}

// SortKey is the unsigned type of a dtype's radix keys: one byte for
// bools and u8, else the dtype's size.
func SortKey(t ir.Type) ir.Type {
	switch t.Size() {
	case 1:
		return ir.U8
	case 4:
		return ir.U32
	}
	return ir.U64
}

// SortRaw is the dtype the first pass reads an array of t as (and the
// last writes it as): floats as the unsigned ints of their bits (the
// caller passes a bit view, mem.Array.Bitcast), others as they are.
func SortRaw(t ir.Type) ir.Type {
	if t.IsFloat() {
		return SortKey(t)
	}
	return t
}

// SortPasses is the number of digit passes of keys of dtype t.
func SortPasses(t ir.Type) int { return SortKey(t).Size() * 8 / digitBits }

// Check reports a dtype the sort does not take.
func (s SortSpec) Check() error {
	if !ir.Scalars.Has(s.In) {
		return fmt.Errorf("sort of an array of %s", s.In)
	}
	return nil
}

func sortName(what string, t ir.Type, arg, wide bool) string {
	name := "gscript_sort_" + what + "_" + t.String()
	if arg {
		name += "_arg"
	}
	if wide {
		name += "_wide"
	}
	return name
}

// gridStride runs body for i = the thread's global index, then every
// grid's worth of threads, while i < n.
func (b *fb) gridStride(n ir.Reg, body func(i ir.Reg)) {
	t, _, first := b.threadIndex()
	step := b.bin(ir.OpMul, b.Conv(b.ix, b.index(ir.OpGridDim)), b.Const(b.ix, int64(blockThreads)))
	i := b.vars([]ir.Reg{b.bin(ir.OpAdd, first, t)})[0]
	b.While(func() ir.Reg { return b.test(ir.OpLt, i, n) }, func() {
		body(i)
		b.advance(i, step)
	})
}

// toKey maps an element (as SortRaw reads it) to its unsigned key, in
// the order sort gives: ints by value (the sign bit flipped), floats by
// value through the order-preserving flip (negative: every bit flipped;
// positive: the sign bit set) with every NaN the largest key (NaN last,
// NumPy's), and for argsort -0.0 as 0.0.
func toKey(b *fb, s SortSpec, x ir.Reg) ir.Reg {
	kt := SortKey(s.In)
	bits := b.Conv(kt, x)
	sign := b.Const(kt, uint64(1)<<(8*kt.Size()-1))
	switch {
	case s.In.IsSigned():
		return b.bin(ir.OpXor, bits, sign)
	case !s.In.IsFloat():
		return bits
	}
	neg := b.test(ir.OpNe, b.bin(ir.OpAnd, bits, sign), b.Const(kt, int64(0)))
	key := b.sel(neg, b.bin(ir.OpBitNot, bits), b.bin(ir.OpOr, bits, sign))
	inf := b.Const(kt, uint64(0x7f800000))
	if kt == ir.U64 {
		inf = b.Const(kt, uint64(0x7ff0000000000000))
	}
	nan := b.test(ir.OpGt, b.bin(ir.OpAnd, bits, b.bin(ir.OpBitNot, sign)), inf)
	key = b.sel(nan, b.Const(kt, ^uint64(0)), key)
	if s.Arg {
		key = b.sel(b.test(ir.OpEq, bits, sign), sign, key)
	}
	return key
}

// fromKey inverts toKey (a NaN comes back as the positive quiet NaN of
// all mantissa bits).
func fromKey(b *fb, t ir.Type, key ir.Reg) ir.Reg {
	kt := SortKey(t)
	sign := b.Const(kt, uint64(1)<<(8*kt.Size()-1))
	switch {
	case t.IsSigned():
		return b.Conv(t, b.bin(ir.OpXor, key, sign))
	case !t.IsFloat():
		return b.Conv(t, key)
	}
	pos := b.test(ir.OpNe, b.bin(ir.OpAnd, key, sign), b.Const(kt, int64(0)))
	return b.sel(pos, b.bin(ir.OpXor, key, sign), b.bin(ir.OpBitNot, key))
}

// SortPass says where a pass of the radix sort stands: the first reads
// the elements (of SortRaw) and makes their keys (and, for argsort, the
// indices i within the rows), the last writes the elements back from the
// keys (for argsort only the indices), others move keys (and indices).
type SortPass struct{ First, Last bool }

func (p SortPass) suffix() string {
	s := ""
	if p.First {
		s += "_first"
	}
	if p.Last {
		s += "_last"
	}
	return s
}

// SortCountKernel counts the digits of every pass of each tile's keys
// into hist (zeroed by the caller) with global atomics, once per tile and
// digit. Parameters: x (1-D, the elements as SortRaw), hist (1-D, of the
// index type, [row][pass][digit]), k (the row length), tiles (a row's),
// tile (elements a tile: larger than the onesweep's, for fewer atomics).
// Its grid is rows*tiles blocks.
func SortCountKernel(s SortSpec, wide bool) (*ir.Kernel, error) {
	return cached(key{what: "sort_count", sort: s, wide: wide}, func() (*ir.Kernel, error) {
		if err := s.Check(); err != nil {
			return nil, err
		}
		ix, passes := indexType(wide), SortPasses(s.In)
		var sg sig
		sg.add(ir.Param{Name: "x", Elem: SortRaw(s.In), NDim: 1}, ir.Param{Name: "hist", Elem: ix, NDim: 1})
		sz := sg.add(ir.Param{Name: "k", Elem: ix}, ir.Param{Name: "tiles", Elem: ix}, ir.Param{Name: "tile", Elem: ix})
		g := &sortGen{s: s, t: s.In, kt: SortKey(s.In), pass: SortPass{First: true}, kin: 0}
		g.fb = newFunc(sortName("count", s.In, s.Arg, wide), sg.ps, ix)
		k, tiles, tile := g.Param(sz), g.Param(sz+1), g.Param(sz+2)
		cnt := g.shared("cnt", ir.I32, passes*digits)
		d := g.index(ir.OpThreadId)
		slot := func(p int, d ir.Reg) ir.Reg { return g.bin(ir.OpAdd, d, g.i32(p*digits)) }
		for p := range passes {
			g.store(ir.SpaceShared, cnt, g.i32(0), slot(p, d))
		}
		g.sync()
		blk := g.Conv(ix, g.index(ir.OpBlockId))
		row, t := g.bin(ir.OpDiv, blk, tiles), g.bin(ir.OpRem, blk, tiles)
		start := g.bin(ir.OpMul, row, k)
		lo := g.bin(ir.OpAdd, start, g.bin(ir.OpMul, t, tile))
		hi := g.bin(ir.OpMin, g.bin(ir.OpAdd, lo, tile), g.bin(ir.OpAdd, start, k))
		i := g.vars([]ir.Reg{g.bin(ir.OpAdd, lo, g.Conv(ix, d))})[0]
		g.While(func() ir.Reg { return g.test(ir.OpLt, i, hi) }, func() {
			// countLoads keys at a time, loaded first: their round trips
			// overlap.
			keys, valid := make([]ir.Reg, countLoads), make([]ir.Reg, countLoads)
			for u := range countLoads {
				j := g.bin(ir.OpAdd, i, g.Const(ix, int64(u*blockThreads)))
				valid[u] = g.test(ir.OpLt, j, hi)
				keys[u] = g.loadKey(j, valid[u])
			}
			for u := range countLoads {
				g.If(valid[u], func() {
					for p := range passes {
						g.atomicAdd(ir.SpaceShared, cnt, ir.NoReg, slot(p, g.digit(keys[u], g.i32(p*digitBits))), g.i32(1))
					}
				})
			}
			g.advance(i, g.Const(ix, int64(countLoads*blockThreads)))
		})
		g.sync()
		first := g.bin(ir.OpMul, row, g.Const(ix, int64(passes*digits)))
		for p := range passes {
			c := g.load(ir.SpaceShared, cnt, ir.I32, slot(p, d))
			g.If(g.test(ir.OpNe, c, g.i32(0)), func() {
				at := g.bin(ir.OpAdd, first, g.Conv(ix, slot(p, d)))
				g.atomicAdd(ir.SpaceParam, 1, ir.NoReg, at, g.Conv(ix, c))
			})
		}
		return g.k, ir.Verify(g.k)
	})
}

// countLoads is the keys a thread of the count kernel loads at once: 4
// took it from 484 to 427 us for 2^28 f32 keys on the H200.
const countLoads = 4

// SortOnesweepKernel is one pass of the sort: it moves each tile's keys
// (and with s.Arg their indices) to their places for the digit at shift.
// Parameters: kin (keys, or in the first pass the elements), [kout:
// keys, or in the last pass the elements; none in argsort's last pass],
// [vin (not in the first pass), vout: with s.Arg, of SortIndex(wide),
// i64 in the last pass], hist (as SortCountKernel left it), flags (this
// pass's, of SortFlag(wide), zeroed), [next: the next pass's flags, which
// this one zeroes; not in the last pass], tickets (i32, a word a pass,
// zeroed), k, tiles, tile, shift (i32, 8 times the pass). Its grid is
// rows*tiles blocks.
func SortOnesweepKernel(s SortSpec, p SortPass, wide bool) (*ir.Kernel, error) {
	return cached(key{what: "sort_onesweep" + p.suffix(), sort: s, wide: wide}, func() (*ir.Kernel, error) {
		if err := s.Check(); err != nil {
			return nil, err
		}
		g := newSortGen(s, p, wide)
		g.onesweep()
		g.k.MinBlocks = onesweepBlocks(s, wide)
		return g.k, ir.Verify(g.k)
	})
}

// onesweepBlocks is the blocks a multiprocessor a onesweep kernel asks
// for (ir.Kernel.MinBlocks). A sort of 4-byte keys with 16 keys a thread
// held them in 80 registers, so an H200 multiprocessor ran 3 blocks where
// its shared memory fits 6 (2.0 ms a pass of 2^28 f32 keys); four blocks
// (64 registers, no spills) ran 1.80-1.91 ms. Its tile of 28 keys a
// thread (SortTile) fits 3 blocks' shared memory, and the bound of 3 gives
// them 85 registers (2 blocks with more registers: 7.09 -> 8.48 ms a sort
// of 2^28 f32). Argsort's 14 keys and indices a thread were measured with
// 4 (docs/benchmarks.md). Other key sizes were not measured, so they
// keep the compiler's choice.
func onesweepBlocks(s SortSpec, wide bool) int {
	switch {
	case SortKey(s.In) != ir.U32 || wide:
		return 0
	case s.Arg:
		return 4
	}
	return 3
}

// sortGen builds the sort's kernels.
type sortGen struct {
	*fb
	s                          SortSpec
	pass                       SortPass
	t, kt, vt, ft              ir.Type // dtype, keys, indices, flags
	arg                        bool
	kin, kout, vin, vout       int // parameters (-1: absent)
	hist, flags, next, tickets int
	rowLen, tiles, tile, shift ir.Reg
}

func newSortGen(s SortSpec, p SortPass, wide bool) *sortGen {
	ix := indexType(wide)
	g := &sortGen{s: s, pass: p, t: s.In, kt: SortKey(s.In), vt: SortIndex(wide), ft: SortFlag(wide), arg: s.Arg,
		kout: -1, vin: -1, vout: -1, next: -1}
	var sg sig
	g.kin = sg.add(ir.Param{Name: "kin", Elem: g.elemOf(p.First), NDim: 1})
	if !(s.Arg && p.Last) {
		g.kout = sg.add(ir.Param{Name: "kout", Elem: g.elemOf(p.Last), NDim: 1})
	}
	if s.Arg {
		if !p.First {
			g.vin = sg.add(ir.Param{Name: "vin", Elem: g.vt, NDim: 1})
		}
		out := g.vt
		if p.Last {
			out = ir.I64
		}
		g.vout = sg.add(ir.Param{Name: "vout", Elem: out, NDim: 1})
	}
	g.hist = sg.add(ir.Param{Name: "hist", Elem: ix, NDim: 1})
	g.flags = sg.add(ir.Param{Name: "flags", Elem: g.ft, NDim: 1})
	if !p.Last {
		g.next = sg.add(ir.Param{Name: "next", Elem: g.ft, NDim: 1})
	}
	g.tickets = sg.add(ir.Param{Name: "tickets", Elem: ir.I32, NDim: 1})
	sz := sg.add(ir.Param{Name: "k", Elem: ix}, ir.Param{Name: "tiles", Elem: ix},
		ir.Param{Name: "tile", Elem: ix}, ir.Param{Name: "shift", Elem: ir.I32})
	g.fb = newFunc(sortName("onesweep"+p.suffix(), s.In, s.Arg, wide), sg.ps, ix)
	g.rowLen, g.tiles, g.tile, g.shift = g.Param(sz), g.Param(sz+1), g.Param(sz+2), g.Param(sz+3)
	return g
}

// elemOf is the dtype of the keys' arrays: the elements' (SortRaw) at
// the ends of the sort, else the keys'.
func (g *sortGen) elemOf(end bool) ir.Type {
	if end {
		return SortRaw(g.t)
	}
	return g.kt
}

// loadKey is the key of element i of kin where valid, else of a zero
// element: made from the element in the first pass. Only the load is
// conditional, so that a thread's loads go out back to back: with the
// conversion inside the condition too, the first pass of a sort of 2^28
// f32 on the H200 took 2.03 ms (1.61 after; the other passes 1.39).
func (g *sortGen) loadKey(i, valid ir.Reg) ir.Reg {
	t := g.elemOf(g.pass.First)
	x := g.vars([]ir.Reg{g.Const(t, int64(0))})[0]
	g.If(valid, func() { g.set(x, g.load(ir.SpaceParam, g.kin, t, i)) })
	if g.pass.First {
		return toKey(g.fb, g.s, x)
	}
	return x
}

// digit is key's digit at shift (i32).
func (g *sortGen) digit(key, shift ir.Reg) ir.Reg {
	return g.Conv(ir.I32, g.bin(ir.OpAnd, g.bin(ir.OpShr, key, shift), g.Const(g.kt, int64(digits-1))))
}

// atomicAdd adds v to element at of array p (a parameter or a shared
// array), the old value going to dst (NoReg: dropped).
func (g *sortGen) atomicAdd(sp ir.Space, p int, dst, at, v ir.Reg) {
	g.Emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: dst, Param: p, Space: sp, Args: []ir.Reg{at, v}})
}

// i32 is the constant v as an i32.
func (g *sortGen) i32(v int) ir.Reg { return g.Const(ir.I32, int64(v)) }

// shared declares a shared array of n elements of t.
func (g *sortGen) shared(name string, t ir.Type, n int) int {
	g.k.Shared = append(g.k.Shared, ir.Buffer{Name: name, Elem: t, Dims: []int{n}})
	return len(g.k.Shared) - 1
}

// digitOf loads the key of element i (loadKey) and gives its digit at
// shift (i32).
func (g *sortGen) digitOf(i, valid ir.Reg) (key, d ir.Reg) {
	key = g.loadKey(i, valid)
	return key, g.digit(key, g.shift)
}

// popcount is the number of set bits of a u32, as an i32 (SWAR: the IR
// has no popc).
func popcount(b *fb, x ir.Reg) ir.Reg {
	c := func(v uint64) ir.Reg { return b.Const(ir.U32, v) }
	sh := func(x ir.Reg, n int) ir.Reg { return b.bin(ir.OpShr, x, b.Const(ir.I32, int64(n))) }
	x = b.bin(ir.OpSub, x, b.bin(ir.OpAnd, sh(x, 1), c(0x55555555)))
	x = b.bin(ir.OpAdd, b.bin(ir.OpAnd, x, c(0x33333333)), b.bin(ir.OpAnd, sh(x, 2), c(0x33333333)))
	x = b.bin(ir.OpAnd, b.bin(ir.OpAdd, x, sh(x, 4)), c(0x0f0f0f0f))
	return b.Conv(ir.I32, sh(b.bin(ir.OpMul, x, c(0x01010101)), 24))
}

// slot is the index of (warp w, digit d) in a [warps][digits] shared
// array.
func (g *sortGen) slot(w, d ir.Reg) ir.Reg {
	return g.bin(ir.OpAdd, g.bin(ir.OpMul, w, g.i32(digits)), d)
}

// zeroSlots zeroes this thread's digit column of a [warps][digits]
// shared array of t.
func (g *sortGen) zeroSlots(arr int, t ir.Type) {
	d := g.index(ir.OpThreadId)
	for w := range sortWarps {
		g.store(ir.SpaceShared, arr, g.Const(t, int64(0)), g.slot(g.i32(w), d))
	}
}

// onesweep is the pass's kernel body. The block takes its tile (v, the
// ticket: row v / tiles, tile t of it) and zeroes the tile's words of the
// next pass's flags. Warp w holds the tile's w-th segment of 32*items
// elements in registers, item j of lane l being element j*32 + l of it,
// and ranks them in order: each item's peers (the lanes of its digit,
// found through masks [warp][digit]) get consecutive ranks from their
// warp's count of the digit so far, whist [warp][digit] (the warp's own
// rows: no other warp touches them). whist then holds the tile's counts:
// thread d publishes digit d's, makes start[d] (where the digit begins in
// the ordered tile, a block scan) and turns digit d's column into each
// warp's first place. Every item goes to its warp's place plus its rank
// in shared memory (sk, sv), ordered by digit, then warp, then item,
// then lane: the tile's order, so the sort is stable. base[d] (after the
// look-back) is where digit d goes in kout.
func (g *sortGen) onesweep() {
	tile := SortTile(g.t, g.arg, g.ix == ir.I64)
	items := tile / blockThreads
	whist := g.shared("whist", ir.I32, sortWarps*digits)
	masks := g.shared("masks", ir.U32, sortWarps*digits)
	start := g.shared("start", ir.I32, digits)
	base := g.shared("base", g.ix, digits)
	ticket := g.shared("ticket", ir.I32, 1)
	sk := g.shared("sk", g.kt, tile)
	sv := -1
	if g.arg {
		sv = g.shared("sv", g.vt, tile)
	}
	d0 := g.index(ir.OpThreadId)
	pass := g.bin(ir.OpShr, g.shift, g.i32(3))
	g.If(g.test(ir.OpEq, d0, g.i32(0)), func() {
		v := g.F.NewReg(ir.I32)
		g.atomicAdd(ir.SpaceParam, g.tickets, v, pass, g.i32(1))
		g.store(ir.SpaceShared, ticket, v, g.i32(0))
	})
	g.zeroSlots(whist, ir.I32)
	g.zeroSlots(masks, ir.U32)
	g.sync()
	v := g.Conv(g.ix, g.load(ir.SpaceShared, ticket, ir.I32, g.i32(0)))
	row, t := g.bin(ir.OpDiv, v, g.tiles), g.bin(ir.OpRem, v, g.tiles)
	start0 := g.bin(ir.OpMul, row, g.rowLen)
	lo := g.bin(ir.OpAdd, start0, g.bin(ir.OpMul, t, g.tile))
	hi := g.bin(ir.OpMin, g.bin(ir.OpAdd, lo, g.tile), g.bin(ir.OpAdd, start0, g.rowLen))
	me := g.bin(ir.OpAdd, g.bin(ir.OpMul, v, g.Const(g.ix, int64(digits))), g.Conv(g.ix, d0))
	if g.next >= 0 {
		g.store(ir.SpaceParam, g.next, g.Const(g.ft, int64(0)), me)
	}
	// Digit d0's count in the row, read now so that its round trip
	// overlaps the keys' (after the ranking it was one more on the
	// tile's critical path: 8.24 -> 8.05 ms a sort of 2^28 f32).
	h := g.bin(ir.OpAdd, g.bin(ir.OpMul, g.bin(ir.OpAdd, g.bin(ir.OpMul, row, g.Const(g.ix, int64(SortPasses(g.t)))),
		g.Conv(g.ix, pass)), g.Const(g.ix, int64(digits))), g.Conv(g.ix, d0))
	count := g.load(ir.SpaceParam, g.hist, g.ix, h)
	w, lane := g.index(ir.OpWarpId), g.index(ir.OpLaneId)
	bit := g.bin(ir.OpShl, g.Const(ir.U32, int64(1)), lane)
	before := g.bin(ir.OpSub, bit, g.Const(ir.U32, int64(1)))
	seg := g.bin(ir.OpAdd, lo, g.bin(ir.OpAdd, g.bin(ir.OpMul, g.Conv(g.ix, w), g.Const(g.ix, int64(ir.WarpSize*items))), g.Conv(g.ix, lane)))
	type item struct{ i, valid, key, val, d, rank ir.Reg }
	its := make([]item, items)
	// Every load first, so that their latencies overlap (the ranking's
	// sync_warp orders memory: loads after it would wait their turn).
	for j := range its {
		it := &its[j]
		it.i = g.bin(ir.OpAdd, seg, g.Const(g.ix, int64(j*ir.WarpSize)))
		it.valid = g.test(ir.OpLt, it.i, hi)
		it.key, it.d = g.digitOf(it.i, it.valid)
		if g.arg {
			it.val = g.vars([]ir.Reg{g.Const(g.vt, int64(0))})[0]
			g.If(it.valid, func() { g.set(it.val, g.valueOf(it.i, start0)) })
		}
	}
	for j := range its {
		it := &its[j]
		// The peers: each valid lane adds its bit to its digit's word of
		// its warp's masks (distinct bits: the sum is their or), and after
		// a sync_warp reads the word and the warp's count of the digit so
		// far; the last peer then advances the count and clears the word
		// (sync_warp orders the next item's accesses after these).
		s := g.slot(w, it.d)
		g.If(it.valid, func() { g.atomicAdd(ir.SpaceShared, masks, ir.NoReg, s, bit) })
		g.Emit(&ir.Inst{Op: ir.OpSyncWarp, Dst: ir.NoReg})
		vs := g.vars([]ir.Reg{g.Const(ir.U32, int64(0)), g.i32(0)})
		peers, old := vs[0], vs[1]
		g.If(it.valid, func() {
			g.set(peers, g.load(ir.SpaceShared, masks, ir.U32, s))
			g.set(old, g.load(ir.SpaceShared, whist, ir.I32, s))
		})
		g.Emit(&ir.Inst{Op: ir.OpSyncWarp, Dst: ir.NoReg})
		rank := popcount(g.fb, g.bin(ir.OpAnd, peers, before))
		last := g.test(ir.OpEq, g.bin(ir.OpShr, peers, lane), g.Const(ir.U32, int64(1)))
		g.If(g.bin(ir.OpAnd, it.valid, last), func() {
			g.store(ir.SpaceShared, whist, g.bin(ir.OpAdd, g.bin(ir.OpAdd, old, rank), g.i32(1)), s)
			g.store(ir.SpaceShared, masks, g.Const(ir.U32, int64(0)), s)
		})
		g.Emit(&ir.Inst{Op: ir.OpSyncWarp, Dst: ir.NoReg})
		it.rank = g.bin(ir.OpAdd, old, rank)
	}
	g.sync()
	c := g.Const(ir.I32, int64(0))
	for w := range sortWarps {
		c = g.bin(ir.OpAdd, c, g.load(ir.SpaceShared, whist, ir.I32, g.slot(g.i32(w), d0)))
	}
	first := g.test(ir.OpEq, t, g.Const(g.ix, int64(0)))
	status := g.sel(first, g.Const(g.ft, int64(flagPrefix)), g.Const(g.ft, int64(flagAggregate)))
	g.atomicAdd(ir.SpaceParam, g.flags, ir.NoReg, me, g.bin(ir.OpOr, g.word(g.Conv(g.ft, c)), status))
	at := g.Op(ir.OpBlockScanExcl, ir.I32, c)
	g.store(ir.SpaceShared, start, at, d0)
	for w := range sortWarps { // thread d0's own column: no other thread reads it now
		s := g.slot(g.i32(w), d0)
		n := g.load(ir.SpaceShared, whist, ir.I32, s)
		g.store(ir.SpaceShared, whist, at, s)
		at = g.bin(ir.OpAdd, at, n)
	}
	rowAt := g.Op(ir.OpBlockScanExcl, g.ix, count)
	g.sync()
	for _, it := range its {
		g.If(it.valid, func() {
			at := g.bin(ir.OpAdd, g.load(ir.SpaceShared, whist, ir.I32, g.slot(w, it.d)), it.rank)
			g.store(ir.SpaceShared, sk, it.key, at)
			if g.arg {
				g.store(ir.SpaceShared, sv, it.val, at)
			}
		})
	}
	excl := g.lookBack(v, t, me)
	g.store(ir.SpaceShared, base, g.bin(ir.OpAdd, g.bin(ir.OpAdd, start0, rowAt), g.Conv(g.ix, excl)), d0)
	g.sync()
	g.writeTile(sk, sv, start, base, g.bin(ir.OpSub, hi, lo))
}

// word is a count as a flag word's value bits.
func (g *sortGen) word(c ir.Reg) ir.Reg { return g.bin(ir.OpShl, c, g.i32(2)) }

// lookBack is, for thread d's digit, the count of the row's tiles before
// tile t (ticket v, its flag word me): it reads their flags from t-1 down,
// waiting on each until it is published, adding aggregates up to the
// first prefix. Tile 0 published its prefix already; others upgrade
// their aggregate to the prefix (adding the sum and the status step).
func (g *sortGen) lookBack(v, t, me ir.Reg) ir.Reg {
	zero := g.Const(g.ft, int64(0))
	vars := g.vars([]ir.Reg{zero, g.test(ir.OpEq, t, g.Const(g.ix, int64(0))), me})
	excl, done, at := vars[0], vars[1], vars[2]
	step := g.Const(g.ix, int64(digits))
	g.While(func() ir.Reg { return g.Op(ir.OpNot, ir.Bool, done) }, func() {
		w := g.F.NewReg(g.ft)
		g.atomicAdd(ir.SpaceParam, g.flags, w, g.bin(ir.OpSub, at, step), zero)
		status := g.bin(ir.OpAnd, w, g.Const(g.ft, int64(3)))
		g.If(g.test(ir.OpNe, status, zero), func() {
			g.advance(excl, g.bin(ir.OpShr, w, g.i32(2)))
			g.set(done, g.test(ir.OpEq, status, g.Const(g.ft, int64(flagPrefix))))
			g.set(at, g.bin(ir.OpSub, at, step))
		})
	})
	g.If(g.test(ir.OpNe, t, g.Const(g.ix, int64(0))), func() {
		up := g.bin(ir.OpAdd, g.word(excl), g.Const(g.ft, int64(flagPrefix-flagAggregate)))
		g.atomicAdd(ir.SpaceParam, g.flags, ir.NoReg, me, up)
	})
	return excl
}

// valueOf is element i's index within its row (argsort): made in the
// first pass (i - start, start the row's first element), else read.
func (g *sortGen) valueOf(i, start ir.Reg) ir.Reg {
	if g.pass.First {
		return g.Conv(g.vt, g.bin(ir.OpSub, i, start))
	}
	return g.load(ir.SpaceParam, g.vin, g.vt, i)
}

// writeTile writes the ordered tile (n elements of sk, sv): element j,
// of digit d, goes to base[d] + j - start[d].
func (g *sortGen) writeTile(sk, sv, start, base int, n ir.Reg) {
	j := g.vars([]ir.Reg{g.Conv(g.ix, g.index(ir.OpThreadId))})[0]
	g.While(func() ir.Reg { return g.test(ir.OpLt, j, n) }, func() {
		key := g.load(ir.SpaceShared, sk, g.kt, j)
		d := g.digit(key, g.shift)
		at := g.bin(ir.OpAdd, g.load(ir.SpaceShared, base, g.ix, d), g.bin(ir.OpSub, j, g.Conv(g.ix, g.load(ir.SpaceShared, start, ir.I32, d))))
		switch {
		case g.kout < 0: // argsort's last pass: the indices only
		case g.pass.Last:
			g.store(ir.SpaceParam, g.kout, fromKey(g.fb, g.t, key), at)
		default:
			g.store(ir.SpaceParam, g.kout, key, at)
		}
		if g.arg {
			val := g.load(ir.SpaceShared, sv, g.vt, j)
			if g.pass.Last {
				val = g.Conv(ir.I64, val)
			}
			g.store(ir.SpaceParam, g.vout, val, at)
		}
		g.advance(j, g.Const(g.ix, int64(blockThreads)))
	})
}

// SortSmall is the longest row SortSmallKernel sorts: rows this short
// sort a thread each (an insertion sort in local memory), where the radix
// passes would spend a tile's 256 counters on each row.
const SortSmall = 32

// SortSmallKernel sorts each row of k <= SortSmall elements of x (1-D,
// SortRaw) into out (SortRaw, or with s.Arg the i64 indices within the
// row), a thread a row, stable. Parameters: x, out, m (rows), k.
func SortSmallKernel(s SortSpec, wide bool) (*ir.Kernel, error) {
	return cached(key{what: "sort_small", sort: s, wide: wide}, func() (*ir.Kernel, error) {
		if err := s.Check(); err != nil {
			return nil, err
		}
		ix, kt, raw := indexType(wide), SortKey(s.In), SortRaw(s.In)
		outT := raw
		if s.Arg {
			outT = ir.I64
		}
		var sg sig
		sg.add(ir.Param{Name: "x", Elem: raw, NDim: 1}, ir.Param{Name: "out", Elem: outT, NDim: 1})
		m := sg.add(ir.Param{Name: "m", Elem: ix}, ir.Param{Name: "k", Elem: ix})
		b := newFunc(sortName("small", s.In, s.Arg, wide), sg.ps, ix)
		b.F.Locals = []ir.Buffer{{Name: "keys", Elem: kt, Dims: []int{SortSmall}}, {Name: "idx", Elem: ir.I64, Dims: []int{SortSmall}}}
		k := b.Param(m + 1)
		b.gridStride(b.Param(m), func(r ir.Reg) {
			base := b.bin(ir.OpMul, r, k)
			b.upTo(k, func(j ir.Reg) {
				key := toKey(b, s, b.load(ir.SpaceParam, 0, raw, b.bin(ir.OpAdd, base, j)))
				b.insert(key, j)
			})
			b.upTo(k, func(j ir.Reg) {
				v := b.load(ir.SpaceLocal, 1, ir.I64, j)
				if !s.Arg {
					v = fromKey(b, s.In, b.load(ir.SpaceLocal, 0, kt, j))
				}
				b.store(ir.SpaceParam, 1, v, b.bin(ir.OpAdd, base, j))
			})
		})
		return b.k, ir.Verify(b.k)
	})
}

// upTo runs body for j = 0, 1, ... while j < n.
func (b *fb) upTo(n ir.Reg, body func(j ir.Reg)) {
	j := b.vars([]ir.Reg{b.Const(b.ix, int64(0))})[0]
	b.While(func() ir.Reg { return b.test(ir.OpLt, j, n) }, func() {
		body(j)
		b.advance(j, b.Const(b.ix, int64(1)))
	})
}

// insert puts key (element j) into the sorted local keys[0:j] after
// every key not greater (stable), moving the greater ones up, with its
// index in idx.
func (b *fb) insert(key, j ir.Reg) {
	kt := b.typeOf(key)
	one := b.Const(b.ix, int64(1))
	p := b.vars([]ir.Reg{j})[0]
	b.While(func() ir.Reg {
		prev := b.bin(ir.OpMax, b.bin(ir.OpSub, p, one), b.Const(b.ix, int64(0)))
		more := b.test(ir.OpGt, b.load(ir.SpaceLocal, 0, kt, prev), key)
		return b.bin(ir.OpAnd, b.test(ir.OpGt, p, b.Const(b.ix, int64(0))), more)
	}, func() {
		prev := b.bin(ir.OpSub, p, one)
		b.store(ir.SpaceLocal, 0, b.load(ir.SpaceLocal, 0, kt, prev), p)
		b.store(ir.SpaceLocal, 1, b.load(ir.SpaceLocal, 1, ir.I64, prev), p)
		b.set(p, prev)
	})
	b.store(ir.SpaceLocal, 0, key, p)
	b.store(ir.SpaceLocal, 1, b.Conv(ir.I64, j), p)
}
