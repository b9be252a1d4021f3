package ir

import "math"

// DiffKind says how reverse-mode differentiation treats an op.
type DiffKind uint8

const (
	DiffUnset      DiffKind = iota // no decision yet: the exhaustiveness test fails on it
	DiffRule                       // OpInfo.Adjoint gives the partials
	DiffNone                       // no gradient flows through it (comparisons, int and bool ops, floor/ceil/round/trunc/sign, tid, shape, isnan...)
	DiffStructural                 // lang/ad handles it itself: const, mov, convert, param, load, store, atomics, call, print, field accesses
	DiffRefused                    // "not differentiable yet": block/warp index ops, sync, shuffles, warp and block collectives
)

var diffNames = [...]string{"unset", "rule", "none", "structural", "refused"}

func (k DiffKind) String() string {
	if int(k) < len(diffNames) {
		return diffNames[k]
	}
	return "DiffKind(?)"
}

// Term is a value handle of a Deriv implementation.
type Term = any

// Deriv builds the terms of adjoint rules: lang/ad implements it over IR
// registers (kernels), stdlib/fuse over expression trees (array
// expressions), so each op's derivative is written once.
type Deriv interface {
	Op(op Op, args ...Term) Term // an op of the table on terms of the differentiated float type (comparisons give bool terms usable as OpSelect's first operand)
	Const(v float64) Term        // a constant of the differentiated float type
}

// AdjointRule returns, for each operand x[i] of the op, g times
// d(result)/d(x[i]), or nil where no gradient flows to that operand. r is
// the op's result.
type AdjointRule func(d Deriv, g, r Term, x []Term) []Term

// Diff is how reverse-mode differentiation treats the op (DiffUnset for
// an unknown op).
func (o Op) Diff() DiffKind {
	info, _ := o.Info()
	return info.Diff
}

// AdjointRule is the op's adjoint rule, nil unless Diff is DiffRule.
func (o Op) AdjointRule() AdjointRule {
	info, _ := o.Info()
	return info.Adjoint
}

// rule gives info the adjoint rule f.
func rule(info OpInfo, f AdjointRule) OpInfo {
	info.Diff, info.Adjoint = DiffRule, f
	return info
}

// diff gives info a kind without a rule.
func diff(info OpInfo, k DiffKind) OpInfo {
	info.Diff = k
	return info
}

// The rules below are the partials of "Adjoint rules" in doc.go. They use
// only ops of the table, on the differentiated float type, through d; a
// rule is applied only at float types (at integer and bool types no
// gradient flows, whatever the op's kind). Each is checked against
// central finite differences of Eval (TestAdjointRulesFD).

func mul(d Deriv, a, b Term) Term { return d.Op(OpMul, a, b) }
func div(d Deriv, a, b Term) Term { return d.Op(OpDiv, a, b) }
func add(d Deriv, a, b Term) Term { return d.Op(OpAdd, a, b) }
func sub(d Deriv, a, b Term) Term { return d.Op(OpSub, a, b) }
func neg(d Deriv, a Term) Term    { return d.Op(OpNeg, a) }

// sel is OpSelect: a where c holds, else b.
func sel(d Deriv, c, a, b Term) Term { return d.Op(OpSelect, c, a, b) }

// unary makes the rule of a one-operand op whose derivative is f(a, r).
func unary(f func(d Deriv, a, r Term) Term) AdjointRule {
	return func(d Deriv, g, r Term, x []Term) []Term { return []Term{mul(d, g, f(d, x[0], r))} }
}

// unaryDiv makes the rule of a one-operand op whose derivative is
// 1/f(a, r): a division instead of a reciprocal and a product.
func unaryDiv(f func(d Deriv, a, r Term) Term) AdjointRule {
	return func(d Deriv, g, r Term, x []Term) []Term { return []Term{div(d, g, f(d, x[0], r))} }
}

// oneMinusSq is 1 - a*a.
func oneMinusSq(d Deriv, a Term) Term { return sub(d, d.Const(1), mul(d, a, a)) }

func adjNeg(d Deriv, g, _ Term, _ []Term) []Term { return []Term{neg(d, g)} }
func adjAdd(_ Deriv, g, _ Term, _ []Term) []Term { return []Term{g, g} }
func adjSub(d Deriv, g, _ Term, _ []Term) []Term { return []Term{g, neg(d, g)} }
func adjMul(d Deriv, g, _ Term, x []Term) []Term { return []Term{mul(d, g, x[1]), mul(d, g, x[0])} }

// adjDiv: d(a/b)/db = -a/b² = -(a/b)/b, so the result r serves, and no
// b*b overflows where a/b does not.
func adjDiv(d Deriv, g, r Term, x []Term) []Term {
	ga := div(d, g, x[1])
	return []Term{ga, neg(d, mul(d, ga, r))}
}

// sqrt' = 1/(2 sqrt a): at a = 0 that is +inf, as PyTorch.
var adjSqrt = unaryDiv(func(d Deriv, _, r Term) Term { return mul(d, d.Const(2), r) })

// rsqrt' = -a^(-3/2)/2 = -r³/2.
var adjRsqrt = unary(func(d Deriv, _, r Term) Term { return mul(d, d.Const(-0.5), mul(d, r, mul(d, r, r))) })

