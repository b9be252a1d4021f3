package check

import (
	"fmt"
	"go/constant"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// kvar is a name inside a kernel or func body: a scalar variable living in
// a register, or an array: a parameter, or a shared or local array.
type kvar struct {
	name    string
	t       ir.Type // scalar type
	reg     ir.Reg
	isArray bool
	param   int      // the array's index in its space
	space   ir.Space // where the array is
	elem    ir.Type
	ndim    int
	dims    []int // a shared or local array's static extents
	// ct is the compound type of a vector variable (its lanes in regs)
	// or of a compound array's elements (whose trailing IR axes hold the
	// lanes); scalar otherwise.
	ct   dtype.Type
	regs []ir.Reg
	// bad marks a name whose declaration had an error already reported
	// (an unknown parameter type, a let of an invalid value): every use
	// yields an invalid operand, so the mistake is reported only once.
	bad bool
}

// typeString describes an array variable for messages.
func (v *kvar) typeString() string {
	if !v.ct.IsScalar() {
		if v.ndim == 1 {
			return fmt.Sprintf("array[%s]", v.ct)
		}
		return fmt.Sprintf("array[%s, %d]", v.ct, v.ndim)
	}
	return arrayTypeString(v.elem, v.ndim)
}

// body checks and lowers one kernel or func body in a single pass.
type body struct {
	kc     *kernelChecker
	errs   *ast.ErrorList
	kind   string // "kernel" or "func"
	name   string
	env    map[string]*funcInfo
	ks     *kernelState // nil when checking a func on its own
	fn     *ir.Func
	sig    []dtype.Param // the source parameters (fn.Params flattened)
	scopes []map[string]*kvar
	// scratches are the local arrays that hold compound values while a
	// run-time index picks a lane (vec.go's scratch), one per type.
	scratches map[dtype.Type]*kvar
	cur       *[]ir.Stmt
	loops     int
	result    dtype.Type
	// badResult is true when the func's declared result type was invalid:
	// return statements are then checked only for errors of their own.
	badResult bool
	edges     []callEdge
	// readsMem is set when the body reads an array parameter (a load or
	// an atomic): a func that does not gives every thread the same result
	// for the same arguments.
	readsMem bool
	depth    int // nesting of blocks: 1 at the top level of the body

	tidDims int
	tidPos  ast.Pos

	// block is the shape of a block kernel (nil otherwise), blockText its
	// declaration, badBlock set when the shape was an error, and uni its
	// uniformity graph (uniform.go).
	block     []int
	blockText string
	badBlock  bool
	uni       *uniformity
}

func newBody(kc *kernelChecker, kind, name string, env map[string]*funcInfo, ks *kernelState) *body {
	return &body{kc: kc, errs: kc.errs, kind: kind, name: name, env: env, ks: ks}
}

// lowerFunc checks and lowers a device func.
func (b *body) lowerFunc(fi *funcInfo) *ir.Func {
	d := fi.decl
	b.fn = &ir.Func{Name: fi.name, Pos: d.Pos, Params: fi.params}
	b.sig = fi.sig
	for k := range fi.result.Lanes() {
		if fi.result.Valid() {
			b.fn.Results = append(b.fn.Results, fi.result.LaneType(k))
		}
	}
	b.result, b.badResult = fi.result, fi.badResult
	b.lower(d.Body, nil)
	if fi.result.Valid() && !terminates(d.Body.Stmts) {
		b.errs.Add(d.Body.End, "missing return")
	}
	return b.fn
}

// lower binds the parameters (scalars are copied into registers at entry),
// runs pre when set (a kernel's block shape, which sees the parameters),
// and lowers the body.
func (b *body) lower(blk *ast.Block, pre func()) {
	b.cur = &b.fn.Body
	b.push()
	i := 0 // the IR parameter of p
	for _, p := range b.sig {
		b.bindParam(p, i)
		i += p.IRParams()
	}
	if pre != nil {
		pre()
	}
	b.stmts(blk)
	b.pop()
}

// bindParam declares source parameter p, whose first IR parameter is i:
// an array by index, a scalar or compound value copied into registers.
func (b *body) bindParam(p dtype.Param, i int) {
	switch {
	case !p.Type.Valid(): // its type was an error, already reported
		b.poison(p.Name)
	case p.NDim > 0:
		b.define(&kvar{name: p.Name, isArray: true, param: i, elem: p.Type.Elem, ndim: p.NDim, ct: p.Type})
	case p.Type.IsScalar():
		v := &kvar{name: p.Name, t: p.Type.Elem, reg: b.fn.NewReg(p.Type.Elem)}
		b.emit(&ir.Inst{Op: ir.OpParam, Dst: v.reg, Param: i})
		b.define(v)
	default:
		v := &kvar{name: p.Name, t: p.Type.Elem, ct: p.Type, regs: make([]ir.Reg, p.Type.Lanes())}
		for k := range v.regs {
			// A struct's lanes have their fields' types; a vector's are all Elem.
			v.regs[k] = b.fn.NewReg(p.Type.LaneType(k))
			b.emit(&ir.Inst{Op: ir.OpParam, Dst: v.regs[k], Param: i + k})
		}
		b.define(v)
	}
}

func (b *body) push()                { b.scopes = append(b.scopes, map[string]*kvar{}) }
func (b *body) pop()                 { b.scopes = b.scopes[:len(b.scopes)-1] }
func (b *body) define(v *kvar)       { b.scopes[len(b.scopes)-1][v.name] = v }
func (b *body) reg(t ir.Type) ir.Reg { return b.fn.NewReg(t) }

// emit appends s to the current list; an instruction's result joins the
// uniformity graph of a block kernel.
func (b *body) emit(s ir.Stmt) {
	*b.cur = append(*b.cur, s)
	if in, ok := s.(*ir.Inst); ok {
		b.uni.inst(in)
	}
}

// poison declares name as a variable whose declaration failed.
func (b *body) poison(name string) { b.define(&kvar{name: name, bad: true}) }

func (b *body) lookup(name string) *kvar {
	for i := len(b.scopes) - 1; i >= 0; i-- {
		if v, ok := b.scopes[i][name]; ok {
			return v
		}
	}
	return nil
}

// lookupIdent is lookup for a name in the source: where the checker
// records types (Checker.RecordTypes), it records the variable's.
func (b *body) lookupIdent(id *ast.Ident) *kvar {
	v := b.lookup(id.Name)
	if v != nil && !v.bad && b.kc.c.types != nil {
		b.kc.c.types[id] = v.describe()
	}
	return v
}

// describe is v's type as messages write it.
func (v *kvar) describe() string {
	switch {
	case v.isArray:
		return v.typeString()
	case !v.ct.IsScalar():
		return v.ct.String()
	}
	return v.t.String()
}

// newVar makes a scalar variable holding register r's value.
func (b *body) newVar(name string, t ir.Type, r ir.Reg) {
	v := &kvar{name: name, t: t, reg: b.reg(t)}
	b.uni.named(v.reg, name)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: v.reg, Args: []ir.Reg{r}})
	b.define(v)
}

