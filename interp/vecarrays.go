package interp

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Arrays of vector, matrix and quaternion elements (TYPES.md section 1).
// Underneath, an array of vec3 is an array of f32 with one more axis of 3
// (dtype's decision); the interpreter keeps the element type beside it
// and shows the element view: shape, ndim, size, len, indexing, slicing
// and printing count elements, not lanes.

// typedArray wraps a, whose trailing axes hold t's lanes when t is a
// compound type.
func typedArray(a *mem.Array, t dtype.Type) *Array {
	if t.IsScalar() {
		return &Array{A: a}
	}
	return &Array{A: a, Elem: t}
}

// Compound reports whether a is an array of a compound type.
func (a *Array) Compound() bool { return a.Elem.Valid() && !a.Elem.IsScalar() }

// ElemType is the type of a's elements: Elem for an array of a compound
// type, else the scalar dtype.
func (a *Array) ElemType() dtype.Type {
	if a.Compound() {
		return a.Elem
	}
	return dtype.Of(a.A.DType())
}

// laneAxes is the number of trailing axes that hold a's lanes.
func (a *Array) laneAxes() int { return len(a.Elem.Dims()) }

// Shape is a's shape in elements (without the lane axes).
func (a *Array) Shape() []int { return a.A.Shape()[:a.NDim()] }

// NDim is a's number of axes, without the lane axes.
func (a *Array) NDim() int { return a.A.NDim() - a.laneAxes() }

// Size is a's number of elements.
func (a *Array) Size() int { return elems(a.Shape()) }

