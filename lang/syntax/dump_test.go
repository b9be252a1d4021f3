package syntax

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
)

// dump renders an AST as a compact S-expression so tests can state shapes
// in one line.
func dump(n ast.Node) string {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return "_"
	}
	switch n := n.(type) {
	case *ast.Ident:
		return n.Name
	case *ast.BasicLit:
		return n.Raw
	case *ast.BoolLit:
		return fmt.Sprint(n.Value)
	case *ast.NilLit:
		return "nil"
	case *ast.ListLit:
		if n.Tuple {
			return "(tuple " + dumpList(n.Elems) + ")"
		}
		return "[" + dumpList(n.Elems) + "]"
	case *ast.DictLit:
		var parts []string
		for i := range n.Keys {
			parts = append(parts, dump(n.Keys[i])+": "+dump(n.Values[i]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *ast.UnaryExpr:
		return "(" + n.Op.String() + " " + dump(n.X) + ")"
	case *ast.BinaryExpr:
		return "(" + n.Op.String() + " " + dump(n.X) + " " + dump(n.Y) + ")"
	case *ast.CallExpr:
		s := "(call " + dump(n.Fun)
		for _, a := range n.Args {
			s += " " + dump(a)
		}
		for _, k := range n.Kwargs {
			s += " " + k.Name.Name + "=" + dump(k.Value)
		}
		return s + ")"
	case *ast.IndexExpr:
		return "(index " + dump(n.X) + " " + dumpList(n.Indices) + ")"
	case *ast.SliceComponent:
		return "(: " + dump(n.Lo) + " " + dump(n.Hi) + " " + dump(n.Step) + ")"
	case *ast.AttrExpr:
		return "(. " + dump(n.X) + " " + n.Name.Name + ")"
	case *ast.ParenExpr:
		return "(paren " + dump(n.X) + ")"
	case *ast.TypeExpr:
		if n.Elem != nil {
			return fmt.Sprintf("%s[%s,%d]", n.Name, dump(n.Elem), n.NDim)
		}
		return n.Name
	}
	return dumpStmt(n)
}

func dumpStmt(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Block:
		var parts []string
		for _, s := range n.Stmts {
			parts = append(parts, dump(s))
		}
		return "{" + strings.Join(parts, "; ") + "}"
	case *ast.LetStmt:
		var names []string
		for _, id := range n.Names {
			names = append(names, id.Name)
		}
		return "(let [" + strings.Join(names, " ") + "] " + dump(n.Type) + " " + dump(n.Value) + ")"
	case *ast.ConstDecl:
		return "(const " + n.Name.Name + " " + dump(n.Type) + " " + dump(n.Value) + ")"
	case *ast.StructDecl:
		var fields []string
		for _, f := range n.Fields {
			fields = append(fields, f.Name.Name+":"+dump(f.Type))
		}
		return "(struct " + n.Name.Name + " [" + strings.Join(fields, " ") + "])"
	case *ast.AssignStmt:
		if n.Targets != nil {
			return "(" + n.Op.String() + " [" + dumpList(n.Targets) + "] " + dump(n.Value) + ")"
		}
		return "(" + n.Op.String() + " " + dump(n.Target) + " " + dump(n.Value) + ")"
	case *ast.ExprStmt:
		return dump(n.X)
	case *ast.IfStmt:
		return "(if " + dump(n.Cond) + " " + dump(n.Then) + " " + dump(n.Else) + ")"
	case *ast.ForStmt:
		vars := dump(n.Var)
		if n.Vars != nil {
			var names []string
			for _, v := range n.Vars {
				names = append(names, v.Name)
			}
			vars = "[" + strings.Join(names, " ") + "]"
		}
		return "(for " + vars + " " + dump(n.Iter) + " " + dump(n.Body) + ")"
	case *ast.TryStmt:
		return "(try " + dump(n.Body) + " " + dump(n.Var) + " " + dump(n.Catch) + ")"
	case *ast.WhileStmt:
		return "(while " + dump(n.Cond) + " " + dump(n.Body) + ")"
	case *ast.BranchStmt:
		return n.Tok
	case *ast.ReturnStmt:
		return "(return " + dump(n.Value) + ")"
	case *ast.AssertStmt:
		return "(assert " + dump(n.Cond) + " " + dump(n.Msg) + ")"
	case *ast.FnDecl:
		return "(fn " + dump(n.Name) + " [" + dumpParams(n.Params) + "] " + dump(n.Body) + ")"
	case *ast.KernelDecl:
		shape := ""
		if n.Block != nil {
			shape = "block[" + dumpList(n.Block) + "] "
		}
		if n.Adjoint != nil {
			shape += "adjoint " + dump(n.Adjoint) + " "
		}
		if n.Fast {
			shape += "fast "
		}
		return "(kernel " + dump(n.Name) + " [" + dumpParams(n.Params) + "] " + shape + dump(n.Body) + ")"
	case *ast.FuncDecl:
		return "(func " + dump(n.Name) + " [" + dumpParams(n.Params) + "] " + dump(n.Result) + " " + dump(n.Body) + ")"
	case *ast.ArrayDecl:
		return fmt.Sprintf("(array %s %s [%s] %s %s %s)", dump(n.Name), dump(n.DType), dumpList(n.Dims),
			dump(n.Init), dump(n.Device), dump(n.Allocator))
	case *ast.ImportStmt:
		return fmt.Sprintf("(import %q as %s)", n.Path, dump(n.Name))
	case *ast.LaunchStmt:
		grid := ""
		if n.Grid.IsValid() {
			grid = "grid"
		}
		kernel := dump(n.Kernel)
		if n.Module != nil {
			kernel = dump(n.Module) + "." + kernel
		}
		return fmt.Sprintf("(launch %s %s[%s] [%s] %s)", kernel, grid, dumpList(n.Dims), dumpList(n.Args), dump(n.Device))
	case *ast.BufferDecl:
		kind := "local"
		if n.Shared {
			kind = "shared"
		}
		return fmt.Sprintf("(%s %s %s [%s])", kind, dump(n.Name), dump(n.Elem), dumpList(n.Dims))
	case *ast.DeviceBlock:
		return "(device " + dump(n.Device) + " " + dump(n.Body) + ")"
	case *ast.AllocatorBlock:
		return "(allocator " + dump(n.Name) + " " + dump(n.Device) + " " + dump(n.Body) + ")"
	case *ast.CaptureBlock:
		return "(capture " + dump(n.Name) + " " + dump(n.Device) + " " + dump(n.Body) + ")"
	case *ast.TapeBlock:
		return "(tape " + dump(n.Name) + " " + dump(n.Body) + ")"
	}
	return fmt.Sprintf("<%T>", n)
}

func dumpList(xs []ast.Expr) string {
	var parts []string
	for _, x := range xs {
		parts = append(parts, dump(x))
	}
	return strings.Join(parts, " ")
}

func dumpParams(ps []*ast.Param) string {
	var parts []string
	for _, p := range ps {
		if p.Type != nil {
			parts = append(parts, p.Name.Name+":"+dump(p.Type))
		} else {
			parts = append(parts, p.Name.Name)
		}
	}
	return strings.Join(parts, " ")
}

func dumpFile(f *ast.File) string {
	var parts []string
	for _, s := range f.Stmts {
		parts = append(parts, dump(s))
	}
	return strings.Join(parts, "; ")
}

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// walk calls f for every node reachable from n (KwArg and Param are not
// nodes; their names and values are).
func walk(n any, f func(ast.Node)) {
	v := reflect.ValueOf(n)
	if !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() || v.Kind() == reflect.Interface && v.IsNil() {
		return
	}
	if node, ok := n.(ast.Node); ok {
		f(node)
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	for i := 0; i < v.NumField(); i++ {
		fv := v.Field(i)
		switch {
		case fv.Kind() == reflect.Slice:
			for j := 0; j < fv.Len(); j++ {
				walk(fv.Index(j).Interface(), f)
			}
		case fv.Kind() == reflect.Pointer || fv.Kind() == reflect.Interface:
			if !fv.IsNil() && (fv.Type().Implements(nodeType) || fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.Struct) {
				walk(fv.Interface(), f)
			}
		}
	}
}
