package interp

import (
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// Dict is an insertion-ordered hash map from hashable host values (nil,
// bools, numbers, strings) to values. Entries live in one slice in
// insertion order; an index maps a normalised key to its entry: ints and
// strings have tables of their own (intIndex and strIndex, probed as CPython's dict:
// consecutive int keys in consecutive slots, a string hashed once per
// operation), other keys share one map. A delete leaves a
// tombstone (a nil key) that a later compaction removes, so insert,
// lookup and delete are amortised O(1).
type Dict struct {
	ints    intIndex        // int keys (keyindex.go)
	strs    strIndex        // string keys
	other   map[dictKey]int // nil, bools, huge u64s, non-integral floats
	entries []dictEntry
	live    int
	version uint64 // bumped when the size changes (iterators check it)
}

type dictEntry struct {
	key, val Value // key nil: a deleted entry
}

// dictKey is a key normalised so that equal numbers are one key: every
// integral number (1, 1.0, i32(1)) is an int, other floats are floats.
type dictKey struct {
	kind keyKind
	i    int64  // ints (keyInt, keyBool), the bits of a float, a u64 above MaxInt64
	s    string // strings
}

type keyKind uint8

const (
	keyNil keyKind = iota
	keyBool
	keyInt
	keyUint // a u64 above math.MaxInt64
	keyFloat
	keyString
)

// dictEntryBytes is what one entry costs: its two interface values and
// its share of the index map (key, slot, hash overhead).
const dictEntryBytes = 2*listElemBytes + 64

// NewDict makes an empty dict.
func NewDict() *Dict {
	return &Dict{}
}

// slot is where k's entry index is: found reports whether k is there.
func (d *Dict) slot(k dictKey) (i int, found bool) {
	switch k.kind {
	case keyInt:
		i, found = d.ints.get(k.i)
	case keyString:
		i, found = d.strs.get(k.s)
	default:
		i, found = d.other[k]
	}
	return i, found
}

// setSlot records that k's entry is at i, making the map on first use.
func (d *Dict) setSlot(k dictKey, i int) {
	switch k.kind {
	case keyInt:
		d.ints.set(k.i, i)
	case keyString:
		d.strs.set(k.s, i)
	default:
		if d.other == nil {
			d.other = map[dictKey]int{}
		}
		d.other[k] = i
	}
}

func (d *Dict) deleteSlot(k dictKey) {
	switch k.kind {
	case keyInt:
		d.ints.delete(k.i)
	case keyString:
		d.strs.delete(k.s)
	default:
		delete(d.other, k)
	}
}

func (*Dict) Type() string { return "dict" }
func (d *Dict) String() string {
	s, _ := (*Thread)(nil).format(d, false) // cut short past MaxStringBytes
	return s
}

// Len is the number of entries.
func (d *Dict) Len() int { return d.live }

// hashKey normalises k, or says why it cannot be a key.
func hashKey(k Value) (dictKey, error) {
	switch k := k.(type) {
	case NilType:
		return dictKey{kind: keyNil}, nil
	case Bool:
		if k {
			return dictKey{kind: keyBool, i: 1}, nil
		}
		return dictKey{kind: keyBool}, nil
	case String:
		return dictKey{kind: keyString, s: string(k)}, nil
	}
	n, ok := toNum(k)
	if !ok {
		return dictKey{}, fmt.Errorf("unhashable type %s: a dict key must be nil, a bool, a number or a string", k.Type())
	}
	if !n.c.float() {
		if i, ok := n.asInt64(); ok {
			return dictKey{kind: keyInt, i: i}, nil
		}
		return dictKey{kind: keyUint, i: int64(n.u)}, nil
	}
	f := n.f
	switch {
	case f != f:
		return dictKey{}, fmt.Errorf("nan cannot be a dict key (it equals nothing, itself included)")
	case f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63:
		return dictKey{kind: keyInt, i: int64(f)}, nil
	case f == math.Trunc(f) && f >= 1<<63 && f < 1<<64:
		return dictKey{kind: keyUint, i: int64(uint64(f))}, nil
	}
	return dictKey{kind: keyFloat, i: int64(math.Float64bits(f))}, nil
}

// getInt is d[k] for an int k, without boxing it.
func (d *Dict) getInt(k int64) (Value, bool) {
	i, ok := d.ints.get(k)
	if !ok {
		return nil, false
	}
	return d.entries[i].val, true
}

// Get returns the value under k; false when there is none. The error is
// for a key that cannot be one (a list ...).
func (d *Dict) Get(k Value) (Value, bool, error) {
	i, _, ok, err := d.entryOf(k)
	if !ok {
		return nil, false, err
	}
	return d.entries[i].val, true, nil
}

// entryOf is the index of k's entry and k normalised; ok is false when k
// is not there, and the error for a key that cannot be one.
func (d *Dict) entryOf(k Value) (i int, hk dictKey, ok bool, err error) {
	if hk, err = hashKey(k); err != nil {
		return 0, hk, false, err
	}
	i, ok = d.slot(hk)
	return i, hk, ok, nil
}

// Set puts v under k, keeping k's place when it is there already. th
// (which may be nil) counts a growing dict toward its memory limit.
func (d *Dict) Set(th *Thread, k, v Value) error {
	i, hk, ok, err := d.entryOf(k)
	if err != nil {
		return err
	}
	if ok {
		d.entries[i].val = v
		return nil
	}
	if len(d.entries) == cap(d.entries) {
		if err := d.grow(th); err != nil {
			return err
		}
	}
	d.setSlot(hk, len(d.entries))
	d.entries = append(d.entries, dictEntry{k, v})
	d.live++
	d.version++
	return nil
}

// grow makes room for one more entry: it drops the tombstones when they
// are at least half the entries, else doubles the slice (checked against
// the caps and the memory limit, and counted under it while it lives).
func (d *Dict) grow(th *Thread) error {
	if n := len(d.entries); n >= 8 && d.live <= n/2 {
		d.compact()
		return nil
	}
	want := max(8, 2*cap(d.entries))
	if d.live >= MaxListLen {
		return fmt.Errorf("dict of %d entries is longer than the limit of %d entries", d.live+1, MaxListLen)
	}
	want = min(want, MaxListLen)
	if b := th.hostBudget(int64(want) * dictEntryBytes); int64(want)*dictEntryBytes > b {
		return fmt.Errorf("dict of %d entries does not fit in the memory limit (%d bytes left)", d.live+1, max(b, 0))
	}
	entries := make([]dictEntry, len(d.entries), want)
	copy(entries, d.entries)
	if th != nil {
		if err := mem.HoldHost(th.Tracker, &entries[:1][0], want*dictEntryBytes); err != nil {
			return err
		}
	}
	d.entries = entries
	return nil
}

// compact removes tombstones in place, keeping the order.
func (d *Dict) compact() {
	kept := d.entries[:0]
	for _, e := range d.entries {
		if e.key == nil {
			continue
		}
		hk, _ := hashKey(e.key)
		d.setSlot(hk, len(kept))
		kept = append(kept, e)
	}
	clear(d.entries[len(kept):])
	d.entries = kept
}

// Delete removes k; false when it was not there.
func (d *Dict) Delete(k Value) (Value, bool, error) {
	i, hk, ok, err := d.entryOf(k)
	if !ok {
		return nil, false, err
	}
	v := d.entries[i].val
	d.deleteSlot(hk)
	d.entries[i] = dictEntry{}
	d.live--
	d.version++
	if d.live == 0 {
		d.entries = d.entries[:0]
	}
	return v, true, nil
}

// Clear removes every entry.
func (d *Dict) Clear() {
	d.ints.clear()
	d.strs.clear()
	clear(d.other)
	clear(d.entries)
	d.entries = d.entries[:0]
	d.live = 0
	d.version++
}

// Keys lists the keys in insertion order.
func (d *Dict) Keys() []Value { return d.list(func(e dictEntry) Value { return e.key }) }

// Values lists the values in insertion order.
func (d *Dict) Values() []Value { return d.list(func(e dictEntry) Value { return e.val }) }

// Items lists the entries as [key, value] lists, in insertion order.
func (d *Dict) Items() []Value {
	return d.list(func(e dictEntry) Value { return NewList(e.key, e.val) })
}

// list is f of each live entry, in insertion order.
func (d *Dict) list(f func(dictEntry) Value) []Value {
	out := make([]Value, 0, d.live)
	for _, e := range d.entries {
		if e.key != nil {
			out = append(out, f(e))
		}
	}
	return out
}

// Copy is a shallow copy (counted as the original is).
func (d *Dict) Copy(th *Thread) (*Dict, error) {
	c := NewDict()
	for _, e := range d.entries {
		if e.key != nil {
			if err := c.Set(th, e.key, e.val); err != nil {
				return nil, err
			}
		}
	}
	return c, nil
}

// lookup is d[k]: a missing key is an error naming it.
func (d *Dict) lookup(k Value) (Value, error) {
	v, ok, err := d.Get(k)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("key %s not in dict", quoted(k))
	}
	return v, nil
}

// quoted is v as it prints inside a container (strings quoted), cut short.
func quoted(v Value) string {
	f := &formatter{limit: 80}
	f.value(v, true)
	if f.err != nil {
		return describe(v)
	}
	return f.b.String()
}

// dictEqual compares two dicts: the same keys with equal values.
func dictEqual(a, b *Dict, depth int) (bool, error) {
	if a.live != b.live {
		return false, nil
	}
	for _, e := range a.entries {
		if e.key == nil {
			continue
		}
		v, ok, _ := b.Get(e.key)
		if !ok {
			return false, nil
		}
		eq, err := equalDepth(e.val, v, depth+1)
		if err != nil || !eq {
			return false, err
		}
	}
	return true, nil
}
