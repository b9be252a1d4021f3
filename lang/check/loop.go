package check

import (
	"go/constant"
	"go/token"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
)

// rangeArgs returns the arguments of `range(...)` in a for loop header.
func (b *body) rangeArgs(s *ast.ForStmt) ([]ast.Expr, bool) {
	call, ok := s.Iter.(*ast.CallExpr)
	if ok {
		id, isIdent := call.Fun.(*ast.Ident)
		ok = isIdent && id.Name == "range" && b.lookup("range") == nil && b.env["range"] == nil
	}
	if !ok {
		b.errs.Add(s.Iter.Start(), "for loops in a %s must iterate over range(...)", b.kind)
		return nil, false
	}
	if len(call.Kwargs) > 0 || len(call.Args) < 1 || len(call.Args) > 3 {
		b.errs.Add(call.Lparen, "range expects 1 to 3 positional arguments, got %d", len(call.Args))
		return nil, false
	}
	return call.Args, true
}

// forStmt lowers `for i in range(start, stop, step)`. A hidden counter
// drives the loop and is copied into the loop variable at the top of each
// iteration, so assigning to the variable does not change the iteration
// (as in Python and Go's range loops). stop and step are evaluated once.
func (b *body) forStmt(s *ast.ForStmt) {
	t, ops, ok := b.rangeBounds(s)
	if !ok {
		// Still check the body, with the loop variable poisoned, so that
		// its own errors are reported but none caused by the bad header.
		var discard []ir.Stmt
		b.uni.loop(func(func(ir.Reg, ast.Pos)) {
			b.loopBody(&discard, s.Body, func() { b.poison(s.Var.Name) })
		})
		return
	}
	step := ops[2]
	start, stop, stepReg := b.materialize(ops[0]), b.materialize(ops[1]), b.materialize(ops[2])
	counter := b.copyReg(t, start)
	if ops[1].mode == modeValue {
		stop = b.copyReg(t, stop)
	}
	if step.mode == modeValue {
		stepReg = b.copyReg(t, stepReg)
	}
	var zero, no ir.Reg
	if step.mode != modeConst {
		zero = b.reg(t)
		b.emit(&ir.Inst{Op: ir.OpConst, Dst: zero, Imm: imm(constant.MakeInt64(0), t)})
		no = b.reg(ir.Bool)
		b.emit(&ir.Inst{Op: ir.OpConst, Dst: no, Imm: false})
	}
	lim := b.stepLimits(t, stepReg, step, zero)
	loop := &ir.Loop{}
	b.uni.loop(func(setCond func(ir.Reg, ast.Pos)) {
		b.into(&loop.Cond, func() {
			loop.CondReg = b.rangeCond(counter, stop, stepReg, step, zero, no)
		})
		setCond(loop.CondReg, s.Iter.Start())
		b.loopBody(&loop.Body, s.Body, func() { b.newVar(s.Var.Name, t, counter) })
		b.into(&loop.Post, func() { b.rangeStep(t, counter, stop, stepReg, lim) })
	})
	b.emit(loop)
}

// stepLimits holds, for a range step that may overflow the counter, the
// registers rangeStep compares the counter with: the counter may step up
// while counter <= hi (max - step) and down while counter >= lo (min -
// step). They are set before the loop; up is step > 0, or invalid for a
// constant step (only hi or lo is then set).
type stepLimits struct {
	hi, lo, up ir.Reg
	unit       bool // a constant step of 1 or -1 cannot overflow
}

// stepLimits computes the loop-invariant limits of rangeStep. A constant
// step of 1 or -1 needs none: the counter is below stop (above for -1)
// when it steps, so the step stays within the type.
func (b *body) stepLimits(t ir.Type, step ir.Reg, stepOp operand, zero ir.Reg) stepLimits {
	r := intRanges[t]
	if stepOp.mode == modeConst {
		if constant.Compare(constant.BinaryOp(stepOp.val, token.MUL, stepOp.val), token.EQL, constant.MakeInt64(1)) {
			return stepLimits{unit: true}
		}
		lim := stepLimits{hi: ir.NoReg, lo: ir.NoReg, up: ir.NoReg}
		if constant.Sign(stepOp.val) > 0 {
			lim.hi = b.constReg(t, constant.BinaryOp(r[1], token.SUB, stepOp.val))
		} else {
			lim.lo = b.constReg(t, constant.BinaryOp(r[0], token.SUB, stepOp.val))
		}
		return lim
	}
	// max - step and min - step wrap for the sign that does not apply:
	// rangeStep selects the one that does.
	lim := stepLimits{hi: b.reg(t), lo: b.reg(t), up: b.cmp(ir.OpGt, step, zero)}
	b.emit(&ir.Inst{Op: ir.OpSub, Dst: lim.hi, Args: []ir.Reg{b.constReg(t, r[1]), step}})
	b.emit(&ir.Inst{Op: ir.OpSub, Dst: lim.lo, Args: []ir.Reg{b.constReg(t, r[0]), step}})
	return lim
}

