package interp

import (
	"errors"
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/token"
)

// The register machine that runs fn bodies (vm_compile.go compiles
// them). A fn's registers are its frame's slots, so the closures an
// instruction calls (opEval, opExec) see the locals where they look for
// them. A call of a fn from the machine runs in the same loop: it pushes
// the callee's call record and switches to its code, with no Go call, so
// recursion costs no Go stack and no closure per node.
//
// The loop has two levels (measured in bench/host/regvm): hot runs the
// common case of each instruction in a switch that calls no function, so
// Go keeps its state in machine registers; an instruction it cannot
// finish there (not two ints, an error, a frame to make, a closure to
// call) is run once by general, which may call anything, and hot resumes.

// instr is one instruction: an opcode and three operands. Registers are
// uint8; c is a register, a jump target, an index into a table of the
// code, or an immediate int. Four fields of at most a word: Go keeps
// such a struct in registers.
type instr struct {
	op   vmOp
	a, b uint8
	c    int32
}

type vmOp uint8

const (
	opMove      vmOp = iota // R[A] = R[B]
	opLoadK                 // R[A] = K[C]
	opGetG                  // R[A] = G[C]
	opSetG                  // G[C] = R[A]
	opAdd                   // R[A] = R[B] + R[C]
	opSub                   // R[A] = R[B] - R[C]
	opAddI                  // R[A] = R[B] + C
	opAddICall              // opAddI, then the opCallG at pc+1 (fuse)
	opArith                 // R[A] = R[B] op R[C], op an arithmetic operator (info)
	opArithK                // R[A] = R[B] op K[C]
	opCmp                   // R[A] = R[B] op R[C], op a comparison (info)
	opAddTo                 // R[A] += R[B]
	opCompound              // R[A] op= R[B] (info)
	opCompoundK             // R[A] op= K[C]
	opJmp                   // goto C
	opJmpF                  // if R[A] is false goto C (a bool, else an error)
	opJmpT                  // if R[A] is true goto C
	opJNLt                  // if !(R[A] < R[B]) goto C
	opJNLe
	opJNGt
	opJNGe
	opJNEq
	opJNNe
	opJNLtI // if !(R[A] < int8(B)) goto C
	opJNLeI
	opJNGtI
	opJNGeI
	opJNEqI
	opJNNeI
	opLoop     // a loop's iteration: a step
	opForPrep  // range(R[A+3..A+3+B]): R[A] values left, R[A+1] the next, R[A+2] the step; none: goto C
	opForLoop  // the next value of the range at A into R[B] and goto C, or fall out
	opIterPrep // R[A] = an iterator over R[A]
	opIterNext // the next value of R[A] into R[B], or goto C at the end
	opBind     // binds[C](R[A]): a loop's values unpacked into its names
	opCallG    // R[A] = G[C](R[A+1], ..., R[A+B])
	opCall     // R[A] = R[A](R[A+1], ..., R[A+B])
	opRet      // return R[A]
	opRetK     // return K[C]
	opRetLtI   // opJNLtI over the opRet at pc+1, run straight after it (fuse)
	opRetLeI
	opRetGtI
	opRetGeI
	opRetEqI
	opRetNeI
	opIndex    // R[A] = R[B][R[C]]
	opIndexI   // R[A] = R[B][C]
	opAppend   // R[B].append(R[C]); R[A] = nil
	opSetIndex // R[A][R[B]] = R[C]
	opEval     // R[A] = evals[C]()
	opExec     // execs[C](), and the break, continue or return it ends with
)

// cmpOps and cmpImmOps are the compare-and-branch instructions of each
// comparison.
var (
	cmpOps = map[token.Op]vmOp{token.Lss: opJNLt, token.Leq: opJNLe, token.Gtr: opJNGt,
		token.Geq: opJNGe, token.Eql: opJNEq, token.Neq: opJNNe}
	cmpImmOps = map[token.Op]vmOp{token.Lss: opJNLtI, token.Leq: opJNLeI, token.Gtr: opJNGtI,
		token.Geq: opJNGeI, token.Eql: opJNEqI, token.Neq: opJNNeI}
)

// vmCode is a compiled fn body.
type vmCode struct {
	ins    []instr
	info   []vmInfo // per instruction: what its general path needs
	consts []cell
	evals  []evalFn
	execs  []vmExec
	binds  []setFn
	nregs  int // the frame's size: the locals, then the temporaries
}

