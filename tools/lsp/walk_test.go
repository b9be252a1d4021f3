package lsp

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/syntax"
)

// TestIndexTapeAndAdjoint checks that a tape's name is bound after its
// body (a use inside resolves to nothing, one after to the tape), that
// the body's names resolve, and that an adjoint clause's name refers to
// the kernel it names, declared after the clause.
func TestIndexTapeAndAdjoint(t *testing.T) {
	src := `let x = 1
tape t {
    print(t, x)
}
print(t)
kernel k(a: array[f32]) adjoint k_adj {}
kernel k_adj(a: array[f32], g: array[f32]) {}
`
	f, err := syntax.Parse("t.gs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	idx := buildIndex(f, nil)
	for _, tc := range []struct {
		line, col int
		kind      string // "" for no symbol
		declLine  int
	}{
		{3, 11, "", 0},       // t inside its body
		{3, 14, "let", 1},    // x inside the body
		{5, 7, "tape", 2},    // t after the body
		{6, 33, "kernel", 7}, // the adjoint's name
	} {
		r := refAt(idx, tc.line, tc.col)
		if r == nil {
			t.Errorf("%d:%d: no name indexed", tc.line, tc.col)
			continue
		}
		switch {
		case tc.kind == "" && r.sym != nil:
			t.Errorf("%d:%d: %s resolves to a %s, want nothing", tc.line, tc.col, r.id.Name, r.sym.kind)
		case tc.kind != "" && (r.sym == nil || r.sym.kind != tc.kind || r.sym.def.Pos.Line != tc.declLine):
			t.Errorf("%d:%d: %s resolves to %+v, want the %s of line %d", tc.line, tc.col, r.id.Name, r.sym, tc.kind, tc.declLine)
		}
	}
}

// refAt is the indexed name that starts at line:col.
func refAt(idx *index, line, col int) *ref {
	for i := range idx.refs {
		if p := idx.refs[i].id.Pos; p.Line == line && p.Col == col {
			return &idx.refs[i]
		}
	}
	return nil
}
