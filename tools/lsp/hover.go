package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/stdlib"
)

// at is the name whose text holds byte offset off (its end included, so
// a cursor right after a name is on it).
func (x *index) at(off int) *ref {
	i := sort.Search(len(x.refs), func(i int) bool { return x.refs[i].id.Pos.Offset > off }) - 1
	if i < 0 || off > x.refs[i].id.Pos.Offset+len(x.refs[i].id.Name) {
		return nil
	}
	return &x.refs[i]
}

// position is the document and byte offset a position request is about.
func (s *Server) position(params json.RawMessage) (*document, int, error) {
	var p TextDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, 0, err
	}
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, 0, err
	}
	return d, d.text.offset(p.Position), nil
}

// request is the document and name a position request is about.
func (s *Server) request(params json.RawMessage) (*document, *ref, error) {
	d, off, err := s.position(params)
	if err != nil {
		return nil, nil, err
	}
	return d, d.an.idx.at(off), nil
}

func (s *Server) hover(_ context.Context, params json.RawMessage) (any, error) {
	d, r, err := s.request(params)
	if err != nil || r == nil {
		return nil, err
	}
	md := d.describe(r)
	if m, st := d.an.memberDecl(r); st != nil {
		src, _ := s.readFile(m.path)
		md = code(importedHeader(string(src), st)) + "from " + m.path
	}
	if md == "" {
		return nil, nil
	}
	rg := d.text.span(r.id.Pos, len(r.id.Name))
	return Hover{Contents: MarkupContent{Kind: "markdown", Value: md}, Range: &rg}, nil
}

// describe is the hover text of a name: its declaration as written (and
// its static type, in a kernel), or a builtin's signature and summary
// from the table `gscript help` prints.
func (d *document) describe(r *ref) string {
	if r.sym == nil {
		if doc, ok := stdlib.LookupDoc(r.id.Name); ok {
			return code(doc.Sig) + doc.Summary
		}
		return ""
	}
	sym := r.sym
	text := code(d.declText(sym))
	if t := d.an.typeOf(sym); t != "" && sym.device && sym.kind != "func" && sym.typ == nil {
		text += fmt.Sprintf("%s %s: `%s`", sym.kind, sym.name, t) // a parameter's type is in its declaration
	}
	if im, ok := sym.decl.(*ast.ImportStmt); ok && sym.kind == "import" {
		text += "loads " + importPath(d.path, im.Path)
	}
	if a, ok := sym.decl.(*ast.ArrayDecl); ok && sym.kind == "array" {
		text += fmt.Sprintf("dtype `%s`, shape `[%s]`", a.DType.Name, bracketText(d.text.src, a.DType.Pos.Offset))
	}
	return text
}

// typeString writes a parameter's type as the source does.
func typeString(t *ast.TypeExpr) string {
	switch {
	case t.Elem == nil:
		return t.Name
	case t.NDim > 1:
		return fmt.Sprintf("array[%s, %d]", typeString(t.Elem), t.NDim)
	}
	return fmt.Sprintf("array[%s]", typeString(t.Elem))
}

func code(s string) string { return "```gscript\n" + s + "\n```\n" }

// typeOf is the checker's type of a kernel name, from any of its uses.
func (a *analysis) typeOf(sym *symbol) string {
	if t := a.types[sym.def]; t != "" {
		return t
	}
	for _, id := range sym.refs {
		if t := a.types[id]; t != "" {
			return t
		}
	}
	return ""
}

// declText is a symbol's declaration as the source writes it: a fn's,
// kernel's or func's header, a struct whole, a field, else the line of
// the declaration from its start (its comment cut off).
func (d *document) declText(sym *symbol) string {
	src := d.text.src
	switch n := sym.decl.(type) {
	case *ast.FnDecl:
		return header(src, n.Pos, n.Body)
	case *ast.KernelDecl:
		return header(src, n.Pos, n.Body)
	case *ast.FuncDecl:
		return header(src, n.Pos, n.Body)
	case *ast.StructDecl:
		switch {
		case sym.kind == "field":
			return sym.parent.name + "." + fieldText(sym, n)
		case n.End.IsValid() && n.End.Offset < len(src):
			return src[n.Pos.Offset : n.End.Offset+1]
		}
	}
	if sym.kind == "param" {
		if sym.typ == nil {
			return "parameter " + sym.name
		}
		return sym.name + ": " + typeString(sym.typ)
	}
	return d.lineFrom(sym.decl.Start())
}

// fieldText is a field's declaration, name: T.
func fieldText(sym *symbol, st *ast.StructDecl) string {
	for _, f := range st.Fields {
		if f.Name == sym.def {
			return f.Name.Name + ": " + typeString(f.Type)
		}
	}
	return sym.name
}

// importedHeader is a declaration of an imported file, src, as written:
// a header for fn, kernel and func, else its first line.
func importedHeader(src string, st ast.Stmt) string {
	switch n := st.(type) {
	case *ast.FnDecl:
		return header(src, n.Pos, n.Body)
	case *ast.KernelDecl:
		return header(src, n.Pos, n.Body)
	case *ast.FuncDecl:
		return header(src, n.Pos, n.Body)
	}
	return (&document{text: newText(src)}).lineFrom(st.Start())
}

// header is the text of a declaration up to its body, white space runs
// made one space (a parameter list may span lines).
func header(src string, p ast.Pos, body *ast.Block) string {
	end := len(src)
	if body != nil && body.Pos.IsValid() {
		end = body.Pos.Offset
	}
	if p.Offset > end || end > len(src) {
		return ""
	}
	return strings.Join(strings.Fields(src[p.Offset:end]), " ")
}

// lineFrom is the rest of p's line, without a trailing comment.
func (d *document) lineFrom(p ast.Pos) string {
	if p.Line < 1 || p.Line > len(d.text.lines) {
		return ""
	}
	line := d.text.line(p.Line - 1)
	if p.Col-1 <= len(line) {
		line = line[p.Col-1:]
	}
	if i := commentStart(line); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// commentStart is where a // comment starts in line, outside strings, or -1.
func commentStart(line string) int {
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && c == '/' && strings.HasPrefix(line[i:], "//"):
			return i
		}
	}
	return -1
}

// bracketText is the text inside the first [...] at or after off (an
// array declaration's shape).
func bracketText(src string, off int) string {
	open := strings.IndexByte(src[min(off, len(src)):], '[')
	if open < 0 {
		return ""
	}
	start := off + open + 1
	depth := 1
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '[', '(':
			depth++
		case ']', ')':
			if depth--; depth == 0 {
				return src[start:i]
			}
		case '\n':
			return ""
		}
	}
	return ""
}