// vmInfo is what an instruction's general path needs, read only there:
// the position of its errors, the operator, the operand expressions (an
// undefined name, a freed array), the closure compiler's general path of
// the operator (the one definition of its errors), the call.
type vmInfo struct {
	pos    ast.Pos
	op     token.Op
	x, y   ast.Expr
	z      ast.Expr // opSetIndex: the value's
	slow   func(th *Thread, a, b cell) (cell, error)
	store  store1Fn
	update func(th *Thread, fr *frame, old, x cell) (ctrl, error)
	call   *ast.CallExpr
	dst    int // opForPrep: the loop variable's register
	mat    bool
}

// vmExec is a statement the closures run, and where its break and
// continue go (-1: outside a loop).
type vmExec struct {
	fn        execFn
	brk, cont int
}

// vmReturn is what a call made by the machine returns to: kept in the
// callee's call record.
type vmReturn struct {
	pc      int
	dst     uint8
	fr      *frame
	fn      *fnCode
	globals *globalTable
}

// vmIter is a for loop's iterator in a register.
type vmIter struct {
	list *listIter
	it   Iterator
}

func (*vmIter) Type() string   { return "iterator" }
func (*vmIter) String() string { return "<iterator>" }

// machine is the state of one run of the loop.
type machine struct {
	th     *Thread
	pc     int
	regs   []cell
	fr     *frame
	fn     *fnCode
	entry  int // th.depth of the call runVM runs
	done   bool
	result cell
	err    error
}

// runVM runs fn's body in fr, the frame of a call already entered.
func (th *Thread) runVM(fn *fnCode, fr *frame) (ctrl, error) {
	m := machine{th: th, regs: fr.slots, fr: fr, fn: fn, entry: th.depth}
	for !m.done {
		m.hot()
		// The instruction hot left, run all of it here.
		if err := m.step(m.fn.vm.ins[m.pc]); err != nil {
			m.fail(err)
		}
	}
	if m.err != nil {
		return ctrlNone, m.err
	}
	fr.result = m.result
	return ctrlReturn, nil
}

