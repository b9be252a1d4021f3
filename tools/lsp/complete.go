package lsp

import (
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/lang/words"
)

// completion offers the words the REPL's completer offers (lang/words
// and the host lists it reads) plus the document's names in scope: after
// "x." the attributes of x (config's settings, an array's attributes,
// an import's names, a struct's fields, a vector's components), inside a
// kernel or func body the kernel words, elsewhere the host keywords and
// predeclared names.
func (s *Server) completion(_ context.Context, params json.RawMessage) (any, error) {
	d, off, err := s.position(params)
	if err != nil {
		return nil, err
	}
	line := d.text.src[d.text.lines[d.text.position(off).Line]:off]
	word := trailingIdent(line)
	head := line[:len(line)-len(word)]
	an, at := d.completionAnalysis(off)
	var items []CompletionItem
	if strings.HasSuffix(head, ".") {
		items = an.attrItems(trailingIdent(head[:len(head)-1]), at)
	} else {
		items = s.nameItems(an, at)
	}
	return CompletionList{Items: filter(items, word)}, nil
}

// filter keeps the items that start with prefix, sorted by label, one
// per label (the first kind given wins: the document's names come first).
func filter(items []CompletionItem, prefix string) []CompletionItem {
	seen := map[string]bool{}
	out := []CompletionItem{}
	for _, it := range items {
		if strings.HasPrefix(it.Label, prefix) && !seen[it.Label] {
			seen[it.Label] = true
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// completionAnalysis is the analysis completion reads and the offset in
// its text that off in the document is: the current one when it has no
// syntax errors, else the last that had none, with off moved by the
// edits since (an offset inside the edited text is the edit's start).
func (d *document) completionAnalysis(off int) (*analysis, int) {
	if d.an.parsed || d.good == nil {
		return d.an, off
	}
	old, cur := d.goodText.src, d.text.src
	pre := 0
	for pre < len(old) && pre < len(cur) && old[pre] == cur[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(cur)-pre && old[len(old)-1-suf] == cur[len(cur)-1-suf] {
		suf++
	}
	switch {
	case off <= pre:
		return d.good, off
	case off >= len(cur)-suf:
		return d.good, off - len(cur) + len(old)
	}
	return d.good, pre
}

// nameItems are the names a name at off can be.
func (s *Server) nameItems(a *analysis, off int) []CompletionItem {
	sc := a.idx.scopeAt(off)
	items := a.idx.inScope(sc, off)
	if sc.device {
		items = append(items, plain(words.KernelKeywords, kindKeyword)...) // first: a keyword is no function
		return append(items, plain(words.Kernel(), kindFunction)...)
	}
	items = append(items, plain(syntax.Keywords(), kindKeyword)...)
	return append(items, plain(s.names, kindFunction)...)
}

func plain(names []string, kind int) []CompletionItem {
	out := make([]CompletionItem, len(names))
	for i, n := range names {
		out[i] = CompletionItem{Label: n, Kind: kind}
	}
	return out
}

// scopeAt is the innermost scope around off (scopes are listed parents
// first, in the order of the source).
func (x *index) scopeAt(off int) *scope {
	best := x.scopes[0]
	for _, s := range x.scopes[1:] {
		if s.start.IsValid() && s.start.Offset <= off && (!s.end.IsValid() || off <= s.end.Offset) {
			best = s
		}
	}
	return best
}

// inScope are the document's names visible at off from scope sc: the
// hoisted ones, and the others declared before off. A kernel body sees
// the top level's funcs, structs and consts only; host code no funcs.
func (x *index) inScope(sc *scope, off int) []CompletionItem {
	var out []CompletionItem
	device := sc.device
	for ; sc != nil; sc = sc.parent {
		for _, sym := range sc.names {
			if !visible(sym, off, device) {
				continue
			}
			out = append(out, CompletionItem{Label: sym.name, Kind: itemKind(sym.kind), Detail: sym.kind})
		}
	}
	return out
}

func visible(sym *symbol, off int, device bool) bool {
	hoisted := slices.Contains([]string{"fn", "kernel", "func", "struct", "const", "import"}, sym.kind)
	switch {
	case !hoisted && sym.def.Pos.Offset >= off:
		return false
	case device && !sym.device:
		return sym.kind == "func" || sym.kind == "struct" || sym.kind == "const"
	case !device:
		return sym.kind != "func"
	}
	return true
}

func itemKind(kind string) int {
	switch kind {
	case "fn", "kernel", "func":
		return kindFunction
	case "struct":
		return kindStruct
	case "const":
		return kindConstant
	case "import":
		return kindModule
	}
	return kindVariable
}

// attrItems are the attributes of the name x before a ".".
func (a *analysis) attrItems(x string, off int) []CompletionItem {
	sym := a.idx.scopeAt(off).lookup(x)
	switch {
	case sym == nil && x == "config":
		return plain(interp.ConfigNames(), kindProperty)
	case sym == nil:
		return nil
	case sym.kind == "import":
		return a.importNames(sym)
	case sym.kind == "array" && !sym.device:
		return plain(interp.ArrayAttrNames(), kindProperty)
	}
	return a.typeAttrs(a.typeOf(sym))
}

// typeAttrs are the fields of a struct type or the components of a
// vector or quaternion type, by the type's name.
func (a *analysis) typeAttrs(t string) []CompletionItem {
	if st := a.idx.scopes[0].names[t]; st != nil && st.kind == "struct" {
		var out []CompletionItem
		for name := range st.fields {
			out = append(out, CompletionItem{Label: name, Kind: kindField})
		}
		return out
	}
	if dt, ok := dtype.ByName(t); ok && (dt.Kind == dtype.Vec || dt.Kind == dtype.Quat) {
		return plain(words.Components(dt.N), kindField)
	}
	return nil
}

// importNames are the top-level names of the file an import loaded.
func (a *analysis) importNames(sym *symbol) []CompletionItem {
	m := a.imports[sym.decl.(*ast.ImportStmt)]
	if m == nil {
		return nil
	}
	var out []CompletionItem
	for _, st := range m.file.Stmts {
		if id, kind := declName(st); id != nil {
			out = append(out, CompletionItem{Label: id.Name, Kind: itemKind(kind), Detail: kind})
		}
	}
	return out
}

// declName is the name a top-level statement declares and its kind.
func declName(st ast.Stmt) (*ast.Ident, string) {
	switch s := st.(type) {
	case *ast.FnDecl:
		return s.Name, "fn"
	case *ast.KernelDecl:
		return s.Name, "kernel"
	case *ast.FuncDecl:
		return s.Name, "func"
	case *ast.StructDecl:
		return s.Name, "struct"
	case *ast.ConstDecl:
		return s.Name, "const"
	case *ast.ArrayDecl:
		return s.Name, "array"
	case *ast.LetStmt:
		return s.Names[0], "let"
	}
	return nil, ""
}

// trailingIdent is the name (possibly empty) s ends with.
func trailingIdent(s string) string {
	i := len(s)
	for i > 0 && isIdentByte(s[i-1]) {
		i--
	}
	return s[i:]
}
