package kernel

import (
	"math"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// The launch picks the build whose promises its arguments keep.
func TestVariant(t *testing.T) {
	k := &ir.Kernel{Entry: &ir.Func{Params: []ir.Param{{Name: "a", Elem: ir.F32, NDim: 2}, {Name: "s", Elem: ir.F32}}}}
	p := &program{k: k}
	arg := func(shape, strides [2]int) []backend.Arg {
		return []backend.Arg{{Array: backend.Array{Shape: [4]int{shape[0], shape[1]}, Strides: [4]int{strides[0], strides[1]}}}, {}}
	}
	cases := []struct {
		name           string
		shape, strides [2]int
		want           int
	}{
		{"contiguous", [2]int{1 << 20, 3}, [2]int{3, 1}, variantUnitStride | variantIndex32},
		{"strided lanes", [2]int{1 << 20, 3}, [2]int{6, 2}, variantIndex32},
		{"reversed", [2]int{1 << 20, 3}, [2]int{-3, 1}, variantUnitStride | variantIndex32},
		{"just fits", [2]int{1 << 30, 2}, [2]int{1, 1 << 30}, variantIndex32},
		{"too big", [2]int{1 << 30, 3}, [2]int{3, 1}, variantUnitStride},
		{"huge stride", [2]int{1, 2}, [2]int{math.MaxInt32 + 1, 1}, variantUnitStride},
		{"long axis", [2]int{math.MaxInt32 + 1, 1}, [2]int{0, 1}, variantUnitStride},
		{"empty", [2]int{0, 3}, [2]int{1 << 40, 1}, variantUnitStride | variantIndex32},
	}
	for _, c := range cases {
		if got := p.variant(arg(c.shape, c.strides)); got != c.want {
			t.Errorf("%s: variant %b, want %b", c.name, got, c.want)
		}
	}
}