// hot runs instructions from m's state until one needs its general path,
// and leaves m at it. It must call no function.
func (m *machine) hot() {
	th := m.th
	// Only what most instructions use is kept in Go variables, so that
	// Go keeps it in machine registers; the running code and frame stay
	// in m, read by the calls and returns.
	pc, regs, ins := m.pc, m.regs, m.fn.vm.ins
	for {
		// Each case finishes its instruction and continues, or breaks
		// out of the switch to the general path.
		in := ins[pc]
		switch in.op {
		case opMove:
			r := regs[in.b]
			if r.v == nil {
				break
			}
			regs[in.a] = r
			pc++
			continue
		case opLoadK:
			regs[in.a] = m.fn.vm.consts[in.c]
			pc++
			continue
		case opGetG:
			g := th.globals.vals[in.c]
			if g.v == nil {
				break
			}
			regs[in.a] = g
			pc++
			continue
		case opSetG:
			th.globals.vals[in.c] = regs[in.a]
			pc++
			continue
		case opAdd:
			x, y := &regs[in.b], &regs[in.c]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			if xi && yi {
				a, b := int64(x.n), int64(y.n)
				r := a + b
				if (r > a) != (b > 0) {
					break
				}
				setIntReg(&regs[in.a], r)
				pc++
				continue
			}
			_, xf := x.v.(floatMark)
			_, yf := y.v.(floatMark)
			if !xf || !yf {
				break
			}
			setFloatReg(&regs[in.a], math.Float64bits(math.Float64frombits(x.n)+math.Float64frombits(y.n)))
			pc++
			continue
		case opSub:
			x, y := &regs[in.b], &regs[in.c]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			if xi && yi {
				a, b := int64(x.n), int64(y.n)
				r := a - b
				if (r < a) != (b > 0) {
					break
				}
				setIntReg(&regs[in.a], r)
				pc++
				continue
			}
			_, xf := x.v.(floatMark)
			_, yf := y.v.(floatMark)
			if !xf || !yf {
				break
			}
			setFloatReg(&regs[in.a], math.Float64bits(math.Float64frombits(x.n)-math.Float64frombits(y.n)))
			pc++
			continue
		case opAddI, opAddICall: // opAddICall: the argument of fib(n - 1)
			x := &regs[in.b]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			a, b := int64(x.n), int64(in.c)
			r := a + b
			if (r > a) != (b > 0) {
				break
			}
			setIntReg(&regs[in.a], r)
			pc++
			if in.op == opAddICall {
				in = ins[pc]
				goto call
			}
			continue
		case opAddTo:
			x, y := &regs[in.a], &regs[in.b]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			if !xi || !yi {
				break
			}
			a, b := int64(x.n), int64(y.n)
			r := a + b
			if (r > a) != (b > 0) {
				break
			}
			x.n = uint64(r)
			pc++
			continue
		case opJmp:
			pc = int(in.c)
			continue
		case opJmpF, opJmpT:
			b, ok := regs[in.a].v.(Bool)
			if !ok {
				break
			}
			if bool(b) == (in.op == opJmpT) {
				pc = int(in.c)
			} else {
				pc++
			}
			continue
		case opJNLtI: // the guard of a recursion, if n < 2
			x := &regs[in.a]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			if int64(x.n) < int64(int8(in.b)) {
				pc++
			} else {
				pc = int(in.c)
			}
			continue
		case opJNLt: // a while loop's test, while i < n
			x, y := &regs[in.a], &regs[in.b]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			if !xi || !yi {
				break
			}
			if int64(x.n) < int64(y.n) {
				pc++
			} else {
				pc = int(in.c)
			}
			continue
		case opJNLe, opJNGt, opJNGe, opJNEq, opJNNe:
			x, y := &regs[in.a], &regs[in.b]
			_, xi := x.v.(intMark)
			_, yi := y.v.(intMark)
			if !xi || !yi {
				break
			}
			if intHolds(in.op-opJNLt, int64(x.n), int64(y.n)) {
				pc++
			} else {
				pc = int(in.c)
			}
			continue
		case opJNLeI, opJNGtI, opJNGeI, opJNEqI, opJNNeI:
			x := &regs[in.a]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			if intHolds(in.op-opJNLtI, int64(x.n), int64(int8(in.b))) {
				pc++
			} else {
				pc = int(in.c)
			}
			continue
		case opLoop:
			if th.steps+1 >= th.pollAt || th.canceled.Load() {
				break
			}
			th.steps++
			pc++
			continue
		case opForLoop:
			left := &regs[in.a]
			if left.n <= 1 { // the value just run was the last
				left.n = 0
				pc++
				continue
			}
			if th.steps+1 >= th.pollAt || th.canceled.Load() {
				break
			}
			th.steps++
			left.n--
			next := &regs[in.a+1]
			next.n += regs[in.a+2].n
			if in.b != noReg {
				setIntReg(&regs[in.b], int64(next.n))
			}
			pc = int(in.c)
			continue
		case opIndex, opIndexI: // a list's element: the loop's x = l[i]
			l, ok := regs[in.b].v.(*List)
			if !ok {
				break
			}
			k := cell{intTag, uint64(int64(in.c))}
			if in.op == opIndex {
				k = regs[in.c]
			}
			i, ok := l.slot(k)
			if !ok {
				break
			}
			regs[in.a] = l.cellAt(i)
			pc++
			continue
		case opIterNext: // the next element of a list not changed since the loop began
			it, ok := regs[in.a].v.(*vmIter)
			if !ok || it.list == nil {
				break
			}
			li := it.list
			if li.l.version != li.version || li.l.Len() != li.n {
				break // the general path's error
			}
			if li.i >= li.n {
				pc = int(in.c)
				continue
			}
			if in.b != noReg {
				regs[in.b] = li.l.cellAt(li.i)
			}
			li.i++
			pc++
			continue
		case opCallG, opCall:
			goto call
		case opRetLtI: // a recursion's base case, if n < 2 { return n }
			x := &regs[in.a]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			if int64(x.n) < int64(int8(in.b)) {
				pc++
				goto ret
			}
			pc = int(in.c)
			continue
		case opRetLeI, opRetGtI, opRetGeI, opRetEqI, opRetNeI:
			x := &regs[in.a]
			if _, ok := x.v.(intMark); !ok {
				break
			}
			if intHolds(in.op-opRetLtI, int64(x.n), int64(int8(in.b))) {
				pc++
				goto ret
			}
			pc = int(in.c)
			continue
		case opRet:
			goto ret
		}
	general:
		// m.regs is stored only when a call or a return changed it: a
		// slice's store pays a write barrier while the collector runs.
		if len(regs) != len(m.regs) || len(regs) > 0 && &regs[0] != &m.regs[0] {
			m.regs = regs
		}
		m.pc = pc
		return
	call: // the opCallG or opCall at pc, reached by it or by opAddICall
		{
			f := regs[in.a].v
			if in.op == opCallG {
				f = th.globals.vals[in.c].v // unset: not a closure, the general path's error
			}
			cl, ok := f.(*Closure)
			if !ok {
				goto general
			}
			code, depth, n := cl.code, th.depth, int(in.b)
			if !code.vmReuse || n != code.params || depth >= len(th.stack) ||
				th.steps+1 >= th.pollAt || th.canceled.Load() {
				goto general
			}
			rec := th.stack[depth]
			if code.locals > cap(rec.frame.slots) {
				goto general
			}
			// The arguments were computed materialised (vm_compile.go's
			// call): no array expression is left to compute.
			args := regs[int(in.a)+1 : int(in.a)+1+n]
			th.steps++
			rec.fn, rec.pos = cl.Decl, &m.fn.vm.info[pc].pos
			// The fields one by one: a struct literal goes through a
			// temporary on the stack, and its copy stalls.
			ret := &rec.ret
			ret.pc, ret.dst, ret.fr, ret.fn, ret.globals = pc+1, in.a, m.fr, m.fn, th.globals
			th.depth = depth + 1
			nf := &rec.frame
			if len(nf.slots) != code.locals { // a frame's stores only when they change it
				for i := code.locals; i < len(nf.slots); i++ {
					nf.slots[i].v = nil // beyond len, slots stay unset (clearStale)
				}
				nf.slots = nf.slots[:code.locals]
			}
			if nf.parent != cl.parent {
				nf.parent = cl.parent
			}
			for i := range args {
				nf.slots[i] = args[i]
			}
			for i := n; i < code.declared; i++ { // the frame may be a returned call's
				nf.slots[i].v = nil
			}
			if cl.globals != th.globals { // a fn of another file
				th.globals = cl.globals
			}
			m.fr, m.fn = nf, code
			pc, regs, ins = 0, nf.slots, code.vm.ins
		}
		continue
	ret: // the opRet at pc, reached by it or by a compare-and-return
		{
			r := regs[ins[pc].a]
			fn := m.fn
			if r.v == nil || th.depth == m.entry || !fn.reuse {
				goto general
			}
			// leave's work, inline, but for clearing the frame: its values
			// stay until the next call at its depth overwrites them or
			// the general path's clearStale runs (doc.go says why).
			depth := th.depth - 1
			rec := th.stack[depth]
			th.depth = depth
			if th.stale <= depth {
				th.stale = depth + 1
			}
			// fr.result is unset: only opExec's return sets it, and it
			// returns through the general path. rec.ret is left as it
			// is: it holds code and a frame of a running call, alive.
			ret := &rec.ret
			if ret.globals != th.globals {
				th.globals = ret.globals
			}
			m.fr, m.fn = ret.fr, ret.fn
			pc, regs, ins = ret.pc, ret.fr.slots, ret.fn.vm.ins
			regs[ret.dst] = r
		}
	}
}

