package interp

import "hash/maphash"

// intIndex and strIndex map a dict's int or string keys to their
// entries' indices: an open addressing table probed as CPython's dict is (the first slot is
// the hash's low bits, then i = 5i + perturb + 1 with perturb the hash
// shifted down 5 bits a step). An int hashes to itself, as in CPython: Go's
// map hashes it to a random group, so the slots of 10^6 consecutive keys
// are 10^6 cache misses, where here consecutive keys take consecutive
// slots and the higher bits still break up a strided run. A string hashes
// with hash/maphash, once per operation (an insert into a Go map after a
// lookup hashes twice). The table is at most two thirds full, tombstones
// counted.
//
// intIndex is the int keys' index: a slot holds the key and its entry's
// index together, so that a probe reads one cache line.
type intIndex struct {
	slots []intSlot
	live  int
	used  int // live keys and tombstones
}

// intSlot is one slot of an intIndex: e is 0 when empty, -1 for a
// deleted key, else the entry's index + 1 (a dict holds at most twice
// MaxListLen entries, tombstones included: TestEntryIndexFits).
type intSlot struct {
	key int64
	e   int32
}

func intHash(k int64) uint64 { return uint64(k) }

var stringSeed = maphash.MakeSeed()

func stringHash(k string) uint64 { return maphash.String(stringSeed, k) }

const (
	intSlotEmpty   = 0
	intSlotDeleted = -1
)

// find is the slot of k (hashed to h), or -1 and the slot an insert of k
// takes.
func (x *intIndex) find(k int64, h uint64) (at, free int) {
	mask := uint64(len(x.slots) - 1)
	i, perturb := h&mask, h
	free = -1
	for {
		switch s := &x.slots[i]; {
		case s.e == intSlotEmpty:
			if free < 0 {
				free = int(i)
			}
			return -1, free
		case s.e == intSlotDeleted:
			if free < 0 {
				free = int(i)
			}
		case s.key == k:
			return int(i), -1
		}
		perturb >>= 5
		i = (i*5 + perturb + 1) & mask
	}
}

func (x *intIndex) get(k int64) (int, bool) {
	if x.live == 0 {
		return 0, false
	}
	at, _ := x.find(k, intHash(k))
	if at < 0 {
		return 0, false
	}
	return int(x.slots[at].e) - 1, true
}

// set makes k's entry index e.
func (x *intIndex) set(k int64, e int) {
	if 3*(x.used+1) > 2*len(x.slots) {
		x.resize()
	}
	h := intHash(k)
	at, free := x.find(k, h)
	if at >= 0 {
		x.slots[at].e = int32(e + 1)
		return
	}
	if x.slots[free].e == intSlotEmpty {
		x.used++
	}
	x.slots[free] = intSlot{key: k, e: int32(e + 1)}
	x.live++
}

func (x *intIndex) delete(k int64) {
	if x.live == 0 {
		return
	}
	if at, _ := x.find(k, intHash(k)); at >= 0 {
		x.slots[at] = intSlot{e: intSlotDeleted} // the key is not kept alive
		x.live--
	}
}

func (x *intIndex) clear() {
	clear(x.slots)
	x.live, x.used = 0, 0
}

// resize rehashes the live keys into a table with room for twice them
// (tombstones are dropped).
func (x *intIndex) resize() {
	n := 8
	for 3*(2*x.live+1) > 2*n {
		n *= 2
	}
	old := x.slots
	x.slots, x.live, x.used = make([]intSlot, n), 0, 0
	for _, s := range old {
		if s.e > 0 {
			h := intHash(s.key)
			_, free := x.find(s.key, h)
			x.slots[free] = intSlot{key: s.key, e: s.e}
			x.live++
			x.used++
		}
	}
}

