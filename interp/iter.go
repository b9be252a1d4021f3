package interp

import (
	"errors"
	"fmt"
)

// Iterator steps through the values a host `for` visits. Next returns
// false at the end, and an error when the list or dict iterated changed
// size since the loop began (Python's dict rule, for lists too: the loop
// would otherwise skip or repeat elements silently).
type Iterator interface {
	Next() (Value, bool, error)
}

var (
	errListChanged = errors.New("list changed size during iteration")
	errDictChanged = errors.New("dict changed size during iteration")
)

// Iter starts an iteration over x: a list's elements, a dict's keys, a
// string's bytes (1-byte strings), an array's rows (its elements when
// 1-D, read when the loop starts, as before).
func (th *Thread) Iter(x Value) (Iterator, error) {
	switch x := x.(type) {
	case *List:
		return x.iter(), nil
	case *Dict:
		return &dictIter{d: x, version: x.version}, nil
	case String:
		return &stringIter{s: x}, nil
	case *Array:
		elems, err := arrayRows(x)
		if err != nil {
			return nil, err
		}
		return &sliceIter{elems: elems}, nil
	}
	return nil, fmt.Errorf("cannot iterate over %s", x.Type())
}

type listIter struct {
	l       *List
	i, n    int
	version uint64
}

func (l *List) iter() *listIter { return &listIter{l: l, n: l.Len(), version: l.version} }

func (it *listIter) Next() (Value, bool, error) {
	c, ok, err := it.nextCell()
	return c.box(), ok, err
}

// nextCell is Next for the engine: the element as a cell, unboxed when
// the list stores it unboxed.
func (it *listIter) nextCell() (cell, bool, error) {
	if it.l.version != it.version || it.l.Len() != it.n {
		return cell{}, false, errListChanged
	}
	if it.i >= it.n {
		return cell{}, false, nil
	}
	it.i++
	return it.l.cellAt(it.i - 1), true, nil
}

type dictIter struct {
	d       *Dict
	i       int
	version uint64
}

func (it *dictIter) Next() (Value, bool, error) {
	if it.d.version != it.version {
		return nil, false, errDictChanged
	}
	for ; it.i < len(it.d.entries); it.i++ {
		if k := it.d.entries[it.i].key; k != nil {
			it.i++
			return k, true, nil
		}
	}
	return nil, false, nil
}

type stringIter struct {
	s String
	i int
}

func (it *stringIter) Next() (Value, bool, error) {
	if it.i >= len(it.s) {
		return nil, false, nil
	}
	it.i++
	return byteStrings[it.s[it.i-1]], true, nil
}

type sliceIter struct {
	elems []Value
	i     int
}

func (it *sliceIter) Next() (Value, bool, error) {
	if it.i >= len(it.elems) {
		return nil, false, nil
	}
	it.i++
	return it.elems[it.i-1], true, nil
}

// arrayRows reads x's rows (elements when 1-D) in order.
func arrayRows(x *Array) ([]Value, error) {
	n, err := length(x)
	if err != nil {
		return nil, err
	}
	out := make([]Value, n)
	for i := range out {
		if out[i], err = indexArray(x, []Value{Int(i)}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// collect lists the values iterating x visits (list(x), extend, join),
// polling cancellation and sizing the list as it grows.
func (th *Thread) collect(x Value) ([]Value, error) {
	if l, ok := x.(*List); ok {
		return l.Values(), nil
	}
	it, err := th.Iter(x)
	if err != nil {
		return nil, err
	}
	out := &List{kind: listValues} // kept generic: its storage is the result
	for {
		v, ok, err := it.Next()
		if err != nil || !ok {
			return out.vals, err
		}
		if out.Len()%PollEvery == PollEvery-1 && th != nil && th.Canceled() {
			return nil, ErrInterrupted
		}
		if err := th.Append(out, v); err != nil {
			return nil, err
		}
	}
}

// Collect is collect for builtins (list(x), sorted(x) ...).
func (th *Thread) Collect(x Value) ([]Value, error) { return th.collect(x) }

// Unpack fills dst with the values of v for `let a, b = v`, `a, b = v`
// and `for a, b in xs`: v must give exactly len(dst) values (a list, or
// anything Iter takes). dst is the caller's, so unpacking allocates
// nothing; the values are all read before the caller assigns any.
func (th *Thread) Unpack(v Value, dst []Value) error {
	if l, ok := v.(*List); ok {
		if l.Len() != len(dst) {
			return errUnpack(l.Len(), len(dst), "")
		}
		for i := range dst {
			dst[i] = l.At(i)
		}
		return nil
	}
	it, err := th.Iter(v)
	if err != nil {
		return fmt.Errorf("cannot unpack %s into %d names", v.Type(), len(dst))
	}
	n := 0
	for {
		x, ok, err := it.Next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if n == len(dst) {
			return errUnpack(n+1, len(dst), "at least ")
		}
		dst[n] = x
		n++
	}
	if n != len(dst) {
		return errUnpack(n, len(dst), "")
	}
	return nil
}

// unpackCells is Unpack for the engine: a list's elements as cells,
// unboxed where the list stores them unboxed.
func (th *Thread) unpackCells(v Value, dst []cell) error {
	if l, ok := v.(*List); ok {
		if l.Len() != len(dst) {
			return errUnpack(l.Len(), len(dst), "")
		}
		for i := range dst {
			dst[i] = l.cellAt(i)
		}
		return nil
	}
	var buf [4]Value
	vals := valueBuf(buf[:], len(dst))
	if err := th.Unpack(v, vals); err != nil {
		return err
	}
	for i, x := range vals {
		dst[i] = valCell(x)
	}
	return nil
}

func errUnpack(got, want int, atLeast string) error {
	values := "values"
	if got == 1 && atLeast == "" {
		values = "value"
	}
	return fmt.Errorf("cannot unpack %s%d %s into %d names", atLeast, got, values, want)
}