// clearStale drops the values the frames above the running calls still
// hold from calls that returned in the hot loop, so that they are not kept
// alive. The general path runs it before each instruction: every
// allocation, every call the closures make (which expect unset frames)
// and the machine's exit are made there.
func (th *Thread) clearStale() {
	if th.stale <= th.depth {
		return
	}
	for _, rec := range th.stack[th.depth:th.stale] {
		fr := &rec.frame
		for i := range fr.slots {
			fr.slots[i].v = nil
		}
		fr.parent = nil
	}
	th.stale = th.depth
}

// setIntReg and setFloatReg store a number into a register, only its
// number word when the register holds one of that type already: a
// register's tag is a pointer, whose store pays a write barrier while the
// collector runs.
func setIntReg(r *cell, i int64) {
	if _, ok := r.v.(intMark); !ok {
		r.v = intTag
	}
	r.n = uint64(i)
}

func setFloatReg(r *cell, bits uint64) {
	if _, ok := r.v.(floatMark); !ok {
		r.v = floatTag
	}
	r.n = bits
}

// intHolds is cmp (0 for <, then <=, >, >=, ==, !=: the order of the
// compare-and-branch opcodes) of a and b.
func intHolds(cmp vmOp, a, b int64) bool {
	switch cmp {
	case 0:
		return a < b
	case 1:
		return a <= b
	case 2:
		return a > b
	case 3:
		return a >= b
	case 4:
		return a == b
	}
	return a != b
}

