package stdlib

import (
	"errors"
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
)

// hostFuncs are the builtins on host collections (HOST.md sections 2-3).
func hostFuncs() map[string]fn {
	return map[string]fn{
		"sorted": sorted, "reversed": reversed, "enumerate": enumerate, "zip": zip,
		"dict": dict, "list": list, "error": raise,
	}
}

// sorted(x, key=, reverse=) is a new sorted list of any iterable's values.
func sorted(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1, "key", "reverse"); err != nil {
		return nil, err
	}
	var l *interp.List
	if x, ok := args.Positional[0].(*interp.List); ok {
		l = x.Copy() // in its storage: an int list sorts unboxed
	} else {
		xs, err := th.Collect(args.Positional[0])
		if err != nil {
			return nil, fmt.Errorf("sorted: %v", err)
		}
		l = interp.NewList(xs...)
	}
	if err := th.SortList(l, args.Kwarg("key"), args.Kwarg("reverse")); err != nil {
		return nil, fmt.Errorf("sorted: %v", err)
	}
	return th.HoldList(l)
}

// reversed(x) is a new list of any iterable's values, last first.
func reversed(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	if l, ok := args.Positional[0].(*interp.List); ok {
		c := l.Copy() // in its storage: an int list stays unboxed
		c.Reverse()
		return th.HoldList(c)
	}
	xs, err := th.Collect(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("reversed: %v", err)
	}
	slices.Reverse(xs)
	return th.HoldList(interp.NewList(xs...))
}

// enumerate(x[, start]) is the list of [i, v] pairs, i counting from start.
func enumerate(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "start"); err != nil {
		return nil, err
	}
	start := 0
	if v := args.Get(1, "start"); v != nil {
		var err error
		if start, err = interp.ToInt(v); err != nil {
			return nil, fmt.Errorf("enumerate: start: %v", err)
		}
	}
	if l, ok := args.Positional[0].(*interp.List); ok {
		if ns, ok := l.Ints(); ok {
			return th.HoldList(intPairs(start, ns))
		}
	}
	xs, err := th.Collect(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("enumerate: %v", err)
	}
	for i, x := range xs {
		xs[i] = interp.NewList(interp.Int(start+i), x)
	}
	return th.HoldList(interp.NewList(xs...))
}

// intPairs is enumerate of the ints ns: int pairs, built unboxed.
func intPairs(start int, ns []int64) *interp.List {
	pairs := make([]interp.Value, len(ns))
	for i, n := range ns {
		pairs[i] = interp.NewIntList([]int64{int64(start + i), n})
	}
	return interp.NewList(pairs...)
}

// zip(a, b, ...) is the list of [a[i], b[i], ...], as long as the shortest.
func zip(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1<<30); err != nil {
		return nil, err
	}
	cols := make([][]interp.Value, len(args.Positional))
	n := -1
	for i, x := range args.Positional {
		var err error
		if cols[i], err = th.Collect(x); err != nil {
			return nil, fmt.Errorf("zip: argument %d: %v", i+1, err)
		}
		if n < 0 || len(cols[i]) < n {
			n = len(cols[i])
		}
	}
	rows := make([]interp.Value, n)
	for r := range rows {
		row := make([]interp.Value, len(cols))
		for c := range cols {
			row[c] = cols[c][r]
		}
		rows[r] = interp.NewList(row...)
	}
	return th.HoldList(interp.NewList(rows...))
}

// dict() is an empty dict; dict(x) a copy of a dict, or the dict of a list
// of [key, value] pairs.
func dict(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	if len(args.Positional) == 0 {
		return interp.NewDict(), nil
	}
	if d, ok := args.Positional[0].(*interp.Dict); ok {
		return d.Copy(th)
	}
	pairs, err := th.Collect(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("dict: %v", err)
	}
	d := interp.NewDict()
	for i, p := range pairs {
		kv, ok := p.(*interp.List)
		if !ok || kv.Len() != 2 {
			return nil, fmt.Errorf("dict: element %d is %s, not a [key, value] pair", i, describePair(p))
		}
		if err := d.Set(th, kv.At(0), kv.At(1)); err != nil {
			return nil, fmt.Errorf("dict: %v", err)
		}
	}
	return d, nil
}

func describePair(v interp.Value) string {
	if l, ok := v.(*interp.List); ok {
		return fmt.Sprintf("a list of %d elements", l.Len())
	}
	return v.Type()
}

// list() is an empty list; list(x) a new list of any iterable's values.
func list(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	if len(args.Positional) == 0 {
		return interp.NewList(), nil
	}
	if l, ok := args.Positional[0].(*interp.List); ok {
		return th.HoldList(l.Copy())
	}
	xs, err := th.Collect(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("list: %v", err)
	}
	return th.HoldList(interp.NewList(xs...))
}

// raise is error(msg): it fails with msg, which the engine positions at
// the call and a try/catch around it catches.
func raise(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	msg, ok := args.Positional[0].(interp.String)
	if !ok {
		s, err := th.Str(args.Positional[0])
		if err != nil {
			return nil, err
		}
		msg = s.(interp.String)
	}
	return nil, errors.New(string(msg))
}
