package mem

import (
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

func TestBroadcastTo(t *testing.T) {
	tr := NewTracker(nil)
	a, err := tr.New(HostAllocator{}, CPUDevice, ir.F32, []int{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.BroadcastTo([]int{2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Strides(), []int{0, 1, 0}) || !slices.Equal(v.Shape(), []int{2, 3, 4}) {
		t.Errorf("strides %v shape %v", v.Strides(), v.Shape())
	}
	if _, err := a.BroadcastTo([]int{4, 2}); err == nil {
		t.Error("[3, 1] to [4, 2]: no error")
	}
	lo, _ := a.Slice(0, 2)
	hi, _ := a.Slice(2, 3)
	if lo.MayOverlap(hi) || !lo.MayOverlap(a) || lo.SameLayout(a) || !a.SameLayout(a) {
		t.Error("overlap or layout wrong")
	}
}
