package mem

import (
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

func TestPermuteAndMerge(t *testing.T) {
	tr := NewTracker(nil)
	a, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	p, err := a.Permute([]int{2, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Shape(), []int{4, 2, 3}) || !slices.Equal(p.Strides(), []int{1, 12, 4}) || !p.IsView() || p.IsContiguous() {
		t.Fatalf("Permute: shape %v strides %v view %v", p.Shape(), p.Strides(), p.IsView())
	}
	// the permuted view's last two axes are a's first two: they merge.
	m, err := p.MergeAxes(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Shape(), []int{4, 6}) || !slices.Equal(m.Strides(), []int{1, 4}) {
		t.Fatalf("MergeAxes: shape %v strides %v", m.Shape(), m.Strides())
	}
	if _, err := p.MergeAxes(0, 2); err == nil || !strings.Contains(err.Error(), "do not merge") {
		t.Errorf("merging axes that are not one axis in memory: %v", err)
	}
	for _, bad := range [][]int{{0, 1}, {0, 0, 1}, {0, 1, 3}} {
		if _, err := a.Permute(bad); err == nil {
			t.Errorf("Permute(%v) accepted", bad)
		}
	}
	if _, err := a.MergeAxes(2, 2); err == nil {
		t.Error("MergeAxes of no axes accepted")
	}
}

func TestMergedStride(t *testing.T) {
	for _, tt := range []struct {
		shape, strides []int
		stride         int
		ok             bool
	}{
		{[]int{3, 4}, []int{4, 1}, 1, true},
		{[]int{3, 4}, []int{8, 2}, 2, true},
		{[]int{3, 4}, []int{5, 1}, 0, false},
		{[]int{3, 1, 4}, []int{4, 99, 1}, 1, true}, // an axis of one element has no stride that matters
		{[]int{3, 0}, []int{5, 1}, 1, true},        // no elements
		{[]int{1, 1}, []int{7, 9}, 1, true},
	} {
		s, ok := MergedStride(tt.shape, tt.strides)
		if ok != tt.ok || (ok && s != tt.stride) {
			t.Errorf("MergedStride(%v, %v) = %d, %v; want %d, %v", tt.shape, tt.strides, s, ok, tt.stride, tt.ok)
		}
	}
}
