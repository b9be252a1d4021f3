package check

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

type wantIdent struct {
	name       string
	line, nth  int
	scope      ast.Scope
	depth, idx int
}

func checkIdents(t *testing.T, f *ast.File, want []wantIdent) {
	t.Helper()
	for _, w := range want {
		id := identAt(t, f, w.name, w.line, w.nth)
		if id.Scope != w.scope || id.Depth != w.depth || id.Index != w.idx {
			t.Errorf("%s line %d #%d: got scope %d depth %d index %d, want scope %d depth %d index %d",
				w.name, w.line, w.nth, id.Scope, id.Depth, id.Index, w.scope, w.depth, w.idx)
		}
	}
}

const (
	L = ast.ScopeLocal
	G = ast.ScopeGlobal
	P = ast.ScopePredeclared
)

func TestResolveFrames(t *testing.T) {
	src := `let a = 1
fn f(x) {
    let y = x + a
    fn g() { return y + x + h() }
    fn h() { return 1 }
    let y = y + 1
    return g
}
print(f(2))
`
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	// f is hoisted before a is declared: f = global 0, a = global 1.
	// In f: x = 0 (param), g = 1 and h = 2 (hoisted), y = 3, then y = 4.
	checkIdents(t, f, []wantIdent{
		{"a", 1, 0, G, 0, 1},
		{"f", 2, 0, G, 0, 0},
		{"x", 2, 0, L, 0, 0},
		{"y", 3, 0, L, 0, 3},
		{"x", 3, 0, L, 0, 0},
		{"a", 3, 0, G, 0, 1},
		{"g", 4, 0, L, 0, 1},
		{"y", 4, 0, L, 1, 3},
		{"x", 4, 0, L, 1, 0},
		{"h", 4, 0, L, 1, 2},
		{"h", 5, 0, L, 0, 2},
		{"y", 6, 0, L, 0, 4}, // the new y
		{"y", 6, 1, L, 0, 3}, // its initializer reads the old y
		{"g", 7, 0, L, 0, 1},
		{"print", 9, 0, P, 0, 0},
		{"f", 9, 0, G, 0, 0},
	})
	fn := f.Stmts[1].(*ast.FnDecl)
	if fn.NumLocals != 5 {
		t.Errorf("f.NumLocals = %d, want 5", fn.NumLocals)
	}
	g := fn.Body.Stmts[1].(*ast.FnDecl)
	if g.NumLocals != 0 {
		t.Errorf("g.NumLocals = %d, want 0", g.NumLocals)
	}
}

func TestResolveBlocksAndLoops(t *testing.T) {
	src := `let n = 3
for i in range(n) {
    let sq = i * i
    if sq > 2 { break }
}
{
    let b = n
}
let print = 1
print = 2
array x: f32[n] = 1.0 on "cpu" using mempool
zeros(3, dtype=f32)
allocator managed { capture g { launch k[n](x) }
    replay(g) }
config.debug = true
kernel k(x: array[f32]) { }
`
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	// k hoisted: 0; n: 1; i: 2; sq: 3; b: 4; print: 5; x: 6; g: 7.
	checkIdents(t, f, []wantIdent{
		{"k", 16, 0, G, 0, 0},
		{"n", 1, 0, G, 0, 1},
		{"i", 2, 0, G, 0, 2},
		{"sq", 3, 0, G, 0, 3},
		{"i", 3, 0, G, 0, 2},
		{"sq", 4, 0, G, 0, 3},
		{"b", 7, 0, G, 0, 4},
		{"print", 9, 0, G, 0, 5},
		{"print", 10, 0, G, 0, 5},
		{"x", 11, 0, G, 0, 6},
		{"range", 2, 0, P, 0, 0},
		{"zeros", 12, 0, P, 0, 0},
		{"k", 13, 0, G, 0, 0},
		{"x", 13, 0, G, 0, 6},
		{"g", 13, 0, G, 0, 7},
		{"g", 14, 0, G, 0, 7},
		{"config", 15, 0, P, 0, 0},
	})
	// Names that are not variable uses stay unresolved.
	for _, w := range []struct {
		name string
		line int
	}{{"f32", 11}, {"mempool", 11}, {"dtype", 12}, {"managed", 13}, {"debug", 15}} {
		if id := identAt(t, f, w.name, w.line, 0); id.Scope != ast.ScopeUnresolved {
			t.Errorf("%s on line %d resolved to %d", w.name, w.line, id.Scope)
		}
	}
}