var (
	adjSin  = unary(func(d Deriv, a, _ Term) Term { return d.Op(OpCos, a) })
	adjCos  = unary(func(d Deriv, a, _ Term) Term { return neg(d, d.Op(OpSin, a)) })
	adjTan  = unary(func(d Deriv, _, r Term) Term { return add(d, d.Const(1), mul(d, r, r)) })
	adjAsin = unaryDiv(func(d Deriv, a, _ Term) Term { return d.Op(OpSqrt, oneMinusSq(d, a)) })
	adjAcos = unaryDiv(func(d Deriv, a, _ Term) Term { return neg(d, d.Op(OpSqrt, oneMinusSq(d, a))) })
	adjAtan = unaryDiv(func(d Deriv, a, _ Term) Term { return add(d, d.Const(1), mul(d, a, a)) })
	adjSinh = unary(func(d Deriv, a, _ Term) Term { return d.Op(OpCosh, a) })
	adjCosh = unary(func(d Deriv, a, _ Term) Term { return d.Op(OpSinh, a) })
	adjTanh = unary(func(d Deriv, _, r Term) Term { return oneMinusSq(d, r) })
	adjExp  = unary(func(_ Deriv, _, r Term) Term { return r })
	adjExp2 = unary(func(d Deriv, _, r Term) Term { return mul(d, r, d.Const(math.Ln2)) })
	adjLog  = unaryDiv(func(_ Deriv, a, _ Term) Term { return a })
	adjLog2 = unaryDiv(func(d Deriv, a, _ Term) Term { return mul(d, a, d.Const(math.Ln2)) })
	adjLg10 = unaryDiv(func(d Deriv, a, _ Term) Term { return mul(d, a, d.Const(math.Ln10)) })
	// abs' = sign(a), which is 0 at 0 (PyTorch's abs'(0) = 0).
	adjAbs = unary(func(d Deriv, a, _ Term) Term { return d.Op(OpSign, a) })
)

// adjAtan2: atan2(y, x) has partials x/(x²+y²) and -y/(x²+y²).
func adjAtan2(d Deriv, g, _ Term, x []Term) []Term {
	s := div(d, g, add(d, mul(d, x[0], x[0]), mul(d, x[1], x[1])))
	return []Term{mul(d, s, x[1]), neg(d, mul(d, s, x[0]))}
}

// adjPow follows PyTorch's pow_backward: the base gets g*b*a^(b-1), but 0
// where b == 0 (where 0^-1 would make it NaN); the exponent gets
// g*r*log(a), but 0 where a == 0 and b >= 0 (where the limit is 0 and
// log(0) would make it NaN).
func adjPow(d Deriv, g, r Term, x []Term) []Term {
	a, b := x[0], x[1]
	zero := d.Const(0)
	ga := mul(d, g, mul(d, b, d.Op(OpPow, a, sub(d, b, d.Const(1)))))
	ga = sel(d, d.Op(OpEq, b, zero), zero, ga)
	gb := mul(d, g, mul(d, r, d.Op(OpLog, a)))
	gb = sel(d, d.Op(OpEq, a, zero), sel(d, d.Op(OpGe, b, zero), zero, gb), gb)
	return []Term{ga, gb}
}

// adjMinMax is min's and max's rule: the gradient goes to the operand the
// result is (fmin/fmax: a NaN operand yields the other, which gets it),
// split half and half on a tie, as PyTorch's minimum and maximum.
func adjMinMax(d Deriv, g, r Term, x []Term) []Term {
	a, b := x[0], x[1]
	zero := d.Const(0)
	tie := d.Op(OpEq, a, b)
	half := mul(d, g, d.Const(0.5))
	return []Term{
		sel(d, tie, half, sel(d, d.Op(OpEq, r, a), g, zero)),
		sel(d, tie, half, sel(d, d.Op(OpEq, r, b), g, zero)),
	}
}

// adjClamp: clamp(a, lo, hi) = min(max(a, lo), hi) gives the gradient to
// a where lo <= a <= hi, else to the bound that is the result: hi where
// a > hi, lo where a < lo <= hi, and hi where a < lo but lo > hi (the
// bounds cross and hi wins).
func adjClamp(d Deriv, g, _ Term, x []Term) []Term {
	a, lo, hi := x[0], x[1], x[2]
	zero := d.Const(0)
	below := d.Op(OpLt, a, lo)
	ordered := d.Op(OpLe, lo, hi)
	ga := sel(d, d.Op(OpLe, lo, a), sel(d, d.Op(OpLe, a, hi), g, zero), zero)
	glo := sel(d, below, sel(d, ordered, g, zero), zero)
	ghi := sel(d, d.Op(OpLe, a, hi), sel(d, below, sel(d, ordered, zero, g), zero), g)
	return []Term{ga, glo, ghi}
}

func adjFma(d Deriv, g, _ Term, x []Term) []Term {
	return []Term{mul(d, g, x[1]), mul(d, g, x[0]), g}
}

// adjSelect: the condition gets none, B gets g where A holds, C where not.
func adjSelect(d Deriv, g, _ Term, x []Term) []Term {
	zero := d.Const(0)
	return []Term{nil, sel(d, x[0], g, zero), sel(d, x[0], zero, g)}
}
