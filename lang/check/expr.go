package check

import (
	"go/constant"
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// expr checks and lowers an expression. Constants stay unlowered until a
// context materializes them.
func (b *body) expr(e ast.Expr) operand {
	switch e := e.(type) {
	case *ast.BasicLit:
		return b.basicLit(e)
	case *ast.BoolLit:
		return operand{mode: modeConst, val: constant.MakeBool(e.Value), expr: e}
	case *ast.Ident:
		return b.ident(e)
	case *ast.ParenExpr:
		x := b.expr(e.X)
		x.expr = e
		return x
	case *ast.UnaryExpr:
		return b.unary(e)
	case *ast.BinaryExpr:
		return b.binaryExpr(e)
	case *ast.CallExpr:
		return b.call(e, false)
	case *ast.DictLit:
		b.errs.Add(e.Pos, "dicts are host-only: a %s cannot build one", b.kind)
		return invalid()
	case *ast.IndexExpr:
		return b.index(e)
	case *ast.SliceComponent:
		b.errs.Add(e.Colon, "slices are only available in host code (index one element in a %s)", b.kind)
		return invalid()
	case *ast.AttrExpr:
		if e.Name.Name != "shape" {
			if x := b.expr(e.X); x.mode == modeVec || x.mode == modeInvalid {
				if x.mode == modeInvalid {
					return x
				}
				return b.component(e, x)
			}
		}
		if e.Name.Name == "shape" {
			b.errs.Add(e.Name.Pos, "%s must be indexed by a constant axis: %s[k]", exprString(e), exprString(e))
		} else {
			b.errs.Add(e.Name.Pos, "%s undefined (kernels support only len(a) and a.shape[k])", exprString(e))
		}
		return invalid()
	}
	b.errs.Add(e.Start(), "%s not allowed in a %s", exprKind(e), b.kind)
	return invalid()
}

func exprKind(e ast.Expr) string {
	switch e.(type) {
	case *ast.NilLit:
		return "nil"
	case *ast.ListLit:
		if isTuple(e) {
			return "a list of values (host-only)"
		}
		return "list"
	}
	return "expression"
}

func (b *body) basicLit(e *ast.BasicLit) operand {
	switch v := e.Value.(type) {
	case uint64:
		return operand{mode: modeConst, val: constant.MakeUint64(v), expr: e}
	case float64:
		return operand{mode: modeConst, val: constant.MakeFloat64(v), expr: e}
	}
	b.errs.Add(e.Pos, "string %s allowed only as a print argument in a %s", e.Raw, b.kind)
	return invalid()
}

func (b *body) ident(e *ast.Ident) operand {
	if v := b.lookupIdent(e); v != nil {
		if v.bad {
			return invalid()
		}
		if v.isArray {
			return operand{mode: modeArray, arr: v, expr: e}
		}
		if !v.ct.IsScalar() {
			o := vecOperand(v.ct, v.regs, e)
			o.isVar = true
			return o
		}
		return operand{mode: modeValue, t: v.t, reg: v.reg, isVar: true, expr: e}
	}
	if c, ok := b.kc.r.constNamed(e.Name); ok {
		return constOperand(c, e)
	}
	if e.Name == "inf" || e.Name == "nan" {
		return b.special(e)
	}
	switch {
	case b.env[e.Name] != nil:
		b.errs.Add(e.Pos, "func %s must be called", e.Name)
	case isBuiltin(e.Name):
		b.errs.Add(e.Pos, "builtin %s must be called", e.Name)
	default:
		b.undefined(e)
	}
	return invalid()
}

// constOperand inlines a const: an untyped one takes the type of its use,
// as a literal does.
func constOperand(c Const, e *ast.Ident) operand {
	if c.Val == nil {
		return invalid() // its declaration's error was reported
	}
	return operand{mode: modeConst, t: c.Type, val: c.Val, expr: e}
}

// special is inf or nan, which go/constant cannot represent.
func (b *body) special(e *ast.Ident) operand {
	f := math.Inf(1)
	if e.Name == "nan" {
		f = math.NaN()
	}
	return b.nonFinite(e, f, ir.F32)
}

// nonFinite is the value f (an infinity or NaN) of float type t; see
// operand.nonFinite.
func (b *body) nonFinite(e ast.Expr, f float64, t ir.Type) operand {
	r := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: r, Imm: f})
	return operand{mode: modeValue, t: t, reg: r, expr: e, nonFinite: true, ieee: f}
}

// undefined reports a name that is not visible in a kernel or func.
func (b *body) undefined(e *ast.Ident) {
	switch {
	case b.kc.isHostName(e.Name):
		b.errs.Add(e.Pos, "%s %s cannot use host variable %s; pass it as a parameter", b.kind, b.name, e.Name)
	case b.kc.c.predeclared != nil && b.kc.c.predeclared(e.Name):
		b.errs.Add(e.Pos, "%s %s cannot use host builtin %s", b.kind, b.name, e.Name)
	default:
		b.errs.Add(e.Pos, "undefined: %s", e.Name)
	}
}

