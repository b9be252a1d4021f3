package lsp

import (
	"context"
	"encoding/json"

	"github.com/gscript-lang/gscript/lang/ast"
)

// definition is where the name at the position is declared: in the
// document, or for util.name (and launch util.k) in the imported file.
func (s *Server) definition(_ context.Context, params json.RawMessage) (any, error) {
	d, r, err := s.request(params)
	if err != nil || r == nil {
		return nil, err
	}
	if r.sym != nil {
		return d.location(r.sym.def), nil
	}
	if m, st := d.an.memberDecl(r); st != nil {
		id, _ := declName(st)
		return s.fileLocation(m.path, id), nil
	}
	return nil, nil // a builtin: no source to go to
}

// memberDecl is the top-level declaration in an imported file that the
// name util.name (or launch util.k) at r names, and that file.
func (a *analysis) memberDecl(r *ref) (*imported, ast.Stmt) {
	x := a.idx.member[r.id]
	if x == nil {
		return nil, nil
	}
	xr := a.idx.at(x.Pos.Offset)
	if xr == nil || xr.sym == nil || xr.sym.kind != "import" {
		return nil, nil
	}
	m := a.imports[xr.sym.decl.(*ast.ImportStmt)]
	if m == nil {
		return nil, nil
	}
	for _, st := range m.file.Stmts {
		if id, _ := declName(st); id != nil && id.Name == r.id.Name {
			return m, st
		}
	}
	return nil, nil
}

// references are the uses of the name at the position in the document,
// and its declaration when the client asks for it.
func (s *Server) references(_ context.Context, params json.RawMessage) (any, error) {
	var p ReferenceParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	r := d.an.idx.at(d.text.offset(p.Position))
	out := []Location{}
	if r == nil || r.sym == nil {
		return out, nil
	}
	if p.Context.IncludeDeclaration {
		out = append(out, d.location(r.sym.def))
	}
	for _, id := range r.sym.refs {
		out = append(out, d.location(id))
	}
	return out, nil
}

func (d *document) location(id *ast.Ident) Location {
	return Location{URI: d.uri, Range: d.text.span(id.Pos, len(id.Name))}
}

// fileLocation is id's location in another file, read for its UTF-16
// columns (the editor's text when it is open; positions clamp to the
// start of a file that cannot be read).
func (s *Server) fileLocation(path string, id *ast.Ident) Location {
	src, _ := s.readFile(path)
	return Location{URI: pathURI(path), Range: newText(string(src)).span(id.Pos, len(id.Name))}
}