func TestResolveHoisting(t *testing.T) {
	src := "print(even(4))\nfn even(n) { if n == 0 { return true }; return odd(n - 1) }\nfn odd(n) { if n == 0 { return false }; return even(n - 1) }"
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	checkIdents(t, f, []wantIdent{{"even", 1, 0, G, 0, 0}, {"odd", 2, 0, G, 0, 1}, {"even", 3, 0, G, 0, 0}})
}

func TestREPLPersistence(t *testing.T) {
	c := newTestChecker()
	mustCheck := func(src string) (*ast.File, *Info) {
		t.Helper()
		f := parse(t, src)
		info, err := c.Check(f)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		return f, info
	}
	_, info := mustCheck("let a = 1\nfn get() { return a }")
	if info.NumGlobals != 2 {
		t.Fatalf("NumGlobals = %d, want 2", info.NumGlobals)
	}
	f, _ := mustCheck("print(a + get())")
	checkIdents(t, f, []wantIdent{{"a", 1, 0, G, 0, 1}, {"get", 1, 0, G, 0, 0}})

	// Redeclaring gets a new slot; earlier closures keep the old one.
	f, info = mustCheck("let a = 2\nprint(a)")
	checkIdents(t, f, []wantIdent{{"a", 1, 0, G, 0, 2}, {"a", 2, 0, G, 0, 2}})
	if info.NumGlobals != 3 {
		t.Fatalf("NumGlobals = %d, want 3", info.NumGlobals)
	}

	// A failed chunk defines nothing and allocates nothing.
	bad := parse(t, "let b = 1\nfunc sq(x: f32) -> f32 { return x * x }\nprint(nope)")
	if _, err := c.Check(bad); err == nil {
		t.Fatal("want error")
	}
	if _, err := c.Check(parse(t, "print(b)")); err == nil {
		t.Fatal("b leaked from a failed chunk")
	}
	if _, err := c.Check(parse(t, "kernel k(x: array[f32]) { x[0] = sq(1) }")); err == nil {
		t.Fatal("func sq leaked from a failed chunk")
	}
	_, info = mustCheck("let c = 1")
	if info.NumGlobals != 4 {
		t.Fatalf("NumGlobals = %d after a failed chunk, want 4", info.NumGlobals)
	}
	// Kernels of later chunks see earlier globals as host variables.
	if _, err := c.Check(parse(t, "kernel kk(x: array[f32]) { x[0] = c }")); err == nil ||
		!regexp.MustCompile(`kernel kk cannot use host variable c; pass it as a parameter`).MatchString(err.Error()) {
		t.Fatalf("host variable from an earlier chunk: %v", err)
	}
	names := c.GlobalNames()
	if len(names) != 3 || names["a"] != 2 || names["get"] != 0 || names["c"] != 3 {
		t.Fatalf("GlobalNames = %v", names)
	}
	names["zzz"] = 9 // a copy: must not change the checker
	if _, ok := c.GlobalNames()["zzz"]; ok {
		t.Fatal("GlobalNames returned internal map")
	}
}

func TestREPLFuncs(t *testing.T) {
	c := newTestChecker()
	if _, err := c.Check(parse(t, "func sq(x: f32) -> f32 { return x * x }")); err != nil {
		t.Fatal(err)
	}
	f := parse(t, "func quad(x: f32) -> f32 { return sq(sq(x)) }\nkernel k(v: array[f32]) { let i = tid(); v[i] = quad(v[i]) + sq(2) }")
	info, err := c.Check(f)
	if err != nil {
		t.Fatal(err)
	}
	k := info.Kernels[f.Stmts[1].(*ast.KernelDecl)]
	validate(t, k)
	if len(k.Funcs) != 2 || k.Funcs[0].Name != "quad" || k.Funcs[1].Name != "sq" {
		t.Fatalf("funcs: %s", Dump(k))
	}
	// A later redeclaration of sq does not change quad.
	if _, err := c.Check(parse(t, "func sq(x: f64) -> f64 { return x }")); err != nil {
		t.Fatal(err)
	}
	f = parse(t, "kernel k2(v: array[f32]) { v[0] = quad(v[0]) }")
	info, err = c.Check(f)
	if err != nil {
		t.Fatal(err)
	}
	k = info.Kernels[f.Stmts[0].(*ast.KernelDecl)]
	validate(t, k)
	if k.Funcs[1].Params[0].Elem.String() != "f32" {
		t.Fatalf("quad calls the new sq:\n%s", Dump(k))
	}
}

