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

// sortBufs are a radix sort's ping-pong buffers: pass p reads bufs[p%2]
// and writes bufs[1-p%2]. temps are the ones to free after.
type sortBufs struct {
	bufs  [2]*mem.Array
	temps []*mem.Array
}

// pingPong gives buffers of dtype t and n elements on x's device such that
// the last of passes passes writes final when it is not nil (the result
// array, or a bit view of it), so that only one temporary is needed.
func pingPong(th *interp.Thread, x *mem.Array, t ir.Type, n, passes int, final *mem.Array) (sortBufs, error) {
	var s sortBufs
	end := passes % 2
	for i := range s.bufs {
		if i == end && final != nil {
			s.bufs[i] = final
			continue
		}
		b, err := newLike(th, x, t, []int{n})
		if err != nil {
			s.free()
			return sortBufs{}, err
		}
		s.bufs[i], s.temps = b, append(s.temps, b)
	}
	return s, nil
}

func (s sortBufs) free() {
	for _, b := range s.temps {
		b.Free() // a temporary of this call only: it cannot be freed already
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
	if hostSortable(th, x) {
		run = hostRadix
	}
	if err := run(th, x, out, k, arg); err != nil {
		out.Free()
		return nil, err
	}
	return out, nil
}

// radixPlan is the tiling of a sort of n elements as rows of k.
type radixPlan struct {
	n, k, tile, tiles, blocks, counts int
	wide                              bool
}

func planRadix(t ir.Type, arg bool, n, k int) radixPlan {
	p := radixPlan{n: n, k: k}
	p.tile = min(reduce.SortTile(t, arg), (k+255)/256*256)
	p.tiles = (k + p.tile - 1) / p.tile
	p.blocks = n / k * p.tiles
	p.counts = p.blocks * 256
	p.wide = reduce.Wide(max(n, p.counts))
	return p
}

// runRadix sorts x (contiguous, n > 0) into out: the keys kernel, then
// per digit pass hist, the scan of the counts and scatter, then (for a
// sort) the keys back into elements.
func runRadix(th *interp.Thread, x, out *mem.Array, k int, arg bool) error {
	t := x.DType()
	p := planRadix(t, arg, x.Size(), k)
	kt, passes := reduce.SortKey(t), reduce.SortPasses(t)
	x1, err := x.Reshape([]int{p.n})
	if err != nil {
		return err
	}
	o1, err := out.Reshape([]int{p.n})
	if err != nil {
		return err
	}
	var keyFinal, valFinal *mem.Array
	if arg {
		valFinal = o1
	} else if t != ir.Bool {
		if keyFinal, err = o1.Bitcast(kt); err != nil {
			return err
		}
	}
	keys, err := pingPong(th, x, kt, p.n, passes, keyFinal)
	if err != nil {
		return err
	}
	defer keys.free()
	var vals sortBufs
	if arg {
		if vals, err = pingPong(th, x, ir.I64, p.n, passes, valFinal); err != nil {
			return err
		}
		defer vals.free()
	}
	if err := launchKeys(th, x1, keys.bufs[0], vals.bufs[0], p, arg); err != nil {
		return err
	}
	// The passes' digit counts and their scan, reused by every pass.
	counts, err := newLike(th, x, ir.I32, []int{p.counts})
	if err != nil {
		return err
	}
	defer counts.Free()
	offs, err := newLike(th, x, ir.I64, []int{p.counts})
	if err != nil {
		return err
	}
	defer offs.Free()
	for pass := range passes {
		if err := radixPass(th, t, keys, vals, counts, offs, p, pass, arg); err != nil {
			return err
		}
	}
	if arg {
		return nil
	}
	return launchValues(th, keys.bufs[passes%2], o1, p)
}

// rawView is x as the keys kernels read it: floats as their bits.
func rawView(x *mem.Array) (*mem.Array, error) {
	if x.DType().IsFloat() {
		return x.Bitcast(reduce.SortRaw(x.DType()))
	}
	return x, nil
}

func launchKeys(th *interp.Thread, x, keys, vals *mem.Array, p radixPlan, arg bool) error {
	kern, err := reduce.SortKeysKernel(reduce.SortSpec{In: x.DType(), Arg: arg}, p.wide)
	if err != nil {
		return err
	}
	raw, err := rawView(x)
	if err != nil {
		return err
	}
	ka := interp.ArgsFor(kern).Array(raw).Array(keys)
	if arg {
		ka.Array(vals)
	}
	return th.LaunchLibrary(x.Device(), []int{reduce.ElementwiseBlocks(p.n)}, ka.Ints(p.n, p.k))
}

func launchValues(th *interp.Thread, keys, out *mem.Array, p radixPlan) error {
	kern, err := reduce.SortValuesKernel(out.DType(), p.wide)
	if err != nil {
		return err
	}
	raw, err := rawView(out)
	if err != nil {
		return err
	}
	ka := interp.ArgsFor(kern).Array(keys).Array(raw).Ints(p.n)
	return th.LaunchLibrary(out.Device(), []int{reduce.ElementwiseBlocks(p.n)}, ka)
}

// radixPass sorts by the digit of pass: count into counts, scan into
// offs, scatter.
func radixPass(th *interp.Thread, t ir.Type, keys, vals sortBufs, counts, offs *mem.Array, p radixPlan, pass int, arg bool) error {
	src, dst := keys.bufs[pass%2], keys.bufs[1-pass%2]
	dev, grid, shift := src.Device(), []int{p.blocks}, 8*pass
	hist, err := reduce.SortHistKernel(t, p.wide)
	if err != nil {
		return err
	}
	ha := interp.ArgsFor(hist).Array(src).Array(counts).Ints(p.k, p.tiles, p.tile, shift)
	if err := th.LaunchLibrary(dev, grid, ha); err != nil {
		return err
	}
	if _, err := scanInto(th, reduce.ScanSpec{Kind: reduce.CumSum, In: ir.I32}, counts, 0, true, offs); err != nil {
		return err
	}
	scatter, err := reduce.SortScatterKernel(t, arg, p.wide)
	if err != nil {
		return err
	}
	sa := interp.ArgsFor(scatter).Array(src).Array(dst)
	if arg {
		sa.Array(vals.bufs[pass%2]).Array(vals.bufs[1-pass%2])
	}
	sa.Array(counts).Array(offs).Ints(p.k, p.tiles, p.tile, shift)
	return th.LaunchLibrary(dev, grid, sa)
}
