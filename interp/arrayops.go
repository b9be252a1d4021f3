package interp

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// InitArray fills a fresh array from an initialiser on the host: a
// scalar (fill), a nested list of matching shape (fillFromList), or an
// array of the same shape (copied).
func InitArray(x *Array, init Value) error {
	a := x.A
	switch v := init.(type) {
	case *List:
		return fillFromList(x, v)
	case *Array:
		src, err := v.Plain("initialising an array from a copy")
		if err != nil {
			return err
		}
		return CopyArray(a, src)
	}
	return Fill(a, init)
}

// Fill sets every element of a to v.
func Fill(a *mem.Array, v Value) error {
	bits, err := ElemBits(v, a.DType())
	if err != nil {
		return err
	}
	return a.WriteHost(func(b []byte) error {
		forEachOffset(a, func(off int) { mem.StoreBits(b, a.DType(), off, bits) })
		return nil
	})
}

// ListShape returns the shape of a nested list, checking it is rectangular.
func ListShape(l *List) ([]int, error) {
	shape := []int{l.Len()}
	if l.kind != listValues { // numbers (or nothing): no rows
		return shape, nil
	}
	first, ok := l.vals[0].(*List)
	if !ok {
		for _, e := range l.vals {
			if _, isList := e.(*List); isList {
				return nil, fmt.Errorf("list is not rectangular")
			}
		}
		return shape, nil
	}
	inner, err := ListShape(first)
	if err != nil {
		return nil, err
	}
	for _, e := range l.vals[1:] {
		sub, ok := e.(*List)
		if !ok {
			return nil, fmt.Errorf("list is not rectangular")
		}
		s, err := ListShape(sub)
		if err != nil {
			return nil, err
		}
		if !slices.Equal(s, inner) {
			return nil, fmt.Errorf("list is not rectangular: rows of shapes %v and %v", inner, s)
		}
	}
	return append(shape, inner...), nil
}

// ShapeString formats a shape as [2, 3].
func ShapeString(s []int) string {
	return intList(s).String()
}

