package interp

import "hash/maphash"

// keyIndex maps a dict's int or string keys to their entries' indices:
// an open addressing table probed as CPython's dict is (the first slot is
// the hash's low bits, then i = 5i + perturb + 1 with perturb the hash
// shifted down 5 bits a step). An int hashes to itself, as in CPython: Go's
// map hashes it to a random group, so the slots of 10^6 consecutive keys
// are 10^6 cache misses, where here consecutive keys take consecutive
// slots and the higher bits still break up a strided run. A string hashes
// with hash/maphash, once per operation (an insert into a Go map after a
// lookup hashes twice). The table is at most two thirds full, tombstones
// counted.
//
// A slot holds the key, the entry's index and the hash's high bits
// together, so that a probe reads one cache line: a lookup in a large
// dict is a cache miss on the slot and one on the entry (as CPython's),
// and a string key is compared only when the hash bits agree.
type keyIndex[K int64 | string] struct {
	slots []keySlot[K]
	live  int
	used  int // live keys and tombstones
	hash  func(K) uint64
}

// keySlot is one slot of a keyIndex: e is 0 when empty, -1 for a deleted
// key, else the entry's index + 1 (a dict holds at most MaxListLen live
// entries, so its entries fit in an int32).
type keySlot[K int64 | string] struct {
	key K
	tag uint32 // the hash's high 32 bits
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
func (x *keyIndex[K]) find(k K, h uint64) (at, free int) {
	mask := uint64(len(x.slots) - 1)
	i, perturb, tag := h&mask, h, uint32(h>>32)
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
		case s.tag == tag && s.key == k:
			return int(i), -1
		}
		perturb >>= 5
		i = (i*5 + perturb + 1) & mask
	}
}

func (x *keyIndex[K]) get(k K) (int, bool) {
	if x.live == 0 {
		return 0, false
	}
	at, _ := x.find(k, x.hash(k))
	if at < 0 {
		return 0, false
	}
	return int(x.slots[at].e) - 1, true
}

// set makes k's entry index e.
func (x *keyIndex[K]) set(k K, e int) {
	if 3*(x.used+1) > 2*len(x.slots) {
		x.resize()
	}
	h := x.hash(k)
	at, free := x.find(k, h)
	if at >= 0 {
		x.slots[at].e = int32(e + 1)
		return
	}
	if x.slots[free].e == intSlotEmpty {
		x.used++
	}
	x.slots[free] = keySlot[K]{key: k, tag: uint32(h >> 32), e: int32(e + 1)}
	x.live++
}

func (x *keyIndex[K]) delete(k K) {
	if x.live == 0 {
		return
	}
	if at, _ := x.find(k, x.hash(k)); at >= 0 {
		var zero K
		x.slots[at] = keySlot[K]{key: zero, e: intSlotDeleted} // the key is not kept alive
		x.live--
	}
}

func (x *keyIndex[K]) clear() {
	clear(x.slots)
	x.live, x.used = 0, 0
}

// resize rehashes the live keys into a table with room for twice them
// (tombstones are dropped).
func (x *keyIndex[K]) resize() {
	n := 8
	for 3*(2*x.live+1) > 2*n {
		n *= 2
	}
	old := x.slots
	x.slots, x.live, x.used = make([]keySlot[K], n), 0, 0
	for _, s := range old {
		if s.e > 0 {
			h := x.hash(s.key)
			_, free := x.find(s.key, h)
			x.slots[free] = keySlot[K]{key: s.key, tag: uint32(h >> 32), e: s.e}
			x.live++
			x.used++
		}
	}
}
