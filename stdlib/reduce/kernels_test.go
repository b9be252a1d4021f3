package reduce

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

var dtypes = []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64}

// specs lists every reduction of every dtype (pairs for two inputs).
func specs() []Spec {
	var ss []Spec
	for k := Sum; k <= NanArgMax; k++ {
		for _, t := range dtypes {
			if k.Inputs() == 1 {
				ss = append(ss, Spec{Kind: k, In: [2]ir.Type{t}})
				continue
			}
			for _, u := range dtypes {
				ss = append(ss, Spec{Kind: k, In: [2]ir.Type{t, u}})
			}
		}
	}
	return ss
}

// TestKernelsVerify builds every kernel (they verify as they are built).
func TestKernelsVerify(t *testing.T) {
	for _, s := range specs() {
		for _, wide := range []bool{false, true} {
			for rank := 1; rank <= 4; rank++ {
				if _, err := FullKernels(s, nil, rank, wide); err != nil {
					t.Fatalf("%v rank %d wide %v: %v", s, rank, wide, err)
				}
			}
			if s.Kind.Inputs() == 2 {
				continue
			}
			for _, st := range []Strategy{Row, Column} {
				for kept := 0; kept <= 3; kept++ {
					for red := max(1-kept, 0); red+kept <= 4; red++ {
						if _, err := AxisKernel(s, nil, st, kept, red, wide); err != nil {
							t.Fatalf("%v %s kept %d red %d wide %v: %v", s, st, kept, red, wide, err)
						}
					}
				}
			}
		}
	}
	for _, x := range dtypes {
		for _, y := range dtypes {
			if _, err := IsCloseKernel([2]ir.Type{x, y}, 2, false); err != nil {
				t.Fatal(err)
			}
		}
	}
}
