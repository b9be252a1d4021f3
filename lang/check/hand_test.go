package check

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/lang/token"
)

// These tests build ASTs by hand so they do not depend on the parser.

func hp(line, col int) ast.Pos { return ast.Pos{File: "t.gs", Line: line, Col: col} }

func hid(name string, line, col int) *ast.Ident { return &ast.Ident{Pos: hp(line, col), Name: name} }

func TestHandSaxpy(t *testing.T) {
	// kernel saxpy(x: array[f32], y: array[f32], a: f32) {
	//     let i = tid()
	//     y[i] = a * x[i] + y[i]
	// }
	f32 := &ast.TypeExpr{Name: "f32"}
	arr := &ast.TypeExpr{Name: "array", Elem: f32, NDim: 1}
	k := &ast.KernelDecl{Pos: hp(1, 1), Name: hid("saxpy", 1, 8),
		Params: []*ast.Param{{Name: hid("x", 1, 14), Type: arr}, {Name: hid("y", 1, 30), Type: arr}, {Name: hid("a", 1, 46), Type: f32}},
		Body: &ast.Block{Pos: hp(1, 54), Stmts: []ast.Stmt{
			&ast.LetStmt{Pos: hp(2, 5), Names: []*ast.Ident{hid("i", 2, 9)},
				Value: &ast.CallExpr{Fun: hid("tid", 2, 13), Lparen: hp(2, 16)}},
			&ast.AssignStmt{Pos: hp(3, 5), Op: token.Assign, OpPos: hp(3, 10),
				Target: &ast.IndexExpr{X: hid("y", 3, 5), Lbrack: hp(3, 6), Indices: []ast.Expr{hid("i", 3, 7)}},
				Value: &ast.BinaryExpr{Op: token.Add, OpPos: hp(3, 23),
					X: &ast.BinaryExpr{Op: token.Mul, OpPos: hp(3, 16), X: hid("a", 3, 14),
						Y: &ast.IndexExpr{X: hid("x", 3, 18), Lbrack: hp(3, 19), Indices: []ast.Expr{hid("i", 3, 20)}}},
					Y: &ast.IndexExpr{X: hid("y", 3, 25), Lbrack: hp(3, 26), Indices: []ast.Expr{hid("i", 3, 27)}}}},
		}, End: hp(4, 1)}}
	c := NewChecker(nil)
	info, err := c.Check(&ast.File{Name: "t.gs", Stmts: []ast.Stmt{k}})
	if err != nil {
		t.Fatal(err)
	}
	got := Dump(info.Kernels[k])
	want := `kernel saxpy(x: array[f32], y: array[f32], a: f32) tid=1
  r0:f32 = param a
  r1:i32 = tid 0
  r2:i32 = mov r1
  r3:f32 = load x[r2]
  r4:f32 = mul r0, r3
  r5:f32 = load y[r2]
  r6:f32 = add r4, r5
  store y[r2] = r6
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if k.Name.Scope != ast.ScopeGlobal || info.NumGlobals != 1 {
		t.Errorf("kernel name not a global: %+v, NumGlobals %d", k.Name, info.NumGlobals)
	}
	if !strings.Contains(got, "load x") {
		t.Error("no load")
	}
}

// TestBuiltinsFromOpTable: every math builtin names an op of the table
// with its arity, so the checker and the backends agree on it.
func TestBuiltinsFromOpTable(t *testing.T) {
	if len(mathNames) != 31 {
		t.Errorf("%d math builtins: %v", len(mathNames), mathNames)
	}
	for _, name := range mathNames {
		op, ok := ir.OpByBuiltin(name)
		if !ok || mathBuiltins[name].op != op || mathBuiltins[name].n < 1 {
			t.Errorf("math builtin %s is not an op of the table (%v, %+v)", name, ok, mathBuiltins[name])
		}
	}
	if len(atomicOps) != 5 {
		t.Errorf("atomic builtins %v", atomicOps)
	}
}

// TestDumpMultiResult: Dump prints a func's several results, a return
// of several values and a call's destinations, "_" for a dropped one.
func TestDumpMultiResult(t *testing.T) {
	for _, c := range irtest.Calls() {
		if c.Name != "dropped" {
			continue
		}
		got := Dump(c.Kernel)
		want := `kernel k(a: array[f32], out: array[f32]) tid=1 atomics print
  r0:i32 = tid 0
  r1:f32 = load a[r0]
  call f0(r1)
  _, r2:f32, _ = call f0(r1)
  store out[r0] = r2
func f0 spread(v: f32) -> (f32, f32, f32)
  r0:f32 = param v
  r1:f32 = add r0, r0
  r2:f32 = mul r0, r0
  return r0, r1, r2
`
		if got != want {
			t.Errorf("got\n%s\nwant\n%s", got, want)
		}
		return
	}
	t.Fatal("no dropped case")
}
