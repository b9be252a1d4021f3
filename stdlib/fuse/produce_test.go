package fuse

import (
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// TestProducerKernels builds fused reductions of expressions, full and
// along an axis (they verify as they are built), and prints them as CUDA
// C; trees of different shape get different kernels, one tree one kernel.
func TestProducerKernels(t *testing.T) {
	must := mustf(t)
	f := newArray(t, ir.F32, 2, 3)
	row := newArray(t, ir.F32, 3)
	i := newArray(t, ir.I32, 2, 3)
	cases := []struct {
		kind  reduce.Kind
		roots []interp.Value
	}{
		{reduce.Sum, []interp.Value{must(Binary(token.Mul, f, row))}},
		{reduce.Max, []interp.Value{must(Math("abs", must(Binary(token.Sub, f, i))))}},
		{reduce.CountNonzero, []interp.Value{must(Binary(token.Gtr, i, interp.Int(0)))}},
		{reduce.Dot, []interp.Value{must(Binary(token.Mul, f, interp.Float(2))), f}},
		{reduce.AllClose, []interp.Value{must(Binary(token.Add, f, f)), must(Binary(token.Mul, f, interp.Float(2)))}},
	}
	seen := map[*ir.Kernel]bool{}
	for _, c := range cases {
		roots := make([]*Expr, len(c.roots))
		for j, v := range c.roots {
			var err error
			if roots[j], err = Leaf(v); err != nil {
				t.Fatal(err)
			}
		}
		pr, err := NewProducer(roots...)
		if err != nil {
			t.Fatal(err)
		}
		s := reduce.Spec{Kind: c.kind}
		copy(s.In[:], pr.Types())
		k, err := reduce.FullKernels(s, pr, 2, false)
		if err != nil {
			t.Fatalf("%s of %s: %v", c.kind, pr.Key(), err)
		}
		if seen[k.Pass1] {
			t.Errorf("%s of %s: a kernel of another tree", c.kind, pr.Key())
		}
		seen[k.Pass1] = true
		if again, _ := reduce.FullKernels(s, pr, 2, false); again.Pass1 != k.Pass1 {
			t.Errorf("%s of %s built twice", c.kind, pr.Key())
		}
		for _, unit := range []bool{false, true} {
			if _, err := codegen.Source(k.Pass1, codegen.Options{UnitStride: unit}); err != nil {
				t.Errorf("%s of %s: %v", c.kind, pr.Key(), err)
			}
		}
		if c.kind.Inputs() == 2 {
			continue
		}
		for _, st := range []reduce.Strategy{reduce.Row, reduce.Column} {
			ak, err := reduce.AxisKernel(s, pr, st, 1, 1, false)
			if err != nil {
				t.Fatalf("%s of %s along an axis: %v", c.kind, pr.Key(), err)
			}
			if _, err := codegen.Source(ak, codegen.Options{}); err != nil {
				t.Errorf("%s of %s along an axis: %v", c.kind, pr.Key(), err)
			}
		}
	}
}