// into lowers stmts into list (a branch or loop part) and restores the
// current list afterwards.
func (b *body) into(list *[]ir.Stmt, f func()) {
	saved := b.cur
	b.cur = list
	f()
	b.cur = saved
}

// stmts lowers a block in a new scope, one level deeper.
func (b *body) stmts(blk *ast.Block) {
	if blk == nil {
		return
	}
	b.push()
	b.depth++
	for _, s := range blk.Stmts {
		b.stmt(s)
	}
	b.depth--
	b.pop()
}

func (b *body) stmt(s ast.Stmt) {
	if what, does := hostOnlyStmt(s); what != "" {
		b.errs.Add(s.Start(), "%s is host-only: a %s cannot %s", what, b.kind, does)
		return
	}
	switch s := s.(type) {
	case *ast.LetStmt:
		b.let(s)
	case *ast.AssignStmt:
		b.assign(s)
	case *ast.ExprStmt:
		b.exprStmt(s)
	case *ast.IfStmt:
		b.ifStmt(s)
	case *ast.ForStmt:
		b.forStmt(s)
	case *ast.WhileStmt:
		b.whileStmt(s)
	case *ast.BranchStmt:
		b.branch(s)
	case *ast.ReturnStmt:
		b.returnStmt(s)
	case *ast.Block:
		b.stmts(s)
	case *ast.BufferDecl:
		b.bufferDecl(s)
	default:
		b.errs.Add(s.Start(), "%s not allowed in a %s", stmtName(s), b.kind)
	}
}

