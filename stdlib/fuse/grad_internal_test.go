package fuse

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
)

// TestGradRefused: an op without an adjoint rule on a path to a leaf that
// requires a gradient is refused, by name, at record time and in the
// backward's walk; off such a path it is no error. No op the engine
// builds from scripts lacks a rule (TestGradOps covers them), so the tree
// is built here.
func TestGradRefused(t *testing.T) {
	x := newArray(t, ir.F64, 4)
	if err := x.A.SetGrad(newArray(t, ir.F64, 4).A); err != nil {
		t.Fatal(err)
	}
	leaf, err := Leaf(x)
	if err != nil {
		t.Fatal(err)
	}
	lane := &Expr{val: interp.Int(1), t: ir.I32}
	e, err := node(ir.OpShfl, ir.F64, ir.F64, leaf, lane)
	if err != nil {
		t.Fatal(err)
	}
	want := "the gradient of shfl is not supported"
	if err := checkRecord(e, nil); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("checkRecord: got %v, want %q", err, want)
	}
	c := &collector{wants: wantsNow}
	if err := c.walk(e, leaf); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("walk: got %v, want %q", err, want)
	}
	plain, err := Leaf(newArray(t, ir.F64, 4))
	if err != nil {
		t.Fatal(err)
	}
	off, err := node(ir.OpShfl, ir.F64, ir.F64, plain, lane)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkRecord(off, nil); err != nil {
		t.Errorf("a refused op off the gradient's path: %v", err)
	}
}
