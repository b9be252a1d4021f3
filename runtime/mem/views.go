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