// hostOnlyStmt names a host-only statement form and what it does, or
// returns "" when s is no such form (HOST.md section 5: none of the host
// additions enter kernels).
func hostOnlyStmt(s ast.Stmt) (what, does string) {
	switch s := s.(type) {
	case *ast.TryStmt:
		return "try", "catch errors"
	case *ast.AssignStmt:
		if s.Targets != nil {
			return "unpacking", "assign several targets at once"
		}
	case *ast.ForStmt:
		if s.Vars != nil {
			return "unpacking", "loop over several names"
		}
	case *ast.LetStmt:
		if isTuple(s.Value) {
			return "a list of values", "unpack one"
		}
	case *ast.ReturnStmt:
		if isTuple(s.Value) {
			return "returning several values", "return a list"
		}
	}
	return "", ""
}

func isTuple(e ast.Expr) bool {
	l, ok := e.(*ast.ListLit)
	return ok && l.Tuple
}

func stmtName(s ast.Stmt) string {
	switch s.(type) {
	case *ast.AssertStmt:
		return "assert"
	case *ast.FnDecl:
		return "fn declaration"
	case *ast.KernelDecl:
		return "kernel declaration"
	case *ast.FuncDecl:
		return "func declaration"
	case *ast.ArrayDecl:
		return "array declaration"
	case *ast.LaunchStmt:
		return "launch"
	case *ast.ImportStmt:
		return "import"
	case *ast.ConstDecl:
		return "const declaration (consts are declared at top level)"
	case *ast.StructDecl:
		return "struct declaration (structs are declared at top level)"
	case *ast.DeviceBlock:
		return "device block"
	case *ast.AllocatorBlock:
		return "allocator block"
	case *ast.CaptureBlock:
		return "capture block"
	case *ast.TapeBlock:
		return "tape block"
	}
	return "statement"
}

// indexCall reports whether e calls a builtin that a let unpacks into
// one name per axis (tid(), thread_id(), block_id(), block_dim(),
// grid_dim()), not hidden by a variable or func of that name.
func (b *body) indexCall(e ast.Expr) (*ast.CallExpr, string, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := call.Fun.(*ast.Ident)
	if !ok || b.lookup(id.Name) != nil || b.env[id.Name] != nil || id.Name != "tid" && !isAxisBuiltin(id.Name) {
		return nil, "", false
	}
	return call, id.Name, true
}

// isAxisBuiltin reports whether name is a block builtin with one value
// per block axis.
func isAxisBuiltin(name string) bool {
	op, ok := blockOps[name]
	info, _ := op.Info()
	return ok && info.Axis == ir.AxisBlock
}

func (b *body) let(s *ast.LetStmt) {
	if len(s.Names) > 1 {
		b.letIndex(s)
		return
	}
	x := b.expr(s.Value)
	if s.Type != nil {
		t := b.kc.valueType(s.Type, "local variable")
		switch {
		case !t.Valid():
			x = invalid()
		case t.IsScalar():
			x = b.convertTo(x, t.Elem, "variable declaration")
		default:
			x = b.convertVec(x, t, "variable declaration")
		}
	}
	if !b.singleValue(&x) {
		b.poison(s.Names[0].Name) // keep later uses quiet
		return
	}
	if x.mode == modeVec {
		b.newVecVar(s.Names[0].Name, x.ct, x.regs)
		return
	}
	r := b.materialize(x)
	b.newVar(s.Names[0].Name, b.fn.Regs[r], r)
}

