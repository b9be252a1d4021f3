package cuda

import (
	"math"
	"unsafe"
)

// Args packs kernel arguments for LaunchKernel. It owns its buffers: after
// the first launch of a given argument list, Reset and the same appends
// reuse them and allocate nothing.
//
// Every argument starts on its own 8-byte slot, which satisfies the
// alignment of every scalar and pointer parameter and of structs aligned to
// at most 8 bytes.
type Args struct {
	buf  []uint64         // argument values
	offs []int            // first slot of each argument in buf
	ptrs []unsafe.Pointer // kernelParams handed to the driver
}

// NewArgs returns a packer with room for n arguments of up to 8 bytes.
func NewArgs(n int) *Args {
	return &Args{buf: make([]uint64, 0, n), offs: make([]int, 0, n), ptrs: make([]unsafe.Pointer, 0, n)}
}

// Reset empties the list, keeping the buffers.
func (a *Args) Reset() *Args {
	a.buf, a.offs = a.buf[:0], a.offs[:0]
	return a
}

// Len is the number of arguments.
func (a *Args) Len() int { return len(a.offs) }

func (a *Args) slot(v uint64) *Args {
	a.offs = append(a.offs, len(a.buf))
	a.buf = append(a.buf, v)
	return a
}

// Ptr appends a device pointer.
func (a *Args) Ptr(p DevicePtr) *Args { return a.slot(uint64(p)) }

// U64 appends a 64-bit integer.
func (a *Args) U64(v uint64) *Args { return a.slot(v) }

// I64 appends a 64-bit signed integer.
func (a *Args) I64(v int64) *Args { return a.slot(uint64(v)) }

// U32 appends a 32-bit integer (little-endian: the low bytes of the slot).
func (a *Args) U32(v uint32) *Args { return a.slot(uint64(v)) }

// I32 appends a 32-bit signed integer.
func (a *Args) I32(v int32) *Args { return a.slot(uint64(uint32(v))) }

// F32 appends a float.
func (a *Args) F32(v float32) *Args { return a.slot(uint64(math.Float32bits(v))) }

// F64 appends a double.
func (a *Args) F64(v float64) *Args { return a.slot(math.Float64bits(v)) }

// Bytes appends a by-value struct (its bytes as laid out in C).
func (a *Args) Bytes(b []byte) *Args {
	a.offs = append(a.offs, len(a.buf))
	n := (len(b) + 7) / 8
	for range n {
		a.buf = append(a.buf, 0)
	}
	if n > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Pointer(&a.buf[len(a.buf)-n])), 8*n), b)
	}
	return a
}

// Params returns the pointer array for LaunchKernel. It is rebuilt on each
// call because appends may have moved buf; it stays valid until the next
// append or Reset.
func (a *Args) Params() []unsafe.Pointer {
	a.ptrs = a.ptrs[:0]
	for _, o := range a.offs {
		a.ptrs = append(a.ptrs, unsafe.Pointer(&a.buf[o]))
	}
	return a.ptrs
}
