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

// validate checks the register typing of lowered IR, so that every
// successful type-check test also checks the lowering's consistency.
func validate(t *testing.T, k *ir.Kernel) {
	t.Helper()
	for _, f := range append([]*ir.Func{k.Entry}, k.Funcs...) {
		if f == nil {
			t.Errorf("nil func in kernel %s", k.Entry.Name)
			continue
		}
		validateStmts(t, k, f, f.Body)
	}
}

func validateStmts(t *testing.T, k *ir.Kernel, f *ir.Func, list []ir.Stmt) {
	t.Helper()
	typ := func(r ir.Reg) ir.Type {
		if r < 0 || int(r) >= len(f.Regs) {
			t.Errorf("%s: register r%d out of range", f.Name, r)
			return ir.Invalid
		}
		return f.Regs[r]
	}
	for _, s := range list {
		switch s := s.(type) {
		case *ir.If:
			if typ(s.Cond) != ir.Bool {
				t.Errorf("%s: if on non-bool r%d", f.Name, s.Cond)
			}
			validateStmts(t, k, f, s.Then)
			validateStmts(t, k, f, s.Else)
		case *ir.Loop:
			validateStmts(t, k, f, s.Cond)
			if s.CondReg != ir.NoReg && typ(s.CondReg) != ir.Bool {
				t.Errorf("%s: loop on non-bool", f.Name)
			}
			validateStmts(t, k, f, s.Body)
			validateStmts(t, k, f, s.Post)
		case *ir.Return:
			if (s.Value == ir.NoReg) != (f.Result == ir.Invalid) || (s.Value != ir.NoReg && typ(s.Value) != f.Result) {
				t.Errorf("%s: bad return", f.Name)
			}
		case *ir.Inst:
			validateInst(t, k, f, s, typ)
		}
	}
}

func validateInst(t *testing.T, k *ir.Kernel, f *ir.Func, in *ir.Inst, typ func(ir.Reg) ir.Type) {
	t.Helper()
	bad := func(why string) { t.Errorf("%s: %s: %s", f.Name, instString(f, in), why) }
	dt := ir.Invalid
	if in.Dst != ir.NoReg {
		dt = typ(in.Dst)
	}
	switch in.Op {
	case ir.OpDiv, ir.OpRem:
		if dt.IsInt() && !in.Pos.IsValid() {
			bad("int division without a position")
		}
		if typ(in.Args[0]) != dt || typ(in.Args[1]) != dt {
			bad("operand type differs from result")
		}
	case ir.OpAdd, ir.OpSub, ir.OpMul, ir.OpAnd, ir.OpOr, ir.OpXor,
		ir.OpMin, ir.OpMax, ir.OpAtan2, ir.OpPow, ir.OpClamp, ir.OpFma, ir.OpMov, ir.OpNeg, ir.OpNot, ir.OpBitNot,
		ir.OpSqrt, ir.OpAbs, ir.OpSign, ir.OpFloor, ir.OpSin:
		for _, a := range in.Args {
			if typ(a) != dt {
				bad("operand type differs from result")
			}
		}
	case ir.OpShl, ir.OpShr:
		if typ(in.Args[0]) != dt || !typ(in.Args[1]).IsInt() {
			bad("bad shift operands")
		}
	case ir.OpEq, ir.OpNe, ir.OpLt, ir.OpLe, ir.OpGt, ir.OpGe:
		if dt != ir.Bool || typ(in.Args[0]) != typ(in.Args[1]) {
			bad("bad comparison")
		}
	case ir.OpSelect:
		if typ(in.Args[0]) != ir.Bool || typ(in.Args[1]) != dt || typ(in.Args[2]) != dt {
			bad("bad select")
		}
	case ir.OpLoad, ir.OpStore:
		p := f.Params[in.Param]
		n := len(in.Args)
		if in.Op == ir.OpStore {
			n--
			if typ(in.Args[n]) != p.Elem {
				bad("stored value type")
			}
		} else if dt != p.Elem {
			bad("loaded type")
		}
		if n != p.NDim {
			bad("index count")
		}
		if !in.Pos.IsValid() {
			bad("no position")
		}
	case ir.OpAtomicAdd, ir.OpAtomicSub, ir.OpAtomicMin, ir.OpAtomicMax, ir.OpAtomicCAS, ir.OpPrint:
		if !in.Pos.IsValid() {
			bad("no position")
		}
	case ir.OpCall:
		callee := k.Funcs[in.Callee]
		if len(in.Args) != len(callee.Params) || len(in.ArrayArgs) != len(callee.Params) {
			bad("call arity")
		}
	case ir.OpConst:
		switch in.Imm.(type) {
		case int64, uint64, float64, bool:
		default:
			bad("odd immediate")
		}
	}
}
