package interp

import (
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// listKind is a list's storage strategy (PyPy's list strategies; the
// Decisions in doc.go say why): a list whose elements are all ints keeps
// them unboxed in nums, one of floats only also in nums (their bits, as a
// cell holds them), any other in vals. An empty list takes the kind of
// its first element; storing an element of another kind into an int or
// float list converts it to vals, once. A list never leaves listValues.
type listKind uint8

const (
	listEmpty  listKind = iota // nothing stored yet
	listInts                   // every element an int, in nums
	listFloats                 // every element a float, its bits in nums
	listValues                 // any values, in vals
)

// numElemBytes is what one unboxed int or float element costs under
// Options.MemoryLimit (a generic one costs listElemBytes).
const numElemBytes = 8

func (k listKind) elemBytes() int {
	if k == listValues {
		return listElemBytes
	}
	return numElemBytes
}

// join is the kind of storage that holds elements of kinds k and o.
func (k listKind) join(o listKind) listKind {
	switch {
	case k == listEmpty:
		return o
	case o == listEmpty || o == k:
		return k
	}
	return listValues
}

// valueKind is the storage v needs.
func valueKind(v Value) listKind {
	switch v.(type) {
	case Int:
		return listInts
	case Float:
		return listFloats
	}
	return listValues
}

// cellKind is the storage c needs.
func cellKind(c cell) listKind {
	switch c.v.(type) {
	case intMark, Int:
		return listInts
	case floatMark, Float:
		return listFloats
	}
	return listValues
}

func valuesKind(vs []Value) listKind {
	k := listEmpty
	for _, v := range vs {
		if k = k.join(valueKind(v)); k == listValues {
			break
		}
	}
	return k
}

// NewList is a list of vs, in the storage their kinds allow. The list
// does not keep vs (so a call's variadic slice can stay on its stack).
func NewList(vs ...Value) *List {
	l := &List{kind: valuesKind(vs)}
	switch l.kind {
	case listInts, listFloats:
		l.nums = make([]uint64, len(vs))
		for i, v := range vs {
			l.nums[i] = valCell(v).bits()
		}
	case listValues:
		l.vals = slices.Clone(vs)
	}
	return l
}

// listOf is NewList for a slice that is the caller's to give: a generic
// list keeps vs as its storage.
func listOf(vs []Value) *List {
	if valuesKind(vs) == listValues {
		return &List{vals: vs, kind: listValues}
	}
	return NewList(vs...)
}

// NewIntList is a list of the ints xs (copied).
func NewIntList(xs []int64) *List {
	if len(xs) == 0 {
		return &List{}
	}
	return &List{nums: slices.Clone(numsAs[uint64](xs)), kind: listInts}
}

// NewFloatList is a list of the floats xs (copied).
func NewFloatList(xs []float64) *List {
	if len(xs) == 0 {
		return &List{}
	}
	return &List{nums: slices.Clone(numsAs[uint64](xs)), kind: listFloats}
}

// numsAs is s's 8-byte numbers as U's: nums holds an int list's ints and a
// float list's floats as their bits, the same memory.
func numsAs[U, T int64 | uint64 | float64](s []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// Len is the number of elements. Only the storage of l's kind is ever
// non-empty, so the sum is that one's length.
func (l *List) Len() int { return len(l.nums) + len(l.vals) }

func (l *List) cap() int { return cap(l.nums) + cap(l.vals) }

// bytes is what l's storage costs under the memory limit.
func (l *List) bytes() int {
	return cap(l.nums)*numElemBytes + cap(l.vals)*listElemBytes
}

// At is element i, 0 <= i < Len() (else it panics, as a slice does); an
// unboxed int or float is boxed.
func (l *List) At(i int) Value {
	switch l.kind {
	case listInts:
		return Int(l.nums[i])
	case listFloats:
		return Float(math.Float64frombits(l.nums[i]))
	}
	return l.vals[i]
}

// cellAt is element i as the engine holds it: unboxed when it is stored
// unboxed.
func (l *List) cellAt(i int) cell {
	switch l.kind {
	case listInts:
		return cell{intTag, l.nums[i]}
	case listFloats:
		return cell{floatTag, l.nums[i]}
	}
	return cell{v: l.vals[i]}
}

// bits is an int or float cell's number as nums holds it.
func (c cell) bits() uint64 {
	switch x := c.v.(type) {
	case Int:
		return uint64(x)
	case Float:
		return math.Float64bits(float64(x))
	}
	return c.n
}

// slot is the element an index cell names, counted from the end when
// negative; ok is false for anything but an int in range (whose error
// seqIndex gives).
func (l *List) slot(c cell) (int, bool) {
	i, ok := c.asInt()
	n := int64(l.Len())
	if i < 0 {
		i += n
	}
	return int(i), ok && i >= 0 && i < n
}

// listOfCells is a list of the engine's values cs (a list literal).
func listOfCells(cs []cell) *List {
	k := listEmpty
	for _, c := range cs {
		k = k.join(cellKind(c))
	}
	l := &List{kind: k}
	switch k {
	case listInts, listFloats:
		l.nums = make([]uint64, len(cs))
		for i, c := range cs {
			l.nums[i] = c.bits()
		}
	case listValues:
		l.vals = make([]Value, len(cs))
		for i, c := range cs {
			l.vals[i] = c.box()
		}
	}
	return l
}

// slice is the list of count elements at(0), at(1) ... (l[lo:hi:step]).
func (l *List) slice(count int, at func(int) int) *List {
	out := &List{kind: l.kind}
	switch l.kind {
	case listInts, listFloats:
		out.nums = pick(l.nums, count, at)
	case listValues:
		out.vals = pick(l.vals, count, at)
	}
	return out
}

func pick[T any](s []T, count int, at func(int) int) []T {
	out := make([]T, count)
	for i := range out {
		out[i] = s[at(i)]
	}
	return out
}

// view is the elements to read in place, when nothing runs script code
// meanwhile: a generic list's storage, else a boxed copy.
func (l *List) view() []Value {
	if l.kind == listValues {
		return l.vals
	}
	return l.Values()
}

// Values is a copy of the elements (the list's own storage is private:
// an int list has no []Value to give).
func (l *List) Values() []Value {
	return l.appendTo(make([]Value, 0, l.Len()))
}

// Ints is the storage of a list of ints only, read in place (the caller
// must neither change it nor keep it past a change to l); ok is false
// for any other list, an empty one included.
func (l *List) Ints() (xs []int64, ok bool) {
	if l.kind != listInts {
		return nil, false
	}
	return numsAs[int64](l.nums), true
}

// Floats is Ints for a list of floats only.
func (l *List) Floats() (xs []float64, ok bool) {
	if l.kind != listFloats {
		return nil, false
	}
	return numsAs[float64](l.nums), true
}

// Copy is a shallow copy, in the same storage.
func (l *List) Copy() *List {
	return &List{nums: slices.Clone(l.nums), vals: slices.Clone(l.vals), kind: l.kind}
}

// Append adds vs at the end of l, growing it by doubling so a loop of
// appends is amortised O(1); a new backing array is checked against the
// caps and counted under the memory limit. th may be nil (caps alone).
func (th *Thread) Append(l *List, vs ...Value) error {
	if err := th.reserve(l, valuesKind(vs), l.Len()+len(vs)); err != nil {
		return err
	}
	switch l.kind {
	case listInts, listFloats:
		for _, v := range vs {
			l.nums = append(l.nums, valCell(v).bits())
		}
	case listValues:
		l.vals = append(l.vals, vs...)
	}
	l.version++
	return nil
}

// appendCell is l.append(c) for the engine: an int into an int list (a
// float into a float list) with room left is stored unboxed, allocating
// nothing.
func (l *List) appendCell(th *Thread, c cell) error {
	if cellKind(c) == l.kind && len(l.nums) < cap(l.nums) {
		l.nums = append(l.nums, c.bits())
		l.version++
		return nil
	}
	return th.appendGrow(l, c)
}

// appendGrow is appendCell when l must grow or change its storage.
func (th *Thread) appendGrow(l *List, c cell) error {
	if err := th.reserve(l, cellKind(c), l.Len()+1); err != nil {
		return err
	}
	if l.kind == listValues {
		l.vals = append(l.vals, c.box())
	} else {
		l.nums = append(l.nums, c.bits())
	}
	l.version++
	return nil
}

// setCell is l[i] = c, 0 <= i < Len(): an element of another kind
// converts an int or float list to generic storage.
func (th *Thread) setCell(l *List, i int, c cell) error {
	if l.kind != listValues && cellKind(c) == l.kind {
		l.nums[i] = c.bits()
		return nil
	}
	if err := th.reserve(l, listValues, l.Len()); err != nil {
		return err
	}
	l.vals[i] = c.box()
	return nil
}

// SetElem is l[i] = v for builtins and embedders. Storing a value of
// another kind into an int or float list converts its storage, which is
// counted under th's memory limit (th may be nil: the caps alone).
func (th *Thread) SetElem(l *List, i int, v Value) error {
	if i < 0 || i >= l.Len() {
		return fmt.Errorf("index %d out of range for list of length %d", i, l.Len())
	}
	return th.setCell(l, i, valCell(v))
}

// reserve readies l to hold n elements, some of kind k: its storage
// becomes the one that holds both its elements and k's (an int list given
// a string converts to generic storage, once), with room for n. New
// storage has twice the old capacity, at least n (so a loop of appends
// is amortised O(1)); it is checked against the caps and counted under
// the memory limit, and a conversion counts the new storage. th may be
// nil (the caps alone).
func (th *Thread) reserve(l *List, k listKind, n int) error {
	k = l.kind.join(k)
	if k == l.kind && n <= l.cap() || k == listEmpty {
		return nil
	}
	want := l.cap()
	if n > want {
		if n > MaxListLen {
			return fmt.Errorf("list of %d elements is longer than the limit of %d elements", n, MaxListLen)
		}
		want = min(max(n, 2*want, 8), MaxListLen)
	}
	if err := th.checkList(want, k.elemBytes()); err != nil {
		return err
	}
	if k == listValues {
		vals := l.appendTo(make([]Value, 0, want)) // boxed when it converts
		if err := holdStorage(th, vals, listElemBytes); err != nil {
			return err
		}
		l.nums, l.vals = nil, vals
	} else {
		nums := append(make([]uint64, 0, want), l.nums...)
		if err := holdStorage(th, nums, numElemBytes); err != nil {
			return err
		}
		l.nums = nums
	}
	l.kind = k
	return nil
}

// holdStorage counts s's backing array under the memory limit while it
// lives.
func holdStorage[T any](th *Thread, s []T, elemBytes int) error {
	if th == nil || cap(s) == 0 {
		return nil
	}
	return mem.HoldHost(th.Tracker, &s[:1][0], cap(s)*elemBytes)
}

// checkList refuses a list of n elements of elemBytes each before it is
// built.
func (th *Thread) checkList(n, elemBytes int) error {
	if n > MaxListLen {
		return fmt.Errorf("list of %d elements is longer than the limit of %d elements", n, MaxListLen)
	}
	bytes := int64(n) * int64(elemBytes)
	if b := th.hostBudget(bytes); bytes > b {
		return fmt.Errorf("list of %d elements does not fit in the memory limit (%d bytes left)", n, max(b, 0))
	}
	return nil
}

// insertAt is l.insert(i, v), 0 <= i <= Len().
func (th *Thread) insertAt(l *List, i int, v Value) error {
	if err := th.Append(l, v); err != nil {
		return err
	}
	if l.kind == listValues {
		moveLast(l.vals, i)
	} else {
		moveLast(l.nums, i)
	}
	return nil
}

// moveLast moves s's last element to index i, shifting the ones after.
func moveLast[T any](s []T, i int) {
	last := s[len(s)-1]
	copy(s[i+1:], s[i:len(s)-1])
	s[i] = last
}

// deleteAt removes element i (slices.Delete clears the freed slot, so
// that the value it held can be collected).
func (l *List) deleteAt(i int) {
	if l.kind == listValues {
		l.vals = slices.Delete(l.vals, i, i+1)
	} else {
		l.nums = slices.Delete(l.nums, i, i+1)
	}
	l.version++
}

// truncate removes every element, keeping the storage.
func (l *List) truncate() {
	clear(l.vals)
	l.nums, l.vals = l.nums[:0], l.vals[:0]
	l.version++
}

// Reverse reverses l in place.
func (l *List) Reverse() {
	slices.Reverse(l.nums)
	slices.Reverse(l.vals)
}

// overwrite stores vs, a permutation of l's elements (sort's result),
// over them.
func (l *List) overwrite(vs []Value) {
	for i, v := range vs {
		if l.kind == listValues {
			l.vals[i] = v
		} else {
			l.nums[i] = valCell(v).bits()
		}
	}
}

// find is the index of the first element equal to x, or -1.
func (l *List) find(x Value) int {
	for i := range l.Len() {
		if l.equalAt(i, x) {
			return i
		}
	}
	return -1
}

// count is how many elements equal x.
func (l *List) count(x Value) int {
	n := 0
	for i := range l.Len() {
		if l.equalAt(i, x) {
			n++
		}
	}
	return n
}

// equalAt reports whether element i equals x; values of other types are
// unequal, not an error. An int against an int list (a float against a
// float list) is compared unboxed.
func (l *List) equalAt(i int, x Value) bool {
	switch x := x.(type) {
	case Int:
		if l.kind == listInts {
			return l.nums[i] == uint64(x)
		}
	case Float:
		if l.kind == listFloats {
			return math.Float64frombits(l.nums[i]) == float64(x)
		}
	}
	eq, err := equal(l.At(i), x)
	return err == nil && eq
}

// listEqual is a == b: equal lengths and elements (two int lists, or
// two float lists, compared unboxed).
func listEqual(a, b *List, depth int) (bool, error) {
	if a.Len() != b.Len() {
		return false, nil
	}
	if depth >= maxFormatDepth {
		return false, fmt.Errorf("cannot compare lists nested more than %d deep", maxFormatDepth)
	}
	if a.kind == listInts && b.kind == listInts {
		return slices.Equal(a.nums, b.nums), nil
	}
	if x, ok := a.Floats(); ok {
		if y, ok := b.Floats(); ok {
			return slices.Equal(x, y), nil // ==, not the bits: nan, -0.0
		}
	}
	for i := range a.Len() {
		eq, err := equalDepth(a.At(i), b.At(i), depth+1)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}

// extendList appends o's elements to l (l.extend(l) doubles l).
func (th *Thread) extendList(l, o *List) error {
	n := o.Len()
	if err := th.reserve(l, o.kind, l.Len()+n); err != nil {
		return err
	}
	switch l.kind {
	case listInts, listFloats:
		l.nums = append(l.nums, o.nums[:n]...)
	case listValues:
		l.vals = o.appendTo(l.vals)
	}
	l.version++
	return nil
}

// concatLists is a + b, in the storage that holds both.
func (th *Thread) concatLists(a, b *List) (Value, error) {
	n := a.Len() + b.Len()
	l := &List{kind: a.kind.join(b.kind)}
	if err := th.checkList(n, l.kind.elemBytes()); err != nil {
		return nil, err
	}
	switch l.kind {
	case listInts, listFloats:
		l.nums = append(append(make([]uint64, 0, n), a.nums...), b.nums...)
	case listValues:
		l.vals = b.appendTo(a.appendTo(make([]Value, 0, n)))
	}
	return th.HoldList(l)
}

// appendTo appends l's elements, boxed, to dst.
func (l *List) appendTo(dst []Value) []Value {
	if l.kind == listValues {
		return append(dst, l.vals...)
	}
	for i := range l.Len() {
		dst = append(dst, l.At(i))
	}
	return dst
}

// repeatList is l * count, count >= 0, in l's storage.
func (th *Thread) repeatList(l *List, count int) (Value, error) {
	n := l.Len()
	if n > 0 && count > MaxListLen/n {
		return nil, fmt.Errorf("list of %d elements repeated %d times is longer than the limit of %d elements", n, count, MaxListLen)
	}
	if err := th.checkList(n*count, l.kind.elemBytes()); err != nil {
		return nil, err
	}
	out := &List{kind: l.kind}
	switch l.kind {
	case listInts, listFloats:
		out.nums = repeated(l.nums, count)
	case listValues:
		out.vals = repeated(l.vals, count)
	}
	return th.HoldList(out)
}

func repeated[T any](s []T, count int) []T {
	out := make([]T, 0, len(s)*count)
	for range count {
		out = append(out, s...)
	}
	return out
}
