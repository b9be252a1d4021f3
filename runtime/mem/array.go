package mem

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
)

// MaxDims is the largest array rank.
const MaxDims = 4

// ErrFreed is returned (wrapped) for any use of a freed array.
var ErrFreed = errors.New("array has been freed")

// Array is an N-D (1-4) view of a Buffer: dtype, shape, strides in elements
// and a byte offset. Arrays are values that share buffers; the Buffer's
// memory is released by Free, Tracker.FreeAll or when no array refers to it.
type Array struct {
	buf     *Buffer
	off     int // byte offset of element [0, ...] in buf
	dtype   ir.Type
	shape   []int
	strides []int // in elements
	view    bool
}

// MaxElems bounds an array's element count and each of its extents. The
// per-extent bound makes the rule independent of the order of the axes
// (a zero extent would otherwise let any other pass) and keeps every
// extent and stride representable on both backends; stdlib/npy's reader
// and writer apply the same rule, so what save writes load reads.
const MaxElems = 1 << 47

// checkShape applies the shape rule and returns the element count.
func checkShape(shape []int) (int, error) {
	if len(shape) < 1 || len(shape) > MaxDims {
		return 0, fmt.Errorf("arrays have 1 to %d dimensions, not %d", MaxDims, len(shape))
	}
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("negative dimension %d in shape %v", d, shape)
		}
		if d > MaxElems || d != 0 && n > MaxElems/d {
			return 0, fmt.Errorf("shape %v is too large", shape)
		}
		n *= d
	}
	return n, nil
}

// ContiguousStrides are the strides, in elements, of a C-order array of
// the shape.
func ContiguousStrides(shape []int) []int {
	s := make([]int, len(shape))
	st := 1
	for i := len(shape) - 1; i >= 0; i-- {
		s[i] = st
		st *= shape[i]
	}
	return s
}

// DType is the element type.
func (a *Array) DType() ir.Type { return a.dtype }

// Shape is the extent of each axis; callers must not modify it.
func (a *Array) Shape() []int { return a.shape }

// Strides are the per-axis steps in elements; callers must not modify them.
func (a *Array) Strides() []int { return a.strides }

// NDim is the rank.
func (a *Array) NDim() int { return len(a.shape) }

// Size is the number of elements.
func (a *Array) Size() int {
	n := 1
	for _, d := range a.shape {
		n *= d
	}
	return n
}

// NBytes is Size times the element size.
func (a *Array) NBytes() int { return a.Size() * a.dtype.Size() }

// Device is the device whose memory holds the array.
func (a *Array) Device() Device { return a.buf.a.dev }

// Kind is the memory kind (a view reports its owner's).
func (a *Array) Kind() Kind { return a.buf.kind }

// Allocator is the allocator that made the buffer.
func (a *Array) Allocator() Allocator { return a.buf.a.alloc }

// IsView reports whether the array is a view of another array's buffer.
func (a *Array) IsView() bool { return a.view }

// SameBuffer reports whether a and b share memory.
func (a *Array) SameBuffer(b *Array) bool { return a.buf == b.buf }

// Freed reports whether the buffer was released.
func (a *Array) Freed() bool { return a.buf.a.freed.Load() }

// Free releases the buffer now, and its gradient buffer (grad.go); the
// array and all its views become unusable. Freeing twice is an error.
func (a *Array) Free() error {
	if a.Freed() {
		return ErrFreed
	}
	if g := a.buf.grad.Load(); g != nil && !g.a.freed.Load() {
		if err := g.a.freeNow(); err != nil {
			return err
		}
	}
	return a.buf.a.freeNow()
}

// Ptr is the address of element [0, ...] (0 for a zero-size array).
func (a *Array) Ptr() (uintptr, error) {
	if a.Freed() {
		return 0, ErrFreed
	}
	if a.buf.a.ptr == 0 {
		return 0, nil
	}
	return a.buf.a.ptr + uintptr(a.off), nil
}

// IsContiguous reports whether the elements are C-contiguous.
func (a *Array) IsContiguous() bool {
	st := 1
	for i := len(a.shape) - 1; i >= 0; i-- {
		if a.shape[i] != 1 && a.strides[i] != st {
			return false
		}
		st *= a.shape[i]
	}
	return true
}

