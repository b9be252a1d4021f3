package interp

import (
	"fmt"

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
		return x.At(i), nil
	case *Array:
		if ix, ok, err := indexArrayOf(idx); ok {
			if err != nil {
				return nil, err
			}
			// IndexOps gives a gather as an expression leaf: an operand of
			// an operator fuses it (as take(a, idx)); both compilers
			// materialise it where it is a value (bound, stored, passed).
			return indexOps.Index(th, x, ix)
		}
		return indexArray(x, idx)
	case *Vector:
		return x.get("", idx)
	case *Dict:
		if len(idx) != 1 {
			return nil, fmt.Errorf("a dict takes one key, got %d", len(idx))
		}
		return x.lookup(idx[0])
	case String:
		return stringIndex(x, idx)
	}
	return nil, fmt.Errorf("cannot index %s", x.Type())
}

func listIndex(l *List, idx []Value) (int, error) {
	if len(idx) != 1 {
		return 0, fmt.Errorf("a list takes one index, got %d", len(idx))
	}
	return seqIndex("list", idx[0], l.Len())
}

// seqIndex is index v into a list or string of n elements, counted from
// the end when negative (Python's l[-1]).
func seqIndex(what string, v Value, n int) (int, error) {
	i, err := toInt(v)
	if err != nil {
		return 0, fmt.Errorf("%s index: %v", what, err)
	}
	if i < -n || i >= n {
		return 0, fmt.Errorf("index %d out of range for %s of length %d", i, what, n)
	}
	if i < 0 {
		i += n
	}
	return i, nil
}

// arrayIndexInts checks idx as indices into x's element axes; a negative
// index counts from the end of its axis (NumPy's a[-1]).
func arrayIndexInts(x *Array, idx []Value) ([]int, error) {
	a := x.A
	if a.Freed() {
		return nil, mem.ErrFreed
	}
	if len(idx) > x.NDim() {
		return nil, fmt.Errorf("too many indices for a %d-D array: %d", x.NDim(), len(idx))
	}
	ints := make([]int, len(idx))
	for k, v := range idx {
		i, err := toInt(v)
		if err != nil {
			return nil, fmt.Errorf("array index: %v", err)
		}
		if ints[k], err = mem.WrapIndex(i, k, a.Shape()[k]); err != nil {
			return nil, err
		}
	}
	return ints, nil
}

// indexArray is x[idx]: an element (a vector for an array of vectors)
// when idx has one index per element axis, else a view.
func indexArray(x *Array, idx []Value) (Value, error) {
	a := x.A
	ints, err := arrayIndexInts(x, idx)
	if err != nil {
		return nil, err
	}
	if len(ints) < x.NDim() {
		v := a
		for _, i := range ints {
			if v, err = v.Sub(i); err != nil {
				return nil, err
			}
		}
		return x.wrap(v), nil
	}
	off, err := elemOffset(x, ints)
	if err != nil {
		return nil, err
	}
	if x.Compound() {
		return loadVector(x, off)
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
		return th.setCell(x, i, valCell(v))
	case *Array:
		if err := th.TapeWrites("an indexed store", x.A); err != nil {
			return err
		}
		x.A.Touch()
		if ix, ok, err := indexArrayOf(idx); ok {
			if err != nil {
				return err
			}
			return indexOps.SetIndex(th, x, ix, v)
		}
		return storeElem(x, idx, v)
	case *Dict:
		if len(idx) != 1 {
			return fmt.Errorf("a dict takes one key, got %d", len(idx))
		}
		return x.Set(th, idx[0], v)
	case String:
		return fmt.Errorf("cannot assign to a character of a string: strings are immutable (build a new one)")
	}
	return fmt.Errorf("cannot assign to an element of %s", x.Type())
}

// storeElem is x[idx] = v for a full index: a vector element takes a
// vector of its type, or a scalar in every lane (vectorBits).
func storeElem(x *Array, idx []Value, v Value) error {
	ints, err := arrayIndexInts(x, idx)
	if err != nil {
		return err
	}
	if len(ints) != x.NDim() {
		return fmt.Errorf("%d indices for a %d-D array: element stores need one index per dimension", len(ints), x.NDim())
	}
	off, err := elemOffset(x, ints)
	if err != nil {
		return err
	}
	if x.Compound() {
		return storeVector(x, off, v)
	}
	bits, err := ElemBits(v, x.A.DType())
	if err != nil {
		return err
	}
	return x.A.StoreElem(off, bits)
}

func length(x Value) (int, error) {
	switch x := x.(type) {
	case *List:
		return x.Len(), nil
	case String:
		return len(x), nil
	case *Dict:
		return x.Len(), nil
	case *Array:
		if x.A.Freed() {
			return 0, mem.ErrFreed
		}
		return x.A.Shape()[0], nil
	}
	return 0, fmt.Errorf("%s has no length", x.Type())
}

// Format is v's print form, with the errors String cannot report (an
// array that was freed, or whose device cannot be read now).
func Format(v Value) (string, error) { return (*Thread)(nil).Format(v) }

// printThreshold: arrays with more elements print summarised (NumPy's).
const printThreshold = 1000

// formatArray prints an array as nested lists, summarising large arrays to
// the first and last three entries of each axis; an element of a
// compound type prints as its value does (vec3(1.0, 2.0, 3.0)). A form
// longer than printWidth prints a row per line, aligned (printarray.go).
func formatArray(x *Array) (string, error) {
	a := x.A
	load, err := printLoader(a, x.Size())
	if err != nil {
		return "", err
	}
	elem := func(off int) (string, error) {
		bits, err := load(off)
		return formatBits(a.DType(), bits), err
	}
	if isStructArray(x) {
		loads := func(offs []int) ([]uint64, error) {
			bits := make([]uint64, len(offs))
			for i, o := range offs {
				var err error
				if bits[i], err = load(o); err != nil {
					return nil, err
				}
			}
			return bits, nil
		}
		elem = func(off int) (string, error) {
			v, err := loadStruct(x, off, loads)
			if err != nil {
				return "", err
			}
			return v.T.Format(v.Lanes), nil
		}
	} else if x.Compound() {
		offs := laneOffsets(a, x.Elem)
		elem = func(off int) (string, error) {
			lanes := make([]uint64, len(offs))
			for k, o := range offs {
				if lanes[k], err = load(off + o); err != nil {
					return "", err
				}
			}
			return x.Elem.Format(lanes), nil
		}
	}
	t, err := printTree(x, elem)
	if err != nil {
		return "", err
	}
	if line := t.oneLine(); len(line) <= printWidth {
		return line, nil
	}
	return t.layout(x.NDim(), !x.Compound() && !isStructArray(x)), nil
}

// printLoader reads the elements print shows. A summarised array reads
// just those, one at a time: printing a large device array copies a few
// elements, not all of them, and a large managed array is not prefetched
// to the cpu for them (the automatic prefetch counts the bytes an access
// reads). A small one (of at most printThreshold elements, which may
// have several lanes each) is read at once.
func printLoader(a *mem.Array, elems int) (func(off int) (uint64, error), error) {
	if elems > printThreshold {
		return a.LoadElem, nil
	}
	b, err := a.ReadHost()
	if err != nil {
		return nil, err
	}
	origin := a.HostOrigin()
	return func(off int) (uint64, error) { return mem.LoadBits(b, a.DType(), origin+off), nil }, nil
}
