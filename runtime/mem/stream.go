package mem

import (
	"errors"
	"sync"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/cuda"
)

// Streaming copies between the host and an array (.npy load and save):
// memory the host reaches is read or written in place, chunk by chunk;
// device memory goes through two page-locked staging buffers, so that the
// host fills (or drains) one while the other is copied, and no host copy of
// the whole array is ever made.

// StagingChunk is the size of one staging buffer, and of the chunks the
// callbacks of WriteStream and ReadStream see.
const StagingChunk = 8 << 20

// staging is a pair of page-locked buffers with an event each, marking when
// the copy last queued from or into the buffer is done.
type staging struct {
	ptr [2]uintptr
	ev  [2]cuda.Event
}

// stagingPool keeps one device's staging pairs for reuse: page-locked
// allocations are slow (milliseconds), and several interpreters may stream
// at once.
type stagingPool struct {
	mu   sync.Mutex
	free []*staging
}

func (p *stagingPool) get(d *cudaDev) (*staging, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.mu.Unlock()
	s := &staging{}
	for i := range s.ptr {
		var err error
		if s.ptr[i], err = d.Drv.MemHostAlloc(StagingChunk, 0); err == nil {
			s.ev[i], err = d.Drv.EventCreate(cuda.EventDisableTiming)
		}
		if err != nil {
			s.release(d)
			return nil, err
		}
	}
	return s, nil
}

func (p *stagingPool) put(s *staging) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}

// release frees what get made, when get fails (in the device's context).
func (s *staging) release(d *cudaDev) {
	for i := range s.ptr {
		if s.ptr[i] != 0 {
			d.Drv.MemFreeHost(s.ptr[i])
		}
		if s.ev[i] != 0 {
			d.Drv.EventDestroy(s.ev[i])
		}
	}
}

func (s *staging) buf(i, n int) []byte { return hostSlice(s.ptr[i], n) }

// errStreamView refuses streaming a view with gaps: its bytes are not one
// run of memory.
var errStreamView = errors.New("streaming copies need a contiguous array")

// WriteStream fills a (contiguous) with bytes from fill, in order: each
// call must fill b completely with the next len(b) bytes of a (at most
// StagingChunk). On a device whose memory the host cannot reach, filling
// one staging buffer overlaps the copy of the previous one to the device;
// the copies are queued on gscript's stream of a's device, after its
// earlier work.
func (a *Array) WriteStream(fill func(b []byte) error) error {
	if !a.IsContiguous() {
		return errStreamView
	}
	if a.NBytes() == 0 {
		return nil
	}
	if a.HostAccessible() {
		if err := a.SyncForHost(); err != nil {
			return err
		}
		return a.inPlace(fill)
	}
	return a.stream(func(d *cudaDev, s *staging, dev cuda.DevicePtr, n int) error {
		for k, off := 0, 0; off < n; k, off = k+1, off+StagingChunk {
			i, m := k%2, min(StagingChunk, n-off)
			if k >= 2 { // the buffer's previous copy must be done before it is refilled
				if err := d.Drv.EventSynchronize(s.ev[i]); err != nil {
					return err
				}
			}
			b := s.buf(i, m)
			if err := fill(b); err != nil {
				return err
			}
			if err := d.Drv.MemcpyHtoDAsync(dev+cuda.DevicePtr(off), unsafe.Pointer(&b[0]), m, d.Stream); err != nil {
				return err
			}
			if err := d.Drv.EventRecord(s.ev[i], d.Stream); err != nil {
				return err
			}
		}
		return d.Drv.StreamSynchronize(d.Stream) // the buffers go back to the pool
	})
}

// ReadStream passes a's bytes (contiguous) to use in order, at most
// StagingChunk at a time; b is valid only during the call. On a device
// whose memory the host cannot reach, the copy of the next chunk runs while
// use handles the current one.
func (a *Array) ReadStream(use func(b []byte) error) error {
	if !a.IsContiguous() {
		return errStreamView
	}
	if a.NBytes() == 0 {
		return nil
	}
	if err := a.SyncForHost(); err != nil {
		return err
	}
	if a.HostAccessible() {
		return a.inPlace(use)
	}
	return a.stream(func(d *cudaDev, s *staging, dev cuda.DevicePtr, n int) error {
		queue := func(k int) error {
			off := k * StagingChunk
			if off >= n {
				return nil
			}
			i, m := k%2, min(StagingChunk, n-off)
			if err := d.Drv.MemcpyDtoHAsync(HostPointer(s.ptr[i]), dev+cuda.DevicePtr(off), m, d.Stream); err != nil {
				return err
			}
			return d.Drv.EventRecord(s.ev[i], d.Stream)
		}
		if err := queue(0); err != nil {
			return err
		}
		for k, off := 0, 0; off < n; k, off = k+1, off+StagingChunk {
			if err := queue(k + 1); err != nil { // its buffer was used at k-1
				return err
			}
			i, m := k%2, min(StagingChunk, n-off)
			if err := d.Drv.EventSynchronize(s.ev[i]); err != nil {
				return err
			}
			if err := use(s.buf(i, m)); err != nil {
				return err
			}
		}
		return nil
	})
}

// inPlace passes a's own memory to fn chunk by chunk.
func (a *Array) inPlace(fn func(b []byte) error) error {
	all, err := a.HostBytes()
	if err != nil {
		return err
	}
	for off := 0; off < len(all); off += StagingChunk {
		if err := fn(all[off:min(len(all), off+StagingChunk)]); err != nil {
			return err
		}
	}
	return nil
}

// stream runs copy with a staging pair of a's device, in its context, on a
// thread that holds it, after other devices' work on a.
func (a *Array) stream(copy func(d *cudaDev, s *staging, dev cuda.DevicePtr, n int) error) error {
	d, err := getCUDADevice(a.Device().Ordinal)
	if err != nil {
		return err
	}
	if d.Capturing() {
		return d.errCapturing()
	}
	if err := a.WaitForUsers(a.Device()); err != nil {
		return err
	}
	p, err := a.Ptr()
	if err != nil {
		return err
	}
	return d.Ctx.Do(func() error {
		s, err := d.staging.get(d)
		if err != nil {
			return err
		}
		err = copy(d, s, cuda.DevicePtr(p), a.NBytes())
		if err != nil {
			// No queued copy may still read or write the buffers.
			d.Drv.StreamSynchronize(d.Stream)
		}
		d.staging.put(s)
		return err
	})
}
