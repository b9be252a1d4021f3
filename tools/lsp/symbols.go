package lsp

import (
	"context"
	"encoding/json"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/format"
)

// documentSymbol lists the top-level declarations, a struct's fields
// under it.
func (s *Server) documentSymbol(_ context.Context, params json.RawMessage) (any, error) {
	var p DocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []DocumentSymbol{}
	for _, st := range d.an.file.Stmts {
		if sym, ok := d.symbolOf(st); ok {
			out = append(out, sym)
		}
	}
	return out, nil
}

var symbolKinds = map[string]int{
	"fn": symFunction, "kernel": symFunction, "func": symFunction, "struct": symStruct,
	"const": symConstant, "array": symArray, "let": symVariable, "import": symModule,
}

func (d *document) symbolOf(st ast.Stmt) (DocumentSymbol, bool) {
	id, kind := declName(st)
	if im, ok := st.(*ast.ImportStmt); ok {
		id, kind = im.Name, "import"
	}
	if id == nil {
		return DocumentSymbol{}, false
	}
	sym := DocumentSymbol{Name: id.Name, Detail: kind, Kind: symbolKinds[kind], Range: d.stmtRange(st), SelectionRange: d.text.span(id.Pos, len(id.Name))}
	if s, ok := st.(*ast.StructDecl); ok {
		for _, f := range s.Fields {
			r := d.text.span(f.Name.Pos, len(f.Name.Name))
			sym.Children = append(sym.Children, DocumentSymbol{Name: f.Name.Name, Kind: symField, Range: r, SelectionRange: r})
		}
	}
	return sym, true
}

// stmtRange spans a statement from its start to its closing brace, or
// to the end of its line.
func (d *document) stmtRange(st ast.Stmt) Range {
	start := d.text.pos(st.Start())
	var end ast.Pos
	switch s := st.(type) {
	case *ast.FnDecl:
		end = blockEnd(s.Body)
	case *ast.KernelDecl:
		end = blockEnd(s.Body)
	case *ast.FuncDecl:
		end = blockEnd(s.Body)
	case *ast.StructDecl:
		end = s.End
	}
	if !end.IsValid() {
		return Range{Start: start, End: d.text.position(d.text.lineEnd(start.Line))}
	}
	return Range{Start: start, End: d.text.span(end, 1).End}
}

func blockEnd(b *ast.Block) ast.Pos {
	if b == nil {
		return ast.Pos{}
	}
	return b.End
}

// formatting is `gscript fmt` of the document as one edit; a document
// with syntax errors (or one already formatted) gets no edits.
func (s *Server) formatting(_ context.Context, params json.RawMessage) (any, error) {
	var p DocumentParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out, err := format.Source(d.path, []byte(d.text.src))
	if err != nil || string(out) == d.text.src {
		return []TextEdit{}, nil
	}
	whole := Range{End: d.text.position(len(d.text.src))}
	return []TextEdit{{Range: whole, NewText: string(out)}}, nil
}
