package stdlib

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// searchFuncs are the functions of sorted arrays and counts.
func searchFuncs() map[string]fn {
	return map[string]fn{
		"unique": unique, "searchsorted": searchsorted, "bincount": bincount, "histogram": histogram,
	}
}

// launch1D runs an elementwise kernel over n elements.
func launch1D(th *interp.Thread, dev mem.Device, n int, ka *interp.KernelArgs) error {
	return th.LaunchLibrary(dev, []int{reduce.ElementwiseBlocks(n)}, ka)
}

// readOne waits for a's device and reads element i of the 1-D a as a host
// value (the results that size what comes next: unique's count).
func readOne(th *interp.Thread, name string, a *mem.Array, i int) (uint64, error) {
	if th.Capturing(a.Device()) {
		return 0, fmt.Errorf("%s reads a result back, which a capture block on %s cannot: call it outside the block", name, a.Device())
	}
	v, err := a.Slice(i, i+1)
	if err != nil {
		return 0, err
	}
	bits, err := readBits(th, v, 1)
	if err != nil {
		return 0, err
	}
	return bits[0], nil
}

// unique(a, return_counts=false) is the sorted distinct elements of the
// flattened a (NaN once, NumPy's equal_nan), and with return_counts the
// list [values, counts]: sort, flag each element unlike the one before,
// scan the flags, compact.
func unique(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "return_counts"); err != nil {
		return nil, err
	}
	counts, err := boolArg(args, "return_counts", false)
	if err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a, err = flat(th, a); err != nil {
		return nil, err
	}
	vals, runs, err := uniqueRuns(th, args.Fn, a, counts)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	if !counts {
		return &interp.Array{A: vals}, nil
	}
	return th.HoldList(interp.NewList(&interp.Array{A: vals}, &interp.Array{A: runs}))
}

// uniqueRuns is unique of the 1-D a: the values and (with counts) the
// lengths of their runs in the sorted array.
func uniqueRuns(th *interp.Thread, name string, a *mem.Array, counts bool) (vals, runs *mem.Array, err error) {
	n, t, dev := a.Size(), a.DType(), a.Device()
	s, err := radixSort(th, a, max(n, 1), false)
	if err != nil {
		return nil, nil, err
	}
	defer s.Free()
	if hostSortable(th, s) {
		return hostUnique(th, s, counts)
	}
	pos, u, err := uniquePositions(th, name, s)
	if err != nil {
		return nil, nil, err
	}
	if pos != nil {
		defer pos.Free()
	}
	if vals, err = newLike(th, a, t, []int{u}); err != nil || u == 0 {
		return vals, vals, err
	}
	first, err := newLike(th, a, ir.I64, []int{u})
	if err != nil {
		return nil, nil, err
	}
	defer first.Free()
	wide := reduce.Wide(n)
	ck, err := reduce.CompactKernel(t, wide)
	if err != nil {
		return nil, nil, err
	}
	if err := launch1D(th, dev, n, interp.ArgsFor(ck).Arrays(s, pos, vals, first).Ints(n)); err != nil {
		return nil, nil, err
	}
	if !counts {
		return vals, nil, nil
	}
	if runs, err = newLike(th, a, ir.I64, []int{u}); err != nil {
		return nil, nil, err
	}
	rk, err := reduce.RunLengthsKernel(wide)
	if err != nil {
		return nil, nil, err
	}
	return vals, runs, launch1D(th, dev, u, interp.ArgsFor(rk).Arrays(first, runs).Ints(u, n))
}

// uniquePositions flags the sorted s's new values and scans the flags:
// pos[i] is the number of distinct values in s[:i+1], u the number in
// all (read back). pos is nil for an empty s.
func uniquePositions(th *interp.Thread, name string, s *mem.Array) (*mem.Array, int, error) {
	n := s.Size()
	if n == 0 {
		return nil, 0, nil
	}
	flags, err := newLike(th, s, ir.Bool, []int{n})
	if err != nil {
		return nil, 0, err
	}
	defer flags.Free()
	fk, err := reduce.UniqueFlagsKernel(s.DType(), reduce.Wide(n))
	if err != nil {
		return nil, 0, err
	}
	if err := launch1D(th, s.Device(), n, interp.ArgsFor(fk).Arrays(s, flags).Ints(n)); err != nil {
		return nil, 0, err
	}
	pos, err := scanArray(th, reduce.ScanSpec{Kind: reduce.CumSum, In: ir.Bool}, flags, 0, true)
	if err != nil {
		return nil, 0, err
	}
	u, err := readOne(th, name, pos, n-1)
	if err != nil {
		pos.Free()
		return nil, 0, err
	}
	return pos, int(u), nil
}

