package check

import (
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
)

// binding is where a host name lives once resolved.
type binding struct {
	scope ast.Scope
	level int // fn nesting level of the declaring frame (0: top level)
	index int
}

// rscope is one lexical block of host code.
type rscope struct {
	names  map[string]binding
	parent *rscope
}

// frame counts the slots of one fn call frame.
type frame struct {
	numLocals int
}

// resolver fills ast.Ident Scope/Depth/Index for host code and collects
// the top-level kernels and funcs for the kernel checker.
type resolver struct {
	c          *Checker
	errs       *ast.ErrorList
	top        *rscope
	scope      *rscope
	frames     []*frame
	fns        []*ast.FnDecl // the fns being resolved, outermost first
	numGlobals int
	loops      int                 // loop nesting inside the current fn (or top level)
	declared   map[string]bool     // host names declared in this chunk outside fns
	imports    map[string]ast.Pos  // names this chunk's imports bind, at their paths
	modules    map[binding]*module // the bindings of this chunk's imports
	kernels    []*ast.KernelDecl
	funcs      []*ast.FuncDecl
	// constDecls are this chunk's consts by global slot (constOrder in
	// source order, which keeps errors deterministic); constVals their
	// values once evalConsts ran.
	constDecls map[int]*ast.ConstDecl
	constOrder []*ast.ConstDecl
	constVals  map[int]Const
	// structDecls, structOrder and structs are the same for the chunk's
	// struct types (structs.go); a struct with an error is laid out as nil.
	structDecls map[int]*ast.StructDecl
	structOrder []*ast.StructDecl
	structs     map[int]*dtype.Struct
	// used holds every binding some name use resolved to (slots are
	// never reused, so a binding is one declaration).
	used map[binding]bool
}

func newResolver(c *Checker, errs *ast.ErrorList) *resolver {
	top := &rscope{names: make(map[string]binding, len(c.globals))}
	for name, idx := range c.globals {
		top.names[name] = binding{scope: ast.ScopeGlobal, index: idx}
	}
	return &resolver{c: c, errs: errs, top: top, scope: top, numGlobals: c.numGlobals,
		declared: map[string]bool{}, imports: map[string]ast.Pos{}, modules: map[binding]*module{}, used: map[binding]bool{},
		constDecls: map[int]*ast.ConstDecl{}, constVals: map[int]Const{},
		structDecls: map[int]*ast.StructDecl{}, structs: map[int]*dtype.Struct{}}
}

// file resolves a whole chunk. Its top-level statements share the
// persistent global scope.
func (r *resolver) file(f *ast.File) {
	r.hoist(f.Stmts)
	for _, s := range f.Stmts {
		r.stmt(s, true)
	}
	r.evalStructs()
	r.evalConsts()
}

// block resolves stmts in a new lexical scope.
func (r *resolver) block(b *ast.Block) {
	if b == nil {
		return
	}
	r.push()
	r.hoist(b.Stmts)
	for _, s := range b.Stmts {
		r.stmt(s, false)
	}
	r.pop()
}

func (r *resolver) push() { r.scope = &rscope{names: map[string]binding{}, parent: r.scope} }
func (r *resolver) pop()  { r.scope = r.scope.parent }

// hoist declares the top level's imports, consts and structs and a
// block's fn, kernel and func names before its statements run, so that they can be used (and
// call each other) before their declaration.
func (r *resolver) hoist(stmts []ast.Stmt) {
	if r.atTop() {
		r.hoistImports(stmts)
	}
	seen := map[string]bool{}
	for _, s := range stmts {
		var id *ast.Ident
		switch d := s.(type) {
		case *ast.FnDecl:
			id = d.Name
		case *ast.KernelDecl:
			id = d.Name
		case *ast.FuncDecl:
			id = d.Name
		case *ast.ConstDecl:
			if r.atTop() {
				id = d.Name
			}
		case *ast.StructDecl:
			if r.atTop() {
				id = d.Name
			}
		}
		if id == nil || r.importClash(id) {
			continue
		}
		if seen[id.Name] {
			r.errs.Add(id.Pos, "%s redeclared in this block", id.Name)
			continue
		}
		seen[id.Name] = true
		b := r.declare(id)
		switch d := s.(type) {
		case *ast.ConstDecl:
			r.constDecls[b.index] = d
			r.constOrder = append(r.constOrder, d)
		case *ast.StructDecl:
			r.structDecls[b.index] = d
			r.structOrder = append(r.structOrder, d)
		}
	}
}

