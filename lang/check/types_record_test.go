package check

import (
	"fmt"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

// TestRecordTypes checks that every use of a kernel's names gets its
// static type, and that a failing Check still records them.
func TestRecordTypes(t *testing.T) {
	src := `kernel k(x: array[f32], m: array[vec3, 2], n: i32) {
    let i = tid()
    let v = m[i, 0] * 2.0
    x[i] = f32(n) + v.x
    let bad: i32 = 2.5
}
`
	types := map[*ast.Ident]string{}
	c := newTestChecker()
	c.RecordTypes(types)
	if _, err := c.Check(parse(t, src)); err == nil {
		t.Fatal("want the error of `let bad: i32 = 2.5`")
	}
	got := map[string]string{}
	for id, typ := range types {
		got[fmt.Sprintf("%s@%d:%d", id.Name, id.Pos.Line, id.Pos.Col)] = typ
	}
	want := map[string]string{
		"m@3:13": "array[vec3, 2]", "i@3:15": "i32", "x@4:5": "array[f32]", "i@4:7": "i32",
		"n@4:16": "i32", "v@4:21": "vec3",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q (all: %v)", k, got[k], w, got)
		}
	}
}
