package syntax

import (
	pathpkg "path"
	"strconv"
	"strings"
	"unicode"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// converter turns grammar structs into ast nodes and reports the errors the
// grammar is too loose to catch (assignment targets, keyword arguments,
// parameter types, ...).
type converter struct {
	errs    *ast.ErrorList
	tooDeep bool // MaxExprDepth was reported for the current statement's expression
}

func astPos(p lexer.Position) ast.Pos {
	return ast.Pos{File: p.Filename, Offset: p.Offset, Line: p.Line, Col: p.Column}
}

func (c *converter) errorf(p ast.Pos, format string, args ...any) {
	c.errs.Add(p, format, args...)
}

func (c *converter) ident(p *pIdent) *ast.Ident {
	if p == nil {
		return nil
	}
	return &ast.Ident{Pos: astPos(p.Tok.Pos), Name: p.Tok.Value}
}

func (c *converter) stmt(s *pStmt) ast.Stmt {
	switch {
	case s.Let != nil:
		return c.let(s.Let)
	case s.Const != nil:
		return &ast.ConstDecl{Pos: astPos(s.Const.Kw.Pos), Name: c.ident(s.Const.Name), Type: c.typ(s.Const.Type), Value: c.expr(s.Const.Value)}
	case s.Struct != nil:
		return c.structDecl(s.Struct)
	case s.If != nil:
		return c.ifStmt(s.If)
	case s.For != nil:
		return c.forStmt(s.For)
	case s.While != nil:
		return &ast.WhileStmt{Pos: astPos(s.While.Kw.Pos), Cond: c.expr(s.While.Cond), Body: c.block(s.While.Body)}
	case s.Branch != nil:
		return &ast.BranchStmt{Pos: astPos(s.Branch.Pos), Tok: s.Branch.Value}
	case s.Return != nil:
		return &ast.ReturnStmt{Pos: astPos(s.Return.Kw.Pos), Value: c.optTuple(s.Return.Value)}
	case s.Assert != nil:
		return &ast.AssertStmt{Pos: astPos(s.Assert.Kw.Pos), Cond: c.expr(s.Assert.Cond), Msg: c.optExpr(s.Assert.Msg)}
	case s.Import != nil:
		return c.importStmt(s.Import)
	case s.Decl != nil:
		return c.decl(s.Decl)
	case s.Array != nil:
		return c.array(s.Array)
	case s.Buffer != nil:
		return c.buffer(s.Buffer)
	case s.Launch != nil:
		return c.launch(s.Launch)
	case s.Scope != nil:
		return c.scope(s.Scope)
	case s.Try != nil:
		t := s.Try
		return &ast.TryStmt{Pos: astPos(t.Kw.Pos), Body: c.block(t.Body), CatchPos: astPos(t.Catch.Pos), Var: c.ident(t.Var), Catch: c.block(t.Handler)}
	case s.Block != nil:
		return c.block(s.Block)
	case s.Simple != nil:
		return c.simple(s.Simple)
	}
	return nil
}

func (c *converter) block(b *pBlock) *ast.Block {
	if b == nil {
		return nil
	}
	out := &ast.Block{Pos: astPos(b.Lbrace.Pos), End: astPos(b.Rbrace.Pos)}
	for _, s := range b.Stmts {
		if st := c.stmt(s); st != nil {
			out.Stmts = append(out.Stmts, st)
		}
	}
	return out
}

// forStmt puts one loop name in Var, several in Vars (Var nil).
func (c *converter) forStmt(f *pFor) ast.Stmt {
	s := &ast.ForStmt{Pos: astPos(f.Kw.Pos), Iter: c.expr(f.Iter), Body: c.block(f.Body)}
	if len(f.Vars) == 1 {
		s.Var = c.ident(f.Vars[0])
		return s
	}
	for _, v := range f.Vars {
		s.Vars = append(s.Vars, c.ident(v))
	}
	return s
}

func (c *converter) let(l *pLet) ast.Stmt {
	s := &ast.LetStmt{Pos: astPos(l.Kw.Pos), Type: c.typ(l.Type), Value: c.tuple(l.Value)}
	for _, n := range l.Names {
		s.Names = append(s.Names, c.ident(n))
	}
	return s
}

func (c *converter) structDecl(p *pStruct) ast.Stmt {
	d := &ast.StructDecl{Pos: astPos(p.Kw.Pos), Name: c.ident(p.Name), End: astPos(p.Rbrace.Pos)}
	for _, f := range p.Fields {
		fd := &ast.StructField{Name: c.ident(f.Name), Type: c.typ(f.Type)}
		if fd.Type == nil {
			c.errorf(fd.Name.Pos, "missing type for field %s of struct %s", fd.Name.Name, d.Name.Name)
			continue
		}
		d.Fields = append(d.Fields, fd)
	}
	return d
}

func (c *converter) ifStmt(p *pIf) *ast.IfStmt {
	s := &ast.IfStmt{Pos: astPos(p.Kw.Pos), Cond: c.expr(p.Cond), Then: c.block(p.Then)}
	switch {
	case p.ElseIf != nil:
		s.Else = c.ifStmt(p.ElseIf)
	case p.Else != nil:
		s.Else = c.block(p.Else)
	}
	return s
}

func (c *converter) typ(t *pType) *ast.TypeExpr {
	if t == nil {
		return nil
	}
	out := &ast.TypeExpr{Pos: astPos(t.Name.Tok.Pos), Name: t.Name.Tok.Value}
	switch {
	case out.Name == "array" && t.Elem == nil:
		c.errorf(out.Pos, "array type needs an element type, as in array[f32] or array[f32, 2]")
	case out.Name != "array" && t.Elem != nil:
		c.errorf(out.Pos, "type %s takes no element type (only array[...] does)", out.Name)
	case t.Elem != nil:
		out.Elem = c.typ(t.Elem)
		out.NDim = c.ndim(t.NDim)
	}
	return out
}

// ndim decodes the rank of array[T, N]; range checks (N <= 4) belong to
// the type checker, which knows the backends' limits.
func (c *converter) ndim(t *lexer.Token) int {
	if t == nil {
		return 1
	}
	n, err := parseInt(t.Value)
	if err != nil || n == 0 || n > 1<<20 {
		c.errorf(astPos(t.Pos), "invalid array rank %s", t.Value)
		return 1
	}
	return int(n)
}

func (c *converter) decl(d *pDecl) ast.Stmt {
	pos, name, body := astPos(d.Kw.Pos), c.ident(d.Name), c.block(d.Body)
	params := c.params(d.Kw.Value, d.Params)
	if d.Kw.Value != "func" && d.Arrow != nil {
		c.errorf(astPos(d.Arrow.Pos), "a %s has no result type (only func declares one)", d.Kw.Value)
	}
	if d.Kw.Value != "kernel" && d.Shape != nil {
		c.errorf(astPos(d.Shape.Kw.Pos), "a %s has no block shape (only a kernel declares block(...))", d.Kw.Value)
	}
	if d.Kw.Value != "kernel" && d.Fast != nil {
		c.errorf(astPos(d.Fast.Pos), "a %s cannot be fast (only a kernel is: a func called from it follows its kernel)", d.Kw.Value)
	}
	if d.Kw.Value != "kernel" && d.Adjoint != nil {
		c.errorf(astPos(d.Adjoint.Kw.Pos), "a %s has no custom adjoint (only a kernel declares adjoint NAME)", d.Kw.Value)
	}
	switch d.Kw.Value {
	case "fn":
		return &ast.FnDecl{Pos: pos, Name: name, Params: params, Body: body}
	case "kernel":
		k := &ast.KernelDecl{Pos: pos, Name: name, Params: params, Fast: d.Fast != nil, Body: body}
		if d.Shape != nil {
			k.Block, k.BlockPos = c.exprs(d.Shape.Dims), astPos(d.Shape.Kw.Pos)
		}
		if d.Adjoint != nil {
			k.Adjoint, k.AdjointPos = c.ident(d.Adjoint.Name), astPos(d.Adjoint.Kw.Pos)
		}
		return k
	}
	return &ast.FuncDecl{Pos: pos, Name: name, Params: params, Result: c.typ(d.Result), Body: body}
}

// params enforces the typing rule of each declaration kind: host fn
// parameters are untyped, kernel and func parameters must be typed.
func (c *converter) params(kind string, ps []*pParam) []*ast.Param {
	out := make([]*ast.Param, 0, len(ps))
	for _, p := range ps {
		par := &ast.Param{Name: c.ident(p.Name), Type: c.typ(p.Type)}
		switch {
		case kind == "fn" && par.Type != nil:
			c.errorf(par.Type.Pos, "fn parameters have no types (use func for a typed device function)")
			par.Type = nil
		case kind != "fn" && par.Type == nil:
			c.errorf(par.Name.Pos, "missing type for %s parameter %s", kind, par.Name.Name)
		}
		out = append(out, par)
	}
	return out
}

func (c *converter) array(a *pArray) ast.Stmt {
	return &ast.ArrayDecl{
		Pos:       astPos(a.Kw.Pos),
		Name:      c.ident(a.Name),
		DType:     c.ident(a.DType),
		Dims:      c.exprs(a.Dims),
		Init:      c.optExpr(a.Init),
		Device:    c.optExpr(a.Device),
		Allocator: c.optExpr(a.Allocator),
		Grad:      a.Grad != nil,
	}
}

func (c *converter) buffer(b *pBuffer) ast.Stmt {
	return &ast.BufferDecl{Pos: astPos(b.Kw.Pos), Shared: b.Kw.Value == "shared", Name: c.ident(b.Name), Elem: c.ident(b.Elem), Dims: c.exprs(b.Dims)}
}

func (c *converter) launch(l *pLaunch) ast.Stmt {
	s := &ast.LaunchStmt{Pos: astPos(l.Kw.Pos), Kernel: c.ident(l.Kernel), Dims: c.exprs(l.Dims), Device: c.optExpr(l.Device)}
	if l.Member != nil {
		s.Module, s.Kernel = s.Kernel, c.ident(l.Member)
	}
	if l.Grid != nil {
		s.Grid, s.Dims = astPos(l.Grid.Kw.Pos), c.exprs(l.Grid.Dims)
	}
	for _, a := range l.Args {
		if a.Eq != nil {
			c.errorf(astPos(a.Eq.Pos), "launch arguments are positional (no name=value)")
			continue
		}
		s.Args = append(s.Args, c.expr(a.X))
	}
	return s
}

func (c *converter) scope(p *pScope) ast.Stmt {
	pos, target, dev, body := astPos(p.Kw.Pos), c.expr(p.Target), c.optExpr(p.Device), c.block(p.Body)
	switch p.Kw.Value {
	case "device":
		if dev != nil {
			c.errorf(dev.Start(), "a device block takes no on clause (write device EXPR { ... })")
		}
		return &ast.DeviceBlock{Pos: pos, Device: target, Body: body}
	case "allocator":
		return &ast.AllocatorBlock{Pos: pos, Name: target, Device: dev, Body: body}
	case "tape":
		if dev != nil {
			c.errorf(dev.Start(), "a tape block takes no on clause (write tape NAME { ... })")
		}
		return &ast.TapeBlock{Pos: pos, Name: c.scopeName(target, "tape needs a name, as in tape t { ... }"), Body: body}
	}
	name := c.scopeName(target, "capture needs a graph name, as in capture g { ... }")
	return &ast.CaptureBlock{Pos: pos, Name: name, Device: dev, Body: body}
}

// scopeName is the plain name a capture or tape binds; anything else is
// the error msg, and the name _ keeps the tree whole.
func (c *converter) scopeName(target ast.Expr, msg string) *ast.Ident {
	if name, ok := target.(*ast.Ident); ok {
		return name
	}
	c.errorf(target.Start(), "%s", msg)
	return &ast.Ident{Pos: target.Start(), Name: "_"}
}

// simple converts an expression statement or an assignment; several
// targets (a, b = ...) go to Targets with a nil Target and need "=".
func (c *converter) simple(s *pSimple) ast.Stmt {
	x := c.expr(s.X)
	if s.Op == nil {
		if len(s.More) > 0 {
			c.errorf(c.expr(s.More[0]).Start(), "a list of expressions is not a statement (to unpack, write a, b = value)")
		}
		return &ast.ExprStmt{X: x}
	}
	targets := []ast.Expr{x}
	for _, m := range s.More {
		targets = append(targets, c.expr(m))
	}
	for _, t := range targets {
		c.target(t)
	}
	op, opPos := c.op(*s.Op, token.Op.IsAssign, "assignment"), astPos(s.Op.Pos)
	st := &ast.AssignStmt{Pos: x.Start(), Target: x, Op: op, OpPos: opPos, Value: c.tuple(s.Value)}
	if len(targets) > 1 {
		if op != token.Assign && op != token.Invalid {
			c.errorf(opPos, "%s takes one target: several targets are assigned with =", op)
		}
		st.Target, st.Targets, st.Op = nil, targets, token.Assign
	}
	return st
}

// target reports an expression that cannot be assigned to.
func (c *converter) target(x ast.Expr) {
	switch x.(type) {
	case *ast.Ident, *ast.IndexExpr, *ast.AttrExpr:
	default:
		c.errorf(x.Start(), "cannot assign to %s", describeExpr(x))
	}
}

// tuple converts a value: one expression, or a bare list a, b as a
// ListLit with Tuple set (at the first element's position).
func (c *converter) tuple(t *pTuple) ast.Expr {
	if len(t.More) == 0 {
		return c.expr(t.X)
	}
	elems, d := c.subExprs(append([]*pExpr{t.X}, t.More...))
	l := &ast.ListLit{Pos: elems[0].Start(), Elems: elems, Tuple: true}
	c.nested(l.Pos, d)
	c.tooDeep = false
	return l
}

func (c *converter) optTuple(t *pTuple) ast.Expr {
	if t == nil {
		return nil
	}
	return c.tuple(t)
}

// op maps an operator's spelling to the enum once, here; a spelling the
// grammar accepts but the enum does not have in this role (a grammar and
// token out of step) is an error at its position, converted as Invalid.
func (c *converter) op(t lexer.Token, is func(token.Op) bool, role string) token.Op {
	op := token.Lookup(t.Value)
	if !is(op) {
		c.errorf(astPos(t.Pos), "unknown %s operator %q", role, t.Value)
		return token.Invalid
	}
	return op
}

func describeExpr(x ast.Expr) string {
	switch x.(type) {
	case *ast.CallExpr:
		return "a call"
	case *ast.BasicLit, *ast.BoolLit, *ast.NilLit:
		return "a literal"
	case *ast.ListLit:
		return "a list literal"
	case *ast.DictLit:
		return "a dict literal"
	case *ast.ParenExpr:
		return "a parenthesized expression"
	}
	return "an expression"
}

// ---- expressions ----

// Every expression conversion below returns the node and the depth of its
// tree, so that a tree deeper than MaxExprDepth is reported here, before
// the checker and the evaluator recurse over it. Grammar recursion is
// bounded by the scanner's nesting limits, but chains (a + b + ...,
// a.b.c..., f()()...) are loops here that build left-deep trees.

// expr converts the expression of a statement.
func (c *converter) expr(e *pExpr) ast.Expr {
	x, _ := c.subExpr(e)
	c.tooDeep = false
	return x
}

func (c *converter) optExpr(e *pExpr) ast.Expr {
	if e == nil {
		return nil
	}
	return c.expr(e)
}

func (c *converter) exprs(es []*pExpr) []ast.Expr {
	out, _ := c.subExprs(es)
	c.tooDeep = false
	return out
}

func (c *converter) optSubExpr(e *pExpr) (ast.Expr, int) {
	if e == nil {
		return nil, 0
	}
	return c.subExpr(e)
}

func (c *converter) subExprs(es []*pExpr) ([]ast.Expr, int) {
	out, depth := make([]ast.Expr, 0, len(es)), 0
	for _, e := range es {
		x, d := c.subExpr(e)
		out, depth = append(out, x), max(depth, d)
	}
	return out, depth
}

// nested is the depth of a node at p over children at most d deep; the
// first node deeper than MaxExprDepth in a statement's expression is
// reported.
func (c *converter) nested(p ast.Pos, d int) int {
	if d+1 > MaxExprDepth && !c.tooDeep {
		c.tooDeep = true
		c.errorf(p, "expression nested too deeply (more than %d levels, MaxExprDepth)", MaxExprDepth)
	}
	return d + 1
}

// operand is a converted subtree and its depth.
type operand struct {
	x     ast.Expr
	depth int
}

// subExpr builds the tree of a flat operand/operator chain by precedence
// climbing (token.Op.Precedence); operators of equal precedence associate
// to the left. An unknown operator (reported) has precedence 0 and ends
// the chain.
func (c *converter) subExpr(e *pExpr) (ast.Expr, int) {
	ops := make([]token.Op, len(e.Rest))
	for j, b := range e.Rest {
		ops[j] = c.op(b.Op, token.Op.IsBinary, "binary")
	}
	i := 0
	x, d := c.unary(e.X)
	o := c.climb(operand{x, d}, e.Rest, ops, &i, 1)
	return o.x, o.depth
}

func (c *converter) climb(x operand, rest []*pBin, ops []token.Op, i *int, minPrec int) operand {
	for *i < len(rest) {
		b, op := rest[*i], ops[*i]
		prec := op.Precedence()
		if prec < minPrec {
			break
		}
		*i++
		yx, yd := c.unary(b.Y)
		y := operand{yx, yd}
		for *i < len(rest) && ops[*i].Precedence() > prec {
			y = c.climb(y, rest, ops, i, prec+1)
		}
		pos := astPos(b.Op.Pos)
		x = operand{&ast.BinaryExpr{X: x.x, Op: op, OpPos: pos, Y: y.x}, c.nested(pos, max(x.depth, y.depth))}
	}
	return x
}

// unary builds prefix operators around their operand; suffixes bind
// tighter, so -a[i] is -(a[i]).
func (c *converter) unary(u *pUnary) (ast.Expr, int) {
	if u.Op != nil {
		pos := astPos(u.Op.Pos)
		x, d := c.unary(u.X)
		return &ast.UnaryExpr{Pos: pos, Op: c.op(*u.Op, token.Op.IsUnary, "unary"), X: x}, c.nested(pos, d)
	}
	x, d := c.primary(u.P)
	for _, s := range u.Sufs {
		x, d = c.suffix(x, d, s)
	}
	if u.Pow == nil {
		return x, d
	}
	pos := astPos(u.PowTok.Pos)
	y, yd := c.unary(u.Pow)
	return &ast.BinaryExpr{X: x, Op: c.op(*u.PowTok, token.Op.IsBinary, "binary"), OpPos: pos, Y: y}, c.nested(pos, max(d, yd))
}

func (c *converter) primary(p *pPrimary) (ast.Expr, int) {
	switch {
	case p.Paren != nil:
		pos := astPos(p.Paren.Lparen.Pos)
		x, d := c.subExpr(p.Paren.X)
		return &ast.ParenExpr{Pos: pos, X: x}, c.nested(pos, d)
	case p.List != nil:
		pos := astPos(p.List.Lbrack.Pos)
		elems, d := c.subExprs(p.List.Elems)
		return &ast.ListLit{Pos: pos, Elems: elems}, c.nested(pos, d)
	case p.Dict != nil:
		return c.dict(p.Dict)
	}
	t := *p.Tok
	pos := astPos(t.Pos)
	switch {
	case t.Type == tIdent:
		return &ast.Ident{Pos: pos, Name: t.Value}, 1
	case t.Value == "true" || t.Value == "false":
		return &ast.BoolLit{Pos: pos, Value: t.Value == "true"}, 1
	case t.Value == "nil":
		return &ast.NilLit{Pos: pos}, 1
	}
	kind, v := literalValue(t)
	return &ast.BasicLit{Pos: pos, Kind: kind, Raw: t.Value, Value: v}, 1
}

func (c *converter) dict(p *pDict) (ast.Expr, int) {
	pos := astPos(p.Lbrace.Pos)
	out, d := &ast.DictLit{Pos: pos}, 0
	for _, e := range p.Entries {
		k, kd := c.subExpr(e.Key)
		v, vd := c.subExpr(e.Value)
		out.Keys, out.Values, d = append(out.Keys, k), append(out.Values, v), max(d, kd, vd)
	}
	return out, c.nested(pos, d)
}

// suffix applies s to x, whose tree is d deep.
func (c *converter) suffix(x ast.Expr, d int, s *pSuffix) (ast.Expr, int) {
	switch {
	case s.Lparen != nil:
		return c.call(x, d, astPos(s.Lparen.Pos), s.Args)
	case s.Attr != nil:
		name := c.ident(s.Attr)
		return &ast.AttrExpr{X: x, Name: name}, c.nested(name.Pos, d)
	}
	lb := astPos(s.Lbrack.Pos)
	idx := make([]ast.Expr, len(s.Comps))
	for k, p := range s.Comps {
		var cd int
		idx[k], cd = c.comp(p)
		d = max(d, cd)
	}
	return &ast.IndexExpr{X: x, Lbrack: lb, Indices: idx}, c.nested(lb, d)
}

// comp converts one index component: an expression, or a slice.
func (c *converter) comp(p *pComp) (ast.Expr, int) {
	tail := p.Tail0
	var lo ast.Expr
	d := 0
	if p.X != nil {
		if lo, d = c.subExpr(p.X); p.Tail == nil {
			return lo, d
		}
		tail = p.Tail
	}
	hi, hd := c.optSubExpr(tail.Hi)
	step, sd := c.optSubExpr(tail.Step)
	return &ast.SliceComponent{Lo: lo, Colon: astPos(tail.Colon.Pos), Hi: hi, Step: step}, max(d, hd, sd)
}

// call splits arguments into positional and keyword ones; a positional
// argument after a keyword one is an error, as in Python. fun's tree is
// d deep.
func (c *converter) call(fun ast.Expr, d int, lparen ast.Pos, args []*pArg) (ast.Expr, int) {
	call := &ast.CallExpr{Fun: fun, Lparen: lparen}
	for _, a := range args {
		x, xd := c.subExpr(a.X)
		d = max(d, xd)
		if a.Eq == nil {
			if len(call.Kwargs) > 0 {
				c.errorf(x.Start(), "positional argument after keyword argument")
			}
			call.Args = append(call.Args, x)
			continue
		}
		name, ok := x.(*ast.Ident)
		if !ok {
			c.errorf(astPos(a.Eq.Pos), "keyword argument name must be a plain name, as in f(x, dtype=f32)")
			continue
		}
		c.checkDupKw(call.Kwargs, name)
		v, vd := c.subExpr(a.Value)
		d = max(d, vd)
		call.Kwargs = append(call.Kwargs, &ast.KwArg{Name: name, Value: v})
	}
	return call, c.nested(lparen, d)
}

func (c *converter) checkDupKw(kws []*ast.KwArg, name *ast.Ident) {
	for _, k := range kws {
		if k.Name.Name == name.Name {
			c.errorf(name.Pos, "keyword argument %s repeated (first at %s)", name.Name, strconv.Itoa(k.Name.Pos.Line)+":"+strconv.Itoa(k.Name.Pos.Col))
		}
	}
}

// importStmt binds the file under its base name, so that name must be one
// a script could declare: "my-util.gs" cannot be imported as my-util.
func (c *converter) importStmt(im *pImport) ast.Stmt {
	path, _ := strconv.Unquote(im.Path.Value) // the scanner checked the escapes
	p := astPos(im.Path.Pos)
	base := pathpkg.Base(path)
	name, ok := strings.CutSuffix(base, ".gs")
	switch {
	case !ok:
		c.errorf(p, "import path %q must name a .gs file", path)
	case !isName(name):
		c.errorf(p, "cannot import %q: its base name %q is not a name a script can use", path, name)
	}
	return &ast.ImportStmt{Pos: astPos(im.Kw.Pos), Path: path, PathPos: p, Name: &ast.Ident{Pos: p, Name: name}}
}

// isName reports whether s is an identifier and not a reserved keyword
// (contextual keywords are names where a module name can stand).
func isName(s string) bool {
	if s == "" || keywords[s] {
		return false
	}
	for i, r := range s {
		if r != '_' && !isLetter(r) && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
