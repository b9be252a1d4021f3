package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

var placement = []string{"dtype", "device", "allocator"}

// newArray makes an array for a constructor that writes every element
// itself, from its dtype=, device= and allocator= arguments: its memory is
// not zero-filled first where the allocator can skip that.
func newArray(th *interp.Thread, args *interp.Args, dt ir.Type, shape []int) (*mem.Array, error) {
	return th.NewArrayUninit(dt, shape, args.Kwarg("device"), args.Kwarg("allocator"))
}

// filled makes the array of a shape constructor: zeros is zero-filled by
// its allocator (zero set); empty is not initialised at all, as NumPy's
// and CuPy's (value nil); ones and full are filled with value on their
// device. The element type is dtype=, else full's vector value's type,
// else f32.
func filled(th *interp.Thread, args *interp.Args, value interp.Value, zero bool) (interp.Value, error) {
	shape, err := interp.ShapeArg([]interp.Value{args.Positional[0]})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	def := dtype.Of(ir.F32)
	if v, ok := value.(*interp.Vector); ok {
		def = v.T
	}
	t, err := elemTypeArg(args, def)
	if err != nil {
		return nil, err
	}
	x, err := th.NewTyped(t, shape, args.Kwarg("device"), args.Kwarg("allocator"), zero)
	if err != nil {
		return nil, err
	}
	if value != nil {
		if err := th.FillElems(x, value); err != nil {
			x.A.Free()
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	return x, nil
}

func zeros(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, placement...); err != nil {
		return nil, err
	}
	return filled(th, args, nil, true)
}

func empty(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, placement...); err != nil {
		return nil, err
	}
	return filled(th, args, nil, false)
}

func ones(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, placement...); err != nil {
		return nil, err
	}
	t, err := elemTypeArg(args, dtype.Of(ir.F32))
	if err != nil {
		return nil, err
	}
	if t.Kind == dtype.StructKind {
		return nil, fmt.Errorf("ones with dtype=%s is not supported: a struct has no one (use full(shape, %s(...)))", t, t)
	}
	one := interp.Value(interp.Int(1))
	if t.Elem == ir.Bool {
		one = interp.Bool(true)
	}
	return filled(th, args, one, false)
}

func full(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, placement...); err != nil {
		return nil, err
	}
	return filled(th, args, args.Positional[1], false)
}

func array(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, placement...); err != nil {
		return nil, err
	}
	switch src := args.Positional[0].(type) {
	case *interp.Array:
		if src.Compound() {
			return copyTyped(th, args, src)
		}
		if src.A.Freed() {
			return nil, mem.ErrFreed
		}
		dt, err := dtypeArg(args, src.A.DType())
		if err != nil {
			return nil, err
		}
		a, err := newArray(th, args, dt, src.A.Shape())
		if err != nil {
			return nil, err
		}
		if err := th.CopyArray(a, src.A); err != nil {
			a.Free()
			return nil, err
		}
		return &interp.Array{A: a}, nil
	case *interp.List:
		return fromList(th, args, src)
	}
	return nil, fmt.Errorf("array: want a list or an array, not %s", args.Positional[0].Type())
}

// fromList is array(list): the element type is dtype=, else the list's
// vectors' type, else inferred from its numbers. With a compound dtype=
// and numbers, the innermost lists are the lanes (array([[1, 2, 3]],
// dtype=vec3) is one vec3).
func fromList(th *interp.Thread, args *interp.Args, src *interp.List) (interp.Value, error) {
	shape, err := interp.ListShape(src)
	if err != nil {
		return nil, fmt.Errorf("array: %v", err)
	}
	if len(shape) > mem.MaxDims {
		return nil, fmt.Errorf("array: a list nested %d deep: arrays have at most %d dimensions", len(shape), mem.MaxDims)
	}
	vec, isVec := firstLeaf(src).(*interp.Vector)
	def := dtype.Of(inferDType(src))
	if isVec {
		def = vec.T
	}
	t, err := elemTypeArg(args, def)
	if err != nil {
		return nil, err
	}
	if !isVec && !t.IsScalar() {
		shape = shape[:max(len(shape)-len(t.Dims()), 0)]
	}
	x, err := th.NewTyped(t, shape, args.Kwarg("device"), args.Kwarg("allocator"), false)
	if err != nil {
		return nil, err
	}
	if err := interp.InitArray(x, src); err != nil {
		x.A.Free()
		return nil, fmt.Errorf("array: %v", err)
	}
	return x, nil
}

// firstLeaf is the first value of a nested list that is not a list (nil
// for an empty one).
func firstLeaf(v interp.Value) interp.Value {
	for {
		l, ok := v.(*interp.List)
		if !ok {
			return v
		}
		if l.Len() == 0 {
			return nil
		}
		v = l.At(0)
	}
}