// hoistImports declares the names the imports of a chunk bind; two imports
// of one base name are an error naming the first.
func (r *resolver) hoistImports(stmts []ast.Stmt) {
	for _, s := range stmts {
		im, ok := s.(*ast.ImportStmt)
		if !ok || r.importClash(im.Name) {
			continue
		}
		r.imports[im.Name.Name] = im.Name.Pos
		b := r.declare(im.Name)
		if r.c.exports != nil {
			if names, ok := r.c.exports(im); ok {
				r.modules[b] = &module{im, names}
			}
		}
	}
}

// module is an import with its file's top-level names.
type module struct {
	stmt  *ast.ImportStmt
	names map[string]int
}

// moduleOf is the import of this chunk that the resolved id names, if any.
func (r *resolver) moduleOf(id *ast.Ident) *module {
	if id.Scope != ast.ScopeGlobal {
		return nil
	}
	return r.modules[binding{scope: ast.ScopeGlobal, index: id.Index}]
}

// member checks id.name: when id is an import of this chunk, its file
// must define name.
func (r *resolver) member(id *ast.Ident, name *ast.Ident) {
	m := r.moduleOf(id)
	if m == nil {
		return
	}
	if _, ok := m.names[name.Name]; !ok {
		r.errs.Add(name.Pos, "undefined: %s.%s (%q has no top-level name %s)", id.Name, name.Name, m.stmt.Path, name.Name)
	}
}

// atTop reports whether the resolver is in the top-level scope.
func (r *resolver) atTop() bool { return r.scope == r.top && len(r.frames) == 0 }

// importClash reports (as Go does) a top-level name of this chunk that is
// also the name of one of its imports: shadowing a module by accident
// would make every later util.name fail far from the cause.
func (r *resolver) importClash(id *ast.Ident) bool {
	p, ok := r.imports[id.Name]
	if !ok || !r.atTop() {
		return false
	}
	r.errs.Add(id.Pos, "%s redeclared: it is the name of the import at %s", id.Name, p)
	return true
}

// declare gives id a new slot (a global outside fns, a frame slot inside)
// and makes it visible in the current scope from now on.
func (r *resolver) declare(id *ast.Ident) binding {
	if id == nil {
		return binding{}
	}
	r.constClash(id)
	var b binding
	if n := len(r.frames); n == 0 {
		b = binding{scope: ast.ScopeGlobal, index: r.numGlobals}
		r.numGlobals++
		r.declared[id.Name] = true
	} else {
		f := r.frames[n-1]
		b = binding{scope: ast.ScopeLocal, level: n, index: f.numLocals}
		f.numLocals++
	}
	id.Scope, id.Depth, id.Index = b.scope, 0, b.index
	r.scope.names[id.Name] = b
	return b
}

// constClash reports a top-level declaration that would hide a const or
// a struct of this chunk: kernels would still see the const or type, host
// code the new name.
func (r *resolver) constClash(id *ast.Ident) {
	b, ok := r.top.names[id.Name]
	if !ok || !r.atTop() {
		return
	}
	if d := r.constDecls[b.index]; d != nil && d.Name != id {
		r.errs.Add(id.Pos, "%s redeclared: it is the const declared at %s", id.Name, d.Name.Pos)
	}
	if d := r.structDecls[b.index]; d != nil && d.Name != id {
		r.errs.Add(id.Pos, "%s redeclared: it is the struct declared at %s", id.Name, d.Name.Pos)
	}
}

// isConst reports whether global slot i holds a const.
func (r *resolver) isConst(i int) bool {
	_, ok := r.constDecls[i]
	_, earlier := r.c.constVals[i]
	return ok || earlier
}

// use resolves a name use; it reports whether the name was found.
func (r *resolver) use(id *ast.Ident) bool {
	if r.find(id) {
		return true
	}
	r.errs.Add(id.Pos, "undefined: %s", id.Name)
	return false
}

// find resolves id if it names something visible here.
func (r *resolver) find(id *ast.Ident) bool {
	for s := r.scope; s != nil; s = s.parent {
		b, ok := s.names[id.Name]
		if !ok {
			continue
		}
		id.Scope, id.Index, id.Depth = b.scope, b.index, 0
		if b.scope == ast.ScopeLocal {
			id.Depth = len(r.frames) - b.level
		}
		r.used[b] = true
		return true
	}
	if r.c.predeclared != nil && r.c.predeclared(id.Name) {
		id.Scope, id.Index, id.Depth = ast.ScopePredeclared, 0, 0
		return true
	}
	return false
}

