package check

import (
	"reflect"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/syntax"
)

var testPredeclared = map[string]bool{
	"print": true, "zeros": true, "config": true, "CUDA_MANAGED": true, "range": true, "len": true,
	"sum": true, "replay": true, "f32": true, "f64": true, "i32": true, "type": true, "str": true,
}

func newTestChecker() *Checker {
	return NewChecker(func(name string) bool { return testPredeclared[name] })
}

func parse(t *testing.T, src string) *ast.File {
	t.Helper()
	f, err := syntax.Parse("t.gs", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return f
}

// idents returns every *ast.Ident reachable from n, in field order.
func idents(n any) []*ast.Ident {
	var out []*ast.Ident
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Interface, reflect.Pointer:
			if v.IsNil() {
				return
			}
			if id, ok := v.Interface().(*ast.Ident); ok {
				out = append(out, id)
				return
			}
			walk(v.Elem())
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(ast.Pos{}) {
				return
			}
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(n))
	return out
}

// identAt finds the ident named name on line (the nth occurrence on that
// line, 0-based).
func identAt(t *testing.T, f *ast.File, name string, line, nth int) *ast.Ident {
	t.Helper()
	for _, id := range idents(f) {
		if id.Name == name && id.Pos.Line == line {
			if nth == 0 {
				return id
			}
			nth--
		}
	}
	t.Fatalf("no ident %s #%d on line %d", name, nth, line)
	return nil
}

// validate runs ir.Verify on lowered IR, so that every successful
// type-check test (and the fuzz test) also checks that the lowering
// produces IR both backends accept.
func validate(t *testing.T, k *ir.Kernel) {
	t.Helper()
	if err := ir.Verify(k); err != nil {
		t.Errorf("lowered IR fails Verify: %v\n%s", err, Dump(k))
	}
}
