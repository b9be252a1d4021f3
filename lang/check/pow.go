package check

import (
	"go/constant"
	gotoken "go/token"
	"math"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// maxPowBits bounds an exact integer power: no kernel or const type holds
// more than 64 bits, so a larger result can only overflow, and computing
// 10 ** 100000 exactly would only cost time.
const maxPowBits = 128

// powConst folds a ** b exactly as host code computes it: an int to a
// non-negative int is an int (too large is an error), anything else a
// float. msg is the error, "" when v is the value.
func powConst(a, b constant.Value) (v constant.Value, msg string) {
	ints := a.Kind() == constant.Int && b.Kind() == constant.Int
	if ints && constant.Sign(b) >= 0 {
		return intPow(a, b)
	}
	x, _ := constant.Float64Val(constant.ToFloat(a))
	y, _ := constant.Float64Val(constant.ToFloat(b))
	p := math.Pow(x, y)
	if math.IsInf(p, 0) || math.IsNaN(p) {
		return nil, "constant " + a.String() + " ** " + b.String() + " is not a finite float"
	}
	return constant.MakeFloat64(p), ""
}

// intPow is a ** n for ints, n >= 0; the result's size is checked after
// each product, so it never grows past maxPowBits. 0, 1 and -1 are the
// bases whose powers never grow.
func intPow(a, n constant.Value) (constant.Value, string) {
	e, exact := constant.Uint64Val(n)
	x, small := constant.Int64Val(a)
	switch {
	case small && x == 0 && exact:
		return constant.MakeInt64(map[bool]int64{true: 1, false: 0}[e == 0]), ""
	case small && x == 1:
		return a, ""
	case small && x == -1:
		return constant.MakeInt64(map[bool]int64{true: 1, false: -1}[exact && e%2 == 0]), ""
	}
	overflow := "constant " + a.String() + " ** " + n.String() + " overflows (more than 64 bits)"
	if !exact || e > maxPowBits {
		return nil, overflow
	}
	result := constant.MakeInt64(1)
	for range e {
		result = constant.BinaryOp(result, gotoken.MUL, a)
		if constant.BitLen(result) > maxPowBits {
			return nil, overflow
		}
	}
	return result, ""
}

// pow lowers x ** y in a kernel or func: constants fold, floats lower as
// pow(x, y) does (the pow math op), and ints are refused, since an int
// power has no IR op and overflows silently on a device.
func (b *body) pow(e ast.Expr, pos ast.Pos, x, y operand) operand {
	if x.mode == modeConst && y.mode == modeConst {
		v, msg := powConst(x.val, y.val)
		if msg != "" {
			b.errs.Add(pos, "%s", msg)
			return invalid()
		}
		t := x.t
		if t == ir.Invalid {
			t = y.t
		}
		if v.Kind() == constant.Float && t.IsInt() {
			b.errs.Add(pos, "%s ** %s is a float, not %s", x, y, t)
			return invalid()
		}
		return b.typedConst(e, t, v)
	}
	ops := []operand{x, y}
	t, ok := b.unifyMany("**", pos, ops)
	if !ok {
		return invalid()
	}
	if !t.IsFloat() {
		b.errs.Add(pos, "** of %s values is not available in a %s: use a float operand (f32(x) ** 2.0) or a loop of products", t, b.kind)
		return invalid()
	}
	regs, ok := b.convertAll(ops, t, "operand of **")
	if !ok {
		return invalid()
	}
	dst := b.reg(t)
	b.emit(&ir.Inst{Op: mathBuiltins["pow"].op, Dst: dst, Args: regs})
	return operand{mode: modeValue, t: t, reg: dst, expr: e}
}

// isHostOnlyOp reports the binary operators no kernel has: in and not in
// test membership of a list, dict or string, which kernels do not have.
func isHostOnlyOp(op token.Op) bool { return op == token.In || op == token.NotIn }