// step runs the instruction at m.pc, in, all of it, whatever it needs.
func (m *machine) step(in instr) error {
	th, info := m.th, &m.fn.vm.info[m.pc]
	th.clearStale()
	switch in.op {
	case opMove:
		x, err := m.operand(int(in.b), info.x)
		m.set(in.a, x)
		return err
	case opLoadK:
		m.set(in.a, m.fn.vm.consts[in.c])
	case opGetG:
		x := th.globals.vals[in.c]
		if !x.set() {
			return th.undefined(info.x.(*ast.Ident))
		}
		m.set(in.a, x)
	case opSetG:
		th.globals.vals[in.c] = m.regs[in.a]
		m.pc++
	case opAdd, opSub, opArith, opArithK, opAddI, opAddICall:
		return m.arith(in, info)
	case opCmp:
		return m.compare(in, info)
	case opAddTo, opCompound, opCompoundK:
		return m.compound(in, info)
	case opJmp:
		m.pc = int(in.c)
	case opJmpF, opJmpT:
		return m.jumpIf(in, info)
	case opJNLt, opJNLe, opJNGt, opJNGe, opJNEq, opJNNe, opJNLtI, opJNLeI, opJNGtI, opJNGeI, opJNEqI, opJNNeI:
		return m.compareJump(in, info)
	case opLoop:
		if err := th.step(); err != nil {
			return th.errorAt(info.pos, err)
		}
		m.pc++
	case opForPrep:
		return m.forPrep(in, info)
	case opForLoop:
		return m.forLoop(in, info)
	case opIterPrep:
		return m.iterPrep(in, info)
	case opIterNext:
		return m.iterNext(in, info)
	case opBind:
		if err := m.fn.vm.binds[in.c](th, m.fr, m.regs[in.a]); err != nil {
			return th.errorAt(info.pos, err)
		}
		m.pc++
	case opCallG:
		g := th.globals.vals[in.c]
		if !g.set() {
			return th.undefined(info.x.(*ast.Ident))
		}
		m.regs[in.a] = g
		return m.call(in, info)
	case opCall:
		return m.call(in, info)
	case opRet:
		x, err := m.operand(int(in.a), info.x)
		if err != nil {
			return err
		}
		m.ret(x)
	case opRetK:
		m.ret(m.fn.vm.consts[in.c])
	case opRetLtI, opRetLeI, opRetGtI, opRetGeI, opRetEqI, opRetNeI:
		// The compare-and-branch it fuses: holding, it goes on to the opRet.
		in.op = in.op - opRetLtI + opJNLtI
		return m.compareJump(in, info)
	case opIndex, opIndexI:
		x, k, err := m.operands(in, info)
		if err == nil {
			x, err = th.index1(x, k, &info.pos)
		}
		if err == nil && info.mat { // a[idx] is a gather leaf (arrays.go index)
			x, err = th.mat(x)
			err = th.errorAt(info.pos, err)
		}
		if err != nil {
			return err
		}
		m.set(in.a, x)
	case opSetIndex:
		return m.setIndex(in, info)
	case opAppend:
		return m.append(in, info)
	case opEval:
		x, err := m.fn.vm.evals[in.c](th, m.fr)
		if err != nil {
			return th.errorAt(info.pos, err)
		}
		m.set(in.a, x)
	case opExec:
		return m.exec(in, info)
	default:
		return fmt.Errorf("internal error: bad instruction %d", in.op)
	}
	return nil
}

// set stores x in R[a] and moves on.
func (m *machine) set(a uint8, x cell) {
	m.regs[a] = x
	m.pc++
}

