package check

import (
	"go/constant"
	gotoken "go/token"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// Const is the value of a const declaration: untyped when Type is
// ir.Invalid (it then takes the type its use needs, as a literal does).
// Val is nil for a const whose declaration had an error.
type Const struct {
	Val  constant.Value
	Type ir.Type
}

// maxConstShift bounds the count of << in a const, so that 1 << huge
// cannot make go/constant build an enormous number.
const maxConstShift = 1024

// constEval evaluates the consts of one chunk. Consts may use each other
// in any order (as in Go), so each is evaluated on first use; busy marks
// those being evaluated, to report a cycle instead of recursing forever.
type constEval struct {
	r    *resolver
	errs *ast.ErrorList
	busy map[*ast.ConstDecl]bool
}

// evalConsts evaluates every const the chunk declared.
func (r *resolver) evalConsts() {
	e := &constEval{r: r, errs: r.errs, busy: map[*ast.ConstDecl]bool{}}
	for _, d := range r.constOrder {
		e.decl(d)
	}
}

// chunkConsts maps each const declaration of the chunk to its value.
func (r *resolver) chunkConsts() map[*ast.ConstDecl]Const {
	out := make(map[*ast.ConstDecl]Const, len(r.constDecls))
	for i, d := range r.constDecls {
		out[d] = r.constVals[i]
	}
	return out
}

// constNamed is the const a kernel's name refers to, if it is one: a
// top-level const of this chunk or of an earlier one, not hidden by a
// later top-level declaration.
func (r *resolver) constNamed(name string) (Const, bool) {
	b, ok := r.top.names[name]
	if !ok || b.scope != ast.ScopeGlobal {
		return Const{}, false
	}
	if v, ok := r.constVals[b.index]; ok {
		return v, true
	}
	v, ok := r.c.constVals[b.index]
	return v, ok
}

// decl evaluates d once, storing the result by d's global slot.
func (e *constEval) decl(d *ast.ConstDecl) Const {
	if v, ok := e.r.constVals[d.Name.Index]; ok {
		return v
	}
	if e.busy[d] {
		e.errs.Add(d.Name.Pos, "const %s refers to itself (an initialization cycle)", d.Name.Name)
		e.r.constVals[d.Name.Index] = Const{}
		return Const{}
	}
	e.busy[d] = true
	v, ok := e.expr(d.Value)
	if ok && d.Type != nil {
		v, ok = e.typed(d, v)
	}
	if !ok {
		v = Const{}
	}
	delete(e.busy, d)
	if _, set := e.r.constVals[d.Name.Index]; !set { // a cycle already stored its failure
		e.r.constVals[d.Name.Index] = v
	}
	return e.r.constVals[d.Name.Index]
}

// typed converts v to the declared type of d.
func (e *constEval) typed(d *ast.ConstDecl, v Const) (Const, bool) {
	t := ir.TypeByName(d.Type.Name)
	if t == ir.Invalid || d.Type.Name == "array" {
		e.errs.Add(d.Type.Pos, "a const has a scalar type (one of %s), not %s", scalarNameList, d.Type.Name)
		return Const{}, false
	}
	if v.Type != ir.Invalid && v.Type != t {
		e.errs.Add(d.Value.Start(), "cannot use %s constant as %s in const %s", v.Type, t, d.Name.Name)
		return Const{}, false
	}
	return e.represent(d.Value, v.Val, t)
}

// represent checks that constant v fits type t.
func (e *constEval) represent(at ast.Expr, v constant.Value, t ir.Type) (Const, bool) {
	out, ok := represent(v, t)
	if !ok {
		e.errs.Add(at.Start(), "constant %s (%s) cannot be represented as %s", exprString(at), v.ExactString(), t)
		return Const{}, false
	}
	return Const{Val: out, Type: t}, true
}

func (e *constEval) expr(x ast.Expr) (Const, bool) {
	switch x := x.(type) {
	case *ast.BasicLit:
		return e.lit(x)
	case *ast.BoolLit:
		return Const{Val: constant.MakeBool(x.Value)}, true
	case *ast.ParenExpr:
		return e.expr(x.X)
	case *ast.Ident:
		return e.ident(x)
	case *ast.UnaryExpr:
		return e.unary(x)
	case *ast.BinaryExpr:
		return e.binary(x)
	}
	e.errs.Add(x.Start(), "%s is not a constant expression (a const is made of literals, other consts and operators)", exprString(x))
	return Const{}, false
}

func (e *constEval) lit(x *ast.BasicLit) (Const, bool) {
	switch v := x.Value.(type) {
	case uint64:
		return Const{Val: constant.MakeUint64(v)}, true
	case float64:
		return Const{Val: constant.MakeFloat64(v)}, true
	}
	e.errs.Add(x.Pos, "a const is a number or a bool, not the string %s", x.Raw)
	return Const{}, false
}

// ident is another const: of this chunk (evaluated now if need be) or of
// an earlier one.
func (e *constEval) ident(x *ast.Ident) (Const, bool) {
	switch x.Scope {
	case ast.ScopeUnresolved:
		return Const{}, false // the resolver reported it
	case ast.ScopePredeclared:
		if x.Name == "inf" || x.Name == "nan" {
			e.errs.Add(x.Pos, "%s cannot be used in a const (go/constant has no infinities or NaNs): use let", x.Name)
			return Const{}, false
		}
	case ast.ScopeGlobal:
		if d := e.r.constDecls[x.Index]; d != nil {
			v := e.decl(d)
			return v, v.Val != nil
		}
		if v, ok := e.r.c.constVals[x.Index]; ok {
			return v, v.Val != nil
		}
	}
	e.errs.Add(x.Pos, "%s is not a constant (a const can use only literals, other consts and operators)", x.Name)
	return Const{}, false
}

func (e *constEval) unary(x *ast.UnaryExpr) (Const, bool) {
	v, ok := e.expr(x.X)
	if !ok {
		return v, false
	}
	kind := v.Val.Kind()
	prec := uint(0)
	if v.Type.IsInt() && !v.Type.IsSigned() {
		prec = uint(v.Type.Size() * 8) // ~ of an unsigned const stays in range
	}
	switch {
	case (x.Op == token.Sub || x.Op == token.Add) && (kind == constant.Int || kind == constant.Float):
		return e.result(x, v.Type, constant.UnaryOp(unaryTokens[x.Op], v.Val, prec))
	case x.Op == token.Not && kind == constant.Bool:
		return Const{Val: constant.UnaryOp(gotoken.NOT, v.Val, 0), Type: v.Type}, true
	case x.Op == token.BitNot && kind == constant.Int && !v.Type.IsFloat():
		return e.result(x, v.Type, constant.UnaryOp(gotoken.XOR, v.Val, prec))
	}
	e.errs.Add(x.Pos, "operator %s not defined on %s in a const", x.Op, exprString(x.X))
	return Const{}, false
}

// result gives v type t (when typed), checking that it fits.
func (e *constEval) result(at ast.Expr, t ir.Type, v constant.Value) (Const, bool) {
	if t == ir.Invalid {
		return Const{Val: v}, true
	}
	return e.represent(at, v, t)
}

func (e *constEval) binary(x *ast.BinaryExpr) (Const, bool) {
	a, ok := e.expr(x.X)
	if !ok {
		return a, false
	}
	b, ok := e.expr(x.Y)
	if !ok {
		return b, false
	}
	if !e.operandsFit(x, a.Val, b.Val) {
		return Const{}, false
	}
	if x.Op.IsShift() {
		return e.shift(x, a.Type, a.Val, b.Val) // the count's type does not matter
	}
	t := a.Type
	if t == ir.Invalid {
		t = b.Type
	}
	if a.Type != ir.Invalid && b.Type != ir.Invalid && a.Type != b.Type {
		e.errs.Add(x.OpPos, "mismatched types %s and %s in a const", a.Type, b.Type)
		return Const{}, false
	}
	if x.Op.IsLogical() || x.Op.IsComparison() {
		return e.boolOp(x, a.Val, b.Val), true
	}
	if x.Op == token.Pow {
		return e.pow(x, t, a.Val, b.Val)
	}
	tok := binTokens[x.Op]
	if x.Op == token.Quo && a.Val.Kind() == constant.Int && b.Val.Kind() == constant.Int && !t.IsFloat() {
		tok = gotoken.QUO_ASSIGN // go/constant's truncated integer division
	}
	return e.result(x, t, constant.BinaryOp(a.Val, tok, b.Val))
}

// pow folds a ** b exactly (powConst); a float power of typed ints is
// an error, as the type cannot hold it.
func (e *constEval) pow(x *ast.BinaryExpr, t ir.Type, a, b constant.Value) (Const, bool) {
	v, msg := powConst(a, b)
	switch {
	case msg != "":
		e.errs.Add(x.OpPos, "%s", msg)
		return Const{}, false
	case v.Kind() == constant.Float && t.IsInt():
		e.errs.Add(x.OpPos, "%s is a float, not %s", exprString(x), t)
		return Const{}, false
	}
	return e.result(x, t, v)
}

// operandsFit reports (and explains) operands op does not take.
func (e *constEval) operandsFit(x *ast.BinaryExpr, a, b constant.Value) bool {
	bools := a.Kind() == constant.Bool && b.Kind() == constant.Bool
	nums := a.Kind() != constant.Bool && b.Kind() != constant.Bool
	ints := a.Kind() == constant.Int && b.Kind() == constant.Int
	var ok bool
	switch x.Op {
	case token.LAnd, token.LOr:
		ok = bools
	case token.Eql, token.Neq:
		ok = bools || nums
	case token.Rem, token.And, token.Or, token.Xor, token.Shl, token.Shr:
		ok = ints
	case token.Add, token.Sub, token.Mul, token.Quo, token.Lss, token.Leq, token.Gtr, token.Geq, token.Pow:
		ok = nums
	}
	if !ok {
		e.errs.Add(x.OpPos, "operator %s not defined on %s and %s in a const", x.Op, exprString(x.X), exprString(x.Y))
		return false
	}
	if (x.Op == token.Quo || x.Op == token.Rem) && isZero(b) {
		e.errs.Add(x.Y.Start(), "division by zero in a const")
		return false
	}
	return true
}

func (e *constEval) boolOp(x *ast.BinaryExpr, a, b constant.Value) Const {
	switch x.Op {
	case token.LAnd:
		return Const{Val: constant.MakeBool(constant.BoolVal(a) && constant.BoolVal(b))}
	case token.LOr:
		return Const{Val: constant.MakeBool(constant.BoolVal(a) || constant.BoolVal(b))}
	}
	return Const{Val: constant.MakeBool(constant.Compare(a, binTokens[x.Op], b))}
}

func (e *constEval) shift(x *ast.BinaryExpr, t ir.Type, a, b constant.Value) (Const, bool) {
	n, exact := constant.Uint64Val(b)
	if !exact || n > maxConstShift {
		e.errs.Add(x.Y.Start(), "shift count %s must be between 0 and %d in a const", b.ExactString(), maxConstShift)
		return Const{}, false
	}
	tok := gotoken.SHL
	if x.Op == token.Shr {
		tok = gotoken.SHR
	}
	return e.result(x, t, constant.Shift(a, tok, uint(n)))
}
