package mem

import "fmt"

// BroadcastTo returns a read-only-by-convention view of a with shape
// (NumPy's broadcast_to): a's axes align with the trailing axes of shape,
// an axis of extent 1 stretches with stride 0, and new leading axes have
// stride 0. The caller checks that the shapes broadcast; writing through
// a stretched axis writes one element many times.
func (a *Array) BroadcastTo(shape []int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if _, err := checkShape(shape); err != nil {
		return nil, err
	}
	lead := len(shape) - len(a.shape)
	if lead < 0 {
		return nil, fmt.Errorf("cannot broadcast shape %v to %v", a.shape, shape)
	}
	v := *a
	v.shape = append([]int(nil), shape...)
	v.strides = make([]int, len(shape))
	for i := range a.shape {
		switch d := a.shape[i]; {
		case d == shape[lead+i]:
			v.strides[lead+i] = a.strides[i]
		case d == 1:
			// stride 0: every index along the axis reads element 0
		default:
			return nil, fmt.Errorf("cannot broadcast shape %v to %v", a.shape, shape)
		}
	}
	v.view = true
	return &v, nil
}

// byteSpan is the half-open range of byte offsets in the buffer that a's
// elements occupy (empty for a zero-size array).
func (a *Array) byteSpan() (lo, hi int) {
	if a.Size() == 0 {
		return a.off, a.off
	}
	lo, hi = a.off, a.off
	for i, d := range a.shape {
		step := (d - 1) * a.strides[i] * a.dtype.Size()
		if step < 0 {
			lo += step
		} else {
			hi += step
		}
	}
	return lo, hi + a.dtype.Size()
}

// MayOverlap reports whether a and b may share an element: they share a
// buffer and the byte ranges their elements span intersect (NumPy's
// may_share_memory: conservative for interleaved strided views).
func (a *Array) MayOverlap(b *Array) bool {
	if a.buf != b.buf {
		return false
	}
	alo, ahi := a.byteSpan()
	blo, bhi := b.byteSpan()
	return alo < bhi && blo < ahi && alo < ahi && blo < bhi
}

// SameLayout reports whether a and b address the same elements in the
// same order: one buffer, offset, dtype, shape and strides. An elementwise
// kernel that reads a and writes b then reads each element before it
// writes it, so no copy is needed.
func (a *Array) SameLayout(b *Array) bool {
	if a.buf != b.buf || a.off != b.off || a.dtype != b.dtype || len(a.shape) != len(b.shape) {
		return false
	}
	for i := range a.shape {
		if a.shape[i] != b.shape[i] || (a.shape[i] > 1 && a.strides[i] != b.strides[i]) {
			return false
		}
	}
	return true
}
