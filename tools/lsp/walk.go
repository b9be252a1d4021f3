package lsp

import (
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
)

// stmt indexes one statement: its uses, then what it declares.
func (b *indexer) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.Block:
		b.block(s)
	case *ast.LetStmt:
		b.expr(s.Value)
		b.typ(s.Type)
		for _, id := range s.Names {
			b.declare(id, "let", s)
		}
	case *ast.ConstDecl:
		b.typ(s.Type)
		b.expr(s.Value)
	case *ast.StructDecl:
		for _, f := range s.Fields {
			b.typ(f.Type)
		}
	case *ast.AssignStmt:
		b.exprs(s.Targets...)
		b.exprs(s.Target, s.Value)
	case *ast.ExprStmt:
		b.expr(s.X)
	case *ast.IfStmt:
		b.expr(s.Cond)
		b.block(s.Then)
		if s.Else != nil {
			b.stmt(s.Else)
		}
	case *ast.ForStmt:
		b.forStmt(s)
	case *ast.WhileStmt:
		b.expr(s.Cond)
		b.block(s.Body)
	case *ast.ReturnStmt:
		b.expr(s.Value)
	case *ast.AssertStmt:
		b.exprs(s.Cond, s.Msg)
	case *ast.FnDecl:
		b.fn(s.Params, nil, s.Body, false)
	case *ast.KernelDecl:
		b.use(s.Adjoint) // a top-level kernel, hoisted: declared before or after
		b.fn(s.Params, s.Block, s.Body, true)
	case *ast.FuncDecl:
		b.typ(s.Result)
		b.fn(s.Params, nil, s.Body, true)
	default:
		b.declStmt(s)
	}
}

// declStmt indexes the statements that declare storage or open scopes.
func (b *indexer) declStmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.ArrayDecl:
		b.exprs(s.Dims...)
		b.exprs(s.Init, s.Device)
		b.typeName(s.DType)
		if _, ok := s.Allocator.(*ast.Ident); !ok { // a bare name is an allocator's, no variable
			b.expr(s.Allocator)
		}
		b.declare(s.Name, "array", s)
	case *ast.LaunchStmt:
		b.use(s.Module)
		if s.Module == nil {
			b.use(s.Kernel)
		} else {
			b.member(s.Kernel, s.Module)
		}
		b.exprs(s.Dims...)
		b.exprs(s.Args...)
		b.expr(s.Device)
	case *ast.BufferDecl:
		b.exprs(s.Dims...)
		b.typeName(s.Elem)
		kind := "local"
		if s.Shared {
			kind = "shared"
		}
		b.declare(s.Name, kind, s)
	case *ast.DeviceBlock:
		b.expr(s.Device)
		b.block(s.Body)
	case *ast.AllocatorBlock:
		if _, ok := s.Name.(*ast.Ident); !ok {
			b.expr(s.Name)
		}
		b.expr(s.Device)
		b.block(s.Body)
	case *ast.TryStmt:
		b.block(s.Body)
		if s.Catch != nil {
			b.push(s.CatchPos, s.Catch.End, false)
			b.declare(s.Var, "catch", s)
			b.block(s.Catch)
			b.pop()
		}
	case *ast.CaptureBlock:
		b.expr(s.Device)
		b.block(s.Body)
		b.declare(s.Name, "capture", s) // bound after its body
	case *ast.TapeBlock:
		b.block(s.Body)
		b.declare(s.Name, "tape", s) // bound after its body, as capture's
	}
}

func (b *indexer) forStmt(s *ast.ForStmt) {
	b.expr(s.Iter)
	end := ast.Pos{}
	if s.Body != nil {
		end = s.Body.End
	}
	b.push(s.Pos, end, false)
	if s.Var != nil {
		b.declare(s.Var, "for", s)
	}
	for _, id := range s.Vars {
		b.declare(id, "for", s)
	}
	b.block(s.Body)
	b.pop()
}

