package interp

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// The bytecode compiler: a fn body becomes register code (vm.go). The
// fn's locals are its first registers, as they are its frame's slots
// (the resolver's indexes); temporaries are the registers above them,
// allocated as a stack while an expression is compiled. Control flow,
// locals, globals, constants, arithmetic, comparisons and calls of global
// fns are instructions; any other expression or statement is compiled by
// the closure compiler and called by one instruction (opEval, opExec),
// over the same frame.

// vmBuilder compiles one fn body.
type vmBuilder struct {
	c      *compiler
	vc     *vmCode
	d      *ast.FnDecl
	top    int       // the first free register
	loops  []*vmLoop // the loops being compiled, innermost last
	failed bool      // a register past what an instruction can name
}

// vmLoop is a loop being compiled: the jumps and opExec statements to
// point at its exit (break) and its next iteration (continue).
type vmLoop struct {
	breaks, conts []int // pcs of jumps
	execs         []int // indexes of vc.execs
}

// maxRegs is how many registers an instruction can name.
const maxRegs = 255

// noReg is a register operand that names none (a loop variable not
// stored).
const noReg = 255

// compileVM compiles d's body to register code, or returns nil when it
// needs more registers than instructions can name (the closures run it).
func (c *compiler) compileVM(d *ast.FnDecl) *vmCode {
	if d.NumLocals >= maxRegs {
		return nil
	}
	b := &vmBuilder{c: c, vc: &vmCode{}, d: d, top: d.NumLocals}
	b.vc.nregs = d.NumLocals
	b.block(d.Body.Stmts)
	b.emit(opRetK, 0, 0, b.konst(cell{v: Nil}), vmInfo{pos: d.Body.End})
	if b.failed {
		return nil
	}
	fuse(b.vc.ins)
	return b.vc
}

// fuse marks the pairs of instructions whose second the hot loop runs
// straight after the first, with no dispatch between: a compare-and-branch
// over one opRet (`if n < 2 { return n }`, a recursion's every call) and
// an add-immediate before a global call (`fib(n - 1)`). The second stays
// where it was, so a fused instruction's general path is its first's and
// a jump to the second still lands on it.
func fuse(ins []instr) {
	for pc := 0; pc+1 < len(ins); pc++ {
		in, next := &ins[pc], ins[pc+1].op
		switch {
		case in.op >= opJNLtI && in.op <= opJNNeI && next == opRet && int(in.c) == pc+2:
			in.op = in.op - opJNLtI + opRetLtI
		case in.op == opAddI && next == opCallG:
			in.op = opAddICall
		}
	}
}

func (b *vmBuilder) emit(op vmOp, a, x, c int, info vmInfo) int {
	pc := len(b.vc.ins)
	b.vc.ins = append(b.vc.ins, instr{op: op, a: uint8(a), b: uint8(x), c: int32(c)})
	b.vc.info = append(b.vc.info, info)
	return pc
}

// here is the pc of the next instruction.
func (b *vmBuilder) here() int { return len(b.vc.ins) }

// patch points the jumps at pcs to target.
func (b *vmBuilder) patch(pcs []int, target int) {
	for _, pc := range pcs {
		b.vc.ins[pc].c = int32(target)
	}
}

// alloc takes n temporaries and returns the first.
func (b *vmBuilder) alloc(n int) int {
	r := b.top
	b.top += n
	if b.top > maxRegs {
		b.failed = true
		b.top = maxRegs
		return 0
	}
	b.vc.nregs = max(b.vc.nregs, b.top)
	return r
}

func (b *vmBuilder) konst(v cell) int {
	b.vc.consts = append(b.vc.consts, v)
	return len(b.vc.consts) - 1
}

// block compiles a statement list: its declarations are bound first, as
// the closure compiler's block does.
func (b *vmBuilder) block(stmts []ast.Stmt) {
	var body []ast.Stmt
	for _, s := range stmts {
		if h := b.c.hoist(s); h != nil {
			b.exec(h, s.Start())
			continue
		}
		body = append(body, s)
	}
	for _, s := range body {
		b.stmt(s)
	}
}

