package stdlib

import (
	"fmt"
	"math"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// reductions are the builtins of ARRAYS.md section 3. They run as kernels
// on the array's device (stdlib/reduce builds them); host lists keep
// their host meaning.
func reductions() map[string]fn {
	fns := map[string]fn{
		"min": extremeFn(reduce.Min), "max": extremeFn(reduce.Max),
		"dot": dot, "allclose": allclose, "isclose": isclose, "equal": arrayEqual, "array_equal": arrayEqual,
		"cumsum": scanFn(reduce.CumSum), "cumprod": scanFn(reduce.CumProd),
	}
	for _, k := range []reduce.Kind{reduce.Sum, reduce.Prod, reduce.Mean, reduce.ArgMin, reduce.ArgMax,
		reduce.Any, reduce.All, reduce.CountNonzero, reduce.Norm,
		reduce.NanSum, reduce.NanMean, reduce.NanMin, reduce.NanMax, reduce.NanArgMin, reduce.NanArgMax} {
		fns[k.String()] = reduction(k)
	}
	return fns
}

// reduction is the builtin of a reduction of one array, with axis= and
// keepdims=.
func reduction(k reduce.Kind) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 1, "axis", "keepdims"); err != nil {
			return nil, err
		}
		if l, ok := args.Positional[0].(*interp.List); ok && len(args.Names) == 0 {
			return listReduction(k, args.Fn, l)
		}
		if v, ok := args.Positional[0].(fuse.Value); ok {
			return reduceOperand(th, args, k, nil, v.E)
		}
		a, err := arrayArg(args, 0)
		if err != nil {
			return nil, err
		}
		return reduceOperand(th, args, k, a, nil)
	}
}

// extremeFn is min or max: of an array's elements (with axis= and
// keepdims=), of a list, or of several values.
func extremeFn(k reduce.Kind) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, math.MaxInt, "axis", "keepdims"); err != nil {
			return nil, err
		}
		if len(args.Positional) == 1 {
			switch v := args.Positional[0].(type) {
			case fuse.Value:
				return reduceOperand(th, args, k, nil, v.E)
			case *interp.Array:
				a, err := arrayArg(args, 0)
				if err != nil {
					return nil, err
				}
				return reduceOperand(th, args, k, a, nil)
			case *interp.List:
				if len(args.Names) == 0 {
					if x, ok := unboxedExtreme(v, k == reduce.Max); ok {
						return x, nil
					}
					return extremeOf(args.Fn, v.Values(), k == reduce.Max)
				}
			}
		}
		if len(args.Names) > 0 {
			return nil, fmt.Errorf("%s: axis= and keepdims= need one array", args.Fn)
		}
		vs, err := materialiseAll(th, args.Positional)
		if err != nil {
			return nil, err
		}
		return extremeOf(args.Fn, vs, k == reduce.Max)
	}
}

// extremeOf is the smallest (or largest) of host values, the first of
// equals.
func extremeOf(name string, vs []interp.Value, isMax bool) (interp.Value, error) {
	if len(vs) == 0 {
		return nil, fmt.Errorf("%s of an empty list", name)
	}
	best := vs[0]
	for _, v := range vs[1:] {
		x, y := v, best
		if isMax {
			x, y = best, v
		}
		better, err := interp.Less(x, y)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if better {
			best = v
		}
	}
	return best, nil
}

// unboxedExtreme is extremeOf of a non-empty int or float list, read in
// place: < as interp.Less has it (a NaN is never better, so a first NaN
// stays); ok is false for other lists.
func unboxedExtreme(l *interp.List, isMax bool) (interp.Value, bool) {
	if xs, ok := l.Ints(); ok && len(xs) > 0 {
		if isMax {
			return interp.Int(slices.Max(xs)), true
		}
		return interp.Int(slices.Min(xs)), true
	}
	xs, ok := l.Floats()
	if !ok || len(xs) == 0 {
		return nil, false
	}
	best := xs[0]
	for _, x := range xs[1:] {
		if isMax && best < x || !isMax && x < best {
			best = x
		}
	}
	return interp.Float(best), true
}