// fillFromList writes l's elements into x (fresh, so contiguous). They
// are converted first, into one buffer in C order: a bad element leaves
// the array untouched, and the bytes reach a device array in one streamed
// copy (mem.Array.WriteStream), with no read back of what they replace.
// An array of a compound type takes a list of its element shape whose
// leaves are vectors (or scalars, for every lane), or one that spells
// the lanes out as the innermost lists.
func fillFromList(x *Array, l *List) error {
	a := x.A
	shape, err := ListShape(l)
	if err != nil {
		return err
	}
	leaf := func(v Value) ([]uint64, error) {
		bits, err := ElemBits(v, a.DType())
		return []uint64{bits}, err
	}
	switch {
	case slices.Equal(shape, a.Shape()):
	case isStructArray(x) && slices.Equal(shape, x.Shape()):
		leaf = func(v Value) ([]uint64, error) {
			b, err := structValue(v, x.Elem)
			out := make([]uint64, len(b))
			for j, c := range b {
				out[j] = uint64(c)
			}
			return out, err
		}
	case x.Compound() && slices.Equal(shape, x.Shape()):
		leaf = func(v Value) ([]uint64, error) { return vectorBits(v, x.Elem) }
	default:
		return fmt.Errorf("initialiser of shape %s does not match array shape %s", ShapeString(shape), ShapeString(x.Shape()))
	}
	b := make([]byte, a.NBytes())
	i, n := 0, 0
	var pack func(v Value) error
	pack = func(v Value) error {
		sub, ok := v.(*List)
		if !ok {
			bits, err := leaf(v)
			if err != nil {
				return fmt.Errorf("element %d: %v", n, err)
			}
			for _, x := range bits {
				mem.StoreBits(b, a.DType(), i, x)
				i++
			}
			n++
			return nil
		}
		for j := range sub.Len() {
			if err := pack(sub.At(j)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := pack(l); err != nil {
		return err
	}
	return a.WriteStream(func(chunk []byte) error {
		b = b[copy(chunk, b):]
		return nil
	})
}

// CopyArray copies src into dst element by element (same shape), converting
// between dtypes with ir.Convert, as a kernel conversion does.
func CopyArray(dst, src *mem.Array) error {
	if !slices.Equal(dst.Shape(), src.Shape()) {
		return fmt.Errorf("shapes %s and %s differ", ShapeString(dst.Shape()), ShapeString(src.Shape()))
	}
	sb, err := src.ReadHost()
	if err != nil {
		return err
	}
	return dst.WriteHost(func(db []byte) error {
		if dst.DType() == src.DType() && dst.IsContiguous() && src.IsContiguous() {
			copy(db[:dst.NBytes()], sb[:src.NBytes()])
			return nil
		}
		var srcOffs []int
		forEachOffset(src, func(off int) { srcOffs = append(srcOffs, off) })
		i := 0
		forEachOffset(dst, func(off int) {
			bits := mem.LoadBits(sb, src.DType(), srcOffs[i])
			mem.StoreBits(db, dst.DType(), off, ir.Convert(bits, src.DType(), dst.DType()))
			i++
		})
		return nil
	})
}

// ArrayTo copies an array to a device: `a.to(dev)`; the copy has x's
// element type.
func ArrayTo(th *Thread, x *Array, devArg Value) (Value, error) {
	dev, err := th.DeviceArg(devArg)
	if err != nil {
		return nil, err
	}
	if x.A.Freed() {
		return nil, mem.ErrFreed
	}
	out, err := th.NewArray(x.A.DType(), x.A.Shape(), String(dev.String()), nil)
	if err != nil {
		return nil, err
	}
	if err := th.CopyArray(out, x.A); err != nil {
		out.Free()
		return nil, err
	}
	return x.wrap(out), nil
}

// ShapeArg reads a shape: an int, a list of ints, or several ints.
func ShapeArg(vs []Value) ([]int, error) {
	shape, err := shapeInts(vs)
	if err != nil {
		return nil, err
	}
	for _, n := range shape {
		if n < 0 {
			return nil, fmt.Errorf("shape: negative dimension %d", n)
		}
	}
	return shape, nil
}

// shapeInts reads the ints of a shape (ShapeArg), negative ones included.
func shapeInts(vs []Value) ([]int, error) {
	if len(vs) == 1 {
		if l, ok := vs[0].(*List); ok {
			vs = l.Values()
		}
	}
	if len(vs) < 1 || len(vs) > mem.MaxDims {
		return nil, fmt.Errorf("a shape has 1 to %d dimensions, got %d", mem.MaxDims, len(vs))
	}
	shape := make([]int, len(vs))
	for i, v := range vs {
		n, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("shape: %v", err)
		}
		shape[i] = n
	}
	return shape, nil
}

// reshapeArg reads the shape of a reshape of size elements: one extent
// may be -1, inferred from size and the others (NumPy's reshape(-1)).
func reshapeArg(vs []Value, size int) ([]int, error) {
	shape, err := shapeInts(vs)
	if err != nil {
		return nil, err
	}
	infer, known := -1, 1
	for i, n := range shape {
		switch {
		case n == -1 && infer >= 0:
			return nil, fmt.Errorf("cannot reshape into shape %s: only one extent can be -1 (inferred)", ShapeString(shape))
		case n == -1:
			infer = i
		case n < 0:
			return nil, fmt.Errorf("cannot reshape into shape %s: negative extent %d (-1 infers one extent)", ShapeString(shape), n)
		default:
			known *= n
		}
	}
	if infer < 0 {
		return shape, nil
	}
	if known == 0 {
		return nil, fmt.Errorf("cannot reshape an array of size %d into shape %s: the other extents multiply to 0, so -1 has no one value", size, ShapeString(shape))
	}
	if size%known != 0 {
		return nil, fmt.Errorf("cannot reshape an array of size %d into shape %s: %d is not a multiple of %d", size, ShapeString(shape), size, known)
	}
	shape[infer] = size / known
	return shape, nil
}

// Reshape is `a.reshape(shape)`: a view when a is contiguous, else a
// copy; one extent may be -1 (inferred). An array of a compound type
// reshapes its element axes.
func Reshape(th *Thread, x *Array, shapeArgs []Value) (Value, error) {
	if x.A.Freed() {
		return nil, mem.ErrFreed
	}
	shape, err := reshapeArg(shapeArgs, x.Size())
	if err != nil {
		return nil, err
	}
	if x.Compound() && elems(shape) != x.Size() { // mem's check would count lanes
		return nil, fmt.Errorf("cannot reshape an array of %d %s elements into shape %s", x.Size(), x.Elem, ShapeString(shape))
	}
	if shape, err = MemShape(x.ElemType(), shape); err != nil {
		return nil, err
	}
	if !x.A.IsContiguous() {
		return reshapeCopy(th, x, shape)
	}
	v, err := x.A.Reshape(shape)
	if err != nil {
		return nil, err
	}
	return x.wrap(v), nil
}

// reshapeCopy is x (not contiguous) copied into a new array of shape, mem
// axes: the result is no view (is_view false, free takes it), as NumPy's
// reshape that has to copy; the copy runs through a contiguous view of
// the new array in x's shape.
func reshapeCopy(th *Thread, x *Array, shape []int) (Value, error) {
	c, err := th.NewArrayUninit(x.A.DType(), shape, String(x.A.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	in, err := c.Reshape(x.A.Shape())
	if err == nil {
		err = th.CopyArray(in, x.A)
	}
	if err != nil {
		c.Free()
		return nil, err
	}
	return x.wrap(c), nil
}
