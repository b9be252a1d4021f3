package lsp

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// analysis is what the server knows about one version of a document: its
// tree (partial when it has syntax errors), the errors `gscript check`
// reports for it, the kernel names' static types and the index of its
// names.
type analysis struct {
	file    *ast.File
	errs    ast.ErrorList
	types   map[*ast.Ident]string
	idx     *index
	imports map[*ast.ImportStmt]*imported
	deps    map[string]bool // every file its imports read, through their imports too
	parsed  bool            // no syntax errors: the tree is whole
}

// imported is a file an import loaded: its path and tree, for going to
// the definition of util.name.
type imported struct {
	path string
	file *ast.File
}

// analyze parses and checks a document as `gscript check` does: syntax
// errors alone when there are any, else the imports' errors, else the
// checker's. With syntax errors the partial tree is still checked,
// its errors dropped, for the types and names that hover and completion
// use.
func (s *Server) analyze(d *document) *analysis {
	f, errs := d.parser.parse(d.path, []byte(d.text.src))
	a := &analysis{file: f, errs: errs, types: map[*ast.Ident]string{}, parsed: len(errs) == 0}
	c := check.NewChecker(s.predeclared)
	c.RecordTypes(a.types)
	a.deps = map[string]bool{}
	read := func(path string) ([]byte, error) {
		a.deps[path] = true
		return s.readFile(path)
	}
	ld := &loader{read: read, byPath: map[string]*loaded{}, byStmt: map[*ast.ImportStmt]*loaded{}}
	c.SetExports(ld.exports)
	if len(errs) == 0 {
		a.errs = ld.load(c, f, []string{d.path})
	}
	if _, err := c.Check(f); len(a.errs) == 0 {
		a.errs = asErrors(err)
	}
	a.imports = ld.files()
	a.idx = buildIndex(f, a.types)
	return a
}

// loader loads a document's imports as the interpreter does (interp's
// importer): each file parsed and checked by a Module of the importing
// checker, so that a misspelt util.name is an error here too; an import
// of a file open in the editor reads the editor's text.
type loader struct {
	read   func(path string) ([]byte, error)
	byPath map[string]*loaded
	byStmt map[*ast.ImportStmt]*loaded
}

type loaded struct {
	path    string
	file    *ast.File
	globals map[string]int
}

func (ld *loader) exports(s *ast.ImportStmt) (map[string]int, bool) {
	m := ld.byStmt[s]
	if m == nil {
		return nil, false
	}
	return m.globals, true
}

func (ld *loader) files() map[*ast.ImportStmt]*imported {
	out := map[*ast.ImportStmt]*imported{}
	for s, m := range ld.byStmt {
		out[s] = &imported{path: m.path, file: m.file}
	}
	return out
}

// load loads f's imports with Modules of c; chain is the files being
// loaded, f's last.
func (ld *loader) load(c *check.Checker, f *ast.File, chain []string) ast.ErrorList {
	var errs ast.ErrorList
	for _, st := range f.Stmts {
		s, ok := st.(*ast.ImportStmt)
		if !ok {
			continue // an import elsewhere is the checker's error
		}
		m, err := ld.loadOne(c, s, importPath(f.Name, s.Path), chain)
		if err != nil {
			errs = append(errs, err...)
			continue
		}
		ld.byStmt[s] = m
	}
	errs.Truncate(ast.MaxErrors)
	return errs
}

// importPath is the file an import of path in file from names.
func importPath(from, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(filepath.Dir(from), path)
}

func (ld *loader) loadOne(c *check.Checker, s *ast.ImportStmt, name string, chain []string) (*loaded, ast.ErrorList) {
	for i, n := range chain {
		if filepath.Clean(n) == name {
			cycle := append(append([]string(nil), chain[i:]...), name)
			return nil, ast.ErrorList{{Pos: s.PathPos, Msg: "import cycle: " + strings.Join(cycle, " imports ")}}
		}
	}
	if m := ld.byPath[name]; m != nil {
		return m, nil
	}
	src, err := ld.read(name)
	if err != nil {
		return nil, ast.ErrorList{{Pos: s.PathPos, Msg: fmt.Sprintf("import %q: %v", s.Path, err)}}
	}
	f, perr := syntax.Parse(name, src)
	if perr != nil {
		return nil, asErrors(perr)
	}
	mc := c.Module()
	if errs := ld.load(mc, f, append(chain[:len(chain):len(chain)], name)); errs != nil {
		return nil, errs
	}
	if _, err := mc.Check(f); err != nil {
		return nil, asErrors(err)
	}
	c.Reserve(mc)
	m := &loaded{path: name, file: f, globals: mc.GlobalNames()}
	ld.byPath[name] = m
	return m, nil
}