// elems is the number of elements of an array of the shape.
func elems(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// wrap is v, a view of a's memory that keeps its lane axes, typed as a.
func (a *Array) wrap(v *mem.Array) *Array { return &Array{A: v, Elem: a.Elem} }

// Plain is a's memory for an operation on arrays of scalars (what names
// the operation): an array of a compound type is refused, so that nothing
// treats a vec3[n] as an f32 [n, 3] unasked.
func (a *Array) Plain(what string) (*mem.Array, error) {
	if a.Compound() {
		return nil, fmt.Errorf("%s of an array of %s is not supported; use a.view(%s)", what, a.Elem, a.Elem.Elem)
	}
	if a.A.Freed() {
		return nil, mem.ErrFreed
	}
	return a.A, nil
}

// TypeString is a's type as kernel signatures spell it: array[f32, 2],
// array[vec3].
func (a *Array) TypeString() string {
	return paramString(dtype.Param{Type: a.ElemType(), NDim: a.NDim()})
}

// MemShape is the shape of the memory of an array of t elements of the
// given shape: t's Dims appended. Arrays have at most mem.MaxDims axes in
// all, and one of a compound type at least one of its own.
func MemShape(t dtype.Type, shape []int) ([]int, error) {
	out := append(slices.Clip(shape), t.Dims()...)
	switch {
	case len(out) > mem.MaxDims:
		return nil, fmt.Errorf("an array of %s has at most %d axes, got %d", t, mem.MaxDims-len(t.Dims()), len(shape))
	case len(shape) == 0 && !t.IsScalar():
		return nil, fmt.Errorf("an array of %s needs at least one axis", t)
	}
	return out, nil
}

// laneOffsets are the element offsets of t's lanes in a (an array of t),
// from the element's first lane, in lane order.
func laneOffsets(a *mem.Array, t dtype.Type) []int {
	dims := t.Dims()
	strides := a.Strides()[a.NDim()-len(dims):]
	out := make([]int, t.Lanes())
	for k := range out {
		rest := k
		for d := len(dims) - 1; d >= 0; d-- {
			out[k] += rest % dims[d] * strides[d]
			rest /= dims[d]
		}
	}
	return out
}

// lanesContiguous reports whether the lane axes of a (an array of t) are
// C-contiguous, as kernels and .npy files take them: for a struct, its
// byte axis.
func lanesContiguous(a *mem.Array, t dtype.Type) bool {
	if t.Kind == dtype.StructKind {
		return t.Size() == 1 || a.Strides()[a.NDim()-1] == 1
	}
	for k, off := range laneOffsets(a, t) {
		if off != k {
			return false
		}
	}
	return true
}

// laneView is the view of x's lane k across all its elements: an array
// of the lane type with x's element shape.
func laneView(x *Array, k int) (*mem.Array, error) {
	dims := x.Elem.Dims()
	sels := make([]mem.Sel, x.A.NDim())
	for i, d := range x.Shape() {
		sels[i] = mem.Sel{Slice: true, Count: d, Step: 1}
	}
	for d := len(dims) - 1; d >= 0; d-- {
		sels[x.NDim()+d] = mem.Sel{Start: k % dims[d]}
		k /= dims[d]
	}
	return x.A.View(sels)
}

// vectorBits is v as the lanes of an element of type t: a vector of type
// t as it is, a scalar converted to t's lane type in every lane.
func vectorBits(v Value, t dtype.Type) ([]uint64, error) {
	if vec, ok := v.(*Vector); ok {
		if vec.T != t {
			return nil, fmt.Errorf("cannot use %s as %s", vec.T, t)
		}
		return vec.Lanes, nil
	}
	bits, err := ElemBits(v, t.Elem)
	if err != nil {
		return nil, fmt.Errorf("cannot use %s as %s", describe(v), t)
	}
	out := make([]uint64, t.Lanes())
	for k := range out {
		out[k] = bits
	}
	return out, nil
}

// fillCompound sets every element of x (an array of a compound type) to
// v: a vector of its type, or a scalar for every lane. One fill per lane,
// on x's device.
func (th *Thread) fillCompound(x *Array, v Value) error {
	if isStructArray(x) {
		return th.fillStruct(x, v)
	}
	bits, err := vectorBits(v, x.Elem)
	if err != nil {
		return err
	}
	for k, b := range bits {
		lane, err := laneView(x, k)
		if err != nil {
			return err
		}
		if err := th.FillArray(lane, Scalar{T: x.Elem.Elem, Bits: b}); err != nil {
			return err
		}
	}
	return nil
}

// FillElems sets every element of x to v: FillArray for an array of
// scalars; an array of a compound type takes a vector of its type or a
// scalar for every lane.
func (th *Thread) FillElems(x *Array, v Value) error {
	if x.Compound() {
		return th.fillCompound(x, v)
	}
	return th.FillArray(x.A, v)
}

// NewTyped makes an array of t elements of the given shape, placed as
// NewArray's arguments say; zero fills it with zeros, else it is left
// uninitialised (for a caller that writes every element).
func (th *Thread) NewTyped(t dtype.Type, shape []int, device, allocator Value, zero bool) (*Array, error) {
	ms, err := MemShape(t, shape)
	if err != nil {
		return nil, err
	}
	newArr := th.NewArrayUninit
	if zero {
		newArr = th.NewArray
	}
	a, err := newArr(t.Elem, ms, device, allocator)
	if err != nil {
		return nil, err
	}
	return typedArray(a, t), nil
}

// assignCompound is dst[...] = v for a view of an array of a compound
// type: an array of the same element type (broadcast over the elements)
// is copied, a vector or a scalar fills it.
func (th *Thread) assignCompound(dst *Array, v Value) error {
	switch v := v.(type) {
	case *Array:
		if v.ElemType() != dst.Elem {
			return fmt.Errorf("cannot assign an array of %s to a view of an array of %s", v.ElemType(), dst.Elem)
		}
		return th.assignArray(dst, v)
	case Deferred, *List:
		return fmt.Errorf("assign a %s or an array of %s to a view of an array of %s", dst.Elem, dst.Elem, dst.Elem)
	}
	return th.fillCompound(dst, v)
}

// loadVector reads the element of x (an array of a compound type) at
// offset off: its lanes in one copy from device memory.
func loadVector(x *Array, off int) (*Vector, error) {
	if isStructArray(x) {
		return loadStruct(x, off, x.A.LoadElems)
	}
	lanes, err := x.A.LoadElems(laneAt(x, off))
	if err != nil {
		return nil, err
	}
	return &Vector{T: x.Elem, Lanes: lanes}, nil
}

// laneAt are the offsets of the lanes of x's element at off.
func laneAt(x *Array, off int) []int {
	offs := laneOffsets(x.A, x.Elem)
	for k := range offs {
		offs[k] += off
	}
	return offs
}

// storeVector writes v (see vectorBits) into the element of x at off.
func storeVector(x *Array, off int, v Value) error {
	if isStructArray(x) {
		return storeStruct(x, off, v)
	}
	bits, err := vectorBits(v, x.Elem)
	if err != nil {
		return err
	}
	return x.A.StoreElems(laneAt(x, off), bits)
}

// elemOffset is the offset of x's element at the full index ints (one
// per element axis; the lane axes at 0).
func elemOffset(x *Array, ints []int) (int, error) {
	return x.A.Offset(append(ints, make([]int, x.laneAxes())...))
}

// PermuteElems is the view of x whose axis i is x's axis axes[i] (nil:
// the axes reversed, as a.T); an array of a compound type permutes its
// element axes and keeps its lane axes last.
func PermuteElems(x *Array, axes []int) (*Array, error) {
	n := x.NDim()
	if axes == nil {
		for i := n - 1; i >= 0; i-- {
			axes = append(axes, i)
		}
	}
	if x.Compound() {
		// Checked here: mem's message would count the lane axes.
		if !isPermutation(axes, n) {
			return nil, fmt.Errorf("%v is not a permutation of the axes of a %d-D array", axes, n)
		}
		for k := n; k < x.A.NDim(); k++ {
			axes = append(slices.Clip(axes), k)
		}
	}
	v, err := x.A.Permute(axes)
	if err != nil {
		return nil, err
	}
	return x.wrap(v), nil
}

// isPermutation reports whether axes holds each of 0..n-1 once.
func isPermutation(axes []int, n int) bool {
	seen := make([]bool, n)
	for _, ax := range axes {
		if ax < 0 || ax >= n || seen[ax] {
			return false
		}
		seen[ax] = true
	}
	return len(axes) == n
}

// ViewAs is a.view(t): the same memory seen with elements of type t. An
// array of a compound type views as its lane type (the lane axes become
// ordinary ones); an array of scalars whose last axes hold t's lanes,
// contiguous, views as an array of t, and as a scalar type of its size
// bit for bit (f32 as u32); a compound array views as any other type
// through its lanes. The result is a view (is_view), as NumPy's, even of
// x's own type.
func ViewAs(x *Array, t dtype.Type) (*Array, error) {
	if x.A.Freed() {
		return nil, mem.ErrFreed
	}
	a, err := asView(x.A)
	if err != nil {
		return nil, err
	}
	if t == x.ElemType() {
		return x.wrap(a), nil
	}
	if x.Compound() {
		return ViewAs(&Array{A: a}, t)
	}
	if t.IsScalar() {
		return wrapBitcast(a.Bitcast(t.Elem))
	}
	dims := t.Dims()
	nd := a.NDim() - len(dims)
	if a.DType() != t.Elem || nd < 1 || !slices.Equal(a.Shape()[nd:], dims) || !lanesContiguous(a, t) {
		return nil, fmt.Errorf("view(%s) needs %s %s (contiguous, after at least one other axis), got %s %s",
			t, t.LaneAxes(), t.Elem, a.DType(), ShapeString(a.Shape()))
	}
	return &Array{A: a, Elem: t}, nil
}

// asView is a seen as a view of its own memory, the same layout: mem
// marks the arrays its view makers return, and a broadcast to a's own
// shape is one that changes nothing.
func asView(a *mem.Array) (*mem.Array, error) {
	if a.IsView() {
		return a, nil
	}
	return a.BroadcastTo(a.Shape())
}

func wrapBitcast(v *mem.Array, err error) (*Array, error) {
	if err != nil {
		return nil, err
	}
	return &Array{A: v}, nil
}

// viewMethod is the view method of arrays.
func viewMethod(x *Array) *Builtin {
	return &Builtin{Name: "view", Fn: func(th *Thread, args *Args) (Value, error) {
		if err := args.Check(1, 1); err != nil {
			return nil, err
		}
		t, ok := TypeValue(args.Positional[0])
		if !ok {
			return nil, fmt.Errorf("view takes a dtype (f32, vec3, ...), not %s", describe(args.Positional[0]))
		}
		return value(ViewAs(x, t))
	}}
}

// value is a builtin's result from a function that makes an array: a nil
// Value, not a nil *Array, with an error.
func value(x *Array, err error) (Value, error) {
	if err != nil {
		return nil, err
	}
	return x, nil
}

// TypeValue is the element type a dtype value (f32, vec3, a struct ...)
// names.
func TypeValue(v Value) (dtype.Type, bool) {
	switch v := v.(type) {
	case DType:
		return dtype.Of(ir.Type(v)), true
	case VecType:
		return v.T, true
	case *StructType:
		return v.S.Type(), true
	}
	return dtype.Type{}, false
}