// letIndex lowers `let i, j, ... = tid()` and the same unpacking of
// thread_id(), block_id(), block_dim() and grid_dim().
func (b *body) letIndex(s *ast.LetStmt) {
	call, name, ok := b.indexCall(s.Value)
	n := len(s.Names)
	if !ok {
		b.errs.Add(s.Pos, "let with %d names needs tid() on the right (or thread_id(), block_id(), block_dim(), grid_dim())", n)
	} else if name == "tid" && n > 4 {
		b.errs.Add(s.Pos, "tid() returns at most 4 values, not %d", n)
	} else if s.Type != nil && s.Type.Name != "i32" {
		b.errs.Add(s.Type.Pos, "%s() values are i32, not %s", name, s.Type.Name)
	}
	var regs []ir.Reg
	switch {
	case !ok:
	case name == "tid" && n <= 4:
		regs = b.tid(call, n)
	case name != "tid" && b.usable(call, name, false) && b.noArgs(call, name):
		regs = b.blockIndex(call, name, blockOps[name], n)
	}
	for i, id := range s.Names {
		if i < len(regs) {
			b.newVar(id.Name, ir.I32, regs[i])
		} else {
			b.newVar(id.Name, ir.I32, b.reg(ir.I32)) // after an error: keep uses quiet
		}
	}
}

// singleValue reports whether x can be stored in a variable, reporting
// why not otherwise.
func (b *body) singleValue(x *operand) bool {
	switch x.mode {
	case modeInvalid:
		return false
	case modeNoValue:
		b.errs.Add(x.expr.Start(), "%s used as value", x)
		return false
	case modeArray:
		b.errs.Add(x.expr.Start(), "cannot store array %s in a local variable", exprString(x.expr))
		return false
	}
	return true
}

func (b *body) exprStmt(s *ast.ExprStmt) {
	call, ok := s.X.(*ast.CallExpr)
	if !ok {
		x := b.expr(s.X)
		if x.mode != modeInvalid {
			b.errs.Add(s.X.Start(), "%s is not used", x)
		}
		return
	}
	b.call(call, true)
}

func (b *body) ifStmt(s *ast.IfStmt) {
	cond, ok := b.cond(s.Cond, "if")
	node := &ir.If{Cond: cond}
	b.uni.under(cond, s.Cond.Start(), func() {
		b.into(&node.Then, func() { b.stmts(s.Then) })
		if s.Else != nil {
			b.into(&node.Else, func() { b.stmt(s.Else) })
		}
	})
	if ok {
		b.emit(node)
	}
}

// cond checks a bool condition and returns its register.
func (b *body) cond(e ast.Expr, what string) (ir.Reg, bool) {
	x := b.expr(e)
	if x.mode == modeInvalid {
		return ir.NoReg, false
	}
	if !(x.mode == modeValue || x.mode == modeConst) || (x.t != ir.Bool && !(x.untyped() && x.val.Kind() == constant.Bool)) {
		b.errs.Add(e.Start(), "non-bool %s used as %s condition", x, what)
		return ir.NoReg, false
	}
	return b.materialize(x), true
}

func (b *body) whileStmt(s *ast.WhileStmt) {
	loop := &ir.Loop{CondReg: ir.NoReg}
	ok := true
	b.uni.loop(func(setCond func(ir.Reg, ast.Pos)) {
		if x, isConst := b.constBool(s.Cond); !isConst || !x {
			b.into(&loop.Cond, func() { loop.CondReg, ok = b.cond(s.Cond, "while") })
			setCond(loop.CondReg, s.Cond.Start())
		}
		b.loopBody(&loop.Body, s.Body, nil)
	})
	if ok {
		b.emit(loop)
	}
}

