package interp

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Methods of lists, strings and dicts (HOST.md section 2). The engine
// calls x.name(args) through CallMethod without building a bound method;
// getAttr builds one for `let f = l.append`.

// methodFn is a method's Go function; recv has the method's type.
type methodFn func(th *Thread, recv Value, args *Args) (Value, error)

type method struct {
	name, sig, summary string
	fn                 methodFn
	full               string // "list.append", for messages (named sets it)
}

// named sets the full names of a type's methods once, so that a call
// does not build one.
func named(typ string, table []*method) []*method {
	for _, m := range table {
		m.full = typ + "." + m.name
	}
	return table
}

// MethodDoc describes one method, for help and the REPL's completion.
type MethodDoc struct {
	Type    string // the receiver's type name: "list", "string", "dict"
	Name    string
	Sig     string // "pop([i])"
	Summary string
}

// methodTable is the method table of x's type, with the type's name;
// nil for a type without methods.
func methodTable(x Value) (string, []*method) {
	switch x.(type) {
	case *List:
		return "list", listMethods
	case String:
		return "string", stringMethods
	case *Dict:
		return "dict", dictMethods
	}
	return "", nil
}

func findMethod(table []*method, name string) *method {
	for _, m := range table {
		if m.name == name {
			return m
		}
	}
	return nil
}

// Methods lists every method of lists, strings and dicts.
func Methods() []MethodDoc {
	var out []MethodDoc
	for _, x := range []Value{&List{}, String(""), NewDict()} {
		typ, table := methodTable(x)
		for _, m := range table {
			out = append(out, MethodDoc{Type: typ, Name: m.name, Sig: m.sig, Summary: m.summary})
		}
	}
	return out
}

// AttrNames lists what may follow `x.` for the value x (the REPL's
// completion): methods, array attributes, record fields, config settings.
func AttrNames(x Value) []string {
	switch x := x.(type) {
	case *Array:
		return ArrayAttrNames()
	case *Record:
		return slices.Clone(x.Names)
	case *Config:
		return ConfigNames()
	case *ErrorValue:
		return slices.Clone(errorAttrs)
	}
	_, table := methodTable(x)
	var out []string
	for _, m := range table {
		out = append(out, m.name)
	}
	return out
}

// CallMethod is x.name(args): a method of x's type, called directly, or
// for other values (arrays, modules, records) the attribute called.
func (th *Thread) CallMethod(recv Value, name string, args *Args) (Value, error) {
	typ, table := methodTable(recv)
	if table == nil {
		f, err := getAttr(th, recv, name)
		if err != nil {
			return nil, err
		}
		return th.Call(f, args)
	}
	m := findMethod(table, name)
	if m == nil {
		return nil, errNoMethod(typ, table, name)
	}
	args.Fn = m.full
	return m.fn(th, recv, args)
}

// boundMethod is x.name as a value: a builtin that calls the method on x.
func boundMethod(x Value, name string) (Value, error) {
	typ, table := methodTable(x)
	m := findMethod(table, name)
	if m == nil {
		return nil, errNoMethod(typ, table, name)
	}
	return &Builtin{Name: m.full, Fn: func(th *Thread, args *Args) (Value, error) {
		return m.fn(th, x, args)
	}}, nil
}

// errNoMethod names the closest method when there is one within two
// edits (a typo), else lists them all.
func errNoMethod(typ string, table []*method, name string) error {
	best, bestD := "", 3
	names := make([]string, len(table))
	for i, m := range table {
		names[i] = m.name
		if d := editDistance(name, m.name); d < bestD {
			best, bestD = m.name, d
		}
	}
	if best != "" {
		return fmt.Errorf("%s has no method %s (did you mean %s?)", typ, name, best)
	}
	return fmt.Errorf("%s has no method %s (methods: %s)", typ, name, strings.Join(names, ", "))
}

// editDistance is the Levenshtein distance of two short names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// listMethods are the methods of lists. The tables are filled in init:
// sort calls fns (th.Call), which run code that calls methods, a cycle a
// variable's initialiser may not have.
var listMethods []*method

