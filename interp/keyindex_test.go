package interp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestKeyIndexMatchesMap: random inserts, overwrites and deletes of
// consecutive, strided, negative and extreme keys leave the index
// agreeing with a Go map, through resizes and tombstones.
func TestKeyIndexMatchesMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x intIndex
	want := map[int64]int{}
	keys := func() int64 {
		switch r.IntN(5) {
		case 0:
			return int64(r.IntN(1000))
		case 1:
			return int64(r.IntN(100)) << 32 // a stride the low bits miss
		case 2:
			return -int64(r.IntN(1000))
		case 3:
			return []int64{-1 << 63, 1<<63 - 1, 0}[r.IntN(3)]
		}
		return r.Int64()
	}
	for step := range 200000 {
		k := keys()
		if r.IntN(3) == 0 {
			x.delete(k)
			delete(want, k)
		} else {
			x.set(k, step)
			want[k] = step
		}
		if step%1000 == 0 {
			x.clear()
			clear(want)
		}
		got, ok := x.get(k)
		w, wok := want[k]
		if ok != wok || got != w {
			t.Fatalf("step %d: get(%d) = %d, %v; want %d, %v", step, k, got, ok, w, wok)
		}
	}
	for k, w := range want {
		if got, ok := x.get(k); !ok || got != w {
			t.Fatalf("get(%d) = %d, %v; want %d", k, got, ok, w)
		}
	}
	if x.live != len(want) {
		t.Errorf("live = %d, want %d", x.live, len(want))
	}
}

// TestStringKeyIndex: the string table agrees with a Go map too.
func TestStringKeyIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var x strIndex
	want := map[string]int{}
	for step := range 50000 {
		k := fmt.Sprint("k", r.IntN(3000))
		if r.IntN(4) == 0 {
			x.delete(k)
			delete(want, k)
		} else {
			x.set(k, step)
			want[k] = step
		}
		got, ok := x.get(k)
		if w, wok := want[k]; ok != wok || got != w {
			t.Fatalf("step %d: get(%q) = %d, %v; want %d, %v", step, k, got, ok, w, wok)
		}
	}
	if x.live != len(want) {
		t.Errorf("live = %d, want %d", x.live, len(want))
	}
}

// TestEntryIndexFits: a dict's entries (at most twice MaxListLen, with
// tombstones) are numbered within a slot's int32.
func TestEntryIndexFits(t *testing.T) {
	if 2*MaxListLen >= 1<<31-1 {
		t.Errorf("2*MaxListLen = %d does not fit a keyIndex slot", 2*MaxListLen)
	}
}
