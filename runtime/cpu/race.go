package cpu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/pos"
)

// With backend.Options.Debug, a block kernel's shared arrays have a shadow:
// for each element, the last plain store to it, with the barrier counts of
// the block and of the writer's warp at the time. A load or store by
// another lane before a barrier has ordered the two (sync() or a block
// collective for any lanes, sync_warp() for lanes of one warp) is a race,
// reported at the access with the store's position, as compute-sanitizer's
// racecheck reports the hazards it sees. Atomics are neither checked nor
// recorded: they do not race with each other.

// raceCell is the last plain store to a shared element.
type raceCell struct {
	epoch, wepoch uint64 // fr.epoch and the writer's fr.wepoch then
	lane, at      int32  // the storing lane and the store (race.pos index)
}

// raceInfo is a program's race detection: where each shared array's cells
// start, and the positions of the checked accesses.
type raceInfo struct {
	base  []int
	cells int
	pos   []pos.Pos
}

func (c *compiler) addRace() {
	r := &raceInfo{}
	for _, b := range c.k.Shared {
		r.base = append(r.base, r.cells)
		r.cells += b.Len()
	}
	c.p.race = r
}

// raceAt registers a checked access at p and returns its index.
func (r *raceInfo) raceAt(p pos.Pos) int32 {
	r.pos = append(r.pos, p)
	return int32(len(r.pos) - 1)
}

// ordered reports whether a store recorded in c is ordered before an
// access by lane i: by a barrier of the block since, by the same lane, or
// by a sync_warp() of its warp since.
func (fr *frame) ordered(c *raceCell, i int) bool {
	switch {
	case c.epoch != fr.epoch || int(c.lane) == i:
		return true
	case int(c.lane)/warp == i/warp:
		return c.wepoch != fr.wepoch[i/warp]
	}
	return false
}

// checkRace checks the accesses of the lanes of m (offsets in fr.off) to
// shared array ac.buf, and records them when they store. A field access
// covers the span bytes of its field (the array's elements).
func (ac *access) checkRace(fr *frame, m mask, store bool) error {
	cells := fr.shadow[fr.ln.p.race.base[ac.buf]:]
	lane := func(i int) error {
		first := (fr.off[i] + ac.fieldAt) / ac.size
		for e := first; e < first+ac.span; e++ {
			c := &cells[e]
			if !fr.ordered(c, i) {
				return ac.raceErr(fr, i, int(c.lane), c.at, e, store)
			}
			if store {
				*c = raceCell{epoch: fr.epoch, wepoch: fr.wepoch[i/warp], lane: int32(i), at: ac.raceAt}
			}
		}
		return nil
	}
	if m.all {
		for i := range fr.n {
			if err := lane(i); err != nil {
				return err
			}
		}
		return nil
	}
	for _, i := range m.idx {
		if err := lane(int(i)); err != nil {
			return err
		}
	}
	return nil
}

func (ac *access) raceErr(fr *frame, lane, writer int, at int32, elem int, store bool) error {
	p := fr.ln.p
	b := &p.bufs[ac.buf].buf
	idx := make([]string, len(b.Dims))
	for ax := len(b.Dims) - 1; ax >= 0; ax-- {
		idx[ax], elem = strconv.Itoa(elem%b.Dims[ax]), elem/b.Dims[ax]
	}
	verb := "reads"
	if store {
		verb = "writes"
	}
	return &KernelError{Pos: ac.pos, Kernel: p.k.Entry.Name,
		Msg: fmt.Sprintf("shared-memory race on %s[%s]: thread %s of block %s %s it, and thread %s wrote it at %s with no barrier between",
			b.Name, strings.Join(idx, ", "), threadName(fr, lane), blockName(fr), verb, threadName(fr, writer), p.race.pos[at])}
}

// threadName is a lane's thread_id, "(5)" or "(1, 3)".
func threadName(fr *frame, lane int) string {
	thr := fr.ln.p.blk.thr
	s := make([]string, len(thr))
	for ax := range s {
		s[ax] = strconv.Itoa(int(thr[ax][lane]))
	}
	return "(" + strings.Join(s, ", ") + ")"
}

// passBarrier advances the barrier counts past a barrier the lanes of m
// reached: the block's, or for sync_warp() their warps'.
func (fr *frame) passBarrier(m mask, warpOnly bool) {
	if !warpOnly {
		fr.epoch++
		return
	}
	forWarps(fr, m, func(base int, _ []int32) { fr.wepoch[base/warp]++ })
}
