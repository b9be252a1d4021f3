package mem

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// classify is MEMORY.md section 1's classification of a CUDA pointer from
// its attributes: IS_MANAGED first (managed pool pointers also carry a pool
// handle), then MEMORY_TYPE, then MEMPOOL_HANDLE. A failed query, or an
// address CUDA does not know, is UNKNOWN.
func classify(pi cuda.PointerInfo, err error) Kind {
	switch {
	case err != nil:
		return Unknown
	case pi.IsManaged:
		return CUDAManaged
	case pi.MemoryType == cuda.MemoryTypeHost:
		return Pinned
	case pi.MemoryType != cuda.MemoryTypeDevice:
		return Unknown
	case pi.MemPool != 0:
		return CUDAMempool
	}
	return CUDADevice
}

// wrapKind applies the wrap rules to a classification: memory CUDA does
// not know is HOST on the cpu; CUDA memory must belong to the device the
// caller named (beyond: a mismatch is an error, not a silent wrong answer).
func wrapKind(dev Device, pi cuda.PointerInfo, err error) (Kind, error) {
	k := classify(pi, err)
	switch k {
	case Unknown:
		if dev.Type == CPU {
			return Host, nil
		}
		return Unknown, nil
	case Pinned:
		return Pinned, nil
	}
	if dev.Type == CPU {
		return 0, fmt.Errorf("the pointer is %s memory of cuda:%d, not cpu memory: wrap it on cuda:%d", k, pi.DeviceOrdinal, pi.DeviceOrdinal)
	}
	if pi.DeviceOrdinal != dev.Ordinal {
		return 0, fmt.Errorf("the pointer is %s memory of cuda:%d, not of %s", k, pi.DeviceOrdinal, dev)
	}
	return k, nil
}

// pointerInfo reads a pointer's attributes with one batched call, in the
// device's context (cuda:0's for the cpu). Without a driver, a cpu pointer
// is simply unknown to CUDA.
func pointerInfo(dev Device, ptr uintptr) (cuda.PointerInfo, error) {
	ord := 0
	if dev.IsCUDA() {
		ord = dev.Ordinal
	}
	d, err := getCUDADevice(ord)
	if err != nil {
		if dev.IsCUDA() {
			return cuda.PointerInfo{}, err
		}
		return cuda.PointerInfo{}, nil // no CUDA: the classification says UNKNOWN -> HOST
	}
	var pi cuda.PointerInfo
	err = d.Ctx.Do(func() error {
		var err error
		pi, err = d.Drv.PointerInfo(cuda.DevicePtr(ptr))
		return err
	})
	if err != nil {
		// The query itself failing (a Go heap pointer: INVALID_VALUE)
		// classifies as UNKNOWN; it is not an error of the wrap.
		return cuda.PointerInfo{}, nil
	}
	return pi, nil
}

// classifyOwn classifies the memory of an allocator that declared kind
// Unknown ("classify my pointers").
func classifyOwn(alloc Allocator, dev Device, ptr uintptr, nbytes int) (Kind, cuda.MemPool, error) {
	pi, err := pointerInfo(dev, ptr)
	if err != nil {
		return 0, 0, &AllocError{Allocator: alloc.Name(), Device: dev, Bytes: nbytes, Err: fmt.Errorf("classifying its memory: %w", err)}
	}
	k, err := wrapKind(dev, pi, nil)
	if err != nil {
		return 0, 0, &AllocError{Allocator: alloc.Name(), Device: dev, Bytes: nbytes, Err: err}
	}
	return k, poolOf(k, pi), nil
}

func poolOf(k Kind, pi cuda.PointerInfo) cuda.MemPool {
	if k == CUDAMempool {
		return pi.MemPool
	}
	return 0
}

// external is the releaser of wrapped memory: the embedding program's
// release function, called once when the array is freed.
type external struct {
	name    string
	release func() error
}

func (e external) Name() string          { return e.name }
func (e external) Kind() Kind            { return Unknown }
func (e external) AppliesTo(Device) bool { return true }
func (e external) Alloc(dev Device, n int) (uintptr, error) {
	return 0, fmt.Errorf("%s memory cannot be allocated", e.name)
}

// FreeNeedsContext implements ContextFreer: release is the embedding
// program's code, which manages its own CUDA context.
func (e external) FreeNeedsContext() bool { return false }

func (e external) Free(Device, uintptr, int) error {
	if e.release == nil {
		return nil
	}
	return e.release()
}

// Wrap makes an array over memory that gscript did not allocate (the
// embedding API). The pointer is classified once (MEMORY.md section 1):
// CUDA pointers with one batched cuPointerGetAttributes, a pointer whose
// device ordinal differs from dev is refused, cpu memory CUDA does not
// know is HOST, and a zero-size wrap is UNKNOWN. release (may be nil) runs
// once when the array is freed, on whatever thread frees it.
func Wrap(t *Tracker, ptr uintptr, dtype ir.Type, shape []int, dev Device, release func() error) (*Array, error) {
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	nbytes := n * dtype.Size()
	kind, pool := Unknown, cuda.MemPool(0)
	if nbytes > 0 {
		if ptr == 0 {
			return nil, fmt.Errorf("wrap: null pointer for %d bytes", nbytes)
		}
		pi, err := pointerInfo(dev, ptr)
		if err != nil {
			return nil, fmt.Errorf("wrap on %s: %w", dev, err)
		}
		if kind, err = wrapKind(dev, pi, nil); err != nil {
			return nil, fmt.Errorf("wrap on %s: %w", dev, err)
		}
		pool = poolOf(kind, pi)
	}
	return t.adopt(ptr, nbytes, dev, external{name: "wrapped", release: release}, kind, pool, fromWrap, dtype, shape), nil
}

// adopt tracks memory that an outside party owns.
func (t *Tracker) adopt(ptr uintptr, nbytes int, dev Device, rel Allocator, kind Kind, pool cuda.MemPool, o origin, dtype ir.Type, shape []int) *Array {
	a := &allocation{ptr: ptr, nbytes: nbytes, alloc: rel, dev: dev, owner: t, mustRun: true}
	buf := &Buffer{a: a, kind: kind, pool: pool, origin: o}
	buf.noteUse(dev)
	t.track(buf)
	return newArray(buf, dtype, shape)
}
