package interp

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// TestCheckAdjointsIR: the IR check passes what lang/check passed, and
// an adjoint whose IR does not fit (here a checked map pointed at the
// wrong kernel, which lang/check never builds) is ad.CheckCustom's error
// at the clause.
func TestCheckAdjointsIR(t *testing.T) {
	src := `kernel k(x: array[vec3], a: f32) adjoint k_adj {}
kernel k_adj(x: array[vec3], a: f32, g: array[vec3]) {}
kernel other(x: array[f32]) {}
`
	f, err := syntax.Parse("t.gs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	info, err := check.NewChecker(func(string) bool { return false }).Check(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkAdjoints(info); err != nil {
		t.Fatalf("a checked adjoint: %v", err)
	}
	k, other := f.Stmts[0].(*ast.KernelDecl), f.Stmts[2].(*ast.KernelDecl)
	info.Adjoints[k] = other
	err = checkAdjoints(info)
	if err == nil || !strings.HasPrefix(err.Error(), "t.gs:1:42: kernel other, the adjoint of k: has 1 parameters, want 3") {
		t.Fatalf("error %v, want ad.CheckCustom's at 1:42", err)
	}
}
