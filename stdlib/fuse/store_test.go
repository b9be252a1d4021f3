package fuse

import (
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/runtime/mem"
)

var dtypes = []ir.Type{ir.Bool, ir.U8, ir.I32, ir.I64, ir.U32, ir.U64, ir.F32, ir.F64}

// TestStoreKernels: the store engine's kernels for a fill (a scalar leaf)
// and a converting copy (an array leaf) of every dtype pair and rank, flat
// and strided, verify and print as CUDA.
func TestStoreKernels(t *testing.T) {
	for _, dt := range dtypes {
		for _, st := range dtypes {
			for nd := 1; nd <= mem.MaxDims; nd++ {
				shape := []int{4, 3, 2, 2}[:nd]
				dst := newArray(t, dt, shape...).A
				strided, err := dst.View([]mem.Sel{{Slice: true, Count: 2, Step: 2}})
				if err != nil {
					t.Fatal(err)
				}
				fill, err := Leaf(interp.ConvertScalarBits(st, 0))
				if err != nil {
					t.Fatal(err)
				}
				src, err := Leaf(newArray(t, st, strided.Shape()...))
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range []struct {
					e   *Expr
					out *mem.Array
				}{{fill, dst}, {fill, strided}, {src, strided}} {
					p := newPlan(c.e, c.out)
					k := p.kernel()
					if err := ir.Verify(k); err != nil {
						t.Errorf("%s: %v", p.key(), err)
					}
					if _, err := codegen.Source(k, codegen.Options{UnitStride: true}); err != nil {
						t.Errorf("%s: codegen: %v", p.key(), err)
					}
				}
			}
		}
	}
}

// TestOneStoreEngine: a fill and a copy by slice assignment run the
// engine's kernels (in the process cache under their plans' keys), not
// kernels of their own.
func TestOneStoreEngine(t *testing.T) {
	defer kernelsOnly()()
	in, err := interp.New(interp.Options{Device: "cpu", Predeclared: map[string]interp.Value{}})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := "array y: u32[8]\narray x: i64[8] = 7\ny[:] = 3\ny[::2] = x[1::2]\n"
	if err := in.Exec(t.Context(), "store.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"gscript_fused_flat_u32=s0:u32", "gscript_fused_nd1_u32=a0:i64"} {
		built := false
		interp.GeneratedKernel(key, func() (*ir.Kernel, error) { built = true; return nil, nil })
		if built {
			t.Errorf("no store kernel %s: the assignment ran another engine", key)
		}
	}
}