func (r *resolver) stmt(s ast.Stmt, top bool) {
	switch s := s.(type) {
	case *ast.LetStmt:
		r.expr(s.Value)
		for _, id := range s.Names {
			if !r.importClash(id) {
				r.declare(id)
			}
		}
	case *ast.ImportStmt:
		if !top || !r.atTop() {
			r.errs.Add(s.Pos, "import must be at the top level of a file")
		}
	case *ast.ConstDecl:
		if !top || !r.atTop() {
			r.errs.Add(s.Pos, "const %s must be declared at top level", s.Name.Name)
			return
		}
		r.expr(s.Value) // the name was hoisted
	case *ast.StructDecl:
		if !top || !r.atTop() {
			r.errs.Add(s.Pos, "struct %s must be declared at top level", s.Name.Name)
		}
	case *ast.AssignStmt:
		r.expr(s.Value)
		if s.Targets == nil {
			r.assignTarget(s.Target)
		}
		for _, t := range s.Targets {
			r.assignTarget(t)
		}
	case *ast.ExprStmt:
		r.expr(s.X)
	case *ast.IfStmt:
		r.ifStmt(s)
	case *ast.ForStmt:
		r.forStmt(s)
	case *ast.TryStmt:
		r.block(s.Body)
		r.push() // the error's name is seen only in the catch block
		r.declare(s.Var)
		r.block(s.Catch)
		r.pop()
	case *ast.WhileStmt:
		r.expr(s.Cond)
		r.loop(s.Body)
	case *ast.BranchStmt:
		if r.loops == 0 {
			r.errs.Add(s.Pos, "%s is not in a loop", s.Tok)
		}
	case *ast.ReturnStmt:
		if len(r.frames) == 0 {
			r.errs.Add(s.Pos, "return outside a fn")
		}
		r.expr(s.Value)
	case *ast.AssertStmt:
		r.expr(s.Cond)
		r.expr(s.Msg)
	case *ast.Block:
		r.block(s)
	default:
		r.declStmt(s, top)
	}
}

// declStmt handles declarations and scope blocks.
func (r *resolver) declStmt(s ast.Stmt, top bool) {
	switch s := s.(type) {
	case *ast.FnDecl:
		r.fnDecl(s)
	case *ast.KernelDecl:
		if !top || len(r.frames) > 0 {
			r.errs.Add(s.Pos, "kernel %s must be declared at top level", s.Name.Name)
			return
		}
		r.kernels = append(r.kernels, s)
	case *ast.FuncDecl:
		if !top || len(r.frames) > 0 {
			r.errs.Add(s.Pos, "func %s must be declared at top level", s.Name.Name)
			return
		}
		r.funcs = append(r.funcs, s)
	case *ast.ArrayDecl:
		r.arrayDecl(s)
	case *ast.BufferDecl:
		if s.Shared {
			r.errs.Add(s.Pos, "shared arrays are declared in the body of a block kernel, not in host code")
		} else {
			r.errs.Add(s.Pos, "local arrays are declared in the body of a kernel or func, not in host code")
		}
	case *ast.LaunchStmt:
		if s.Module != nil {
			r.use(s.Module)
			r.member(s.Module, s.Kernel)
		} else {
			r.use(s.Kernel)
		}
		r.exprs(s.Dims)
		r.exprs(s.Args)
		r.expr(s.Device)
	case *ast.DeviceBlock:
		r.expr(s.Device)
		r.block(s.Body)
	case *ast.AllocatorBlock:
		if _, isName := s.Name.(*ast.Ident); !isName {
			r.expr(s.Name)
		}
		r.expr(s.Device)
		r.block(s.Body)
	case *ast.CaptureBlock:
		// The graph exists only once the body has been captured, so the
		// name is bound after the body.
		r.expr(s.Device)
		r.block(s.Body)
		r.declare(s.Name)
	case *ast.TapeBlock:
		// As a capture's graph, the tape is what the body recorded: the
		// name is bound after the body.
		r.block(s.Body)
		r.declare(s.Name)
	}
}

// forStmt gives the loop's names (Var, or every one of Vars) slots in
// a scope of their own; VarUsed says whether the body reads any of them.
func (r *resolver) forStmt(s *ast.ForStmt) {
	r.expr(s.Iter)
	r.push()
	names := s.Vars
	if s.Var != nil {
		names = []*ast.Ident{s.Var}
	}
	seen := map[string]bool{}
	var bs []binding
	for _, id := range names {
		if seen[id.Name] {
			r.errs.Add(id.Pos, "%s repeated in the for clause", id.Name)
		}
		seen[id.Name] = true
		bs = append(bs, r.declare(id))
	}
	r.loop(s.Body)
	r.pop()
	for _, b := range bs {
		s.VarUsed = s.VarUsed || r.used[b]
	}
}

