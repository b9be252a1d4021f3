package mem

import (
	"fmt"
	"slices"
)

// Permute returns the view whose axis i is a's axis axes[i] (NumPy's
// transpose(a, axes)): the same elements, in another order. The standard
// library's reductions move the reduced axes last with it.
func (a *Array) Permute(axes []int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if len(axes) != len(a.shape) {
		return nil, fmt.Errorf("permutation %v of a %d-D array", axes, len(a.shape))
	}
	seen := make([]bool, len(axes))
	v := *a
	v.shape, v.strides = make([]int, len(axes)), make([]int, len(axes))
	for i, ax := range axes {
		if ax < 0 || ax >= len(axes) || seen[ax] {
			return nil, fmt.Errorf("%v is not a permutation of the axes of a %d-D array", axes, len(axes))
		}
		seen[ax] = true
		v.shape[i], v.strides[i] = a.shape[ax], a.strides[ax]
	}
	v.view = true
	return &v, nil
}

// MergeAxes returns the view with axes lo..hi-1 merged into one axis of
// their total extent. It needs those axes to step through memory as one
// axis would (each stride the next one times the next extent; axes of
// extent 1 do not count), so that the view holds exactly a's elements in
// the same C order; a reshape that keeps a strided view a view.
func (a *Array) MergeAxes(lo, hi int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if lo < 0 || hi > len(a.shape) || hi-lo < 1 {
		return nil, fmt.Errorf("cannot merge axes %d..%d of a %d-D array", lo, hi-1, len(a.shape))
	}
	stride, ok := MergedStride(a.shape[lo:hi], a.strides[lo:hi])
	if !ok {
		return nil, fmt.Errorf("axes %d..%d of shape %v with strides %v do not merge into one", lo, hi-1, a.shape, a.strides)
	}
	n := 1
	for _, d := range a.shape[lo:hi] {
		n *= d
	}
	v := *a
	v.shape = slices.Concat(a.shape[:lo], []int{n}, a.shape[hi:])
	v.strides = slices.Concat(a.strides[:lo], []int{stride}, a.strides[hi:])
	v.view = true
	return &v, nil
}

// MergedStride reports whether axes of these extents and strides step
// through memory as one axis, and that axis's stride. Axes of extent 1
// are skipped; an empty array (an extent 0) always merges.
func MergedStride(shape, strides []int) (int, bool) {
	if slices.Contains(shape, 0) {
		return 1, true
	}
	stride, prev := 1, -1
	for k, d := range shape {
		if d == 1 {
			continue
		}
		if prev >= 0 && strides[prev] != strides[k]*d {
			return 0, false
		}
		prev, stride = k, strides[k]
	}
	return stride, true
}

// Sel selects along one axis of a view: an index, which drops the axis, or
// (Slice) the Count elements from Start in steps of Step, as SliceBounds
// gives them.
type Sel struct {
	Slice              bool
	Start, Count, Step int
}

// SliceBounds resolves lo:hi:step over an axis of n elements as Python
// and NumPy do (a missing bound is nil: the whole axis in the step's
// direction; a negative bound counts from the end; bounds past either end
// are clamped) and returns the first index and the element count. A step
// of 0 is an error.
func SliceBounds(n int, lo, hi *int, step int) (start, count int, err error) {
	if step == 0 {
		return 0, 0, fmt.Errorf("slice step cannot be zero")
	}
	if step > 0 {
		start, stop := clampBound(lo, 0, 0, n), clampBound(hi, n, 0, n)
		if stop <= start {
			return 0, 0, nil
		}
		return start, (stop - start + step - 1) / step, nil
	}
	// Going down, a missing hi means past index 0 (-1), which no written
	// bound can say (a written -1 is the last element).
	start, stop := clampBound(lo, n-1, -1, n-1), clampBound(hi, -1, -1, n-1)
	if start <= stop {
		return 0, 0, nil
	}
	return start, (start-stop-1)/(-step) + 1, nil
}

// clampBound is a slice bound over n elements (def when missing), counted
// from the end when negative and clamped to lo..hi, as Python's
// slice.indices does.
func clampBound(b *int, def, lo, hi int) int {
	if b == nil {
		return def
	}
	i := *b
	if i < 0 {
		i += hi - lo
	}
	return min(max(i, lo), hi)
}

// WrapIndex is the index i into axis of n elements, counted from the end
// when negative (NumPy's a[-1]); outside -n..n-1 it is an error naming i,
// the axis and n.
func WrapIndex(i, axis, n int) (int, error) {
	if i < -n || i >= n {
		return 0, fmt.Errorf("index %d out of bounds for axis %d with size %d", i, axis, n)
	}
	if i < 0 {
		i += n
	}
	return i, nil
}

// WrapAxis is the axis ax of an ndim-D array, counted from the last when
// negative (NumPy's axis=-1); outside -ndim..ndim-1 it is an error.
func WrapAxis(ax, ndim int) (int, error) {
	if ax < -ndim || ax >= ndim {
		return 0, fmt.Errorf("axis %d is out of range for a %d-D array", ax, ndim)
	}
	if ax < 0 {
		ax += ndim
	}
	return ax, nil
}

// View applies one Sel per leading axis (the axes after them are kept
// whole): a strided view sharing a's buffer, with an element offset and
// strides multiplied by the steps (negative for a negative step). Views of
// views compose. Dropping every axis is not a view: index the element.
func (a *Array) View(sels []Sel) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if len(sels) > len(a.shape) {
		return nil, fmt.Errorf("too many indices for a %d-D array: %d", len(a.shape), len(sels))
	}
	v := *a
	v.shape, v.strides, v.view = nil, nil, true
	for k, s := range sels {
		n := a.shape[k]
		if err := s.check(k, n); err != nil {
			return nil, err
		}
		if s.Slice && s.Count == 0 {
			v.shape, v.strides = append(v.shape, 0), append(v.strides, a.strides[k])
			continue
		}
		v.off += s.Start * a.strides[k] * a.dtype.Size()
		if s.Slice {
			v.shape, v.strides = append(v.shape, s.Count), append(v.strides, a.strides[k]*s.Step)
		}
	}
	v.shape = append(v.shape, a.shape[len(sels):]...)
	v.strides = append(v.strides, a.strides[len(sels):]...)
	if len(v.shape) == 0 {
		return nil, fmt.Errorf("an index for every axis selects one element, not a view")
	}
	return &v, nil
}

// check refuses a selection that reaches outside an axis of n elements.
func (s Sel) check(axis, n int) error {
	if !s.Slice {
		if s.Start < 0 || s.Start >= n {
			return fmt.Errorf("index %d out of bounds for axis %d with size %d", s.Start, axis, n)
		}
		return nil
	}
	last := s.Start + (s.Count-1)*s.Step
	if s.Step == 0 || s.Count < 0 || s.Count > 0 && (s.Start < 0 || s.Start >= n || last < 0 || last >= n) {
		return fmt.Errorf("slice of %d from %d step %d out of bounds for axis %d with size %d", s.Count, s.Start, s.Step, axis, n)
	}
	return nil
}

// Transpose is the view with the axes reversed (NumPy's a.T).
func (a *Array) Transpose() (*Array, error) {
	axes := make([]int, len(a.shape))
	for i := range axes {
		axes[i] = len(axes) - 1 - i
	}
	return a.Permute(axes)
}