// exec compiles a statement the closures run (opExec): a break, continue
// or return it ends with goes to the innermost loop's exit, its next
// iteration, or returns the fn's result.
func (b *vmBuilder) exec(f execFn, pos ast.Pos) {
	if f == nil {
		return
	}
	k := len(b.vc.execs)
	b.vc.execs = append(b.vc.execs, vmExec{fn: f, brk: -1, cont: -1})
	if n := len(b.loops); n > 0 {
		b.loops[n-1].execs = append(b.loops[n-1].execs, k)
	}
	b.emit(opExec, 0, 0, k, vmInfo{pos: pos})
}

func (b *vmBuilder) stmt(s ast.Stmt) {
	save := b.top
	defer func() { b.top = save }()
	switch s := s.(type) {
	case *ast.ExprStmt:
		b.exprTo(s.X, b.alloc(1), true)
	case *ast.LetStmt:
		if r, ok := b.localReg(s.Names[0]); ok && len(s.Names) == 1 && s.Type == nil {
			b.exprTo(s.Value, r, true)
			return
		}
		b.exec(b.c.let(s), s.Pos)
	case *ast.AssignStmt:
		b.assign(s)
	case *ast.IfStmt:
		b.ifStmt(s)
	case *ast.WhileStmt:
		b.while(s)
	case *ast.ForStmt:
		b.forStmt(s)
	case *ast.BranchStmt:
		b.branch(s)
	case *ast.ReturnStmt:
		b.returnStmt(s)
	case *ast.Block:
		b.block(s.Stmts)
	default:
		b.exec(b.c.stmt(s), s.Start())
	}
}

// localReg is id's register when id is a local of this fn's frame.
func (b *vmBuilder) localReg(id *ast.Ident) (int, bool) {
	if id.Scope == ast.ScopeLocal && id.Depth == 0 {
		return id.Index, true
	}
	return 0, false
}

func (b *vmBuilder) assign(s *ast.AssignStmt) {
	t, isIdent := s.Target.(*ast.Ident)
	op := s.Op.Compound()
	if ix, ok := s.Target.(*ast.IndexExpr); ok && len(s.Targets) == 0 && op == token.Invalid && !ix.Slices() && len(ix.Indices) == 1 {
		b.setIndex(s, ix)
		return
	}
	if !isIdent || len(s.Targets) > 0 {
		b.exec(b.c.assign(s), s.Pos)
		return
	}
	r, local := b.localReg(t)
	switch {
	case local && op == token.Invalid:
		b.exprTo(s.Value, r, true)
	case t.Scope == ast.ScopeGlobal && op == token.Invalid:
		x := b.alloc(1)
		b.exprTo(s.Value, x, true)
		b.emit(opSetG, x, 0, t.Index, vmInfo{pos: s.Pos})
	case local:
		info := vmInfo{pos: s.OpPos, op: op, x: t, y: s.Value, update: b.c.compoundGeneral(t, op, s)}
		if k, ok := b.literal(s.Value); ok { // s += "ab": the constant itself, no register
			b.emit(opCompoundK, r, 0, k, info)
			return
		}
		x := b.operandReg(s.Value)
		vop := opCompound
		if op == token.Add {
			vop = opAddTo
		}
		b.emit(vop, r, x, 0, info)
	default:
		b.exec(b.c.assign(s), s.Pos)
	}
}

// setIndex is `x[k] = v`: v is computed first, as the closures do (an
// array expression left for the store to write in place).
func (b *vmBuilder) setIndex(s *ast.AssignStmt, t *ast.IndexExpr) {
	v := b.valueReg(s.Value, false)
	x, k := b.valueReg(t.X, true), b.valueReg(t.Indices[0], true)
	b.emit(opSetIndex, x, k, v, vmInfo{pos: s.Pos, x: t.X, y: t.Indices[0], z: s.Value, store: b.c.store1(t, s.Value.Start(), s.OpPos)})
}

