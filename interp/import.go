package interp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// module is an imported file, parsed and checked once per importer.
type module struct {
	name    string // the file name its positions carry
	file    *ast.File
	info    *check.Info
	globals map[string]int // its top-level names, by global slot
	code    *chunk         // its compiled top level
}

// importer loads the files a program imports, at compile time, so that
// `gscript check` reports their errors and kernels are lowered before
// anything runs. Each file is loaded once (keyed by its cleaned path);
// after compilation it is read only, so programs share it safely.
type importer struct {
	files  *FileAccess
	byPath map[string]*module
	byStmt map[*ast.ImportStmt]*module
	// loading maps each file being loaded to its place on the chain of
	// imports: a cycle is found in O(1), and the chain (a stack pushed and
	// popped around each load) is never copied, so a chain of n files
	// costs O(n), not O(n^2) (issue 26: 6 000 files took 19 s and 455 MB).
	loading map[string]int
	// ctx and tracker are the Exec's, while it compiles: loading stops
	// when ctx is cancelled (Ctrl-C, a deadline), and every parsed file
	// counts toward the tracker's MemoryLimit while it is held.
	ctx     context.Context
	tracker *mem.Tracker
}

func newImporter(files *FileAccess) *importer {
	return &importer{files: files, byPath: map[string]*module{}, byStmt: map[*ast.ImportStmt]*module{}, loading: map[string]int{}}
}

// moduleBytes estimates what one loaded file holds: its source, syntax
// tree, checker tables and compiled code, a few dozen times the source
// (measured: a 60-byte file costs about 20 KB loaded).
func moduleBytes(src int) int { return max(64*src, 16<<10) }

// exports gives the checker the top-level names of a loaded import.
func (im *importer) exports(s *ast.ImportStmt) (map[string]int, bool) {
	m := im.byStmt[s]
	if m == nil {
		return nil, false
	}
	return m.globals, true
}

// load loads the imports of f, checked with Modules of c, and reports the
// errors of all of them. chain lists the files being loaded, f's last: a
// path already on it is a cycle. f itself is checked only once its
// imports load: checking commits its names, and a REPL entry that fails
// must define nothing.
func (im *importer) load(c *check.Checker, f *ast.File, chain []string) error {
	var errs ast.ErrorList
	for _, s := range f.Stmts {
		s, ok := s.(*ast.ImportStmt)
		if !ok {
			continue // an import elsewhere is the resolver's error
		}
		m, err := im.loadOne(c, s, importPath(f.Name, s.Path), chain)
		if err != nil {
			errs = append(errs, asList(err, s.PathPos)...)
			continue
		}
		im.byStmt[s] = m
	}
	errs.Truncate(ast.MaxErrors) // in the order of the imports, not sorted by file
	return errs.Err()
}

// importPath is the file that an import of path in the file from names:
// a relative path is relative to from's directory. The result is clean,
// so that it is one key for every spelling of the path.
func importPath(from, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(filepath.Dir(from), path)
}

// asList is err as a list of positioned errors: Parse, Check and the
// loader return lists; anything else is placed at the import.
func asList(err error, at ast.Pos) ast.ErrorList {
	var list ast.ErrorList
	if errors.As(err, &list) {
		return list
	}
	return ast.ErrorList{{Pos: at, Msg: err.Error()}}
}

// loadOne loads the file name that s imports, or finds it loaded.
func (im *importer) loadOne(c *check.Checker, s *ast.ImportStmt, name string, chain []string) (*module, error) {
	i, ok := im.loading[name]
	if !ok && len(chain) > 0 && filepath.Clean(chain[0]) == name {
		i, ok = 0, true // the importing program itself
	}
	if ok {
		cycle := append(append([]string(nil), chain[i:]...), name)
		return nil, ast.ErrorList{{Pos: s.PathPos, Msg: "import cycle: " + strings.Join(cycle, " imports ")}}
	}
	if m := im.byPath[name]; m != nil {
		return m, nil
	}
	if im.ctx != nil && im.ctx.Err() != nil {
		return nil, ast.ErrorList{{Pos: s.PathPos, Msg: fmt.Sprintf("import %q: %v", s.Path, ErrInterrupted)}}
	}
	f, err := im.parse(s, name)
	if err != nil {
		return nil, err
	}
	mc := c.Module()
	im.loading[name] = len(chain)
	err = im.load(mc, f, append(chain, name))
	delete(im.loading, name)
	if err != nil {
		return nil, err
	}
	info, err := checkChunk(mc, f)
	if err != nil {
		return nil, err
	}
	c.Reserve(mc)
	m := &module{name: name, file: f, info: info, globals: mc.GlobalNames(), code: compileChunk(f.Stmts, false)}
	im.byPath[name] = m
	return m, nil
}

// parse reads name through the embedder's file access, within the
// source size limit, and parses it; its errors carry its own positions.
func (im *importer) parse(s *ast.ImportStmt, name string) (*ast.File, error) {
	fail := func(err error) error {
		return ast.ErrorList{{Pos: s.PathPos, Msg: fmt.Sprintf("import %q: %v", s.Path, err)}}
	}
	r, err := im.files.Open(name)
	if err != nil {
		return nil, fail(err)
	}
	defer r.Close()
	src, err := syntax.ReadSource(r)
	if err != nil {
		return nil, fail(err)
	}
	f, err := syntax.Parse(name, src)
	if err != nil {
		return nil, err
	}
	if err := mem.HoldHost(im.tracker, f, moduleBytes(len(src))); err != nil {
		return nil, fail(err)
	}
	return f, nil
}

// Module is the value an import binds: the imported file's top-level
// names, read live from the global table (a module's fn may change its
// lets), and read only from the importer's side.
type Module struct {
	Name string // the binding's name (the file's base name)
	m    *module
}

func (*Module) Type() string     { return "module" }
func (m *Module) String() string { return "<module " + m.Name + " from " + m.m.name + ">" }

// Names lists the module's top-level names, sorted (REPL completion).
func (m *Module) Names() []string {
	return slices.Sorted(maps.Keys(m.m.globals))
}

// attr reads one of the module's names.
func (m *Module) attr(th *Thread, name string) (Value, error) {
	i, ok := m.m.globals[name]
	if !ok {
		return nil, fmt.Errorf("module %s (%s) has no top-level name %s", m.Name, m.m.name, name)
	}
	if v := th.globals.vals[i]; v.set() {
		return v.box(), nil
	}
	return nil, fmt.Errorf("%s.%s is used before it is defined", m.Name, name)
}

// execImport runs an imported file's top level the first time this
// thread meets it, then binds its Module. Imports run with the hoisted
// declarations, before the importing file's other statements, as Go
// initialises imported packages first.
func (th *Thread) execImport(s *ast.ImportStmt) (*Module, error) {
	m := th.imports.byStmt[s]
	if m == nil {
		return nil, th.errorAt(s.Pos, fmt.Errorf("import %q was not loaded", s.Path))
	}
	if !th.ran[m] {
		th.ran[m] = true // first, so that a failed file is not run twice
		saved := th.info
		th.info = m.info
		_, err := th.runChunk(m.code)
		th.info = saved
		if err != nil {
			return nil, err
		}
	}
	return &Module{Name: s.Name.Name, m: m}, nil
}
