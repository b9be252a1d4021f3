package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// sortFuncs are sort, argsort and the random draws built on them
// (permutation.go).
func sortFuncs() map[string]fn {
	return map[string]fn{
		"sort": sortFn(false), "argsort": sortFn(true),
		"permutation": permutation, "choice": choice,
	}
}

// sortKinds are the kind= values NumPy takes; every one gives gscript's
// stable radix sort (a stable sort is a valid answer for each).
var sortKinds = []string{"quicksort", "mergesort", "heapsort", "stable"}

// sortFn is sort(a, axis=-1, kind=) or, arg, argsort: along axis (the
// flattened array with axis=nil), a new array of a's dtype (argsort: the
// i64 indices along the axis), stable, NaN last.
func sortFn(arg bool) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 2, "axis", "kind"); err != nil {
			return nil, err
		}
		a, err := arrayArg(args, 0)
		if err != nil {
			return nil, err
		}
		if v := args.Kwarg("kind"); v != nil {
			if s, ok := v.(interp.String); !ok || !slices.Contains(sortKinds, string(s)) {
				return nil, fmt.Errorf("%s: kind must be one of %q, not %s", args.Fn, sortKinds, v)
			}
		}
		axis, err := flatOrAxis(th, args, 1, &a)
		if err != nil {
			return nil, err
		}
		out, err := sortAxis(th, a, axis, arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", args.Fn, err)
		}
		return &interp.Array{A: out}, nil
	}
}