// listReduction is sum, prod, mean, any or all of a host list, with host
// arithmetic (ints exact, overflow an error).
func listReduction(k reduce.Kind, name string, l *interp.List) (interp.Value, error) {
	switch k {
	case reduce.Sum, reduce.Prod, reduce.Mean:
		return listArith(k, name, l)
	case reduce.Any, reduce.All:
		for _, v := range l.Values() {
			b, ok := v.(interp.Bool)
			if !ok {
				return nil, fmt.Errorf("%s: list elements must be bools, not %s", name, v.Type())
			}
			if bool(b) == (k == reduce.Any) {
				return b, nil
			}
		}
		return interp.Bool(k == reduce.All), nil
	}
	return nil, fmt.Errorf("%s: argument 1 must be an array, not list", name)
}

func listArith(k reduce.Kind, name string, l *interp.List) (interp.Value, error) {
	var acc interp.Value
	ok := false
	if k != reduce.Prod {
		acc, ok = unboxedSum(l)
	}
	if !ok {
		var err error
		if acc, err = boxedArith(k, name, l.Values()); err != nil {
			return nil, err
		}
	}
	if k != reduce.Mean {
		return acc, nil
	}
	if l.Len() == 0 {
		return nil, fmt.Errorf("mean of an empty list")
	}
	s, err := interp.ToFloat(acc)
	return interp.Float(s / float64(l.Len())), err
}

// unboxedSum is the sum of an int or float list, read in place, as the
// host's + would add its elements one by one from the int 0; ok is false
// for other lists and for an int sum that overflows (whose error
// boxedArith gives).
func unboxedSum(l *interp.List) (interp.Value, bool) {
	if xs, ok := l.Ints(); ok {
		var s int64
		for _, x := range xs {
			t := s + x
			if (t > s) != (x > 0) {
				return nil, false
			}
			s = t
		}
		return interp.Int(s), true
	}
	if xs, ok := l.Floats(); ok && len(xs) > 0 { // an empty one sums to the int 0
		var s float64
		for _, x := range xs {
			s += x
		}
		return interp.Float(s), true
	}
	return nil, false
}

