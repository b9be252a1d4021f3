package mem

import (
	"fmt"
	"math"
	"weak"
)

// Large host values (the interpreter's strings and lists) count toward
// Tracker.Limit like arrays, so that many of them cannot add up past the
// memory budget. They live on the Go heap, so a weak pointer says when one
// is gone: collect sweeps the dead ones and gives their bytes back.

// HostHoldMin is the smallest value HoldHost counts: holding one costs
// about 0.5 us (a weak pointer), which smaller values would pay many times
// over their own cost, and values this large are always fresh heap
// allocations (weak pointers need heap objects). Uncounted values are
// bounded by the step budget: each step makes a few of them.
const HostHoldMin = 1 << 10

// hostHold is one counted host value.
type hostHold struct {
	alive func() bool // false once the value is unreachable
	n     int64
}

// HoldHost counts nbytes of the host value obj points into toward t's
// Limit while obj is reachable. It does nothing without a limit or for a
// value smaller than HostHoldMin; a value that does not fit, even after a
// collection, is an error (the caller drops it).
func HoldHost[T any](t *Tracker, obj *T, nbytes int) error {
	if t == nil || t.Limit <= 0 || nbytes < HostHoldMin {
		return nil
	}
	if err := t.reserveHost(nbytes); err != nil {
		return err
	}
	w := weak.Make(obj)
	t.mu.Lock()
	t.host = append(t.host, hostHold{alive: func() bool { return w.Value() != nil }, n: int64(nbytes)})
	t.mu.Unlock()
	return nil
}

// reserveHost is reserve for a host value: it counts toward the next
// collection and collects once before it refuses.
func (t *Tracker) reserveHost(nbytes int) error {
	if t.hostCollectDue(t.sinceGC.Add(int64(nbytes))) {
		t.collect()
	}
	if t.tryReserveHost(nbytes) {
		return nil
	}
	t.collect()
	if t.tryReserveHost(nbytes) {
		return nil
	}
	return limitError{fmt.Sprintf("a value of %d bytes does not fit in the memory limit of %d bytes (%d in use by arrays and large strings and lists)",
		nbytes, t.Limit, t.Used())}
}

func (t *Tracker) tryReserveHost(nbytes int) bool {
	if used := t.used.Add(int64(nbytes)); used > t.Limit {
		t.used.Add(-int64(nbytes))
		return false
	}
	return true
}

// sweepHost gives back the bytes of host values that are gone; collect
// calls it after a Go collection. The caller holds t.mu.
func (t *Tracker) sweepHost() {
	kept := t.host[:0]
	for _, h := range t.host {
		if h.alive() {
			kept = append(kept, h)
		} else {
			t.used.Add(-h.n)
		}
	}
	clear(t.host[len(kept):])
	t.host = kept
}

// Room is how many bytes are left under Limit for a value of want bytes:
// when fewer are left it collects first, as an allocation would (values
// dropped since the last collection still count until one). Without a
// limit there is no bound.
func (t *Tracker) Room(want int64) int64 {
	if t == nil || t.Limit <= 0 {
		return math.MaxInt64
	}
	if left := t.Limit - t.Used(); left >= want {
		return left
	}
	t.collect()
	return t.Limit - t.Used()
}