func (r *resolver) ifStmt(s *ast.IfStmt) {
	r.expr(s.Cond)
	r.block(s.Then)
	if s.Else != nil {
		r.stmt(s.Else, false)
	}
}

func (r *resolver) loop(body *ast.Block) {
	r.loops++
	r.block(body)
	r.loops--
}

func (r *resolver) fnDecl(s *ast.FnDecl) {
	// The name was hoisted by the enclosing block. Every fn that holds
	// this one, at any depth, may have its frame kept by a closure.
	for _, outer := range r.fns {
		outer.Escapes = true
	}
	r.fns = append(r.fns, s)
	defer func() { r.fns = r.fns[:len(r.fns)-1] }()
	f := &frame{}
	r.frames = append(r.frames, f)
	savedLoops := r.loops
	r.loops = 0
	r.push()
	for _, p := range s.Params {
		r.declare(p.Name)
	}
	r.block(s.Body)
	r.pop()
	r.loops = savedLoops
	r.frames = r.frames[:len(r.frames)-1]
	s.NumLocals = f.numLocals
}

func (r *resolver) arrayDecl(s *ast.ArrayDecl) {
	// Host arrays may hold vectors, matrices and quaternions (vec3[n]) and
	// structs (Particle[n]: the name resolves to the struct's global).
	if s.DType != nil && !isScalarName(s.DType.Name) && !dtype.IsCompoundName(s.DType.Name) && !r.structName(s.DType) {
		r.errs.Add(s.DType.Pos, "unknown dtype %s (want one of %s, a vector, matrix or quaternion type, or a struct type)", s.DType.Name, scalarNameList)
	}
	r.exprs(s.Dims)
	r.expr(s.Init)
	r.expr(s.Device)
	if _, isName := s.Allocator.(*ast.Ident); !isName {
		r.expr(s.Allocator)
	}
	r.declare(s.Name)
}

func (r *resolver) assignTarget(t ast.Expr) {
	switch t := t.(type) {
	case *ast.Ident:
		switch {
		case !r.find(t):
			// Python's y = 1 declares; here let does.
			r.errs.Add(t.Pos, "undefined: %s (declare a new variable with let: let %s = ...)", t.Name, t.Name)
		case t.Scope == ast.ScopePredeclared:
			r.errs.Add(t.Pos, "cannot assign to predeclared %s", t.Name)
		case t.Scope == ast.ScopeGlobal && r.isConst(t.Index):
			r.errs.Add(t.Pos, "cannot assign to const %s", t.Name)
		case t.Scope == ast.ScopeGlobal && r.isStruct(t.Index):
			r.errs.Add(t.Pos, "cannot assign to struct type %s", t.Name)
		}
	case *ast.AttrExpr:
		r.expr(t)
		if id, ok := t.X.(*ast.Ident); ok && r.moduleOf(id) != nil {
			r.errs.Add(t.Name.Pos, "cannot assign to %s.%s: an import's names are read only (call a fn of %s that sets it)", id.Name, t.Name.Name, id.Name)
		}
	case *ast.IndexExpr:
		r.expr(t)
	default:
		r.expr(t)
		r.errs.Add(t.Start(), "cannot assign to %s", exprString(t))
	}
}

func (r *resolver) exprs(list []ast.Expr) {
	for _, e := range list {
		r.expr(e)
	}
}

func (r *resolver) expr(e ast.Expr) {
	switch e := e.(type) {
	case nil:
	case *ast.Ident:
		r.use(e)
	case *ast.ListLit:
		r.exprs(e.Elems)
	case *ast.DictLit:
		for i := range e.Keys {
			r.expr(e.Keys[i])
			r.expr(e.Values[i])
		}
	case *ast.UnaryExpr:
		r.expr(e.X)
	case *ast.BinaryExpr:
		r.expr(e.X)
		r.expr(e.Y)
	case *ast.CallExpr:
		r.expr(e.Fun)
		r.exprs(e.Args)
		for _, kw := range e.Kwargs {
			r.expr(kw.Value)
		}
	case *ast.IndexExpr:
		r.expr(e.X)
		r.exprs(e.Indices)
	case *ast.SliceComponent:
		r.expr(e.Lo)
		r.expr(e.Hi)
		r.expr(e.Step)
	case *ast.AttrExpr:
		r.expr(e.X)
		if id, ok := e.X.(*ast.Ident); ok {
			r.member(id, e.Name)
		}
	case *ast.ParenExpr:
		r.expr(e.X)
	}
}