// boxedArith is the sum or product of host values, with host arithmetic.
func boxedArith(k reduce.Kind, name string, vs []interp.Value) (interp.Value, error) {
	op, acc := token.Add, interp.Value(interp.Int(0))
	if k == reduce.Prod {
		op, acc = token.Mul, interp.Int(1)
	}
	for _, v := range vs {
		switch v.(type) {
		case interp.Int, interp.Float, interp.Scalar:
		default:
			return nil, fmt.Errorf("%s: list elements must be numbers, not %s", name, v.Type())
		}
		var err error
		if acc, err = interp.Binary(op, acc, v); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return acc, nil
}

// reduceOperand reduces an array a, or else an array expression e, along
// the axis= argument (everything without one, a host value; negative axes
// count from the last), keeping the
// reduced axes with keepdims=true. An expression fuses into the
// reduction's kernels (fuse.Producer).
func reduceOperand(th *interp.Thread, args *interp.Args, k reduce.Kind, a *mem.Array, e *fuse.Expr) (interp.Value, error) {
	axes, err := axisArg(args, k)
	if err != nil {
		return nil, err
	}
	keep, err := boolArg(args, "keepdims", false)
	if err != nil {
		return nil, err
	}
	var ndim int
	if e != nil {
		ndim = len(e.Shape())
	} else {
		ndim = a.NDim()
	}
	if axes == nil {
		axes = allAxes(ndim)
	}
	if axes, err = wrapAxes(axes, ndim); err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if err := reduce.CheckAxes(axes, ndim); err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if tapedOperand(th, k, a, e) {
		return reduceTaped(th, args.Fn, k, a, e, axes, keep)
	}
	if len(axes) == ndim && !keep {
		if e != nil {
			return fusedReduce(th, args.Fn, k, []*fuse.Expr{e}, nil)
		}
		return fullReduce(th, args.Fn, reduce.Spec{Kind: k, In: [2]ir.Type{a.DType()}}, nil, []*mem.Array{a}, nil)
	}
	if e != nil {
		return fusedAxisReduce(th, args.Fn, k, e, axes, keep)
	}
	return axisReduce(th, args.Fn, k, axisInput{t: a.DType(), arrays: []*mem.Array{a}}, axes, keep)
}

// Gradients of broadcast operands sum over axes through this engine.
func init() {
	fuse.SumAxes = func(th *interp.Thread, e *fuse.Expr, axes []int) (interp.Value, error) {
		return fusedAxisReduce(th, "sum", reduce.Sum, e, axes, false)
	}
}

// fusedAxisReduce reduces the expression e along axes with e computed
// inside the axis kernel: the output is the only new array.
func fusedAxisReduce(th *interp.Thread, name string, k reduce.Kind, e *fuse.Expr, axes []int, keep bool) (interp.Value, error) {
	e, err := fuse.Ungather(th, e)
	if err != nil {
		return nil, err
	}
	pr, err := fuse.NewProducer(e)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	leaves, err := pr.Arrays()
	if err != nil {
		return nil, err
	}
	in := axisInput{t: e.DType(), arrays: leaves, pr: pr, scal: pr.ScalarValues()}
	return axisReduce(th, name, k, in, axes, keep)
}

// materialiseAll computes the array expressions among vs, for builtins
// that take them without fusing.
func materialiseAll(th *interp.Thread, vs []interp.Value) ([]interp.Value, error) {
	out := make([]interp.Value, len(vs))
	for i, v := range vs {
		d, ok := v.(interp.Deferred)
		if !ok {
			out[i] = v
			continue
		}
		var err error
		if out[i], err = d.Materialise(th); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fusedReduce is the full reduction k of expressions (Kind.Inputs() of
// them, of one shape) computed inside pass 1: their leaves are read once
// and no temporary is made. scal are the reduction's scalar arguments.
func fusedReduce(th *interp.Thread, name string, k reduce.Kind, roots []*fuse.Expr, scal []interp.Value) (interp.Value, error) {
	// A reduction's kernel reads leaves at its own index: index-array
	// leaves are gathered into arrays first.
	roots = slices.Clone(roots)
	for i, r := range roots {
		var err error
		if roots[i], err = fuse.Ungather(th, r); err != nil {
			return nil, err
		}
	}
	pr, err := fuse.NewProducer(roots...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	ins, err := pr.Arrays()
	if err != nil {
		return nil, err
	}
	s := reduce.Spec{Kind: k}
	copy(s.In[:], pr.Types())
	return fullReduce(th, name, s, pr, ins, slices.Concat(scal, pr.ScalarValues()))
}

// exprPair reads the two operands of dot, allclose and equal as
// expressions when either is an array expression (ok false when both are
// arrays: the plain kernels take them).
func exprPair(args *interp.Args) (x, y *fuse.Expr, ok bool, err error) {
	_, d0 := args.Positional[0].(fuse.Value)
	_, d1 := args.Positional[1].(fuse.Value)
	if !d0 && !d1 {
		return nil, nil, false, nil
	}
	if x, err = exprArg(args, 0); err == nil {
		y, err = exprArg(args, 1)
	}
	return x, y, true, err
}

func exprArg(args *interp.Args, i int) (*fuse.Expr, error) {
	switch v := args.Positional[i].(type) {
	case fuse.Value, *interp.Array:
		return fuse.Leaf(v)
	}
	return nil, fmt.Errorf("%s: argument %d must be an array, not %s", args.Fn, i+1, args.Positional[i].Type())
}

// axisArg reads axis=: nil when absent, else the axes (an int, or a list
// of ints; argmin and argmax take one int, as NumPy's).
func axisArg(args *interp.Args, k reduce.Kind) ([]int, error) {
	v := args.Kwarg("axis")
	if v == nil {
		return nil, nil
	}
	if n, err := interp.ToInt(v); err == nil {
		return []int{n}, nil
	}
	l, ok := v.(*interp.List)
	if !ok || k.IsArg() {
		what := "an int or a list of ints"
		if k.IsArg() {
			what = "an int"
		}
		return nil, fmt.Errorf("%s: axis must be %s, not %s", args.Fn, what, v.Type())
	}
	axes := make([]int, l.Len())
	for i := range axes {
		n, err := interp.ToInt(l.At(i))
		if err != nil {
			return nil, fmt.Errorf("%s: axis list: %v", args.Fn, err)
		}
		axes[i] = n
	}
	return axes, nil
}

// wrapAxes maps axes of an ndim-D array that count from the last
// (negative, NumPy's axis=-1) to 0..ndim-1; an axis outside -ndim..ndim-1
// is an error naming it as written. Every builtin that takes axes uses it.
func wrapAxes(axes []int, ndim int) ([]int, error) {
	out := make([]int, len(axes))
	for i, ax := range axes {
		var err error
		if out[i], err = mem.WrapAxis(ax, ndim); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func boolArg(args *interp.Args, name string, def bool) (bool, error) {
	v := args.Kwarg(name)
	if v == nil {
		return def, nil
	}
	b, ok := v.(interp.Bool)
	if !ok {
		return false, fmt.Errorf("%s: %s must be a bool, not %s", args.Fn, name, v.Type())
	}
	return bool(b), nil
}

func allAxes(n int) []int {
	axes := make([]int, n)
	for i := range axes {
		axes[i] = i
	}
	return axes
}

func layoutOf(a *mem.Array) reduce.Layout {
	return reduce.Layout{Shape: a.Shape(), Strides: a.Strides()}
}

// viewOf is a seen through v: permuted, then with each group merged.
func viewOf(a *mem.Array, v reduce.View) (*mem.Array, error) {
	var err error
	if !slices.IsSorted(v.Perm) {
		if a, err = a.Permute(v.Perm); err != nil {
			return nil, err
		}
	}
	for g := len(v.Groups) - 1; g >= 0; g-- {
		if lo, hi := v.Groups[g][0], v.Groups[g][1]; hi-lo > 1 {
			if a, err = a.MergeAxes(lo, hi); err != nil {
				return nil, err
			}
		}
	}
	return a, nil
}

// sameDevice requires the arrays of a two-array reduction on one device.
func sameDevice(name string, a, b *mem.Array) error {
	if a.Device() != b.Device() {
		return fmt.Errorf("%s: arrays on %s and %s: move one with .to(device)", name, a.Device(), b.Device())
	}
	return nil
}

func sameShape(name string, a, b *mem.Array) error {
	if !slices.Equal(a.Shape(), b.Shape()) {
		return fmt.Errorf("%s: shapes %s and %s differ", name, interp.ShapeString(a.Shape()), interp.ShapeString(b.Shape()))
	}
	return sameDevice(name, a, b)
}

func dot(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	if th.Taping() {
		x, errx := exprArg(args, 0)
		y, erry := exprArg(args, 1)
		if errx == nil && erry == nil && tapedDot(th, x, y) {
			if err := dotShapes(x.Shape(), y.Shape()); err != nil {
				return nil, err
			}
			return dotTaped(th, args.Positional)
		}
	}
	if x, y, ok, err := exprPair(args); ok || err != nil {
		if err != nil {
			return nil, err
		}
		if err := dotShapes(x.Shape(), y.Shape()); err != nil {
			return nil, err
		}
		return fusedReduce(th, "dot", reduce.Dot, []*fuse.Expr{x, y}, nil)
	}
	a, b, err := arrayPair(args)
	if err != nil {
		return nil, err
	}
	if err := dotShapes(a.Shape(), b.Shape()); err != nil {
		return nil, err
	}
	if err := sameDevice("dot", a, b); err != nil {
		return nil, err
	}
	return fullReduce(th, "dot", reduce.Spec{Kind: reduce.Dot, In: [2]ir.Type{a.DType(), b.DType()}}, nil, []*mem.Array{a, b}, nil)
}

func dotShapes(a, b []int) error {
	if len(a) != 1 || len(b) != 1 || a[0] != b[0] {
		return fmt.Errorf("dot needs two 1-D arrays of one length, got shapes %s and %s", interp.ShapeString(a), interp.ShapeString(b))
	}
	return nil
}

func arrayPair(args *interp.Args) (*mem.Array, *mem.Array, error) {
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, nil, err
	}
	b, err := arrayArg(args, 1)
	return a, b, err
}

// closeArgs reads the arrays and the tolerances of allclose and isclose.
func closeArgs(args *interp.Args) (a, b *mem.Array, tol []interp.Value, err error) {
	if a, b, err = arrayPair(args); err != nil {
		return nil, nil, nil, err
	}
	if err := sameShape(args.Fn, a, b); err != nil {
		return nil, nil, nil, err
	}
	tol, err = tolerances(args)
	return a, b, tol, err
}

// tolerances reads rtol=, atol= and equal_nan= of allclose and isclose.
func tolerances(args *interp.Args) ([]interp.Value, error) {
	tol := []interp.Value{interp.Float(1e-5), interp.Float(1e-8), interp.Bool(false)}
	for i, name := range []string{"rtol", "atol"} {
		if v := args.Kwarg(name); v != nil {
			f, err := interp.ToFloat(v)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", args.Fn, name, err)
			}
			tol[i] = interp.Float(f)
		}
	}
	eqNaN, err := boolArg(args, "equal_nan", false)
	tol[2] = interp.Bool(eqNaN)
	return tol, err
}

func allclose(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "rtol", "atol", "equal_nan"); err != nil {
		return nil, err
	}
	if x, y, ok, err := exprPair(args); ok || err != nil {
		if err != nil {
			return nil, err
		}
		if !slices.Equal(x.Shape(), y.Shape()) {
			return nil, fmt.Errorf("allclose: shapes %s and %s differ", interp.ShapeString(x.Shape()), interp.ShapeString(y.Shape()))
		}
		tol, err := tolerances(args)
		if err != nil {
			return nil, err
		}
		return fusedReduce(th, "allclose", reduce.AllClose, []*fuse.Expr{x, y}, tol)
	}
	a, b, tol, err := closeArgs(args)
	if err != nil {
		return nil, err
	}
	return fullReduce(th, "allclose", reduce.Spec{Kind: reduce.AllClose, In: [2]ir.Type{a.DType(), b.DType()}}, nil, []*mem.Array{a, b}, tol)
}

// arrayEqual is equal and array_equal: whether two arrays have one shape
// and equal values (a host bool, as LANGUAGE.md's equal always was).
func arrayEqual(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	if x, y, ok, err := exprPair(args); ok || err != nil {
		if err != nil {
			return nil, err
		}
		if !slices.Equal(x.Shape(), y.Shape()) {
			return interp.Bool(false), nil
		}
		return fusedReduce(th, args.Fn, reduce.Equal, []*fuse.Expr{x, y}, nil)
	}
	a, b, err := arrayPair(args)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(a.Shape(), b.Shape()) {
		return interp.Bool(false), nil
	}
	if err := sameDevice(args.Fn, a, b); err != nil {
		return nil, err
	}
	return fullReduce(th, args.Fn, reduce.Spec{Kind: reduce.Equal, In: [2]ir.Type{a.DType(), b.DType()}}, nil, []*mem.Array{a, b}, nil)
}

// isclose is the elementwise comparison: a new bool array on the arrays'
// device.
func isclose(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "rtol", "atol", "equal_nan"); err != nil {
		return nil, err
	}
	a, b, tol, err := closeArgs(args)
	if err != nil {
		return nil, err
	}
	dev := a.Device()
	out, err := th.NewArray(ir.Bool, a.Shape(), interp.String(dev.String()), nil)
	if err != nil || a.Size() == 0 {
		return &interp.Array{A: out}, err
	}
	plan := reduce.PlanFull(reduce.AllClose, []reduce.Layout{layoutOf(a), layoutOf(b)})
	k, err := reduce.IsCloseKernel([2]ir.Type{a.DType(), b.DType()}, len(plan.Shape), reduce.Wide(plan.N))
	if err != nil {
		return nil, err
	}
	views, err := viewsOf(plan.View, a, b)
	if err != nil {
		return nil, err
	}
	flat, err := out.Reshape([]int{plan.N})
	if err != nil {
		return nil, err
	}
	ka := interp.ArgsFor(k).Arrays(views...).Array(flat).Ints(plan.N).Ints(plan.Shape[1:]...).Values(tol...)
	if err := th.LaunchLibrary(dev, []int{reduce.ElementwiseBlocks(plan.N)}, ka); err != nil {
		return nil, fmt.Errorf("isclose: %w", err)
	}
	return &interp.Array{A: out}, nil
}

// viewsOf are the arrays seen through v, for a kernel's arguments.
func viewsOf(v reduce.View, arrays ...*mem.Array) ([]*mem.Array, error) {
	views := make([]*mem.Array, len(arrays))
	for i, a := range arrays {
		view, err := viewOf(a, v)
		if err != nil {
			return nil, err
		}
		views[i] = view
	}
	return views, nil
}
