package check

import (
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

// The host language v3's binding forms get slots in the existing scheme:
// params first, then declarations in order; a multi-name for's names are
// consecutive slots, a catch's name is a slot of the enclosing frame.
func TestResolveHostV3(t *testing.T) {
	src := `fn f(l) {
    for i, v in range(l) { print(i, v) }
    try { print("x") } catch e { print(e) }
    let a, b = 1, 2
    a, l[0] = b, {a: b}
    return a, b
}
for k, v in {"x": 1}.items() { print(k, v) }
`
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	// In f: l = 0, i = 1, v = 2, e = 3, a = 4, b = 5.
	checkIdents(t, f, []wantIdent{
		{"l", 1, 0, L, 0, 0},
		{"i", 2, 0, L, 0, 1},
		{"v", 2, 0, L, 0, 2},
		{"v", 2, 1, L, 0, 2},
		{"e", 3, 0, L, 0, 3},
		{"e", 3, 1, L, 0, 3},
		{"a", 4, 0, L, 0, 4},
		{"b", 4, 0, L, 0, 5},
		{"a", 5, 0, L, 0, 4},
		{"l", 5, 0, L, 0, 0},
		{"b", 5, 0, L, 0, 5},
		{"a", 5, 1, L, 0, 4},
		{"b", 5, 1, L, 0, 5},
		{"a", 6, 0, L, 0, 4},
		// top level: f = global 0, then k = 1, v = 2
		{"k", 8, 0, G, 0, 1},
		{"v", 8, 0, G, 0, 2},
		{"v", 8, 1, G, 0, 2},
	})
	fn := f.Stmts[0].(*ast.FnDecl)
	if fn.NumLocals != 6 {
		t.Errorf("f.NumLocals = %d, want 6", fn.NumLocals)
	}
	if !f.Stmts[1].(*ast.ForStmt).VarUsed {
		t.Error("a multi-name for whose body reads its names has VarUsed false")
	}
}

// A fn escapes when a fn is declared anywhere inside it, at any depth;
// a fn with no fn inside does not.
func TestResolveEscapes(t *testing.T) {
	src := `fn leaf() { return 1 }
fn direct() { fn g() { return 1 }; return g }
fn deep() { if true { while true { for i in range(1) { try { } catch { fn g() { } } } } } }
fn outer() {
    fn mid() {
        fn inner() { }
    }
    fn plain() { }
}
`
	f := parse(t, src)
	if _, err := newTestChecker().Check(f); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if fn, ok := n.(*ast.FnDecl); ok {
			got[fn.Name.Name] = fn.Escapes
		}
	}
	for _, s := range f.Stmts {
		forEachFn(s, walk)
	}
	want := map[string]bool{"leaf": false, "direct": true, "g": false, "deep": true, "outer": true, "mid": true, "inner": false, "plain": false}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s.Escapes = %v, want %v", name, got[name], w)
		}
	}
	if names := mapsKeys(got); len(names) != len(want) {
		slices.Sort(names)
		t.Errorf("fns seen: %v", names)
	}
}

// forEachFn calls f for every FnDecl in s, at any depth.
func forEachFn(s ast.Stmt, f func(ast.Node)) {
	var visit func(ss []ast.Stmt)
	block := func(b *ast.Block) {
		if b != nil {
			visit(b.Stmts)
		}
	}
	visit = func(ss []ast.Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ast.FnDecl:
				f(s)
				block(s.Body)
			case *ast.IfStmt:
				block(s.Then)
				if s.Else != nil {
					visit([]ast.Stmt{s.Else})
				}
			case *ast.WhileStmt:
				block(s.Body)
			case *ast.ForStmt:
				block(s.Body)
			case *ast.TryStmt:
				block(s.Body)
				block(s.Catch)
			case *ast.Block:
				block(s)
			}
		}
	}
	visit([]ast.Stmt{s})
}

func mapsKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