func init() {
	listMethods = named("list", []*method{
		{"append", "append(x)", "adds x at the end (amortised O(1))", listAppendMethod, ""},
		{"extend", "extend(xs)", "adds the elements of any iterable at the end", listExtend, ""},
		{"insert", "insert(i, x)", "puts x before index i (clamped to the ends, from the end when negative)", listInsert, ""},
		{"pop", "pop([i])", "removes and returns the element at i (default the last)", listPop, ""},
		{"remove", "remove(x)", "removes the first element equal to x", listRemove, ""},
		{"index", "index(x)", "the index of the first element equal to x", listIndexOf, ""},
		{"count", "count(x)", "how many elements equal x", listCount, ""},
		{"reverse", "reverse()", "reverses the list in place", listReverse, ""},
		{"sort", "sort(key=, reverse=)", "sorts the list in place, stably (key: a fn giving each element's sort key)", listSort, ""},
		{"copy", "copy()", "a shallow copy", listCopy, ""},
		{"clear", "clear()", "removes every element", listClear, ""},
	})
}

func listAppendMethod(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	return Nil, th.Append(recv.(*List), args.Positional[0])
}

func listExtend(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	return Nil, th.extend(recv.(*List), args.Positional[0])
}

// extend appends the elements of the iterable x to l (l.extend(l) doubles l).
func (th *Thread) extend(l *List, x Value) error {
	if o, ok := x.(*List); ok {
		return th.extendList(l, o)
	}
	elems, err := th.collect(x)
	if err != nil {
		return err
	}
	return th.Append(l, elems...)
}