// copyTyped is array(src) of an array of a compound type: a copy with
// its element type (dtype=, if given, must be that type).
func copyTyped(th *interp.Thread, args *interp.Args, src *interp.Array) (interp.Value, error) {
	t, err := elemTypeArg(args, src.Elem)
	if err != nil {
		return nil, err
	}
	if t != src.Elem {
		return nil, fmt.Errorf("array: a copy of an array of %s as %s is not supported (views convert: a.view(%s))", src.Elem, t, src.Elem.Elem)
	}
	x, err := th.NewTyped(t, src.Shape(), args.Kwarg("device"), args.Kwarg("allocator"), false)
	if err != nil {
		return nil, err
	}
	if err := th.CopyArray(x.A, src.A); err != nil {
		x.A.Free()
		return nil, err
	}
	return x, nil
}

// inferDType picks an array dtype for list elements: bools give bool, host
// ints i32 (i64 when a value needs it), host floats f32; typed scalars
// promote with the rest.
func inferDType(l *interp.List) ir.Type {
	dt := ir.Invalid
	allBool, anyFloat, big := true, false, false
	var walk func(v interp.Value)
	walk = func(v interp.Value) {
		switch v := v.(type) {
		case *interp.List:
			if xs, ok := v.Ints(); ok { // unboxed: read in place
				allBool = allBool && len(xs) == 0
				big = big || slices.ContainsFunc(xs, func(x int64) bool { return x != int64(int32(x)) })
				return
			}
			if xs, ok := v.Floats(); ok {
				allBool, anyFloat = allBool && len(xs) == 0, anyFloat || len(xs) > 0
				return
			}
			for i := range v.Len() {
				walk(v.At(i))
			}
		case interp.Bool:
		case interp.Int:
			allBool = false
			if v < -1<<31 || v > 1<<31-1 {
				big = true
			}
		case interp.Float:
			allBool, anyFloat = false, true
		case interp.Scalar:
			allBool = false
			if dt == ir.Invalid || v.T.Size() > dt.Size() || (v.T.IsFloat() && !dt.IsFloat()) {
				dt = v.T
			}
		default:
			allBool = false
		}
	}
	walk(l)
	switch {
	case l.Len() > 0 && allBool:
		return ir.Bool
	case dt != ir.Invalid:
		if anyFloat && !dt.IsFloat() {
			return ir.F64
		}
		return dt
	case anyFloat:
		return ir.F32
	case big:
		return ir.I64
	}
	return ir.I32
}

func copyArray(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	dst, err := anyArrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	src, err := anyArrayArg(args, 1)
	if err != nil {
		return nil, err
	}
	if (dst.Compound() || src.Compound()) && dst.ElemType() != src.ElemType() {
		return nil, fmt.Errorf("copy: an array of %s into an array of %s (copies convert between scalar dtypes only; .view(%s) sees lanes)",
			src.ElemType(), dst.ElemType(), dst.ElemType().Elem)
	}
	if err := th.CopyArray(dst.A, src.A); err != nil {
		return nil, fmt.Errorf("copy: %v", err)
	}
	dst.A.Touch() // a write: a tape's backward checks versions
	return interp.Nil, nil
}

func fill(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := anyArrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if err := th.FillElems(a, args.Positional[1]); err != nil {
		return nil, fmt.Errorf("fill: %v", err)
	}
	return interp.Nil, nil
}

func to(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	if _, err := anyArrayArg(args, 0); err != nil {
		return nil, err
	}
	return interp.ArrayTo(th, args.Positional[0].(*interp.Array), args.Positional[1])
}

func reshape(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 5); err != nil {
		return nil, err
	}
	if _, err := anyArrayArg(args, 0); err != nil {
		return nil, err
	}
	return interp.Reshape(th, args.Positional[0].(*interp.Array), args.Positional[1:])
}

// transpose is transpose(a[, axes]): a view with the axes reversed, or
// with axis i of the result being a's axis axes[i] (NumPy's; a negative
// axis counts from the last).
func transpose(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2); err != nil {
		return nil, err
	}
	a, err := anyArrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if len(args.Positional) == 1 {
		return wrapView(interp.PermuteElems(a, nil))
	}
	l, ok := args.Positional[1].(*interp.List)
	if !ok {
		return nil, fmt.Errorf("transpose: axes must be a list of ints, not %s", args.Positional[1].Type())
	}
	axes := make([]int, l.Len())
	for i := range axes {
		if axes[i], err = interp.ToInt(l.At(i)); err != nil {
			return nil, fmt.Errorf("transpose: axes: %v", err)
		}
	}
	if axes, err = wrapAxes(axes, a.NDim()); err != nil {
		return nil, fmt.Errorf("transpose: %v", err)
	}
	return wrapView(interp.PermuteElems(a, axes))
}

func wrapView(v *interp.Array, err error) (interp.Value, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
}
