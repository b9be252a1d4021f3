package stdlib

import (
	"fmt"
	"math"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// decode turns raw element bits into float64, int64 or uint64 views.
func asFloat(t ir.Type, bits uint64) float64 {
	switch t {
	case ir.F32:
		return float64(math.Float32frombits(uint32(bits)))
	case ir.F64:
		return math.Float64frombits(bits)
	case ir.I32:
		return float64(int32(bits))
	case ir.I64:
		return float64(int64(bits))
	}
	return float64(bits)
}

func asInt(t ir.Type, bits uint64) int64 {
	switch t {
	case ir.I32:
		return int64(int32(bits))
	}
	return int64(bits)
}

func sum(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	return sumOf(a)
}

// sumOf sums in f64 for floats (a host float) and exactly for ints (a host
// int; overflow is an error).
func sumOf(a *mem.Array) (interp.Value, error) {
	t := a.DType()
	if t.IsFloat() {
		s := 0.0
		err := interp.ArrayElems(a, func(b uint64) { s += asFloat(t, b) })
		return interp.Float(s), err
	}
	var s int64
	overflow := false
	err := interp.ArrayElems(a, func(b uint64) {
		if t == ir.U64 && b > math.MaxInt64 {
			overflow = true
			return
		}
		v := asInt(t, b)
		r := s + v
		if (r > s) != (v > 0) {
			overflow = true
		}
		s = r
	})
	if overflow {
		return nil, fmt.Errorf("sum overflows int")
	}
	return interp.Int(s), err
}

func mean(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a.Size() == 0 {
		return nil, fmt.Errorf("mean of an empty array")
	}
	s := 0.0
	err = interp.ArrayElems(a, func(b uint64) { s += asFloat(a.DType(), b) })
	return interp.Float(s / float64(a.Size())), err
}

func minFn(th *interp.Thread, args *interp.Args) (interp.Value, error) { return extreme(args, -1) }
func maxFn(th *interp.Thread, args *interp.Args) (interp.Value, error) { return extreme(args, 1) }

// extreme is min (sign -1) or max (sign 1): of one array's elements (a
// scalar of its dtype; NaN propagates as in NumPy), or of several numbers.
func extreme(args *interp.Args, sign int) (interp.Value, error) {
	if err := args.Check(1, math.MaxInt); err != nil {
		return nil, err
	}
	if len(args.Positional) == 1 {
		if _, ok := args.Positional[0].(*interp.Array); ok {
			return arrayExtreme(args, sign)
		}
		if l, ok := args.Positional[0].(*interp.List); ok {
			return extremeOf(args.Fn, l.Elems, sign)
		}
	}
	return extremeOf(args.Fn, args.Positional, sign)
}

func extremeOf(name string, vs []interp.Value, sign int) (interp.Value, error) {
	if len(vs) == 0 {
		return nil, fmt.Errorf("%s of an empty list", name)
	}
	best := vs[0]
	for _, v := range vs[1:] {
		less, err := interp.Less(v, best)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		greater, err := interp.Less(best, v)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if (sign < 0 && less) || (sign > 0 && greater) {
			best = v
		}
	}
	return best, nil
}

func arrayExtreme(args *interp.Args, sign int) (interp.Value, error) {
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a.Size() == 0 {
		return nil, fmt.Errorf("%s of an empty array", args.Fn)
	}
	t := a.DType()
	first, nan := true, false
	var best uint64
	better := func(x, y uint64) bool { // x better than y
		switch {
		case t.IsFloat():
			return float64(sign)*(asFloat(t, x)-asFloat(t, y)) > 0
		case t.IsSigned():
			return (sign > 0) == (asInt(t, x) > asInt(t, y)) && asInt(t, x) != asInt(t, y)
		}
		return (sign > 0) == (x > y) && x != y
	}
	err = interp.ArrayElems(a, func(b uint64) {
		if nan {
			return
		}
		if t.IsFloat() && math.IsNaN(asFloat(t, b)) {
			nan, best = true, b
			return
		}
		if first || better(b, best) {
			best, first = b, false
		}
	})
	if err != nil {
		return nil, err
	}
	return interp.ConvertScalarBits(t, best), nil
}

func dot(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	b, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	if a.NDim() != 1 || b.NDim() != 1 || a.Size() != b.Size() {
		return nil, fmt.Errorf("dot needs two 1-D arrays of one length, got shapes %s and %s", interp.ShapeString(a.Shape()), interp.ShapeString(b.Shape()))
	}
	xs, ys, err := pairs(a, b)
	if err != nil {
		return nil, err
	}
	if a.DType().IsFloat() || b.DType().IsFloat() {
		s := 0.0
		for i := range xs {
			s += asFloat(a.DType(), xs[i]) * asFloat(b.DType(), ys[i])
		}
		return interp.Float(s), nil
	}
	var s interp.Value = interp.Int(0)
	for i := range xs {
		p, err := interp.Binary("*", interp.Int(asInt(a.DType(), xs[i])), interp.Int(asInt(b.DType(), ys[i])))
		if err != nil {
			return nil, fmt.Errorf("dot: %v", err)
		}
		if s, err = interp.Binary("+", s, p); err != nil {
			return nil, fmt.Errorf("dot: %v", err)
		}
	}
	return s, nil
}

// pairs returns the elements of two same-shape arrays in C order.
func pairs(a, b *mem.Array) ([]uint64, []uint64, error) {
	if !slices.Equal(a.Shape(), b.Shape()) {
		return nil, nil, fmt.Errorf("shapes %s and %s differ", interp.ShapeString(a.Shape()), interp.ShapeString(b.Shape()))
	}
	xs := make([]uint64, 0, a.Size())
	ys := make([]uint64, 0, b.Size())
	if err := interp.ArrayElems(a, func(v uint64) { xs = append(xs, v) }); err != nil {
		return nil, nil, err
	}
	if err := interp.ArrayElems(b, func(v uint64) { ys = append(ys, v) }); err != nil {
		return nil, nil, err
	}
	return xs, ys, nil
}

func allclose(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "rtol", "atol"); err != nil {
		return nil, err
	}
	rtol, atol := 1e-5, 1e-8
	for name, p := range map[string]*float64{"rtol": &rtol, "atol": &atol} {
		if v := args.Kwarg(name); v != nil {
			f, err := interp.ToFloat(v)
			if err != nil {
				return nil, fmt.Errorf("allclose: %s: %v", name, err)
			}
			*p = f
		}
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	b, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	xs, ys, err := pairs(a, b)
	if err != nil {
		return nil, fmt.Errorf("allclose: %v", err)
	}
	for i := range xs {
		x, y := asFloat(a.DType(), xs[i]), asFloat(b.DType(), ys[i])
		if x == y {
			continue
		}
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) || math.Abs(x-y) > atol+rtol*math.Abs(y) {
			return interp.Bool(false), nil
		}
	}
	return interp.Bool(true), nil
}

func equal(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	b, err := arrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(a.Shape(), b.Shape()) {
		return interp.Bool(false), nil
	}
	xs, ys, err := pairs(a, b)
	if err != nil {
		return nil, err
	}
	for i := range xs {
		eq, err := interp.Equal(interp.ConvertScalarBits(a.DType(), xs[i]), interp.ConvertScalarBits(b.DType(), ys[i]))
		if err != nil {
			return nil, fmt.Errorf("equal: %v", err)
		}
		if !eq {
			return interp.Bool(false), nil
		}
	}
	return interp.Bool(true), nil
}
