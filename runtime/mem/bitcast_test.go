package mem

import (
	"math"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// TestBitcast: a bit view shares the bytes and keeps the shape and
// strides; sizes must match and bool takes no part.
func TestBitcast(t *testing.T) {
	a, err := NewTracker(nil).New(HostAllocator{}, CPUDevice, ir.F32, []int{2, 3})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	col, err := a.View([]Sel{{Slice: true, Count: 2, Step: 1}, {Start: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := col.Bitcast(ir.U32)
	if err != nil {
		t.Fatal(err)
	}
	if u.DType() != ir.U32 || !u.IsView() || u.Shape()[0] != 2 || u.Strides()[0] != 3 {
		t.Fatalf("view: %s %v %v", u.DType(), u.Shape(), u.Strides())
	}
	if err := u.StoreElem(3, uint64(math.Float32bits(2.5))); err != nil {
		t.Fatal(err)
	}
	if bits, _ := a.LoadElem(4); math.Float32frombits(uint32(bits)) != 2.5 {
		t.Errorf("a[1, 1] = %#x after the store through the bit view", bits)
	}
	for _, to := range []ir.Type{ir.F64, ir.U8, ir.Bool} {
		if _, err := a.Bitcast(to); err == nil {
			t.Errorf("Bitcast(%s) of f32: no error", to)
		}
	}
}