// strIndex is the string keys' index. Its layout is CPython's compact
// dict: the table holds only entry indices (4 bytes a slot), and the keys
// and their hashes are kept by entry index, in insertion order. A lookup
// in a large dict is then one cache miss in a small table and reads
// beside the entry's, which a loop over the keys in order finds in
// sequence; a key is compared only when the full hash agrees
// (bench/host/dict_str.gs 1.2-1.6x faster than with key, hash and index
// in each slot, interleaved runs on the loaded 2-core machine). Int keys
// keep intIndex: consecutive keys take consecutive slots there, and this
// layout's indirection made dict_int.gs 1.2-1.3x slower.
type strIndex struct {
	slots  []int32  // 0 empty, -1 a deleted key, else the entry's index + 1 (a dict has fewer than 2*MaxListLen entries)
	keys   []string // by entry index
	hashes []uint64 // by entry index
	live   int
	used   int // live keys and tombstones
}

// find is the slot of k (hashed to h), or -1 and the slot an insert of k
// takes.
func (x *strIndex) find(k string, h uint64) (at, free int) {
	mask := uint64(len(x.slots) - 1)
	i, perturb := h&mask, h
	free = -1
	for {
		switch s := x.slots[i]; {
		case s == intSlotEmpty:
			if free < 0 {
				free = int(i)
			}
			return -1, free
		case s == intSlotDeleted:
			if free < 0 {
				free = int(i)
			}
		case x.hashes[s-1] == h && x.keys[s-1] == k:
			return int(i), -1
		}
		perturb >>= 5
		i = (i*5 + perturb + 1) & mask
	}
}

func (x *strIndex) get(k string) (int, bool) {
	if x.live == 0 {
		return 0, false
	}
	at, _ := x.find(k, stringHash(k))
	if at < 0 {
		return 0, false
	}
	return int(x.slots[at]) - 1, true
}

// set makes k's entry index e.
func (x *strIndex) set(k string, e int) {
	if 3*(x.used+1) > 2*len(x.slots) {
		x.resize()
	}
	h := stringHash(k)
	at, free := x.find(k, h)
	if at >= 0 {
		old := x.slots[at] - 1
		x.keys[old], x.hashes[old] = "", 0
		x.slots[at] = x.record(k, h, e)
		return
	}
	if x.slots[free] == intSlotEmpty {
		x.used++
	}
	x.slots[free] = x.record(k, h, e)
	x.live++
}

// record keeps k and its hash at entry index e, and is e's slot value.
func (x *strIndex) record(k string, h uint64, e int) int32 {
	if e >= len(x.keys) {
		if e >= cap(x.keys) {
			n := max(8, 2*cap(x.keys), e+1)
			x.keys = append(make([]string, 0, n), x.keys...)
			x.hashes = append(make([]uint64, 0, n), x.hashes...)
		}
		x.keys, x.hashes = x.keys[:e+1], x.hashes[:e+1]
	}
	x.keys[e], x.hashes[e] = k, h
	return int32(e + 1)
}

func (x *strIndex) delete(k string) {
	if x.live == 0 {
		return
	}
	if at, _ := x.find(k, stringHash(k)); at >= 0 {
		x.keys[x.slots[at]-1] = "" // not kept alive
		x.slots[at] = intSlotDeleted
		x.live--
	}
}

func (x *strIndex) clear() {
	clear(x.slots)
	clear(x.keys)
	x.keys, x.hashes = x.keys[:0], x.hashes[:0]
	x.live, x.used = 0, 0
}

// resize rehashes the live keys into a table with room for twice them
// (tombstones are dropped), by their kept hashes.
func (x *strIndex) resize() {
	n := 8
	for 3*(2*x.live+1) > 2*n {
		n *= 2
	}
	old := x.slots
	x.slots, x.used = make([]int32, n), x.live
	mask := uint64(n - 1)
	for _, s := range old {
		if s <= 0 {
			continue
		}
		h := x.hashes[s-1]
		i, perturb := h&mask, h
		for x.slots[i] != intSlotEmpty {
			perturb >>= 5
			i = (i*5 + perturb + 1) & mask
		}
		x.slots[i] = s
	}
}