func (b *vmBuilder) ifStmt(s *ast.IfStmt) {
	toElse := b.jumpIf(s.Cond, false)
	b.block(s.Then.Stmts)
	if s.Else == nil {
		b.patch(toElse, b.here())
		return
	}
	toEnd := b.emit(opJmp, 0, 0, 0, vmInfo{})
	b.patch(toElse, b.here())
	switch e := s.Else.(type) {
	case *ast.Block:
		b.block(e.Stmts)
	case *ast.IfStmt:
		b.stmt(e)
	}
	b.patch([]int{toEnd}, b.here())
}

func (b *vmBuilder) while(s *ast.WhileStmt) {
	top := b.here()
	exit := b.jumpIf(s.Cond, false)
	b.emit(opLoop, 0, 0, 0, vmInfo{pos: s.Pos})
	l := b.loopBody(s.Body)
	b.emit(opJmp, 0, 0, top, vmInfo{})
	b.endLoop(l, b.here(), top)
	b.patch(exit, b.here())
}

// loopBody compiles a loop's body as the innermost loop.
func (b *vmBuilder) loopBody(body *ast.Block) *vmLoop {
	l := &vmLoop{}
	b.loops = append(b.loops, l)
	b.block(body.Stmts)
	b.loops = b.loops[:len(b.loops)-1]
	return l
}

// endLoop points the loop's breaks at exit and its continues at next.
func (b *vmBuilder) endLoop(l *vmLoop, exit, next int) {
	b.patch(l.breaks, exit)
	b.patch(l.conts, next)
	for _, k := range l.execs {
		b.vc.execs[k].brk, b.vc.execs[k].cont = exit, next
	}
}

func (b *vmBuilder) branch(s *ast.BranchStmt) {
	n := len(b.loops)
	if n == 0 { // check refuses it; the closures' error path words it
		b.exec(b.c.stmt(s), s.Pos)
		return
	}
	pc := b.emit(opJmp, 0, 0, 0, vmInfo{})
	if s.Tok == "break" {
		b.loops[n-1].breaks = append(b.loops[n-1].breaks, pc)
	} else {
		b.loops[n-1].conts = append(b.loops[n-1].conts, pc)
	}
}

func (b *vmBuilder) forStmt(s *ast.ForStmt) {
	if call, ok := s.Iter.(*ast.CallExpr); ok && isPredeclared(call.Fun, "range") && len(s.Vars) == 0 &&
		len(call.Kwargs) == 0 && len(call.Args) >= 1 && len(call.Args) <= 3 {
		if v, ok := b.loopVar(s); ok {
			b.forRange(s, call, v)
			return
		}
	}
	b.forIter(s)
}

// loopVar is the register a loop's one variable is stored in (noReg when
// the body never reads it), if it is a local of this frame.
func (b *vmBuilder) loopVar(s *ast.ForStmt) (int, bool) {
	if !s.VarUsed {
		return noReg, true
	}
	return b.localReg(s.Var)
}

// forRange is `for i in range(...)`: t holds the values left, the next
// value and the step (opForPrep, opForLoop).
func (b *vmBuilder) forRange(s *ast.ForStmt, call *ast.CallExpr, v int) {
	t := b.alloc(3 + len(call.Args))
	for i, a := range call.Args {
		b.exprTo(a, t+3+i, true)
	}
	prep := b.emit(opForPrep, t, len(call.Args), 0, vmInfo{pos: s.Pos, call: call, dst: v})
	top := b.here()
	l := b.loopBody(s.Body)
	next := b.emit(opForLoop, t, v, top, vmInfo{pos: s.Pos})
	b.endLoop(l, b.here(), next)
	b.patch([]int{prep}, b.here())
}