// flatOrAxis reads the axis= (or positional i) of a function whose
// default is the last axis: with axis=nil, *a becomes its flattened
// array and the axis is 0.
func flatOrAxis(th *interp.Thread, args *interp.Args, i int, a **mem.Array) (int, error) {
	if args.Get(i, "axis") == interp.Nil {
		f, err := flat(th, *a)
		*a = f
		return 0, err
	}
	axis, err := axisOf(args, i, -1, (*a).NDim())
	if err != nil {
		return 0, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return axis, nil
}

// sortAxis sorts a along axis into a new array: a seen with axis last
// (copied to be contiguous when it is not), sorted as rows, and copied
// back through the inverse permutation when axis was not last.
func sortAxis(th *interp.Thread, a *mem.Array, axis int, arg bool) (*mem.Array, error) {
	last := a.NDim() - 1
	perm := append(slices.Delete(allAxes(a.NDim()), axis, axis+1), axis)
	p, err := a.Permute(perm)
	if err != nil {
		return nil, err
	}
	v, err := contiguous(th, p)
	if err != nil {
		return nil, err
	}
	defer freeCopy(p, v)
	res, err := radixSort(th, v, a.Shape()[axis], arg)
	if err != nil || axis == last {
		return res, err
	}
	out, err := newLike(th, a, res.DType(), a.Shape())
	if err != nil {
		return nil, err
	}
	dst, err := out.Permute(perm)
	if err != nil {
		return nil, err
	}
	if err := th.CopyArray(dst, res); err != nil {
		return nil, err
	}
	return out, res.Free()
}

// freeCopy frees c when it is a copy of a (contiguous, asContiguous),
// not a itself.
func freeCopy(a, c *mem.Array) {
	if c != a {
		c.Free() // this call's temporary: it cannot be freed already
	}
}

// radixSort sorts the contiguous array x as rows of k elements (its last
// axis) with stdlib/reduce's radix kernels (or their Go form for cpu
// arrays, hostRadix) into a new array of x's shape: x's dtype, or with
// arg the i64 indices within the rows.
func radixSort(th *interp.Thread, x *mem.Array, k int, arg bool) (*mem.Array, error) {
	t, n := x.DType(), x.Size()
	outT := t
	if arg {
		outT = ir.I64
	}
	out, err := newLike(th, x, outT, x.Shape())
	if err != nil || n == 0 {
		return out, err
	}
	run := runRadix
	switch {
	case hostSortable(th, x):
		run = hostRadix
	case k <= reduce.SortSmall:
		run = sortSmall
	}
	if err := run(th, x, out, k, arg); err != nil {
		out.Free()
		return nil, err
	}
	return out, nil
}

// radixPlan is the tiling of a sort of n elements as rows of k: the
// onesweep's tiles and the count kernel's (ctile, ctiles, cblocks).
type radixPlan struct {
	n, k, tile, tiles, blocks, flags int
	ctile, ctiles, cblocks           int
	wide                             bool
}

// countTiles is the onesweep tiles a count kernel's tile spans: its
// global atomics (a block's 256 per pass) stay few against the elements.
const countTiles = 16

func planRadix(t ir.Type, arg bool, n, k int) radixPlan {
	plan := func(wide bool) radixPlan {
		p := radixPlan{n: n, k: k, wide: wide}
		p.tile = min(reduce.SortTile(t, arg, wide), (k+255)/256*256)
		p.tiles = (k + p.tile - 1) / p.tile
		p.blocks = n / k * p.tiles
		p.flags = p.blocks * 256
		p.ctile = p.tile * countTiles
		p.ctiles = (k + p.ctile - 1) / p.ctile
		p.cblocks = n / k * p.ctiles
		return p
	}
	p := plan(false)
	// Narrow kernels' flag words hold counts below 2^30.
	if reduce.Wide(max(n, p.flags, 2*k)) {
		p = plan(true)
	}
	return p
}

// runRadix sorts x (contiguous, n > 0) into out: one count of every
// pass's digits, then a onesweep kernel a pass. The first pass reads x's
// elements and the last writes out's (the keys and indices are made and
// undone inside them), so only the passes between use the key buffers
// (radixBufs).
func runRadix(th *interp.Thread, x, out *mem.Array, k int, arg bool) error {
	t := x.DType()
	p := planRadix(t, arg, x.Size(), k)
	b, err := newRadixBufs(th, x, out, p, arg)
	if err != nil {
		return err
	}
	defer b.free()
	s := reduce.SortSpec{In: t, Arg: arg}
	ix := ir.I32
	if p.wide {
		ix = ir.I64
	}
	// hist, the tickets and the first pass's flags start zeroed; each
	// pass zeroes the next one's flags (the other array).
	hist, err := b.zeroed(th, x, ix, p.n/p.k*b.passes*256)
	if err != nil {
		return err
	}
	tickets, err := b.zeroed(th, x, ir.I32, b.passes)
	if err != nil {
		return err
	}
	var flags [2]*mem.Array
	if flags[0], err = b.zeroed(th, x, reduce.SortFlag(p.wide), p.flags); err != nil {
		return err
	}
	if b.passes > 1 {
		if flags[1], err = b.temp(th, x, reduce.SortFlag(p.wide), p.flags); err != nil {
			return err
		}
	}
	count, err := reduce.SortCountKernel(s, p.wide)
	if err != nil {
		return err
	}
	ca := interp.ArgsFor(count).Array(b.raw).Array(hist).Ints(p.k, p.ctiles, p.ctile)
	if err := th.LaunchLibrary(x.Device(), []int{p.cblocks}, ca); err != nil {
		return err
	}
	for pass := range b.passes {
		if err := radixPass(th, s, b, hist, tickets, flags, p, pass); err != nil {
			return err
		}
	}
	return nil
}

// radixBufs are what the passes of a radix sort read and write: pass j
// reads in(j) and writes out(j). The first pass reads raw (x's elements,
// as SortRaw), the last writes final (out's elements; for argsort out's
// indices, its keys being dropped); the passes between alternate between
// keys[0] and keys[1] (and vals, of reduce.SortIndex: i32 indices where
// the kernels are narrow, half of i64's traffic), where a sort's out
// serves as keys[0], which the last pass does not read. temps are the
// sort's own arrays, the onesweep's counts and flags among them.
type radixBufs struct {
	raw, final *mem.Array
	keys, vals [2]*mem.Array
	temps      []*mem.Array
	arg        bool
	passes     int
}

func newRadixBufs(th *interp.Thread, x, out *mem.Array, p radixPlan, arg bool) (*radixBufs, error) {
	t := x.DType()
	b := &radixBufs{arg: arg, passes: reduce.SortPasses(t)}
	x1, err := x.Reshape([]int{p.n})
	if err != nil {
		return nil, err
	}
	o1, err := out.Reshape([]int{p.n})
	if err != nil {
		return nil, err
	}
	if b.raw, err = rawView(x1); err != nil {
		return nil, err
	}
	if b.final = o1; !arg {
		if b.final, err = rawView(o1); err != nil {
			return nil, err
		}
	}
	if b.passes == 1 {
		return b, nil
	}
	// passes is even: the last pass reads buffer 1, so out may be 0.
	kt, vt := reduce.SortKey(t), reduce.SortIndex(p.wide)
	if arg {
		if b.vals[0], err = b.temp(th, x, vt, p.n); err == nil {
			b.vals[1], err = b.temp(th, x, vt, p.n)
		}
		if err == nil {
			b.keys[0], err = b.temp(th, x, kt, p.n)
		}
	} else {
		b.keys[0], err = o1.Bitcast(kt)
	}
	if err == nil {
		b.keys[1], err = b.temp(th, x, kt, p.n)
	}
	if err != nil {
		b.free()
		return nil, err
	}
	return b, nil
}

func (b *radixBufs) temp(th *interp.Thread, x *mem.Array, t ir.Type, n int) (*mem.Array, error) {
	a, err := newLike(th, x, t, []int{n})
	if err == nil {
		b.temps = append(b.temps, a)
	}
	return a, err
}

// zeroed is temp's array, zeroed.
func (b *radixBufs) zeroed(th *interp.Thread, x *mem.Array, t ir.Type, n int) (*mem.Array, error) {
	a, err := th.NewArray(t, []int{n}, interp.String(x.Device().String()), nil)
	if err == nil {
		b.temps = append(b.temps, a)
	}
	return a, err
}

func (b *radixBufs) free() {
	for _, a := range b.temps {
		a.Free() // a temporary of this sort only: it cannot be freed already
	}
}

// in is what pass j reads: keys (or elements) and indices (nil for the
// first pass, which makes them, and for a sort).
func (b *radixBufs) in(j int) (keys, vals *mem.Array) {
	if j == 0 {
		return b.raw, nil
	}
	return b.keys[j%2], b.vals[j%2]
}

// out is what pass j writes: keys (or elements; nil in argsort's last
// pass) and indices (nil for a sort).
func (b *radixBufs) out(j int) (keys, vals *mem.Array) {
	if j == b.passes-1 {
		if b.arg {
			return nil, b.final
		}
		return b.final, nil
	}
	return b.keys[(j+1)%2], b.vals[(j+1)%2]
}

// sortSmall sorts rows of at most reduce.SortSmall elements, a thread
// a row.
func sortSmall(th *interp.Thread, x, out *mem.Array, k int, arg bool) error {
	n := x.Size()
	kern, err := reduce.SortSmallKernel(reduce.SortSpec{In: x.DType(), Arg: arg}, reduce.Wide(n))
	if err != nil {
		return err
	}
	x1, err := x.Reshape([]int{n})
	if err != nil {
		return err
	}
	o1, err := out.Reshape([]int{n})
	if err != nil {
		return err
	}
	raw, err := rawView(x1)
	if err == nil && !arg {
		o1, err = rawView(o1)
	}
	if err != nil {
		return err
	}
	ka := interp.ArgsFor(kern).Array(raw).Array(o1).Ints(n/k, k)
	return th.LaunchLibrary(x.Device(), []int{reduce.ElementwiseBlocks(n / k)}, ka)
}

// rawView is x as the first and last passes read and write it: floats
// as their bits.
func rawView(x *mem.Array) (*mem.Array, error) {
	if x.DType().IsFloat() {
		return x.Bitcast(reduce.SortRaw(x.DType()))
	}
	return x, nil
}

// radixPass sorts by the digit of pass: one onesweep kernel.
func radixPass(th *interp.Thread, s reduce.SortSpec, b *radixBufs, hist, tickets *mem.Array, flags [2]*mem.Array, p radixPlan, pass int) error {
	kin, vin := b.in(pass)
	kout, vout := b.out(pass)
	sp := reduce.SortPass{First: pass == 0, Last: pass == b.passes-1}
	kern, err := reduce.SortOnesweepKernel(s, sp, p.wide)
	if err != nil {
		return err
	}
	ka := interp.ArgsFor(kern).Array(kin)
	for _, a := range []*mem.Array{kout, vin, vout} {
		if a != nil {
			ka.Array(a)
		}
	}
	ka.Array(hist).Array(flags[pass%2])
	if !sp.Last {
		ka.Array(flags[(pass+1)%2])
	}
	ka.Array(tickets).Ints(p.k, p.tiles, p.tile, 8*pass)
	return th.LaunchLibrary(kin.Device(), []int{p.blocks}, ka)
}