// materialize puts a value or constant into a register; untyped constants
// take their default type.
func (b *body) materialize(x operand) ir.Reg {
	if x.mode == modeValue {
		return x.reg
	}
	if x.mode != modeConst {
		return b.reg(ir.I32) // an error was reported; keep lowering going
	}
	t := x.t
	if t == ir.Invalid {
		t = defaultType(x.val)
		x = b.convertTo(x, t, "")
		if x.mode == modeInvalid {
			return b.reg(t)
		}
	}
	r := b.reg(t)
	b.emit(&ir.Inst{Op: ir.OpConst, Dst: r, Imm: imm(x.val, t)})
	return r
}

// convertTo applies the implicit conversion of assignment: untyped
// constants take type t when they fit; typed operands must already have
// type t. context names the use for messages ("" for none).
func (b *body) convertTo(x operand, t ir.Type, context string) operand {
	suffix := ""
	if context != "" {
		suffix = " in " + context
	}
	switch x.mode {
	case modeInvalid:
		return x
	case modeNoValue:
		b.errs.Add(x.expr.Start(), "%s used as value", x)
		return invalid()
	case modeArray:
		b.errs.Add(x.expr.Start(), "cannot use array %s as %s value%s", exprString(x.expr), t, suffix)
		return invalid()
	case modeVec:
		b.errs.Add(x.expr.Start(), "cannot use %s as %s value%s", x, t, suffix)
		return invalid()
	}
	if !x.untyped() {
		if x.nonFinite && x.t != t && t.IsFloat() {
			return b.nonFinite(x.expr, x.ieee, t)
		}
		if x.t != t {
			b.errs.Add(x.expr.Start(), "cannot use %s as %s value%s", x, t, suffix)
			return invalid()
		}
		return x
	}
	return b.convertConst(x, t, suffix)
}

// convertConst gives an untyped constant type t.
func (b *body) convertConst(x operand, t ir.Type, suffix string) operand {
	kind := x.val.Kind()
	if (kind == constant.Float && t.IsInt()) || (kind == constant.Bool) != (t == ir.Bool) {
		b.errs.Add(x.expr.Start(), "cannot use %s as %s value%s", x, t, suffix)
		return invalid()
	}
	v, ok := represent(x.val, t)
	if !ok {
		b.errs.Add(x.expr.Start(), "constant %s overflows %s", x.val.String(), t)
		return invalid()
	}
	return operand{mode: modeConst, t: t, val: v, expr: x.expr}
}

func (b *body) unary(e *ast.UnaryExpr) operand {
	x := b.expr(e.X)
	if x.mode == modeInvalid {
		return x
	}
	if x.mode == modeVec && (e.Op == token.Sub || e.Op == token.Add) {
		return b.vecUnary(e, x)
	}
	if x.mode != modeConst && x.mode != modeValue {
		b.errs.Add(e.Pos, "operator %s not defined on %s", e.Op, x)
		return invalid()
	}
	if !unaryKinds[e.Op](x) {
		b.errs.Add(e.Pos, "operator %s not defined on %s", e.Op, x)
		return invalid()
	}
	if e.Op == token.Add {
		x.expr = e
		return x
	}
	if x.mode == modeConst {
		return b.foldUnary(e, x)
	}
	if x.nonFinite && e.Op == token.Sub {
		return b.nonFinite(e, -x.ieee, x.t) // -inf stays claimable
	}
	op := unaryOps[e.Op]
	dst := b.reg(x.t)
	b.emit(&ir.Inst{Op: op, Dst: dst, Args: []ir.Reg{x.reg}})
	return operand{mode: modeValue, t: x.t, reg: dst, expr: e}
}

func (b *body) foldUnary(e *ast.UnaryExpr, x operand) operand {
	tok := unaryTokens[e.Op]
	prec := uint(0)
	if x.t.IsInt() && !x.t.IsSigned() {
		prec = uint(x.t.Size() * 8)
	}
	v := constant.UnaryOp(tok, x.val, prec)
	return b.typedConst(e, x.t, v)
}

// typedConst makes a folded constant, checking that it fits its type.
func (b *body) typedConst(e ast.Expr, t ir.Type, v constant.Value) operand {
	if t != ir.Invalid {
		fit, ok := represent(v, t)
		if !ok {
			b.errs.Add(e.Start(), "constant %s overflows %s", v.String(), t)
			return invalid()
		}
		v = fit
	}
	return operand{mode: modeConst, t: t, val: v, expr: e}
}

// typeOf is the type of a scalar operand, or the untyped constant's kind
// as the closest type (for the kind predicates below).
func typeOf(x operand) ir.Type {
	if x.untyped() {
		if x.val.Kind() == constant.Float {
			return ir.F64
		}
		return defaultType(x.val)
	}
	return x.t
}

func isNumeric(x operand) bool { return typeOf(x).IsNumeric() }
func isBool(x operand) bool    { return typeOf(x) == ir.Bool }
func isInteger(x operand) bool { return typeOf(x).IsInt() }
