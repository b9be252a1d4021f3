package check

import (
	"go/constant"
	gotoken "go/token"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

func (b *body) binaryExpr(e *ast.BinaryExpr) operand {
	if e.Op.IsLogical() {
		return b.logical(e)
	}
	if e.Op == token.MatMul {
		b.errs.Add(e.OpPos, "the matrix product @ is only available in host code, not in a %s", b.kind)
		return invalid()
	}
	if isHostOnlyOp(e.Op) {
		b.errs.Add(e.OpPos, "%s is host-only: a %s has no lists, dicts or strings to search", e.Op, b.kind)
		return invalid()
	}
	x := b.expr(e.X)
	y := b.expr(e.Y)
	return b.binary(e, e.Op, e.OpPos, x, y)
}

// binary checks and lowers `x op y`; e is the whole expression for
// messages (also used by compound assignment).
func (b *body) binary(e ast.Expr, op token.Op, pos ast.Pos, x, y operand) operand {
	if x.mode == modeInvalid || y.mode == modeInvalid {
		return invalid()
	}
	if op == token.Pow && !anyVec(x, y) {
		return b.pow(e, pos, x, y)
	}
	if anyVec(x, y) && !op.IsShift() {
		return b.vecBinary(e, op, pos, x, y)
	}
	for _, o := range []operand{x, y} {
		if o.mode != modeConst && o.mode != modeValue {
			b.errs.Add(pos, "operator %s not defined on %s", op, o)
			return invalid()
		}
	}
	if op.IsShift() {
		return b.shift(e, op, pos, x, y)
	}
	x, y, ok := b.unify(op, pos, x, y)
	if !ok {
		return invalid()
	}
	if !b.opDefined(op, pos, x) {
		return invalid()
	}
	if (op == token.Quo || op == token.Rem) && y.mode == modeConst && isZero(y.val) {
		b.errs.Add(y.expr.Start(), "division by zero")
		return invalid()
	}
	if x.mode == modeConst && y.mode == modeConst {
		return b.foldBinary(e, op, x, y)
	}
	rt := x.t
	if op.IsComparison() {
		rt = ir.Bool
	}
	args := []ir.Reg{b.materialize(x), b.materialize(y)}
	dst := b.reg(rt)
	inst := &ir.Inst{Op: binOps[op], Dst: dst, Args: args}
	if (op == token.Quo || op == token.Rem) && x.t.IsInt() {
		inst.Pos = pos
	}
	b.emit(inst)
	return operand{mode: modeValue, t: rt, reg: dst, expr: e}
}

// unify gives both operands one type: an untyped constant takes the other
// side's type; two typed operands must agree.
func (b *body) unify(op token.Op, pos ast.Pos, x, y operand) (operand, operand, bool) {
	switch {
	case x.untyped() && y.untyped():
		if (x.val.Kind() == constant.Bool) != (y.val.Kind() == constant.Bool) {
			b.errs.Add(pos, "mismatched types untyped %s and untyped %s in %s", kindName(x.val), kindName(y.val), op)
			return x, y, false
		}
		if y.val.Kind() == constant.Float {
			// the operation happens in the wider kind: 1 % 2.5 is a float %
			x.val = constant.ToFloat(x.val)
		}
		return x, y, true
	case x.untyped():
		x = b.convertTo(x, y.t, "")
	case y.untyped():
		y = b.convertTo(y, x.t, "")
	case x.nonFinite && !y.nonFinite:
		x = b.convertTo(x, y.t, "")
	case y.nonFinite && !x.nonFinite:
		y = b.convertTo(y, x.t, "")
	case x.t != y.t:
		b.errs.Add(pos, "mismatched types %s and %s in %s", x.t, y.t, op)
		return x, y, false
	}
	return x, y, x.mode != modeInvalid && y.mode != modeInvalid
}

// opDefined checks that op applies to the (unified) operand type.
func (b *body) opDefined(op token.Op, pos ast.Pos, x operand) bool {
	t := typeOf(x)
	ok := true
	switch op {
	case token.Add, token.Sub, token.Mul, token.Quo, token.Lss, token.Leq, token.Gtr, token.Geq:
		ok = t.IsNumeric()
	case token.Rem, token.And, token.Or, token.Xor:
		ok = t.IsInt()
	}
	if !ok {
		if x.untyped() {
			b.errs.Add(pos, "operator %s not defined on untyped %s constant", op, kindName(x.val))
		} else {
			b.errs.Add(pos, "operator %s not defined on %s", op, x.t)
		}
	}
	return ok
}

// foldBinary evaluates an operation on two constants of one type (or both
// untyped).
func (b *body) foldBinary(e ast.Expr, op token.Op, x, y operand) operand {
	if op.IsComparison() {
		v := constant.MakeBool(constant.Compare(x.val, binTokens[op], y.val))
		return operand{mode: modeConst, val: v, expr: e}
	}
	tok := binTokens[op]
	intDiv := op == token.Quo && x.val.Kind() == constant.Int && y.val.Kind() == constant.Int &&
		(x.t == ir.Invalid || x.t.IsInt())
	if intDiv {
		tok = gotoken.QUO_ASSIGN // go/constant's truncated integer division
	}
	return b.typedConst(e, x.t, constant.BinaryOp(x.val, tok, y.val))
}

// shift checks `x << y`: both ints, the result has x's type. An untyped
// constant x shifted by a non-constant count takes its default type.
func (b *body) shift(e ast.Expr, op token.Op, pos ast.Pos, x, y operand) operand {
	if !isInteger(x) || !isInteger(y) {
		bad := x
		if isInteger(x) {
			bad = y
		}
		b.errs.Add(pos, "invalid shift: %s must be an integer", bad)
		return invalid()
	}
	if y.mode == modeConst && constant.Sign(y.val) < 0 {
		b.errs.Add(y.expr.Start(), "invalid shift count %s (negative)", y.val.ExactString())
		return invalid()
	}
	if x.mode == modeConst && y.mode == modeConst {
		n, exact := constant.Uint64Val(constant.ToInt(y.val))
		if !exact || n > 1024 {
			b.errs.Add(y.expr.Start(), "shift count %s too large", y.val.ExactString())
			return invalid()
		}
		tok := gotoken.SHL
		if op == token.Shr {
			tok = gotoken.SHR
		}
		return b.typedConst(e, x.t, constant.Shift(x.val, tok, uint(n)))
	}
	if x.untyped() {
		x = b.convertTo(x, ir.I32, "")
		if x.mode == modeInvalid {
			return x
		}
	}
	args := []ir.Reg{b.materialize(x), b.materialize(y)}
	dst := b.reg(x.t)
	b.emit(&ir.Inst{Op: binOps[op], Dst: dst, Args: args})
	return operand{mode: modeValue, t: x.t, reg: dst, expr: e}
}

// logical lowers && and || with short-circuit: the right operand runs
// only where the left one does not decide the result.
func (b *body) logical(e *ast.BinaryExpr) operand {
	x := b.expr(e.X)
	if !b.checkBool(e.Op, e.OpPos, x) {
		b.expr(e.Y) // still report errors on the right
		return invalid()
	}
	if x.mode == modeConst {
		y := b.expr(e.Y)
		if !b.checkBool(e.Op, e.OpPos, y) {
			return invalid()
		}
		if y.mode == modeConst {
			return b.foldBinary(e, e.Op, x, y)
		}
		if constant.BoolVal(x.val) == (e.Op == token.LAnd) {
			y.expr = e // true && y == y; false || y == y
			return y
		}
		return operand{mode: modeConst, t: x.t, val: x.val, expr: e}
	}
	dst := b.reg(ir.Bool)
	b.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{x.reg}})
	node := &ir.If{Cond: x.reg}
	right := &node.Then
	if e.Op == token.LOr {
		right = &node.Else
	}
	ok := true
	b.uni.under(x.reg, e.X.Start(), func() {
		b.into(right, func() {
			y := b.expr(e.Y)
			if ok = b.checkBool(e.Op, e.OpPos, y); ok {
				y = b.convertTo(y, ir.Bool, "")
				b.emit(&ir.Inst{Op: ir.OpMov, Dst: dst, Args: []ir.Reg{b.materialize(y)}})
			}
		})
	})
	if !ok {
		return invalid()
	}
	b.emit(node)
	return operand{mode: modeValue, t: ir.Bool, reg: dst, expr: e}
}

func (b *body) checkBool(op token.Op, pos ast.Pos, x operand) bool {
	if x.mode == modeInvalid {
		return false
	}
	if (x.mode != modeConst && x.mode != modeValue) || !isBool(x) {
		b.errs.Add(pos, "operator %s not defined on %s", op, x)
		return false
	}
	return true
}