// searchsorted(a, v, side="left") is where each element of v would go in
// the sorted 1-D a to keep it sorted: before equal elements (left) or
// after them (right), NaN last as sort puts it; an array of v's shape
// (i64), or a host int for a number v. a and v are compared in the dtype
// they promote to.
func searchsorted(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 3, "side"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a.NDim() != 1 {
		return nil, fmt.Errorf("%s: a must be 1-D, not %d-D", args.Fn, a.NDim())
	}
	right, err := sideArg(args)
	if err != nil {
		return nil, err
	}
	v, scalar, err := valuesArg(th, args, a)
	if err != nil {
		return nil, err
	}
	out, err := search(th, a, v, right)
	if scalar {
		defer v.Free() // the number's array
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	if !scalar {
		return &interp.Array{A: out}, nil
	}
	defer out.Free()
	bits, err := readOne(th, args.Fn, out, 0)
	return interp.Int(int64(bits)), err
}

func sideArg(args *interp.Args) (bool, error) {
	v := args.Get(2, "side")
	if v == nil {
		return false, nil
	}
	switch v {
	case interp.String("left"):
		return false, nil
	case interp.String("right"):
		return true, nil
	}
	return false, fmt.Errorf(`%s: side must be "left" or "right", not %s`, args.Fn, v)
}

// valuesArg is searchsorted's v as an array on a's device: an array, or a
// number as a 1-element array of a's dtype (f64 for a float into ints).
func valuesArg(th *interp.Thread, args *interp.Args, a *mem.Array) (*mem.Array, bool, error) {
	if _, ok := args.Positional[1].(*interp.Array); ok {
		v, err := arrayArg(args, 1)
		if err == nil {
			err = sameDevice(args.Fn, a, v)
		}
		return v, false, err
	}
	t := a.DType()
	if _, ok := args.Positional[1].(interp.Float); ok && !t.IsFloat() {
		t = ir.F64
	}
	v, err := newLike(th, a, t, []int{1})
	if err != nil {
		return nil, false, err
	}
	if err := th.FillArray(v, args.Positional[1]); err != nil {
		return nil, false, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return v, true, nil
}

// search runs the search kernel over v's elements, both arrays converted
// to their promoted dtype (contiguous copies where needed).
func search(th *interp.Thread, a, v *mem.Array, right bool) (*mem.Array, error) {
	t := ir.Promote(a.DType(), v.DType())
	out, err := newLike(th, v, ir.I64, v.Shape())
	if err != nil || v.Size() == 0 {
		return out, err
	}
	ac, err := asContiguous(th, a, t)
	if err != nil {
		return nil, err
	}
	defer freeCopy(a, ac)
	vc, err := asContiguous(th, v, t)
	if err != nil {
		return nil, err
	}
	defer freeCopy(v, vc)
	vf, err := vc.Reshape([]int{v.Size()})
	if err != nil {
		return nil, err
	}
	of, err := out.Reshape([]int{v.Size()})
	if err != nil {
		return nil, err
	}
	k, err := reduce.SearchKernel(t, right, reduce.Wide(max(a.Size(), v.Size())))
	if err != nil {
		return nil, err
	}
	return out, launch1D(th, v.Device(), v.Size(), interp.ArgsFor(k).Arrays(ac, vf, of).Ints(a.Size(), v.Size()))
}

// asContiguous is a when it is contiguous of dtype t, else a converted
// C-order copy.
func asContiguous(th *interp.Thread, a *mem.Array, t ir.Type) (*mem.Array, error) {
	if a.IsContiguous() && a.DType() == t {
		return a, nil
	}
	c, err := newLike(th, a, t, a.Shape())
	if err != nil {
		return nil, err
	}
	return c, th.CopyArray(c, a)
}

// bincount(x, weights=, minlength=0) counts each value of the 1-D
// non-negative ints x: an i64 array of max(x)+1 (at least minlength)
// counts, or with weights the f64 sums of the weights of each value.
func bincount(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "weights", "minlength"); err != nil {
		return nil, err
	}
	x, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if x.NDim() != 1 || x.DType().IsFloat() {
		return nil, fmt.Errorf("%s: x must be a 1-D array of non-negative ints, not a %d-D array of %s", args.Fn, x.NDim(), x.DType())
	}
	minlength := 0
	if v := args.Kwarg("minlength"); v != nil {
		if minlength, err = interp.ToInt(v); err != nil || minlength < 0 {
			return nil, fmt.Errorf("%s: minlength must be a non-negative int, not %s", args.Fn, v)
		}
	}
	w, err := weightsArg(th, args, x)
	if err != nil {
		return nil, err
	}
	size, err := binSize(th, args.Fn, x, minlength)
	if err != nil {
		return nil, err
	}
	outT := ir.I64
	if w != nil {
		outT = ir.F64
	}
	out, err := th.NewArray(outT, []int{size}, interp.String(x.Device().String()), nil)
	if err != nil || x.Size() == 0 {
		return &interp.Array{A: out}, err
	}
	k, err := reduce.BincountKernel(x.DType(), w != nil, reduce.Wide(max(x.Size(), size)))
	if err != nil {
		return nil, err
	}
	ka := interp.ArgsFor(k).Array(x)
	if w != nil {
		ka.Array(w)
	}
	return &interp.Array{A: out}, launch1D(th, x.Device(), x.Size(), ka.Array(out).Ints(x.Size()))
}

// weightsArg is bincount's weights= as f64 of x's shape, or nil.
func weightsArg(th *interp.Thread, args *interp.Args, x *mem.Array) (*mem.Array, error) {
	v := args.Get(1, "weights")
	if v == nil || v == interp.Nil {
		return nil, nil
	}
	wa, ok := v.(*interp.Array)
	if !ok {
		return nil, fmt.Errorf("%s: weights must be an array, not %s", args.Fn, v.Type())
	}
	w, err := wa.Plain(args.Fn)
	if err != nil {
		return nil, err
	}
	if w.Size() != x.Size() || w.NDim() != 1 {
		return nil, fmt.Errorf("%s: the weights and list don't have the same length", args.Fn)
	}
	if err := sameDevice(args.Fn, x, w); err != nil {
		return nil, err
	}
	return asContiguous(th, w, ir.F64)
}

// binSize is max(x)+1 or minlength, whichever is larger; a negative
// element is NumPy's error.
func binSize(th *interp.Thread, name string, x *mem.Array, minlength int) (int, error) {
	if x.Size() == 0 {
		return minlength, nil
	}
	lo, hi, err := extremes(th, name, x)
	if err != nil {
		return 0, err
	}
	if lo < 0 {
		return 0, fmt.Errorf("%s: the array must have no negative elements", name)
	}
	if hi >= math.MaxInt32*64 {
		return 0, fmt.Errorf("%s: the largest element %v makes too many bins", name, hi)
	}
	return max(int(hi)+1, minlength), nil
}

// extremes are a's smallest and largest elements as floats (reductions
// read back).
func extremes(th *interp.Thread, name string, a *mem.Array) (lo, hi float64, err error) {
	for i, k := range []reduce.Kind{reduce.Min, reduce.Max} {
		v, err := fullReduce(th, name, reduce.Spec{Kind: k, In: [2]ir.Type{a.DType()}}, nil, []*mem.Array{a}, nil)
		if err != nil {
			return 0, 0, err
		}
		if b, ok := v.(interp.Bool); ok { // of a bool array
			v = interp.Int(0)
			if b {
				v = interp.Int(1)
			}
		}
		f, err := interp.ToFloat(v)
		if err != nil {
			return 0, 0, err
		}
		if i == 0 {
			lo = f
		} else {
			hi = f
		}
	}
	return lo, hi, nil
}

// histogram(a, bins=10, range=) is NumPy's histogram of the flattened a:
// the list [counts (i64), edges (f64)]. bins is a number of equal bins
// over range ([lo, hi]; a's extremes without it) or an array or list of
// increasing edges; every bin is half-open but the last, which is
// closed.
func histogram(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "bins", "range"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a, err = flat(th, a); err != nil {
		return nil, err
	}
	edges, err := histEdges(th, args, a)
	if err != nil {
		return nil, err
	}
	bins := edges.Size() - 1
	counts, err := th.NewArray(ir.I64, []int{bins}, interp.String(a.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	if a.Size() > 0 {
		k, err := reduce.HistogramKernel(a.DType(), reduce.Wide(max(a.Size(), edges.Size())))
		if err != nil {
			return nil, err
		}
		if err := launch1D(th, a.Device(), a.Size(), interp.ArgsFor(k).Arrays(a, edges, counts).Ints(bins, a.Size())); err != nil {
			return nil, err
		}
	}
	return th.HoldList(interp.NewList(&interp.Array{A: counts}, &interp.Array{A: edges}))
}

// histEdges are histogram's bin edges as a new f64 array on a's device.
func histEdges(th *interp.Thread, args *interp.Args, a *mem.Array) (*mem.Array, error) {
	var given []float64
	bins := 10
	switch v := args.Get(1, "bins").(type) {
	case nil:
	case interp.Int:
		if bins = int(v); bins < 1 {
			return nil, fmt.Errorf("%s: bins must be positive, not %d", args.Fn, bins)
		}
	case *interp.List:
		xs, err := floatsOf(args.Fn, "bins", v)
		if err != nil {
			return nil, err
		}
		given = xs
	case *interp.Array:
		p, err := v.Plain(args.Fn)
		if err == nil {
			given, err = hostFloats(th, p)
		}
		if err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: bins must be an int, a list or an array, not %s", args.Fn, v.Type())
	}
	if given == nil {
		lo, hi, err := histRange(th, args, a)
		if err != nil {
			return nil, err
		}
		given = linspaceEdges(lo, hi, bins)
	}
	if len(given) < 2 {
		return nil, fmt.Errorf("%s: bins needs at least two edges", args.Fn)
	}
	for i := 1; i < len(given); i++ {
		if !(given[i] >= given[i-1]) {
			return nil, fmt.Errorf("%s: bins must increase monotonically, when an array", args.Fn)
		}
	}
	return floatArray(th, a.Device(), given)
}

// histRange is range= or a's extremes, widened by 0.5 each way when they
// are equal, as NumPy's.
func histRange(th *interp.Thread, args *interp.Args, a *mem.Array) (float64, float64, error) {
	var lo, hi float64
	if v := args.Kwarg("range"); v != nil && v != interp.Nil {
		l, ok := v.(*interp.List)
		if !ok || l.Len() != 2 {
			return 0, 0, fmt.Errorf("%s: range must be a list [lo, hi]", args.Fn)
		}
		xs, err := floatsOf(args.Fn, "range", l)
		if err != nil {
			return 0, 0, err
		}
		lo, hi = xs[0], xs[1]
		if lo > hi {
			return 0, 0, fmt.Errorf("%s: max must be larger than min in range parameter", args.Fn)
		}
	} else if a.Size() > 0 {
		var err error
		if lo, hi, err = extremes(th, args.Fn, a); err != nil {
			return 0, 0, err
		}
	} else {
		lo, hi = 0, 1
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return 0, 0, fmt.Errorf("%s: autodetected range of [%s, %s] is not finite", args.Fn, interp.Float(lo), interp.Float(hi))
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return lo, hi, nil
}

// linspaceEdges are NumPy's linspace(lo, hi, bins+1): i*step + lo, each
// product rounded before the sum, the last edge hi.
func linspaceEdges(lo, hi float64, bins int) []float64 {
	step := (hi - lo) / float64(bins)
	e := make([]float64, bins+1)
	for i := range e {
		e[i] = float64(float64(i)*step) + lo
	}
	e[bins] = hi
	return e
}

func floatsOf(name, what string, l *interp.List) ([]float64, error) {
	xs := make([]float64, l.Len())
	for i := range xs {
		f, err := interp.ToFloat(l.At(i))
		if err != nil {
			return nil, fmt.Errorf("%s: %s: element %d: %v", name, what, i, err)
		}
		xs[i] = f
	}
	return xs, nil
}

// hostFloats reads a 1-D array's elements as floats (through an f64
// copy when it is not one, after a wait).
func hostFloats(th *interp.Thread, a *mem.Array) ([]float64, error) {
	if a.NDim() != 1 {
		return nil, fmt.Errorf("bins must be 1-D, not %d-D", a.NDim())
	}
	c, err := asContiguous(th, a, ir.F64)
	if err != nil {
		return nil, err
	}
	if err := th.SyncDevice(c.Device()); err != nil {
		return nil, err
	}
	b, err := c.ReadHost()
	if err != nil {
		return nil, err
	}
	out := make([]float64, a.Size())
	for i := range out {
		out[i] = math.Float64frombits(mem.LoadBits(b, ir.F64, i))
	}
	runtime.KeepAlive(c) // b may be c's memory
	return out, nil
}

// floatArray is a new f64 array of xs on dev.
func floatArray(th *interp.Thread, dev mem.Device, xs []float64) (*mem.Array, error) {
	return hostArray(th, dev, ir.F64, len(xs), func(i int) uint64 { return math.Float64bits(xs[i]) })
}

// hostArray is a new 1-D array of n elements of t on dev, element i's
// bits bits(i), written from the host.
func hostArray(th *interp.Thread, dev mem.Device, t ir.Type, n int, bits func(i int) uint64) (*mem.Array, error) {
	a, err := th.NewArrayUninit(t, []int{n}, interp.String(dev.String()), nil)
	if err != nil {
		return nil, err
	}
	return a, a.WriteHost(func(b []byte) error {
		for i := range n {
			mem.StoreBits(b, t, i, bits(i))
		}
		return nil
	})
}