// operand is R[r], which e (an expression, or nil for a temporary)
// computed: unset when e names a local not yet assigned.
func (m *machine) operand(r int, e ast.Expr) (cell, error) {
	x := m.regs[r]
	if x.set() {
		return x, nil
	}
	if id, ok := e.(*ast.Ident); ok {
		return x, m.th.undefined(id)
	}
	return x, errors.New("internal error: an unset register")
}

// operands are the two operands of a binary instruction.
func (m *machine) operands(in instr, info *vmInfo) (x, y cell, err error) {
	if x, err = m.operand(int(in.b), info.x); err != nil {
		return x, y, err
	}
	switch in.op {
	case opAddI, opAddICall, opIndexI:
		return x, intCell(int64(in.c)), nil
	case opArithK:
		return x, m.fn.vm.consts[in.c], nil
	}
	y, err = m.operand(int(in.c), info.y)
	return x, y, err
}

func (m *machine) arith(in instr, info *vmInfo) error {
	x, y, err := m.operands(in, info)
	if err != nil {
		return err
	}
	op := info.op
	if in.op == opAddI || in.op == opAddICall {
		op = token.Add // x - 1 is x + -1
	}
	r, err := arithOrSlow(m.th, op, x, y, info.slow)
	if err != nil {
		return err
	}
	m.set(in.a, r)
	return nil
}

func (m *machine) compare(in instr, info *vmInfo) error {
	x, y, err := m.operands(in, info)
	if err != nil {
		return err
	}
	if r, ok := compareCells(info.op, x, y); ok {
		m.set(in.a, boolCell(r))
		return nil
	}
	r, err := info.slow(m.th, x, y)
	if err == nil && info.mat {
		r, err = m.th.mat(r)
		err = m.th.errorAt(info.pos, err)
	}
	if err != nil {
		return err
	}
	m.set(in.a, r)
	return nil
}

// compound is x op= v for a local x (R[A]) and v in R[B].
func (m *machine) compound(in instr, info *vmInfo) error {
	var v cell
	var err error
	if in.op == opCompoundK {
		v = m.fn.vm.consts[in.c]
	} else if v, err = m.operand(int(in.b), info.y); err != nil {
		return err
	}
	p := &m.regs[in.a]
	if m.th.compoundCell(p, info.op, v) {
		m.pc++
		return nil
	}
	if !p.set() {
		return m.th.undefined(info.x.(*ast.Ident))
	}
	if _, err := info.update(m.th, m.fr, *p, v); err != nil {
		return err
	}
	m.pc++
	return nil
}

func (m *machine) jumpIf(in instr, info *vmInfo) error {
	x, err := m.operand(int(in.a), info.x)
	if err != nil {
		return err
	}
	b, ok := x.v.(Bool)
	if !ok {
		return m.th.errorAt(info.pos, fmt.Errorf("condition must be a bool, not %s", x.box().Type()))
	}
	m.pc++
	if bool(b) == (in.op == opJmpT) {
		m.pc = int(in.c)
	}
	return nil
}

// compareJump is a compare-and-branch instruction on anything but two
// unboxed ints.
func (m *machine) compareJump(in instr, info *vmInfo) error {
	x, err := m.operand(int(in.a), info.x)
	if err != nil {
		return err
	}
	var y cell
	if in.op >= opJNLtI {
		y = intCell(int64(int8(in.b)))
	} else if y, err = m.operand(int(in.b), info.y); err != nil {
		return err
	}
	holds, ok := compareCells(info.op, x, y)
	if !ok {
		v, err := info.slow(m.th, x, y)
		if err != nil {
			return err
		}
		if holds, err = condValue(m.th, info.pos, v); err != nil {
			return err
		}
	}
	m.pc++
	if !holds {
		m.pc = int(in.c)
	}
	return nil
}