func TestSharedFuncPerKernel(t *testing.T) {
	src := "func sq(a: f32) -> f32 { return a * a }\nfunc unused(a: i32) -> i32 { return a }\n" +
		"kernel k1(x: array[f32]) { x[0] = sq(x[0]) }\nkernel k2(x: array[f32]) { x[0] = sq(sq(1)) }\nkernel k3() { }"
	f := parse(t, src)
	info, err := newTestChecker().Check(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(info.Kernels) != 3 {
		t.Fatalf("%d kernels", len(info.Kernels))
	}
	for _, s := range f.Stmts {
		kd, ok := s.(*ast.KernelDecl)
		if !ok {
			continue
		}
		k := info.Kernels[kd]
		validate(t, k)
		want := 1
		if kd.Name.Name == "k3" {
			want = 0
			if k.TidDims != 0 || k.UsesAtomics || k.UsesPrint {
				t.Errorf("k3 flags: %+v", k)
			}
		}
		if len(k.Funcs) != want {
			t.Errorf("%s: %d funcs, want %d", kd.Name.Name, len(k.Funcs), want)
		}
	}
}

// A for loop records whether its body reads the loop variable (directly or
// from a closure), so that the interpreter can skip storing it.
func TestForVarUsed(t *testing.T) {
	src := `for i in range(2) { print(1) }
for i in range(2) { fn f() { return i } }
for i in range(2) { for i in range(2) { print(i) } }
for i in range(2) { i = 5 }
fn g() { for j in range(2) { print(j) } }
`
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	var got []bool
	var walk func(ss []ast.Stmt)
	walk = func(ss []ast.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ast.ForStmt:
				got = append(got, s.VarUsed)
				walk(s.Body.Stmts)
			case *ast.FnDecl:
				walk(s.Body.Stmts)
			}
		}
	}
	walk(f.Stmts)
	// An assignment resolves the name too: conservatively "used".
	want := []bool{false, true, false, true, true, true}
	if !slices.Equal(got, want) {
		t.Errorf("VarUsed = %v, want %v", got, want)
	}
}

// A const of an earlier REPL entry stays a const for later entries'
// kernels and assignments, until a later top-level let hides it.
func TestREPLConsts(t *testing.T) {
	c := newTestChecker()
	if _, err := c.Check(parse(t, "const N = 8")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(parse(t, "kernel k(x: array[f32]) block(N) { shared t: f32[N] }\nconst M = N * 2")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(parse(t, "M = 1")); err == nil || !strings.Contains(err.Error(), "cannot assign to const M") {
		t.Fatalf("assigning a const of an earlier entry: %v", err)
	}
	if _, err := c.Check(parse(t, "let N = 3\nN = 4")); err != nil {
		t.Fatal(err)
	}
	_, err := c.Check(parse(t, "kernel k2() block(N) { }"))
	if err == nil || !strings.Contains(err.Error(), "cannot use host variable N") {
		t.Fatalf("a let that hides a const: %v", err)
	}
}

// TestREPLStructs checks that structs persist across chunks like consts,
// that a failed chunk's structs are not kept, and Info.Structs.
func TestREPLStructs(t *testing.T) {
	c := newTestChecker()
	f := parse(t, "struct P { a: f32, b: vec3 }")
	info, err := c.Check(f)
	if err != nil {
		t.Fatal(err)
	}
	s := info.Structs[f.Stmts[0].(*ast.StructDecl)]
	if s == nil || s.Name != "P" || s.Size != 16 || len(s.Fields) != 2 || s.Fields[1].Offset != 4 {
		t.Fatalf("Info.Structs: %+v", s)
	}
	if _, err := c.Check(parse(t, "struct Q { p: P, m: f64 }\nkernel k(q: Q, ps: array[P]) { }")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(parse(t, "struct R { a: Nope }")); err == nil {
		t.Fatal("a struct of an unknown field type checked")
	}
	_, err = c.Check(parse(t, "kernel k2(r: R) { }"))
	if err == nil || !strings.Contains(err.Error(), "unknown type R") {
		t.Fatalf("a failed entry's struct: %v", err)
	}
	if _, err := c.Check(parse(t, "P = 1")); err == nil || !strings.Contains(err.Error(), "cannot assign to struct type P") {
		t.Fatalf("assigning a struct of an earlier entry: %v", err)
	}
	// A later entry may declare the name again: a new type in a new slot.
	if _, err := c.Check(parse(t, "struct P { x: i32 }\nkernel k3(p: P, q: Q) { }")); err != nil {
		t.Fatal(err)
	}
}
