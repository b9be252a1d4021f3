package interp

import (
	"math/rand/v2"
	"testing"
)

// TestIntIndexMatchesMap: random inserts, overwrites and deletes of
// consecutive, strided, negative and extreme keys leave the index
// agreeing with a Go map, through resizes and tombstones.
func TestIntIndexMatchesMap(t *testing.T) {
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