// forPrep starts `for i in range(...)`: its arguments are in
// R[A+3..A+3+B].
func (m *machine) forPrep(in instr, info *vmInfo) error {
	th := m.th
	var vals [3]int64
	for i := range int(in.b) {
		v := m.regs[int(in.a)+3+i]
		n, ok := v.asInt()
		if !ok {
			return th.errorAt(info.call.Args[i].Start(), fmt.Errorf("range argument must be an int, not %s", v.box().Type()))
		}
		vals[i] = n
	}
	lo, hi, step := int64(0), vals[0], int64(1)
	switch in.b {
	case 2:
		lo, hi = vals[0], vals[1]
	case 3:
		lo, hi, step = vals[0], vals[1], vals[2]
	}
	if step == 0 {
		return th.errorAt(info.call.Args[2].Start(), fmt.Errorf("range step must not be zero"))
	}
	// Counting the values first keeps the counter from overflowing: the
	// step after the last value is never taken.
	n := RangeLen(lo, hi, step)
	if n == 0 {
		m.pc = int(in.c)
		return nil
	}
	a := int(in.a)
	m.regs[a], m.regs[a+1], m.regs[a+2] = cell{intTag, n}, intCell(lo), intCell(step)
	if info.dst != noReg {
		m.regs[info.dst] = intCell(lo)
	}
	if err := th.step(); err != nil {
		return th.errorAt(info.pos, err)
	}
	m.pc++
	return nil
}

func (m *machine) forLoop(in instr, info *vmInfo) error {
	left := &m.regs[in.a]
	if left.n <= 1 {
		left.n = 0
		m.pc++
		return nil
	}
	left.n--
	next := &m.regs[in.a+1]
	next.n += m.regs[in.a+2].n
	if in.b != noReg {
		m.regs[in.b] = cell{intTag, next.n}
	}
	if err := m.th.step(); err != nil {
		return m.th.errorAt(info.pos, err)
	}
	m.pc = int(in.c)
	return nil
}

func (m *machine) iterPrep(in instr, info *vmInfo) error {
	x := m.regs[in.a]
	if l, ok := x.v.(*List); ok {
		m.set(in.a, cell{v: &vmIter{list: l.iter()}})
		return nil
	}
	it, err := m.th.Iter(x.box())
	if err != nil {
		return m.th.errorAt(info.pos, err)
	}
	m.set(in.a, cell{v: &vmIter{it: it}})
	return nil
}

func (m *machine) iterNext(in instr, info *vmInfo) error {
	it := m.regs[in.a].v.(*vmIter)
	var v cell
	var ok bool
	var err error
	if it.list != nil {
		v, ok, err = it.list.nextCell()
	} else {
		var x Value
		x, ok, err = it.it.Next()
		v = valCell(x)
	}
	switch {
	case err != nil:
		return m.th.errorAt(info.pos, err)
	case !ok:
		m.pc = int(in.c)
		return nil
	}
	if in.b != noReg {
		m.regs[in.b] = v
	}
	m.pc++
	return nil
}

// append is x.append(v) (vm_compile.go's appendCall): a list's append
// without a method call, anything else's append method called.
func (m *machine) append(in instr, info *vmInfo) error {
	th := m.th
	x, err := m.operand(int(in.b), info.x)
	if err != nil {
		return err
	}
	v, err := m.operand(int(in.c), info.y)
	if err != nil {
		return err
	}
	if x, err = th.mat(x); err != nil {
		return th.errorAt(info.x.Start(), err)
	}
	if err := th.step(); err != nil {
		return th.errorAt(info.pos, err)
	}
	var r Value = Nil
	if l, ok := x.v.(*List); ok {
		if err := l.appendCell(th, v); err != nil {
			return th.errorAt(info.pos, fmt.Errorf("list.append: %w", err))
		}
	} else {
		attr := info.call.Fun.(*ast.AttrExpr)
		f, err := getAttr(th, x.box(), "append")
		if err != nil {
			return th.errorAt(attr.Name.Pos, err)
		}
		th.lastPos = &info.pos
		a := &Args{Pos: info.pos, Positional: []Value{v.box()}, exprs: info.call.Args}
		if r, err = th.call(f, a); err != nil {
			return th.errorAt(info.pos, nameFreed(err, info.call.Args, a.Positional))
		}
	}
	m.set(in.a, cell{v: r})
	return nil
}

func (m *machine) setIndex(in instr, info *vmInfo) error {
	x, err := m.operand(int(in.a), info.x)
	if err != nil {
		return err
	}
	k, err := m.operand(int(in.b), info.y)
	if err != nil {
		return err
	}
	v, err := m.operand(int(in.c), info.z)
	if err != nil {
		return err
	}
	if err := info.store(m.th, m.fr, x, k, v); err != nil {
		return err
	}
	m.pc++
	return nil
}