// forIter is `for x in v` over anything else: t holds the iterator, t+1
// each value when it is bound by the closures (several names, or a name
// of an enclosing frame).
func (b *vmBuilder) forIter(s *ast.ForStmt) {
	t := b.alloc(2)
	b.exprTo(s.Iter, t, true)
	b.emit(opIterPrep, t, 0, 0, vmInfo{pos: s.Iter.Start()})
	v := t + 1 // several names, or one of an enclosing frame: bound by the closures
	if len(s.Vars) == 0 {
		if r, direct := b.loopVar(s); direct {
			v = r
		}
	}
	top := b.emit(opIterNext, t, v, 0, vmInfo{pos: s.Iter.Start()})
	if v == t+1 {
		b.vc.binds = append(b.vc.binds, b.c.loopVars(s))
		b.emit(opBind, v, 0, len(b.vc.binds)-1, vmInfo{pos: s.Pos})
	}
	b.emit(opLoop, 0, 0, 0, vmInfo{pos: s.Pos})
	l := b.loopBody(s.Body)
	b.emit(opJmp, 0, 0, top, vmInfo{})
	b.endLoop(l, b.here(), top)
	b.patch([]int{top}, b.here())
}

func (b *vmBuilder) returnStmt(s *ast.ReturnStmt) {
	if s.Value == nil {
		b.emit(opRetK, 0, 0, b.konst(cell{v: Nil}), vmInfo{pos: s.Pos})
		return
	}
	if id, ok := s.Value.(*ast.Ident); ok {
		if r, ok := b.localReg(id); ok {
			b.emit(opRet, r, 0, 0, vmInfo{pos: s.Pos, x: id})
			return
		}
	}
	r := b.valueReg(s.Value, true)
	b.emit(opRet, r, 0, 0, vmInfo{pos: s.Pos})
}

// operandReg is the register holding e's value as an operand (an array
// expression left deferred).
func (b *vmBuilder) operandReg(e ast.Expr) int { return b.valueReg(e, false) }

// valueReg compiles e into the register it is cheapest in: a local's own
// (in a fn whose locals a nested fn may assign, Escapes, a local is
// copied, so that an operand read before a call is not changed by it), a
// call's, an operator's first temporary operand, or a new temporary. The
// registers above it are free again.
func (b *vmBuilder) valueReg(e ast.Expr, mat bool) int {
	if id, ok := e.(*ast.Ident); ok && !b.d.Escapes {
		if r, ok := b.localReg(id); ok {
			return r
		}
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		if r, ok := b.call(x); ok {
			return r // the call's own register: no copy
		}
	case *ast.BinaryExpr:
		if r, ok := b.binary(x, -1, mat); ok {
			b.top = r + 1
			return r
		}
	}
	r := b.alloc(1)
	b.exprTo(e, r, mat)
	return r
}

// exprTo compiles e into register dst; with mat, an array expression is
// materialised (the closure compiler's value, else its operand).
func (b *vmBuilder) exprTo(e ast.Expr, dst int, mat bool) {
	save := b.top
	defer func() { b.top = save }()
	switch e := e.(type) {
	case *ast.ParenExpr:
		b.exprTo(e.X, dst, mat)
		return
	case *ast.Ident:
		if r, ok := b.localReg(e); ok {
			b.emit(opMove, dst, r, 0, vmInfo{x: e})
			return
		}
		if e.Scope == ast.ScopeGlobal {
			b.emit(opGetG, dst, 0, e.Index, vmInfo{x: e})
			return
		}
	case *ast.BasicLit:
		if v, err := literal(e); err == nil {
			b.emit(opLoadK, dst, 0, b.konst(cell{v: v}), vmInfo{})
			return
		}
	case *ast.BoolLit:
		b.emit(opLoadK, dst, 0, b.konst(boolCell(e.Value)), vmInfo{})
		return
	case *ast.NilLit:
		b.emit(opLoadK, dst, 0, b.konst(cell{v: Nil}), vmInfo{})
		return
	case *ast.BinaryExpr:
		if _, ok := b.binary(e, dst, mat); ok {
			return
		}
	case *ast.CallExpr:
		if r, ok := b.call(e); ok {
			b.emit(opMove, dst, r, 0, vmInfo{})
			return
		}
		if b.appendCall(e, dst) {
			return
		}
	case *ast.IndexExpr:
		if !e.Slices() && len(e.Indices) == 1 {
			info := vmInfo{pos: e.Lbrack, x: e.X, y: e.Indices[0], mat: mat}
			x := b.valueReg(e.X, true)
			if k, _, ok := intLiteral(e.Indices[0]); ok && k <= math.MaxInt32 {
				b.emit(opIndexI, dst, x, int(k), info) // l[0]: the index in the instruction
				return
			}
			b.emit(opIndex, dst, x, b.valueReg(e.Indices[0], true), info)
			return
		}
	}
	b.eval(e, dst, mat)
}

