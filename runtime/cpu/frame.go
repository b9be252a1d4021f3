package cpu

import (
	"unsafe"
)

// lanes is the number of threads executed together as one block: every
// register is a vector of this many values and every instruction one loop
// over them. 1024 keeps a typical kernel's working set in L1/L2 while making
// the per-instruction dispatch cost negligible.
const lanes = 1024

// mask is the set of active lanes of a block: all lanes [0, frame.n) or the
// sorted list idx. Keeping the "all" case apart lets every instruction use
// an unmasked loop for uniform control flow.
type mask struct {
	all bool
	idx []int32
}

func (m mask) empty() bool { return !m.all && len(m.idx) == 0 }

// count is the number of active lanes of a block of n.
func (m mask) count(n int) int {
	if m.all {
		return n
	}
	return len(m.idx)
}

// first returns the lowest active lane (m must not be empty).
func (m mask) first() int {
	if m.all {
		return 0
	}
	return int(m.idx[0])
}

// last returns the highest active lane (m must not be empty).
func (m mask) last(n int) int {
	if m.all {
		return n - 1
	}
	return int(m.idx[len(m.idx)-1])
}

// frame is one worker's execution state: register vectors and mask storage
// reused across blocks and launches, so steady-state execution allocates
// nothing.
type frame struct {
	ln    *launch
	base  int // linear thread id of lane 0
	n     int // lanes in this block (the last block may be short)
	regs  []unsafe.Pointer
	mem   []uint64
	slots [][]int32 // mask lists, one per static use (see compiler.slot)
	flags [][]uint8 // per-lane loop exit/continue marks, one per loop
	off   []int     // element offsets of the current array access
	cnt   []uint64  // shift counts
	runs  []run     // the current run access's runs (affine.go)
	out   []byte    // print output of the current block

	// block kernels
	blk   [3]int              // the block's index along each grid axis
	dead  int                 // lanes that have returned
	deadW [lanes / warp]int32 // lanes that have returned, by warp
	tmp   []uint64            // a lane vector for block scans

	bufMem []uint64    // shared and local arrays (buffer.go)
	bufs   []arrayInfo // by Program.bufs index

	// race detection (race.go): the shadow of the shared arrays, and the
	// barriers passed by the block and by each warp, counted across blocks
	shadow []raceCell
	epoch  uint64
	wepoch [lanes / warp]uint64
}

func newFrame(p *Program) *frame {
	fr := &frame{
		regs: make([]unsafe.Pointer, len(p.regs)),
		mem:  make([]uint64, len(p.regs)*lanes),
		off:  make([]int, lanes),
		cnt:  make([]uint64, lanes),
		runs: make([]run, 0, maxRuns),
	}
	for r := range fr.regs {
		fr.regs[r] = unsafe.Pointer(&fr.mem[r*lanes])
	}
	fr.slots = make([][]int32, p.nslots)
	for i := range fr.slots {
		fr.slots[i] = make([]int32, lanes)
	}
	fr.flags = make([][]uint8, p.nflags)
	for i := range fr.flags {
		fr.flags[i] = make([]uint8, lanes)
	}
	if p.blk != nil {
		fr.tmp = make([]uint64, lanes)
	}
	if p.race != nil {
		fr.shadow = make([]raceCell, p.race.cells)
	}
	p.newBufs(fr)
	return fr
}

// clearFlags resets loop marks after a block that stopped with an error
// (a normal exit leaves them clear).
func (fr *frame) clearFlags() {
	for _, f := range fr.flags {
		clear(f)
	}
}

// vec returns register r as a vector of T. Every register has 8 bytes per
// lane, so any T of size <= 8 is in bounds.
func vec[T any](fr *frame, r int) []T {
	return unsafe.Slice((*T)(fr.regs[r]), lanes)
}

// split divides m by the bool vector c into the lanes where c holds (written
// to t) and the others (written to e).
func split(fr *frame, m mask, c []bool, t, e []int32) (mask, mask) {
	nt, ne := 0, 0
	if m.all {
		for i, v := range c[:fr.n] {
			t[nt], e[ne] = int32(i), int32(i)
			b := b2i(v)
			nt += b
			ne += 1 - b
		}
	} else {
		for _, i := range m.idx {
			t[nt], e[ne] = i, i
			b := b2i(c[i])
			nt += b
			ne += 1 - b
		}
	}
	return fr.mk(t[:nt]), fr.mk(e[:ne])
}

// mk turns a lane list into a mask, recognising the full block.
func (fr *frame) mk(idx []int32) mask {
	if len(idx) == fr.n {
		return mask{all: true}
	}
	return mask{idx: idx}
}

// union merges two disjoint masks into dst.
func union(fr *frame, a, b mask, dst []int32) mask {
	switch {
	case a.empty():
		return b
	case b.empty():
		return a
	case a.all || b.all:
		return mask{all: true}
	}
	x, y := a.idx, b.idx
	k := 0
	for len(x) > 0 && len(y) > 0 {
		if x[0] < y[0] {
			dst[k], x = x[0], x[1:]
		} else {
			dst[k], y = y[0], y[1:]
		}
		k++
	}
	k += copy(dst[k:], x)
	k += copy(dst[k:], y)
	return fr.mk(dst[:k])
}

// setFlag marks the lanes of m with v.
func setFlag(fr *frame, m mask, f []uint8, v uint8) {
	if m.all {
		for i := range f[:fr.n] {
			f[i] = v
		}
		return
	}
	for _, i := range m.idx {
		f[i] = v
	}
}

// takeFlags collects into dst the lanes of m whose mark is one of v1, v2
// and clears the marks of those lanes.
func takeFlags(fr *frame, m mask, f []uint8, v1, v2 uint8, dst []int32) mask {
	k := 0
	take := func(i int32) {
		if x := f[i]; x == v1 || x == v2 {
			dst[k] = i
			k++
			f[i] = 0
		}
	}
	if m.all {
		for i := range int32(fr.n) {
			take(i)
		}
	} else {
		for _, i := range m.idx {
			take(i)
		}
	}
	return fr.mk(dst[:k])
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