func (m *machine) exec(in instr, info *vmInfo) error {
	x := m.fn.vm.execs[in.c]
	r, err := x.fn(m.th, m.fr)
	if err != nil {
		return m.th.errorAt(info.pos, err)
	}
	switch {
	case r == ctrlNone:
		m.pc++
	case r == ctrlReturn:
		m.ret(m.fr.result)
	case r == ctrlBreak && x.brk >= 0:
		m.pc = x.brk
	case r == ctrlContinue && x.cont >= 0:
		m.pc = x.cont
	default:
		return m.th.errorAt(info.pos, errors.New("internal error: break or continue outside a loop"))
	}
	return nil
}

// call is opCall's general path: any callee, arguments to materialise, a
// call to count or a frame to make. A fn run by the machine is entered
// here and runs in this loop; any other callable is called from Go.
func (m *machine) call(in instr, info *vmInfo) error {
	th, n := m.th, int(in.b)
	args := m.regs[int(in.a)+1 : int(in.a)+1+n]
	cl, ok := m.regs[in.a].v.(*Closure)
	if !ok {
		return m.callValue(in, info, args)
	}
	for i := range args {
		if !args[i].number() {
			v, err := th.mat(args[i])
			if err != nil {
				return th.errorAt(info.call.Args[i].Start(), err)
			}
			args[i] = v
		}
	}
	if err := th.step(); err != nil {
		return th.errorAt(info.pos, err)
	}
	code := cl.code
	if !code.onVM || n != code.params {
		var buf [maxArgs]cell
		copy(buf[:], args)
		r, err := th.callClosure(cl, buf[:n], nil, nil, &info.pos)
		if err != nil {
			return th.errorAt(info.pos, err)
		}
		m.set(in.a, r)
		return nil
	}
	// The machine's calls count no nest against the Go stack's bound:
	// they run in this loop, on none.
	fr, err := th.enterSlow(cl, &info.pos, 0)
	if err != nil {
		return th.errorAt(info.pos, err)
	}
	copy(fr.slots, args)
	th.stack[th.depth-1].ret = vmReturn{pc: m.pc + 1, dst: in.a, fr: m.fr, fn: m.fn, globals: th.globals}
	th.globals = cl.globals
	m.pc, m.regs, m.fr, m.fn = 0, fr.slots, fr, code
	return nil
}

// callValue calls a callable other than a fn (a builtin a global holds,
// a type) with its arguments boxed, as the closures' callValue does; the
// result is materialised.
func (m *machine) callValue(in instr, info *vmInfo, args []cell) error {
	th := m.th
	if err := th.step(); err != nil {
		return th.errorAt(info.pos, err)
	}
	th.lastPos = &info.pos
	fn := m.regs[in.a].v
	b, operands := fn.(*Builtin)
	operands = operands && b.Operands
	a := &Args{Pos: info.pos, Positional: make([]Value, len(args)), exprs: info.call.Args}
	for i, v := range args {
		if !operands {
			var err error
			if v, err = th.mat(v); err != nil {
				return th.errorAt(info.call.Args[i].Start(), err)
			}
		}
		a.Positional[i] = v.box()
	}
	v, err := th.call(fn, a)
	if err != nil {
		return th.errorAt(info.pos, nameFreed(err, info.call.Args, a.Positional))
	}
	r, err := th.mat(cell{v: v})
	if err != nil {
		return th.errorAt(info.call.Start(), err)
	}
	m.set(in.a, r)
	return nil
}

// ret returns r from the running fn: to the machine's caller when it is
// the fn runVM runs, else to the instruction after the call.
func (m *machine) ret(r cell) {
	th := m.th
	if th.depth == m.entry {
		m.result, m.done = r, true
		return
	}
	dst := m.pop()
	m.regs[dst] = r
}

// pop leaves the running fn, which the machine entered, for its caller's
// state, and returns the caller's register for the result.
func (m *machine) pop() uint8 {
	th := m.th
	rec := th.stack[th.depth-1]
	th.leaveCode(m.fn, m.fr, 0)
	ret := &rec.ret
	th.globals = ret.globals
	m.pc, m.fr, m.fn, m.regs = ret.pc, ret.fr, ret.fn, ret.fr.slots
	return ret.dst
}

// fail ends the run with err: the calls the machine entered are left,
// innermost first (err's backtrace was taken where it arose).
func (m *machine) fail(err error) {
	for m.th.depth > m.entry {
		m.pop()
	}
	m.err, m.done = err, true
}
