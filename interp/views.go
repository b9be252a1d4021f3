package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// comp is one evaluated component of an index expression that slices: an
// index, or a slice whose missing bounds are nil.
type comp struct {
	slice  bool
	i      int
	lo, hi *int
	step   int
}

// sliceValue applies slicing components to an array (a view), a list or
// a string (a copy, as in Python). Bounds count from the end when
// negative and are clamped to the ends (Python's and NumPy's).
func sliceValue(x Value, cs []comp) (Value, error) {
	if a, ok := x.(*Array); ok {
		v, err := viewOf(a, cs)
		if err != nil {
			return nil, err
		}
		return a.wrap(v), nil
	}
	n, err := length(x)
	if err != nil {
		return nil, fmt.Errorf("cannot slice %s", x.Type())
	}
	if len(cs) != 1 {
		return nil, fmt.Errorf("a %s takes one slice, got %d components", x.Type(), len(cs))
	}
	start, count, err := mem.SliceBounds(n, cs[0].lo, cs[0].hi, cs[0].step)
	if err != nil {
		return nil, err
	}
	at := func(i int) int { return start + i*cs[0].step }
	switch x := x.(type) {
	case *List:
		return x.slice(count, at), nil
	case String:
		out := make([]byte, count)
		for i := range out {
			out[i] = x[at(i)]
		}
		return String(out), nil
	}
	return nil, fmt.Errorf("cannot slice %s", x.Type())
}

// viewOf is the view of x that the components select, along its element
// axes (an array of vec3 keeps its lane axis whole). Negative indices and
// bounds count from the end of their axis (NumPy's).
func viewOf(x *Array, cs []comp) (*mem.Array, error) {
	a := x.A
	if a.Freed() {
		return nil, mem.ErrFreed
	}
	if len(cs) > x.NDim() {
		return nil, fmt.Errorf("too many indices for a %d-D array: %d", x.NDim(), len(cs))
	}
	sels := make([]mem.Sel, len(cs))
	for k, c := range cs {
		if !c.slice {
			i, err := mem.WrapIndex(c.i, k, a.Shape()[k])
			if err != nil {
				return nil, err
			}
			sels[k] = mem.Sel{Start: i}
			continue
		}
		start, count, err := mem.SliceBounds(a.Shape()[k], c.lo, c.hi, c.step)
		if err != nil {
			return nil, err
		}
		sels[k] = mem.Sel{Slice: true, Start: start, Count: count, Step: c.step}
	}
	return a.View(sels)
}

// AssignView writes v into dst as NumPy's dst[...] = v does, casting
// any dtype to dst's (NumPy's casting='unsafe' of assignment): a scalar
// fills it (FillArray); an array of dst's shape, or of one that
// broadcasts to it, is copied into it on dst's device (CopyArray); an
// array expression (Deferred) is computed into it (StoreArray). All three
// run the one store engine. The right-hand side is read as if copied
// first, so x[1:6] = x[0:5] shifts x as in NumPy. A shape mismatch names
// both shapes and writes nothing.
func (th *Thread) AssignView(dst *mem.Array, v Value) error {
	switch v := v.(type) {
	case Deferred:
		return th.StoreArray(dst, v, CastUnsafe)
	case *Array:
		if v.Compound() {
			return fmt.Errorf("cannot assign an array of %s to a view of an array of %s", v.Elem, dst.DType())
		}
		return th.assignArray(&Array{A: dst}, v)
	case *List:
		return fmt.Errorf("assign a scalar or an array to a view, not a list (array(list) makes one)")
	}
	return th.FillArray(dst, v)
}

// assignArray copies src, broadcast to dst's shape (StoreTarget: leading
// extents of 1 beyond dst's rank dropped), into dst; both have one
// element type.
func (th *Thread) assignArray(dst, src *Array) error {
	to := StoreTarget(dst.A, src.A.Shape())
	s, err := src.A.BroadcastTo(to.Shape())
	if err != nil {
		return fmt.Errorf("cannot assign an array of shape %s to a view of shape %s", ShapeString(src.Shape()), ShapeString(dst.Shape()))
	}
	return th.copyInto(to, s)
}

// copyInto copies src (of dst's shape) into dst with a kernel on dst's
// device, through a temporary when the two share bytes.
func (th *Thread) copyInto(dst, src *mem.Array) error {
	if dst.Freed() || src.Freed() {
		return mem.ErrFreed
	}
	if dst.Device() != src.Device() {
		return fmt.Errorf("cannot assign an array on %s to a view on %s: move it first with .to(%q)", src.Device(), dst.Device(), dst.Device().String())
	}
	if !dst.MayOverlap(src) {
		return th.CopyArray(dst, src)
	}
	if th.Capturing(dst.Device()) {
		// The temporary would have to outlive the graph.
		return fmt.Errorf("not yet supported: inside capture, assigning a view to one it overlaps (copy the right-hand side to its own array first)")
	}
	tmp, err := th.NewArrayUninit(src.DType(), src.Shape(), String(dst.Device().String()), nil)
	if err != nil {
		return err
	}
	defer tmp.Free()
	if err := th.CopyArray(tmp, src); err != nil {
		return err
	}
	return th.CopyArray(dst, tmp)
}
