package cpu

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// frameStore keeps a Program's frames between launches, one for each
// worker that ran at once, up to GOMAXPROCS and maxWorkers. Not a
// sync.Pool: a collection empties a pool, and on a 16-core host the
// launches after one made every worker's frame again (a few MB each:
// ~111 MB of host memory over a handful of reductions, which made
// stdlib's TestReductionsAllocateNoHostCopy flaky). The frames kept by
// all Programs together are bounded by maxKeptFrameBytes; past it a
// finished worker's frame is dropped for the collector, as the pool did.
type frameStore struct {
	mu   sync.Mutex
	free []*frame
	held *atomic.Int64 // bytes in free; a cleanup returns them when the Program is collected
}

// maxKeptFrameBytes bounds the frames kept between launches by every
// Program of the process.
const maxKeptFrameBytes = 512 << 20

// keptFrameBytes is the bytes of frames that frameStores keep.
var keptFrameBytes atomic.Int64

// initFrames prepares p's store; the cleanup takes p's kept frames off
// the process's count when p is collected.
func (p *Program) initFrames() {
	p.frames.held = new(atomic.Int64)
	runtime.AddCleanup(p, func(h *atomic.Int64) { keptFrameBytes.Add(-h.Load()) }, p.frames.held)
}

// frameBytes is about the memory of one frame: registers and buffers.
func (p *Program) frameBytes() int64 { return int64(p.memBytes + len(p.regs)*lanes*8) }

// getFrame returns a kept frame of p, or a new one.
func (p *Program) getFrame() *frame {
	s := &p.frames
	s.mu.Lock()
	n := len(s.free)
	if n == 0 {
		s.mu.Unlock()
		return newFrame(p)
	}
	fr := s.free[n-1]
	s.free[n-1], s.free = nil, s.free[:n-1]
	s.mu.Unlock()
	s.held.Add(-p.frameBytes())
	keptFrameBytes.Add(-p.frameBytes())
	return fr
}

// putFrame keeps fr for a later launch unless p keeps a frame for every
// worker already or the process's bound is reached.
func (p *Program) putFrame(fr *frame) {
	size := p.frameBytes()
	s := &p.frames
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.free) >= min(runtime.GOMAXPROCS(0), p.maxWorkers) {
		return
	}
	if keptFrameBytes.Add(size) > maxKeptFrameBytes {
		keptFrameBytes.Add(-size)
		return
	}
	s.free = append(s.free, fr)
	s.held.Add(size)
}