// eval compiles e by the closures, called by opEval.
func (b *vmBuilder) eval(e ast.Expr, dst int, mat bool) {
	f := b.c.operand(e)
	if mat {
		f = b.c.value(e)
	}
	b.vc.evals = append(b.vc.evals, f)
	b.emit(opEval, dst, 0, len(b.vc.evals)-1, vmInfo{pos: e.Start()})
}

// binary compiles an arithmetic operator or a comparison into dst, or,
// when dst is -1, into a temporary operand of its own or a new one, and
// returns the register; false for the operators the closures compile
// (&&, ||, @).
func (b *vmBuilder) binary(e *ast.BinaryExpr, dst int, mat bool) (int, bool) {
	if e.Op.IsLogical() || e.Op == token.MatMul {
		return 0, false
	}
	own := b.top // the registers from here are this expression's
	into := func(x, y int) int {
		switch {
		case dst >= 0:
			return dst
		case x >= own:
			return x
		case y >= own:
			return y
		}
		return b.alloc(1)
	}
	if isComparison(e.Op) {
		x, y := b.operandReg(e.X), b.operandReg(e.Y)
		dst = into(x, y)
		b.emit(opCmp, dst, x, y, vmInfo{pos: e.OpPos, op: e.Op, x: e.X, y: e.Y, slow: b.c.compareSlow(e), mat: mat})
		return dst, true
	}
	info := vmInfo{pos: e.OpPos, op: e.Op, x: e.X, y: e.Y, slow: b.c.arithSlow(e, mat), mat: mat}
	if k, _, ok := intLiteral(e.Y); ok && (e.Op == token.Add || e.Op == token.Sub) && k <= math.MaxInt32 {
		if e.Op == token.Sub {
			k = -k
		}
		x := b.operandReg(e.X)
		dst = into(x, -1)
		b.emit(opAddI, dst, x, int(k), info)
		return dst, true
	}
	op := opArith
	switch e.Op {
	case token.Add:
		op = opAdd
	case token.Sub:
		op = opSub
	default:
		if k, ok := b.literal(e.Y); ok { // x * 2: the constant itself, no register
			x := b.operandReg(e.X)
			dst = into(x, -1)
			b.emit(opArithK, dst, x, k, info)
			return dst, true
		}
	}
	x, y := b.operandReg(e.X), b.operandReg(e.Y)
	dst = into(x, y)
	b.emit(op, dst, x, y, info)
	return dst, true
}

// literal is the index of e's value among the constants when e is a
// number or string literal.
func (b *vmBuilder) literal(e ast.Expr) (int, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok {
		return 0, false
	}
	v, err := literal(lit)
	if err != nil {
		return 0, false // the closures' error, raised where it runs
	}
	return b.konst(cell{v: v}), true
}

// call compiles a call of a global with positional arguments into a new
// temporary: the callee in it, the arguments in the registers above
// (opCall). False for any other call, which the closures compile.
func (b *vmBuilder) call(e *ast.CallExpr) (int, bool) {
	id, ok := e.Fun.(*ast.Ident)
	if !ok || id.Scope != ast.ScopeGlobal || len(e.Kwargs) > 0 || len(e.Args) > maxArgs {
		return 0, false
	}
	a := b.alloc(1 + len(e.Args))
	pure := true
	for _, arg := range e.Args {
		pure = pure && pureExpr(arg)
	}
	if !pure {
		b.emit(opGetG, a, 0, id.Index, vmInfo{x: id})
	}
	// The arguments are materialised, as a fn gets arrays (and a builtin
	// a global holds gets them computed too), so that the machine's call
	// copies them without a test.
	for i, arg := range e.Args {
		b.exprTo(arg, a+1+i, true)
	}
	if pure {
		// No argument can rebind the global, so it is read by the call
		// itself (fib(n - 1)). Only an undefined callee's error differs: an
		// argument's error comes first.
		b.emit(opCallG, a, len(e.Args), id.Index, vmInfo{pos: e.Lparen, call: e, x: id})
	} else {
		b.emit(opCall, a, len(e.Args), 0, vmInfo{pos: e.Lparen, call: e})
	}
	b.top = a + 1
	return a, true
}

