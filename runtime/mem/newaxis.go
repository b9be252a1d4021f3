package mem

import (
	"fmt"
	"slices"
)

// NewAxis returns the view of a with an axis of extent 1 inserted before
// axis (NumPy's expand_dims): the same elements, any strides kept.
// matmul sees every operand as a stack of matrices through it.
func (a *Array) NewAxis(axis int) (*Array, error) {
	if a.Freed() {
		return nil, ErrFreed
	}
	if axis < 0 || axis > len(a.shape) {
		return nil, fmt.Errorf("axis %d out of range for a %d-D array", axis, len(a.shape))
	}
	v := *a
	v.shape = slices.Insert(slices.Clone(a.shape), axis, 1)
	v.strides = slices.Insert(slices.Clone(a.strides), axis, 0)
	v.view = true
	return &v, nil
}
