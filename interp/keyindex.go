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
type keyIndex[K int64 | string] struct {
	keys  []K
	slots []int // 0 empty, -1 a deleted key, else the entry's index + 1
	live  int
	used  int // live keys and tombstones
	hash  func(K) uint64
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
	mask := uint64(len(x.keys) - 1)
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
		case x.keys[i] == k:
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
	return x.slots[at] - 1, true
}

// set makes k's entry index e.
func (x *keyIndex[K]) set(k K, e int) {
	if 3*(x.used+1) > 2*len(x.keys) {
		x.resize()
	}
	at, free := x.find(k, x.hash(k))
	if at >= 0 {
		x.slots[at] = e + 1
		return
	}
	if x.slots[free] == intSlotEmpty {
		x.used++
	}
	x.keys[free], x.slots[free] = k, e+1
	x.live++
}

func (x *keyIndex[K]) delete(k K) {
	if x.live == 0 {
		return
	}
	if at, _ := x.find(k, x.hash(k)); at >= 0 {
		x.slots[at] = intSlotDeleted
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
	keys, slots := x.keys, x.slots
	x.keys, x.slots, x.live, x.used = make([]K, n), make([]int, n), 0, 0
	for i, s := range slots {
		if s > 0 {
			_, free := x.find(keys[i], x.hash(keys[i]))
			x.keys[free], x.slots[free] = keys[i], s
			x.live++
			x.used++
		}
	}
}
