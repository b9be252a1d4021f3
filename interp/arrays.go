package interp

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// elemValue turns raw element bits into a host value.
func elemValue(t ir.Type, bits uint64) Value {
	if t == ir.Bool {
		return Bool(bits != 0)
	}
	return Scalar{T: t, Bits: bits}
}

// ArrayElems calls fn with every element of a in C order.
func ArrayElems(a *mem.Array, fn func(bits uint64)) error {
	b, err := a.ReadHost()
	if err != nil {
		return err
	}
	forEachOffset(a, func(off int) { fn(mem.LoadBits(b, a.DType(), off)) })
	return nil
}

// forEachOffset visits the element offsets of a in C order, as indices
// into the bytes of ReadHost (from the lowest element: HostOrigin).
func forEachOffset(a *mem.Array, fn func(off int)) {
	shape, strides := a.Shape(), a.Strides()
	if a.Size() == 0 {
		return
	}
	origin := a.HostOrigin()
	if a.IsContiguous() {
		n := a.Size()
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	idx := make([]int, len(shape))
	for {
		off := origin
		for k, i := range idx {
			off += i * strides[k]
		}
		fn(off)
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return
		}
	}
}

func index(th *Thread, x Value, idx []Value) (Value, error) {
	switch x := x.(type) {
	case *List:
		i, err := listIndex(x, idx)
		if err != nil {
			return nil, err
		}
		return x.Elems[i], nil
	case *Array:
		return indexArray(x.A, idx)
	case *Vector:
		return x.get("", idx)
	}
	return nil, fmt.Errorf("cannot index %s", x.Type())
}

func listIndex(l *List, idx []Value) (int, error) {
	if len(idx) != 1 {
		return 0, fmt.Errorf("a list takes one index, got %d", len(idx))
	}
	i, err := toInt(idx[0])
	if err != nil {
		return 0, fmt.Errorf("list index: %v", err)
	}
	if i < 0 || i >= len(l.Elems) {
		return 0, fmt.Errorf("index %d out of range for list of length %d", i, len(l.Elems))
	}
	return i, nil
}

func arrayIndexInts(a *mem.Array, idx []Value) ([]int, error) {
	if a.Freed() {
		return nil, mem.ErrFreed
	}
	if len(idx) > a.NDim() {
		return nil, fmt.Errorf("too many indices for a %d-D array: %d", a.NDim(), len(idx))
	}
	ints := make([]int, len(idx))
	for k, v := range idx {
		i, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("array index: %v", err)
		}
		if i < 0 || i >= a.Shape()[k] {
			return nil, fmt.Errorf("index %d out of bounds for axis %d with size %d", i, k, a.Shape()[k])
		}
		ints[k] = i
	}
	return ints, nil
}

func indexArray(a *mem.Array, idx []Value) (Value, error) {
	ints, err := arrayIndexInts(a, idx)
	if err != nil {
		return nil, err
	}
	if len(ints) < a.NDim() {
		v := a
		for _, i := range ints {
			if v, err = v.Sub(i); err != nil {
				return nil, err
			}
		}
		return &Array{A: v}, nil
	}
	off, err := a.Offset(ints)
	if err != nil {
		return nil, err
	}
	bits, err := a.LoadElem(off)
	if err != nil {
		return nil, err
	}
	return elemValue(a.DType(), bits), nil
}

func setIndex(th *Thread, x Value, idx []Value, v Value) error {
	switch x := x.(type) {
	case *List:
		i, err := listIndex(x, idx)
		if err != nil {
			return err
		}
		x.Elems[i] = v
		return nil
	case *Array:
		a := x.A
		ints, err := arrayIndexInts(a, idx)
		if err != nil {
			return err
		}
		if len(ints) != a.NDim() {
			return fmt.Errorf("%d indices for a %d-D array: element stores need one index per dimension", len(ints), a.NDim())
		}
		bits, err := ElemBits(v, a.DType())
		if err != nil {
			return err
		}
		off, err := a.Offset(ints)
		if err != nil {
			return err
		}
		return a.StoreElem(off, bits)
	}
	return fmt.Errorf("cannot assign to an element of %s", x.Type())
}

func length(x Value) (int, error) {
	switch x := x.(type) {
	case *List:
		return len(x.Elems), nil
	case String:
		return len(x), nil
	case *Array:
		if x.A.Freed() {
			return 0, mem.ErrFreed
		}
		return x.A.Shape()[0], nil
	}
	return 0, fmt.Errorf("%s has no length", x.Type())
}

func iterate(th *Thread, x Value) ([]Value, error) {
	switch x := x.(type) {
	case *List:
		return append([]Value(nil), x.Elems...), nil
	case *Array:
		n, err := length(x)
		if err != nil {
			return nil, err
		}
		out := make([]Value, n)
		for i := range out {
			if out[i], err = indexArray(x.A, []Value{Int(i)}); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot iterate over %s", x.Type())
}

// Format is v's print form, with the errors String cannot report (an
// array that was freed, or whose device cannot be read now).
func Format(v Value) (string, error) { return (*Thread)(nil).Format(v) }

// printThreshold: arrays with more elements print summarised (NumPy's).
const printThreshold = 1000

// formatArray prints an array as nested lists, summarising large arrays to
// the first and last three entries of each axis.
func formatArray(a *mem.Array) (string, error) {
	load, err := printLoader(a)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	summarise := a.Size() > printThreshold
	var rec func(axis, off int) error
	rec = func(axis, off int) error {
		n, st := a.Shape()[axis], a.Strides()[axis]
		sb.WriteByte('[')
		for i := 0; i < n; i++ {
			if summarise && n > 6 && i == 3 {
				sb.WriteString(", ...")
				i = n - 3
			}
			if i > 0 {
				sb.WriteString(", ")
			}
			if axis < a.NDim()-1 {
				if err := rec(axis+1, off+i*st); err != nil {
					return err
				}
				continue
			}
			bits, err := load(off + i*st)
			if err != nil {
				return err
			}
			sb.WriteString(formatBits(a.DType(), bits))
		}
		sb.WriteByte(']')
		return nil
	}
	if err := rec(0, 0); err != nil {
		return "", err
	}
	return sb.String(), nil
}

// printLoader reads the elements print shows. A summarised array reads
// just those, one at a time: printing a large device array copies a few
// elements, not all of them, and a large managed array is not prefetched
// to the cpu for them (the automatic prefetch counts the bytes an access
// reads). A small one is read at once.
func printLoader(a *mem.Array) (func(off int) (uint64, error), error) {
	if a.Size() > printThreshold {
		return a.LoadElem, nil
	}
	b, err := a.ReadHost()
	if err != nil {
		return nil, err
	}
	origin := a.HostOrigin()
	return func(off int) (uint64, error) { return mem.LoadBits(b, a.DType(), origin+off), nil }, nil
}