// fn indexes a fn, kernel or func: its parameters and body in a scope
// of their own (device for kernels and funcs).
func (b *indexer) fn(params []*ast.Param, extents []ast.Expr, body *ast.Block, device bool) {
	start, end := ast.Pos{}, ast.Pos{}
	if body != nil {
		start, end = body.Pos, body.End
	}
	if len(params) > 0 {
		start = params[0].Name.Pos
	}
	b.push(start, end, device)
	for _, p := range params {
		b.typ(p.Type)
		if sym := b.declare(p.Name, "param", p.Name); sym != nil {
			sym.typ = p.Type
		}
	}
	b.exprs(extents...)
	b.block(body)
	b.pop()
}

// typ indexes the struct names a type expression uses.
func (b *indexer) typ(t *ast.TypeExpr) {
	for ; t != nil; t = t.Elem {
		if t.Name != "array" {
			b.typeName(&ast.Ident{Pos: t.Pos, Name: t.Name})
		}
	}
}

// typeName records a type name that is a struct's (a scalar type name
// is no symbol of the document).
func (b *indexer) typeName(id *ast.Ident) {
	if id != nil && b.cur.lookup(id.Name) != nil && b.cur.lookup(id.Name).kind == "struct" {
		b.use(id)
	}
}

func (b *indexer) exprs(es ...ast.Expr) {
	for _, e := range es {
		b.expr(e)
	}
}

func (b *indexer) expr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		b.use(e)
	case *ast.ListLit:
		b.exprs(e.Elems...)
	case *ast.DictLit:
		b.exprs(e.Keys...)
		b.exprs(e.Values...)
	case *ast.UnaryExpr:
		b.expr(e.X)
	case *ast.BinaryExpr:
		b.exprs(e.X, e.Y)
	case *ast.CallExpr:
		b.call(e)
	case *ast.IndexExpr:
		b.expr(e.X)
		b.exprs(e.Indices...)
	case *ast.SliceComponent:
		b.exprs(e.Lo, e.Hi, e.Step)
	case *ast.AttrExpr:
		b.expr(e.X)
		b.idx.attrs = append(b.idx.attrs, e)
	case *ast.ParenExpr:
		b.expr(e.X)
	}
}

// call indexes a call; the keyword names of a struct constructor
// P(a, b=...) are its fields.
func (b *indexer) call(e *ast.CallExpr) {
	b.expr(e.Fun)
	b.exprs(e.Args...)
	var st *symbol
	if id, ok := e.Fun.(*ast.Ident); ok {
		if s := b.cur.lookup(id.Name); s != nil && s.kind == "struct" {
			st = s
		}
	}
	for _, kw := range e.Kwargs {
		if st != nil && st.fields[kw.Name.Name] != nil {
			f := st.fields[kw.Name.Name]
			f.refs = append(f.refs, kw.Name)
			b.idx.refs = append(b.idx.refs, ref{kw.Name, f})
		}
		b.expr(kw.Value)
	}
}

// fields resolves x.f where the checker typed x as a struct (in kernels
// and funcs); any other x.name is recorded as a member of x (util.name
// of an import: definition looks in the imported file).
func (b *indexer) fields(types map[*ast.Ident]string) {
	for _, e := range b.idx.attrs {
		st := b.top.names[structOf(e.X, types)]
		if st == nil || st.kind != "struct" || st.fields[e.Name.Name] == nil {
			if x, ok := e.X.(*ast.Ident); ok {
				b.member(e.Name, x)
			}
			continue
		}
		f := st.fields[e.Name.Name]
		f.refs = append(f.refs, e.Name)
		b.idx.refs = append(b.idx.refs, ref{e.Name, f})
	}
}

// member records name as an attribute of x.
func (b *indexer) member(name, x *ast.Ident) {
	if name == nil || x == nil {
		return
	}
	b.idx.member[name] = x
	b.idx.refs = append(b.idx.refs, ref{name, nil})
}

// structOf is the type name of x (a kernel variable) or of x[i] (an
// element of an array variable), as the checker typed it.
func structOf(e ast.Expr, types map[*ast.Ident]string) string {
	switch e := e.(type) {
	case *ast.Ident:
		return types[e]
	case *ast.IndexExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return ""
		}
		elem, ok := strings.CutPrefix(types[x], "array[")
		if !ok {
			return ""
		}
		elem, _, _ = strings.Cut(strings.TrimSuffix(elem, "]"), ",")
		return elem
	}
	return ""
}