// rangeStep advances the counter by step, or sets it to stop (which ends
// the loop) when the step would overflow the counter's type: kernels wrap
// on overflow, and a wrapped counter would run the loop again, about
// 2^32 / step more times for i32.
func (b *body) rangeStep(t ir.Type, counter, stop, step ir.Reg, lim stepLimits) {
	if lim.unit {
		b.emit(&ir.Inst{Op: ir.OpAdd, Dst: counter, Args: []ir.Reg{counter, step}})
		return
	}
	var fits ir.Reg
	switch {
	case lim.up == ir.NoReg && lim.lo == ir.NoReg:
		fits = b.cmp(ir.OpLe, counter, lim.hi)
	case lim.up == ir.NoReg:
		fits = b.cmp(ir.OpGe, counter, lim.lo)
	default:
		upOK, downOK := b.cmp(ir.OpLe, counter, lim.hi), b.cmp(ir.OpGe, counter, lim.lo)
		fits = b.reg(ir.Bool)
		b.emit(&ir.Inst{Op: ir.OpSelect, Dst: fits, Args: []ir.Reg{lim.up, upOK, downOK}})
	}
	next := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpAdd, Dst: next, Args: []ir.Reg{counter, step}})
	b.emit(&ir.Inst{Op: ir.OpSelect, Dst: counter, Args: []ir.Reg{fits, next, stop}})
}

func (b *body) constReg(t ir.Type, v constant.Value) ir.Reg {
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: dst, Imm: imm(v, t)})
	return dst
}

// rangeBounds checks the range(...) header and returns the loop type
// and the three operands start, stop, step.
func (b *body) rangeBounds(s *ast.ForStmt) (ir.Type, []operand, bool) {
	args, ok := b.rangeArgs(s)
	if !ok {
		return ir.Invalid, nil, false
	}
	ops, ok := b.args(args)
	if !ok {
		return ir.Invalid, nil, false
	}
	if len(ops) == 1 {
		zero := operand{mode: modeConst, val: constant.MakeInt64(0), expr: &ast.BasicLit{Pos: args[0].Start(), Kind: "int", Raw: "0"}}
		ops = append([]operand{zero}, ops...)
	}
	if len(ops) == 2 {
		ops = append(ops, operand{mode: modeConst, val: constant.MakeInt64(1), expr: &ast.BasicLit{Pos: args[0].Start(), Kind: "int", Raw: "1"}})
	}
	t, ok := b.unifyMany("range", s.Iter.Start(), ops)
	if !ok {
		return t, nil, false
	}
	if !t.IsInt() {
		b.errs.Add(s.Iter.Start(), "range bounds must be integers, got %s", t)
		return t, nil, false
	}
	if ops[2].mode == modeConst && isZero(ops[2].val) {
		b.errs.Add(ops[2].expr.Start(), "range step must not be zero")
		return t, nil, false
	}
	for i, o := range ops {
		if ops[i] = b.convertTo(o, t, "range"); ops[i].mode == modeInvalid {
			return t, nil, false
		}
	}
	return t, ops, true
}

func (b *body) copyReg(t ir.Type, r ir.Reg) ir.Reg {
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{r}})
	return dst
}

func (b *body) cmp(op ir.Op, x, y ir.Reg) ir.Reg {
	dst := b.reg(ir.Bool)
	b.emit(&ir.Inst{Op: op, Dst: dst, Args: []ir.Reg{x, y}})
	return dst
}

// rangeCond computes whether the loop goes on: i < stop for a positive
// constant step, i > stop for a negative one, and for a step known only
// at run time (step > 0 && i < stop) || (step < 0 && i > stop).
// zero and no hold the constants 0 and false (loop-invariant, set before
// the loop) when the step is not constant.
func (b *body) rangeCond(i, stop, step ir.Reg, stepOp operand, zero, no ir.Reg) ir.Reg {
	if stepOp.mode == modeConst {
		if constant.Sign(stepOp.val) > 0 {
			return b.cmp(ir.OpLt, i, stop)
		}
		return b.cmp(ir.OpGt, i, stop)
	}
	up := b.cmp(ir.OpGt, step, zero)
	down := b.cmp(ir.OpLt, step, zero)
	below := b.cmp(ir.OpLt, i, stop)
	above := b.cmp(ir.OpGt, i, stop)
	downOK := b.reg(ir.Bool)
	b.emit(&ir.Inst{Op: ir.OpSelect, Dst: downOK, Args: []ir.Reg{down, above, no}})
	c := b.reg(ir.Bool)
	b.emit(&ir.Inst{Op: ir.OpSelect, Dst: c, Args: []ir.Reg{up, below, downOK}})
	return c
}