// Offset maps an index tuple to an element offset from element [0, ...],
// checking the count and every bound.
func (a *Array) Offset(idx []int) (int, error) {
	if len(idx) != len(a.shape) {
		return 0, fmt.Errorf("%d indices for a %d-D array", len(idx), len(a.shape))
	}
	off := 0
	for k, i := range idx {
		if i < 0 || i >= a.shape[k] {
			return 0, fmt.Errorf("index %d out of bounds for axis %d with size %d", i, k, a.shape[k])
		}
		off += i * a.strides[k]
	}
	return off, nil
}

// LoadBits reads element off (from Offset) of a host-accessible array as
// raw bits in the low bytes of a uint64. b must come from HostBytes.
func LoadBits(b []byte, t ir.Type, off int) uint64 {
	switch t.Size() {
	case 1:
		return uint64(b[off])
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&b[off*4])))
	default:
		return *(*uint64)(unsafe.Pointer(&b[off*8]))
	}
}

// StoreBits writes raw bits to element off of b (see LoadBits).
func StoreBits(b []byte, t ir.Type, off int, bits uint64) {
	switch t.Size() {
	case 1:
		b[off] = byte(bits)
	case 4:
		*(*uint32)(unsafe.Pointer(&b[off*4])) = uint32(bits)
	default:
		*(*uint64)(unsafe.Pointer(&b[off*8])) = bits
	}
}

// Slice returns the view a[lo:hi] along axis 0.
func (a *Array) Slice(lo, hi int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if lo < 0 || hi > a.shape[0] || lo > hi {
		return nil, fmt.Errorf("slice [%d:%d] out of bounds for axis 0 with size %d", lo, hi, a.shape[0])
	}
	v := *a
	v.shape = append([]int(nil), a.shape...)
	v.shape[0] = hi - lo
	v.off = a.off + lo*a.strides[0]*a.dtype.Size()
	v.view = true
	return &v, nil
}

// Reshape returns a view with a new shape of the same size. It needs a
// contiguous array; the caller copies otherwise.
func (a *Array) Reshape(shape []int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	if n != a.Size() {
		return nil, fmt.Errorf("cannot reshape an array of size %d into shape %s (%d elements): the extents must multiply to %d, or one of them be -1 (inferred)", a.Size(), shapeText(shape), n, a.Size())
	}
	if !a.IsContiguous() {
		return nil, fmt.Errorf("cannot reshape a non-contiguous view without copying")
	}
	v := *a
	v.shape = append([]int(nil), shape...)
	v.strides = ContiguousStrides(shape)
	v.view = true
	return &v, nil
}

// Bitcast returns a view of a's elements as t, a dtype of the same size
// (f32 as i32 or u32 ...): the same bytes, reinterpreted. Bool takes part
// in none, since a bool element must hold 0 or 1.
func (a *Array) Bitcast(t ir.Type) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if t.Size() != a.dtype.Size() || t == ir.Bool || a.dtype == ir.Bool {
		return nil, fmt.Errorf("cannot view %s elements as %s: a bit view needs two non-bool dtypes of one size", a.dtype, t)
	}
	v := *a
	v.dtype = t
	v.view = true
	return &v, nil
}

// Sub returns the view a[i] of an array of two or more dimensions: axis 0
// is fixed at i and removed.
func (a *Array) Sub(i int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if len(a.shape) < 2 {
		return nil, fmt.Errorf("Sub needs at least 2 dimensions")
	}
	if i < 0 || i >= a.shape[0] {
		return nil, fmt.Errorf("index %d out of bounds for axis 0 with size %d", i, a.shape[0])
	}
	v := *a
	v.shape = append([]int(nil), a.shape[1:]...)
	v.strides = append([]int(nil), a.strides[1:]...)
	v.off = a.off + i*a.strides[0]*a.dtype.Size()
	v.view = true
	return &v, nil
}

// shapeText formats a shape as scripts write it: [2, 3].
func shapeText(s []int) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
