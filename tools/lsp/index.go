package lsp

import (
	"sort"

	"github.com/gscript-lang/gscript/lang/ast"
)

// symbol is one declared name of a document.
type symbol struct {
	name   string
	kind   string // fn kernel func struct const let param array import for catch capture tape shared local field
	def    *ast.Ident
	decl   ast.Node      // the declaration (the struct of a field, a parameter's name)
	typ    *ast.TypeExpr // a kernel or func parameter's type
	refs   []*ast.Ident
	device bool               // declared in a kernel or func (its type is the checker's)
	fields map[string]*symbol // a struct's fields
	parent *symbol            // a field's struct
}

// scope is a block's names; start and end bound where they are visible
// (an invalid end: to the end of the file).
type scope struct {
	parent     *scope
	names      map[string]*symbol
	start, end ast.Pos
	device     bool // a kernel or func body
}

// ref is one name in the file and the symbol it declares or uses (nil
// for a predeclared or unknown name).
type ref struct {
	id  *ast.Ident
	sym *symbol
}

// index resolves a document's names by the language's scope rules (a
// block opens a scope; fn, kernel, func, struct, const and import are
// hoisted, let, array and the other declarations bind after their
// initializers), for definition, references, hover and completion. It
// is a resolver of its own rather than the checker's slots: those exist
// for host names only, and kernel names are resolved during lowering.
type index struct {
	refs   []ref // sorted by position
	scopes []*scope
	syms   []*symbol
	attrs  []*ast.AttrExpr
	member map[*ast.Ident]*ast.Ident // util.name's name -> util
}

// buildIndex indexes f; types (the checker's) resolve p.field in kernels.
func buildIndex(f *ast.File, types map[*ast.Ident]string) *index {
	b := &indexer{idx: &index{member: map[*ast.Ident]*ast.Ident{}}}
	b.top = b.push(ast.Pos{Line: 1, Col: 1}, ast.Pos{}, false)
	b.hoist(f.Stmts)
	b.stmts(f.Stmts)
	b.fields(types)
	sort.Slice(b.idx.refs, func(i, j int) bool { return b.idx.refs[i].id.Pos.Offset < b.idx.refs[j].id.Pos.Offset })
	return b.idx
}

type indexer struct {
	idx *index
	cur *scope
	top *scope
}

func (b *indexer) push(start, end ast.Pos, device bool) *scope {
	s := &scope{parent: b.cur, names: map[string]*symbol{}, start: start, end: end, device: device || b.cur != nil && b.cur.device}
	b.idx.scopes = append(b.idx.scopes, s)
	b.cur = s
	return s
}

func (b *indexer) pop() { b.cur = b.cur.parent }

// declare makes id a symbol of the current scope.
func (b *indexer) declare(id *ast.Ident, kind string, decl ast.Node) *symbol {
	if id == nil {
		return nil
	}
	s := &symbol{name: id.Name, kind: kind, def: id, decl: decl, device: b.cur.device}
	b.cur.names[id.Name] = s
	b.idx.syms = append(b.idx.syms, s)
	b.idx.refs = append(b.idx.refs, ref{id, s})
	return s
}

// use resolves a name through the enclosing scopes.
func (b *indexer) use(id *ast.Ident) {
	if id == nil {
		return
	}
	s := b.cur.lookup(id.Name)
	if s != nil {
		s.refs = append(s.refs, id)
	}
	b.idx.refs = append(b.idx.refs, ref{id, s})
}

func (s *scope) lookup(name string) *symbol {
	for ; s != nil; s = s.parent {
		if sym := s.names[name]; sym != nil {
			return sym
		}
	}
	return nil
}

// hoist declares the names a block's statements may use before them.
func (b *indexer) hoist(stmts []ast.Stmt) {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.FnDecl:
			b.declare(s.Name, "fn", s)
		case *ast.KernelDecl:
			b.declare(s.Name, "kernel", s)
		case *ast.FuncDecl:
			b.declare(s.Name, "func", s)
		case *ast.ConstDecl:
			b.declare(s.Name, "const", s)
		case *ast.ImportStmt:
			b.declare(s.Name, "import", s)
		case *ast.StructDecl:
			st := b.declare(s.Name, "struct", s)
			st.fields = map[string]*symbol{}
			for _, f := range s.Fields {
				fs := &symbol{name: f.Name.Name, kind: "field", def: f.Name, decl: s, parent: st}
				st.fields[fs.name] = fs
				b.idx.refs = append(b.idx.refs, ref{f.Name, fs})
				b.idx.syms = append(b.idx.syms, fs)
			}
		}
	}
}

func (b *indexer) stmts(stmts []ast.Stmt) {
	for _, s := range stmts {
		b.stmt(s)
	}
}

// block indexes a braced block in a scope of its own.
func (b *indexer) block(blk *ast.Block) {
	if blk == nil {
		return
	}
	b.push(blk.Pos, blk.End, false)
	b.hoist(blk.Stmts)
	b.stmts(blk.Stmts)
	b.pop()
}