func listInsert(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	l := recv.(*List)
	i, err := toInt(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	n := l.Len()
	if i < 0 {
		i = max(i+n, 0)
	}
	return Nil, th.insertAt(l, min(i, n), args.Positional[1])
}

func listPop(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	l := recv.(*List)
	if l.Len() == 0 {
		return nil, fmt.Errorf("pop from an empty list")
	}
	i := l.Len() - 1
	if len(args.Positional) == 1 {
		var err error
		if i, err = seqIndex("list", args.Positional[0], l.Len()); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	v := l.At(i)
	l.deleteAt(i)
	return v, nil
}

func listRemove(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	l := recv.(*List)
	i := l.find(args.Positional[0])
	if i < 0 {
		return nil, fmt.Errorf("%s: %s not in list", args.Fn, quoted(args.Positional[0]))
	}
	l.deleteAt(i)
	return Nil, nil
}

func listIndexOf(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	i := recv.(*List).find(args.Positional[0])
	if i < 0 {
		return nil, fmt.Errorf("%s: %s not in list", args.Fn, quoted(args.Positional[0]))
	}
	return Int(i), nil
}

func listCount(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	return Int(recv.(*List).count(args.Positional[0])), nil
}

func listReverse(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	recv.(*List).Reverse()
	return Nil, nil
}

func listSort(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0, "key", "reverse"); err != nil {
		return nil, err
	}
	if err := th.SortList(recv.(*List), args.Kwarg("key"), args.Kwarg("reverse")); err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return Nil, nil
}

// SortList sorts l in place as SortValues does (l.sort and sorted). An
// int list sorted by its values is sorted unboxed (equal ints are
// indistinguishable, so stability holds).
func (th *Thread) SortList(l *List, key, reverse Value) error {
	desc, err := reverseArg(reverse)
	if err != nil {
		return err
	}
	if xs, ok := l.Ints(); ok && (key == nil || key == Nil) {
		slices.Sort(xs)
		if desc {
			slices.Reverse(xs)
		}
		return nil
	}
	n := l.Len()
	sorted, err := th.SortValues(l.Values(), key, reverse)
	if err != nil {
		return err
	}
	if l.Len() != n { // the key fn changed it
		return fmt.Errorf("list changed size during sort")
	}
	l.overwrite(sorted)
	return nil
}

func reverseArg(reverse Value) (bool, error) {
	if reverse == nil {
		return false, nil
	}
	b, ok := reverse.(Bool)
	if !ok {
		return false, fmt.Errorf("reverse must be a bool, not %s", describe(reverse))
	}
	return bool(b), nil
}

// SortValues returns xs sorted stably by < (or by key(x) when key is not
// nil; descending when reverse is true), for sort and sorted. The first
// comparison error (a string beside an int) stops it.
func (th *Thread) SortValues(xs []Value, key, reverse Value) ([]Value, error) {
	desc, err := reverseArg(reverse)
	if err != nil {
		return nil, err
	}
	n := len(xs)
	keys := slices.Clone(xs)
	if key != nil && key != Nil {
		for i, x := range xs {
			k, err := th.Call(key, &Args{Positional: []Value{x}})
			if err != nil {
				return nil, err
			}
			keys[i] = k
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	var cmpErr error
	sort.SliceStable(order, func(i, j int) bool {
		a, b := keys[order[i]], keys[order[j]]
		if desc {
			a, b = b, a
		}
		less, err := Less(a, b)
		if err != nil && cmpErr == nil {
			cmpErr = err
		}
		return less
	})
	if cmpErr != nil {
		return nil, cmpErr
	}
	out := make([]Value, n)
	for i, k := range order {
		out[i] = xs[k]
	}
	return out, nil
}

func listCopy(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	return th.HoldList(recv.(*List).Copy())
}

func listClear(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	recv.(*List).truncate()
	return Nil, nil
}

// dictMethods are the methods of dicts.
var dictMethods []*method

func init() {
	dictMethods = named("dict", []*method{
		{"get", "get(k[, default])", "the value under k, else default (nil)", dictGet, ""},
		{"pop", "pop(k[, default])", "removes k and returns its value, else default (without one a missing k is an error)", dictPop, ""},
		{"keys", "keys()", "the keys, in insertion order", dictList((*Dict).Keys), ""},
		{"values", "values()", "the values, in insertion order", dictList((*Dict).Values), ""},
		{"items", "items()", "the entries as [key, value] lists, in insertion order", dictList((*Dict).Items), ""},
		{"update", "update(d)", "sets every entry of the dict d", dictUpdate, ""},
		{"copy", "copy()", "a shallow copy", dictCopy, ""},
		{"clear", "clear()", "removes every entry", dictClear, ""},
	})
}

func dictGet(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 2); err != nil {
		return nil, err
	}
	v, ok, err := recv.(*Dict).Get(args.Positional[0])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if !ok && len(args.Positional) == 2 {
		return args.Positional[1], nil
	}
	if !ok {
		return Nil, nil
	}
	return v, nil
}

func dictPop(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 2); err != nil {
		return nil, err
	}
	v, ok, err := recv.(*Dict).Delete(args.Positional[0])
	switch {
	case err != nil:
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	case ok:
		return v, nil
	case len(args.Positional) == 2:
		return args.Positional[1], nil
	}
	return nil, fmt.Errorf("%s: key %s not in dict", args.Fn, quoted(args.Positional[0]))
}

func dictList(list func(*Dict) []Value) methodFn {
	return func(th *Thread, recv Value, args *Args) (Value, error) {
		if err := args.Check(0, 0); err != nil {
			return nil, err
		}
		return th.HoldList(listOf(list(recv.(*Dict))))
	}
}

func dictUpdate(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	o, ok := args.Positional[0].(*Dict)
	if !ok {
		return nil, fmt.Errorf("%s: want a dict, got %s", args.Fn, describe(args.Positional[0]))
	}
	d := recv.(*Dict)
	for _, e := range slices.Clone(o.entries) { // d.update(d) adds nothing
		if e.key == nil {
			continue
		}
		if err := d.Set(th, e.key, e.val); err != nil {
			return nil, err
		}
	}
	return Nil, nil
}

func dictCopy(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	return recv.(*Dict).Copy(th)
}

func dictClear(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	recv.(*Dict).Clear()
	return Nil, nil
}