// appendCall compiles x.append(v), the loop's way of building a list,
// into dst (opAppend) when v is pure: the closures evaluate v after they
// look the method up, and only a pure v cannot tell the difference.
func (b *vmBuilder) appendCall(e *ast.CallExpr, dst int) bool {
	a, ok := e.Fun.(*ast.AttrExpr)
	if !ok || a.Name.Name != "append" || len(e.Args) != 1 || len(e.Kwargs) > 0 || !pureExpr(e.Args[0]) {
		return false
	}
	x := b.valueReg(a.X, false)
	v := b.valueReg(e.Args[0], true)
	b.emit(opAppend, dst, x, v, vmInfo{pos: e.Lparen, x: a.X, y: e.Args[0], call: e})
	return true
}

// pureExpr reports whether evaluating e runs no script code and binds
// no name: names, literals and operators of them.
func pureExpr(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Ident, *ast.BasicLit, *ast.BoolLit, *ast.NilLit:
		return true
	case *ast.ParenExpr:
		return pureExpr(e.X)
	case *ast.UnaryExpr:
		return pureExpr(e.X)
	case *ast.BinaryExpr:
		return e.Op != token.MatMul && pureExpr(e.X) && pureExpr(e.Y)
	}
	return false
}

// jumpIf compiles the test of condition e and returns the jumps taken
// when its truth is want (to patch), falling through otherwise.
func (b *vmBuilder) jumpIf(e ast.Expr, want bool) []int {
	pos := e.Start() // a condition's error is at its first token, parentheses included
	e = unparen(e)
	save := b.top
	defer func() { b.top = save }()
	if x, ok := e.(*ast.BinaryExpr); ok {
		switch {
		case x.Op == token.LAnd || x.Op == token.LOr:
			return b.logical(x, want)
		case isComparison(x.Op):
			return b.compareJump(x, want)
		}
	}
	r := b.alloc(1)
	b.exprTo(e, r, true)
	op := opJmpF
	if want {
		op = opJmpT
	}
	return []int{b.emit(op, r, 0, 0, vmInfo{pos: pos, x: e})}
}

// logical compiles && and || as jumps.
func (b *vmBuilder) logical(e *ast.BinaryExpr, want bool) []int {
	short := e.Op == token.LOr // || is decided by a true left operand
	if want == short {
		return append(b.jumpIf(e.X, want), b.jumpIf(e.Y, want)...)
	}
	decided := b.jumpIf(e.X, short)
	out := b.jumpIf(e.Y, want)
	b.patch(decided, b.here())
	return out
}

// compareJump compiles a comparison as a condition: one instruction that
// jumps when it is false, an int literal operand of -128..127 held in
// the instruction.
func (b *vmBuilder) compareJump(e *ast.BinaryExpr, want bool) []int {
	info := vmInfo{pos: e.OpPos, op: e.Op, x: e.X, y: e.Y, slow: b.c.compareSlow(e)}
	x := b.operandReg(e.X)
	var pc int
	if k, _, ok := intLiteral(e.Y); ok && k <= math.MaxInt8 {
		pc = b.emit(cmpImmOps[e.Op], x, int(int8(k)), 0, info)
	} else {
		y := b.operandReg(e.Y)
		pc = b.emit(cmpOps[e.Op], x, y, 0, info)
	}
	if !want {
		return []int{pc}
	}
	j := b.emit(opJmp, 0, 0, 0, vmInfo{})
	b.patch([]int{pc}, b.here())
	return []int{j}
}
