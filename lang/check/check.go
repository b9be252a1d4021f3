package check

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Checker holds state that persists across chunks of one interpreter (REPL
// entries): the global table and the device funcs declared so far.
type Checker struct {
	predeclared func(name string) bool
	globals     map[string]int       // top-level host names -> global slot
	numGlobals  int                  // size of the global table
	hostNames   map[string]bool      // every host name declared outside fns so far
	funcs       map[string]*funcInfo // device funcs visible to later chunks
	exports     func(*ast.ImportStmt) (map[string]int, bool)
	constVals   map[int]Const         // the consts of earlier chunks, by global slot
	structs     map[int]*dtype.Struct // the struct types of earlier chunks, by global slot
	types       map[*ast.Ident]string // where RecordTypes asked: each kernel name's static type
}

// Info is what Check learns about one chunk.
type Info struct {
	Kernels map[*ast.KernelDecl]*ir.Kernel
	// Signatures are the kernels' parameters as the source declares them
	// (a vec3 is one parameter here, three scalar ir.Params in Kernels;
	// dtype.FlattenParams maps one to the other).
	Signatures map[*ast.KernelDecl][]dtype.Param
	// Adjoints maps each kernel declared `adjoint k_adj` to k_adj's
	// declaration (a kernel of the same chunk, its signature checked).
	Adjoints   map[*ast.KernelDecl]*ast.KernelDecl
	NumGlobals int // size of the global table after this chunk (it only grows)
	// Consts holds the value of each const the chunk declares; the host
	// binds them before the chunk runs, as it does fns.
	Consts map[*ast.ConstDecl]Const
	// Structs holds the layout of each struct the chunk declares; the
	// host binds each name to its struct type before the chunk runs.
	Structs map[*ast.StructDecl]*dtype.Struct
}

// NewChecker makes a checker. predeclared reports whether a name is a
// predeclared host value/builtin (print, zeros, config, CUDA_MANAGED, f32,
// ...). Dtype names f32 etc. are predeclared host values too.
func NewChecker(predeclared func(name string) bool) *Checker {
	return &Checker{
		predeclared: predeclared,
		globals:     map[string]int{},
		hostNames:   map[string]bool{},
		funcs:       map[string]*funcInfo{},
		constVals:   map[int]Const{},
		structs:     map[int]*dtype.Struct{},
	}
}

// Check resolves host names in f (filling ast.Ident Scope/Depth/Index and
// ast.FnDecl.NumLocals), type-checks every kernel and func, and lowers each
// kernel to IR. All errors are collected (sorted ast.ErrorList). The
// checker's persistent state (globals, funcs) changes only when Check
// succeeds, so a failed REPL entry defines nothing.
func (c *Checker) Check(f *ast.File) (info *Info, err error) {
	defer func() {
		// A bug here must not crash an interpreter: report it as an error.
		if p := recover(); p != nil {
			info, err = nil, ast.ErrorList{{Pos: ast.Pos{File: f.Name}, Msg: fmt.Sprintf("internal checker error: %v", p)}}
		}
	}()
	var errs ast.ErrorList
	r := newResolver(c, &errs)
	r.file(f)
	kc := newKernelChecker(c, r, &errs)
	kernels := kc.run(r.kernels, r.funcs)
	adjoints := kc.adjoints(r.kernels)
	if len(errs) > 0 {
		errs.Sort()
		errs.Truncate(ast.MaxErrors)
		return nil, errs
	}
	c.commit(r, kc)
	return &Info{Kernels: kernels, Signatures: kc.sigs, Adjoints: adjoints, NumGlobals: c.numGlobals, Consts: r.chunkConsts(), Structs: r.chunkStructs()}, nil
}

// commit makes a successful chunk's definitions visible to later chunks.
func (c *Checker) commit(r *resolver, kc *kernelChecker) {
	globals := make(map[string]int, len(r.top.names))
	for name, b := range r.top.names {
		globals[name] = b.index
	}
	c.globals = globals
	c.numGlobals = r.numGlobals
	for name := range r.declared {
		c.hostNames[name] = true
	}
	c.funcs = kc.env
	for i, v := range r.constVals {
		c.constVals[i] = v
	}
	for i, s := range r.structs {
		c.structs[i] = s
	}
}

// GlobalNames returns the global names defined so far with their indices
// (for REPL completion and :vars).
func (c *Checker) GlobalNames() map[string]int {
	out := make(map[string]int, len(c.globals))
	for k, v := range c.globals {
		out[k] = v
	}
	return out
}

// Module returns a checker for a file that c's chunks import: the same
// predeclared names, but its own global names and device funcs, and
// global slots numbered after c's, so that all the files of a program
// share one global table without sharing a namespace.
func (c *Checker) Module() *Checker {
	m := NewChecker(c.predeclared)
	m.numGlobals, m.exports = c.numGlobals, c.exports
	return m
}

// Reserve numbers c's next globals after those of m, a Module of c that
// has checked its file. It changes c even if the importing chunk then
// fails: the imported file stays loaded, and its slots stay taken.
func (c *Checker) Reserve(m *Checker) { c.numGlobals = max(c.numGlobals, m.numGlobals) }

// RecordTypes makes later Checks store, for every use of a variable,
// parameter or shared or local array in a kernel or func body, its
// static type as messages write it ("f32", "vec3", "array[f32, 2]"),
// keyed by the name's Ident, whether the Check succeeds or not: an
// editor's hover shows them, and a file being edited rarely checks
// clean. nil stops recording.
func (c *Checker) RecordTypes(types map[*ast.Ident]string) { c.types = types }

// SetExports tells c the top-level names of the file each import loads
// (false for an import not loaded), so that a misspelt util.name is a
// resolve error, reported before anything runs, not a run-time one.
func (c *Checker) SetExports(exports func(*ast.ImportStmt) (map[string]int, bool)) {
	c.exports = exports
}
