package interp

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/runtime/mem"
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

// Append adds vs at the end of l, growing it by doubling so a loop of
// appends is amortised O(1); a new backing array is checked against the
// caps and counted under the memory limit. th may be nil (caps alone).
func (th *Thread) Append(l *List, vs ...Value) error {
	n := len(l.Elems) + len(vs)
	if n > cap(l.Elems) {
		if err := th.growList(l, n); err != nil {
			return err
		}
	}
	l.Elems = append(l.Elems, vs...)
	l.version++
	return nil
}

// growList gives l room for n elements: twice its capacity, at least n.
func (th *Thread) growList(l *List, n int) error {
	if n > MaxListLen {
		return fmt.Errorf("list of %d elements is longer than the limit of %d elements", n, MaxListLen)
	}
	want := min(max(n, 2*cap(l.Elems), 8), MaxListLen)
	if err := th.CheckListLen(want); err != nil {
		return err
	}
	elems := make([]Value, len(l.Elems), want)
	copy(elems, l.Elems)
	if th != nil {
		if err := mem.HoldHost(th.Tracker, &elems[:1][0], want*listElemBytes); err != nil {
			return err
		}
	}
	l.Elems = elems
	return nil
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
		return th.Append(l, o.Elems...)
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
	n := len(l.Elems)
	if i < 0 {
		i = max(i+n, 0)
	}
	i = min(i, n)
	if err := th.Append(l, Nil); err != nil {
		return nil, err
	}
	copy(l.Elems[i+1:], l.Elems[i:n])
	l.Elems[i] = args.Positional[1]
	return Nil, nil
}

func listPop(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 1); err != nil {
		return nil, err
	}
	l := recv.(*List)
	if len(l.Elems) == 0 {
		return nil, fmt.Errorf("pop from an empty list")
	}
	i := len(l.Elems) - 1
	if len(args.Positional) == 1 {
		var err error
		if i, err = seqIndex("list", args.Positional[0], len(l.Elems)); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	v := l.Elems[i]
	l.deleteAt(i)
	return v, nil
}

// deleteAt removes element i, clearing the freed slot so that the value
// it held can be collected.
func (l *List) deleteAt(i int) {
	copy(l.Elems[i:], l.Elems[i+1:])
	l.Elems[len(l.Elems)-1] = nil
	l.Elems = l.Elems[:len(l.Elems)-1]
	l.version++
}

// find is the index of the first element equal to x, or -1; values of
// other types are unequal, not an error.
func (l *List) find(x Value) int {
	for i, e := range l.Elems {
		if eq, err := equal(e, x); err == nil && eq {
			return i
		}
	}
	return -1
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
	n := 0
	for _, e := range recv.(*List).Elems {
		if eq, err := equal(e, args.Positional[0]); err == nil && eq {
			n++
		}
	}
	return Int(n), nil
}

func listReverse(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	slices.Reverse(recv.(*List).Elems)
	return Nil, nil
}

func listSort(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0, "key", "reverse"); err != nil {
		return nil, err
	}
	l := recv.(*List)
	n := len(l.Elems)
	sorted, err := th.SortValues(l.Elems, args.Kwarg("key"), args.Kwarg("reverse"))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if len(l.Elems) != n { // the key fn changed it
		return nil, fmt.Errorf("%s: list changed size during sort", args.Fn)
	}
	copy(l.Elems, sorted)
	return Nil, nil
}

// SortValues returns xs sorted stably by < (or by key(x) when key is not
// nil; descending when reverse is true), for sort and sorted. The first
// comparison error (a string beside an int) stops it.
func (th *Thread) SortValues(xs []Value, key, reverse Value) ([]Value, error) {
	desc := false
	if reverse != nil {
		b, ok := reverse.(Bool)
		if !ok {
			return nil, fmt.Errorf("reverse must be a bool, not %s", describe(reverse))
		}
		desc = bool(b)
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
	return th.HoldList(&List{Elems: slices.Clone(recv.(*List).Elems)})
}

func listClear(th *Thread, recv Value, args *Args) (Value, error) {
	if err := args.Check(0, 0); err != nil {
		return nil, err
	}
	l := recv.(*List)
	clear(l.Elems)
	l.Elems = l.Elems[:0]
	l.version++
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
		return th.HoldList(&List{Elems: list(recv.(*Dict))})
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
