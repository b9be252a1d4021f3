package interp

// intIndex maps a dict's int keys to their entries' indices: an open
// addressing table probed as CPython's dict is (the first slot is the
// key's low bits, then i = 5i + perturb + 1 with perturb the key shifted
// down 5 bits a step). Go's map hashes an int to a random group, so the
// slots of 10^6 consecutive keys are 10^6 cache misses; here consecutive
// keys take consecutive slots, and the higher bits still break up any
// strided run. The table is at most two thirds full, tombstones counted.
type intIndex struct {
	keys  []int64
	slots []int // 0 empty, -1 a deleted key, else the entry's index + 1
	live  int
	used  int // live keys and tombstones
}

const (
	intSlotEmpty   = 0
	intSlotDeleted = -1
)

// find is the slot of k, or -1 and the slot an insert of k takes.
func (x *intIndex) find(k int64) (at, free int) {
	mask := uint64(len(x.keys) - 1)
	h := uint64(k)
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

func (x *intIndex) get(k int64) (int, bool) {
	if x.live == 0 {
		return 0, false
	}
	at, _ := x.find(k)
	if at < 0 {
		return 0, false
	}
	return x.slots[at] - 1, true
}

// set makes k's entry index e.
func (x *intIndex) set(k int64, e int) {
	if 3*(x.used+1) > 2*len(x.keys) {
		x.resize()
	}
	at, free := x.find(k)
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

func (x *intIndex) delete(k int64) {
	if x.live == 0 {
		return
	}
	if at, _ := x.find(k); at >= 0 {
		x.slots[at] = intSlotDeleted
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
	keys, slots := x.keys, x.slots
	x.keys, x.slots, x.live, x.used = make([]int64, n), make([]int, n), 0, 0
	for i, s := range slots {
		if s > 0 {
			_, free := x.find(keys[i])
			x.keys[free], x.slots[free] = keys[i], s
			x.live++
			x.used++
		}
	}
}