// constBool reports the value of a literal true/false condition, so that
// `while true` lowers to a loop without a condition.
func (b *body) constBool(e ast.Expr) (val, ok bool) {
	for {
		p, isParen := e.(*ast.ParenExpr)
		if !isParen {
			break
		}
		e = p.X
	}
	lit, ok := e.(*ast.BoolLit)
	if !ok {
		return false, false
	}
	return lit.Value, true
}

// loopBody lowers a loop body; pre runs first inside the body's scope (it
// binds the loop variable).
func (b *body) loopBody(list *[]ir.Stmt, blk *ast.Block, pre func()) {
	b.into(list, func() {
		b.push()
		if pre != nil {
			pre()
		}
		b.loops++
		b.stmts(blk)
		b.loops--
		b.pop()
	})
}

func (b *body) branch(s *ast.BranchStmt) {
	if b.loops == 0 {
		b.errs.Add(s.Pos, "%s is not in a loop", s.Tok)
		return
	}
	b.uni.exit(s.Tok, s.Pos)
	if s.Tok == "break" {
		b.emit(&ir.Break{})
	} else {
		b.emit(&ir.Continue{})
	}
}

func (b *body) returnStmt(s *ast.ReturnStmt) {
	switch {
	case b.badResult:
		if s.Value != nil {
			b.expr(s.Value) // for its own errors; the result type was reported
		}
	case b.kind == "kernel" && s.Value != nil:
		b.errs.Add(s.Value.Start(), "kernel %s cannot return a value", b.name)
	case !b.result.Valid() && s.Value != nil:
		b.errs.Add(s.Value.Start(), "too many return values: func %s has no result", b.name)
	case b.result.Valid() && s.Value == nil:
		b.errs.Add(s.Pos, "not enough return values: func %s returns %s", b.name, b.result)
	case s.Value != nil:
		if lanes, ok := b.resultLanes(s.Value); ok {
			b.emit(&ir.Return{Values: lanes})
		}
		return
	default:
		b.uni.ret(s.Pos)
		b.emit(&ir.Return{})
		return
	}
}

// resultLanes checks a return value against the func's result type and
// returns its registers, one per lane.
func (b *body) resultLanes(e ast.Expr) ([]ir.Reg, bool) {
	x := b.expr(e)
	if !b.result.IsScalar() {
		x = b.convertVec(x, b.result, "return statement")
		return x.regs, x.mode != modeInvalid
	}
	x = b.convertTo(x, b.result.Elem, "return statement")
	if x.mode == modeInvalid {
		return nil, false
	}
	return []ir.Reg{b.materialize(x)}, true
}

// terminates is Go's terminating-statement rule, simplified: the last
// statement is a return, an if/else whose branches both terminate, a
// block that terminates, or a `while true` loop without a break.
func terminates(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[len(stmts)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.Block:
		return terminates(s.Stmts)
	case *ast.IfStmt:
		if s.Else == nil || !terminates(s.Then.Stmts) {
			return false
		}
		return terminates([]ast.Stmt{s.Else})
	case *ast.WhileStmt:
		lit, ok := s.Cond.(*ast.BoolLit)
		return ok && lit.Value && !hasBreak(s.Body.Stmts)
	}
	return false
}

// hasBreak reports a break that leaves the enclosing loop (not one of a
// nested loop).
func hasBreak(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.BranchStmt:
			if s.Tok == "break" {
				return true
			}
		case *ast.Block:
			if hasBreak(s.Stmts) {
				return true
			}
		case *ast.IfStmt:
			if hasBreak(s.Then.Stmts) || (s.Else != nil && hasBreak([]ast.Stmt{s.Else})) {
				return true
			}
		}
	}
	return false
}
