package rng

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// poisson(state, lam) of rand.h, after NumPy's: 0 for lam == 0, the
// multiplication method below 10 (and for a NaN or negative lam, which
// give 0 after one draw), Hoermann's transformed rejection (PTRS, W.
// Hoermann, Insurance: Mathematics and Economics 12, 39-45, 1993) from 10
// on, with its log-gamma (SPECFUN's, Zhang and Jin 1996). The draws per
// value vary, so Poisson is written twice, in Go and as IR with loops,
// in the same f32 operation order (C's, left to right).

// The constants of random_poisson and random_loggam, as f32 literals.
var (
	ptrsB0, ptrsB1   = float32(0.931), float32(2.53)
	ptrsA0, ptrsA1   = float32(-0.059), float32(0.02483)
	ptrsI0, ptrsI1   = float32(1.1239), float32(1.1328)
	ptrsV0, ptrsV1   = float32(0.9277), float32(3.6224)
	ptrsI2, ptrsV2   = float32(3.4), float32(2)
	ptrsShift        = float32(0.43)
	ptrsUs0, ptrsUs1 = float32(0.07), float32(0.013)
	halfLg2pi        = float32(0.5) * float32(1.8378770664093453) // 0.5f * lg2pi, folded
	loggamA          = [10]float32{8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
		-5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03, 6.410256410256410e-03,
		-2.955065359477124e-02, 1.796443723688307e-01, -1.39243221690590e+00}
)

// Poisson is poisson(state, lam): a u32 count.
func Poisson(s *uint32, lam float32) uint32 {
	switch {
	case lam >= 10:
		return poissonPTRS(s, lam)
	case lam == 0:
		return 0
	}
	return poissonMult(s, lam)
}

// poissonMult is random_poisson_mult: draws multiplied until the product
// falls to exp(-lam) or below.
func poissonMult(s *uint32, lam float32) uint32 {
	enlam := f32math(math.Exp, -lam)
	x, prod := uint32(0), float32(1)
	for {
		prod = float32(prod * Randf(s))
		if !(prod > enlam) {
			return x
		}
		x++
	}
}

// poissonPTRS is random_poisson.
func poissonPTRS(s *uint32, lam float32) uint32 {
	slam, loglam := f32math(math.Sqrt, lam), f32math(math.Log, lam)
	b := ptrsB0 + float32(ptrsB1*slam)
	a := ptrsA0 + float32(ptrsA1*b)
	invalpha := ptrsI0 + ptrsI1/(b-ptrsI2)
	vr := ptrsV0 - ptrsV1/(b-ptrsV2)
	for {
		u := Randf(s) - 0.5
		v := Randf(s)
		us := 0.5 - float32(math.Abs(float64(u)))
		k := f32ToU32(f32math(math.Floor, float32((2*a/us+b)*u)+lam+ptrsShift))
		if us >= ptrsUs0 && v <= vr {
			return k
		}
		if us < ptrsUs1 && v > us {
			continue
		}
		lhs := f32math(math.Log, v) + f32math(math.Log, invalpha) - f32math(math.Log, a/float32(us*us)+b)
		rhs := -lam + float32(float32(k)*loglam) - loggam(float32(k+1))
		if lhs <= rhs {
			return k
		}
	}
}

// f32ToU32 is uint32(x) by ir's conversion rule, which every backend
// follows: C leaves negative and out-of-range values undefined (PTRS's
// floor is far below 0 for a us near 0, a draw its next test rejects).
func f32ToU32(x float32) uint32 { return uint32(ir.FromFloat(float64(x), ir.U32)) }

// loggam is random_loggam: log(gamma(x)).
func loggam(x float32) float32 {
	if x == 1 || x == 2 {
		return 0
	}
	n := uint32(0)
	if x < 7 {
		n = f32ToU32(7 - x)
	}
	x0 := x + float32(n)
	x2 := float32(1/x0) * float32(1/x0)
	gl0 := loggamA[9]
	for i := 8; i >= 0; i-- {
		gl0 = float32(gl0 * x2)
		gl0 += loggamA[i]
	}
	gl := gl0/x0 + halfLg2pi + float32((x0-0.5)*f32math(math.Log, x0)) - x0
	if x < 7 {
		for k := uint32(1); k <= n; k++ {
			gl -= f32math(math.Log, x0-1)
			x0--
		}
	}
	return gl
}

// FlowEmitter is an Emitter that also emits control flow: If runs then
// where the bool register cond holds and els (nil for none) elsewhere;
// Loop repeats body until a Break; Set moves src into dst, a register
// assigned again (a loop's carried value).
type FlowEmitter interface {
	Emitter
	If(cond ir.Reg, then, els func())
	Loop(body func())
	Break()
	Continue()
	Set(dst, src ir.Reg)
}

// EmitPoisson emits Poisson on state s and f32 lam: the new state and the
// u32 count.
func EmitPoisson(e FlowEmitter, s, lam ir.Reg) (state, v ir.Reg) {
	f := func(x float32) ir.Reg { return e.Const(ir.F32, float64(x)) }
	state = e.Op(ir.OpMov, ir.U32, s)
	v = e.Op(ir.OpMov, ir.U32, e.Const(ir.U32, uint64(0)))
	e.If(e.Op(ir.OpGe, ir.Bool, lam, f(10)), func() {
		emitPTRS(e, state, lam, v)
	}, func() {
		e.If(e.Op(ir.OpNe, ir.Bool, lam, f(0)), func() { emitMult(e, state, lam, v) }, nil)
	})
	return state, v
}

// emitRandf draws into the state register s in place.
func emitRandf(e FlowEmitter, s ir.Reg) ir.Reg {
	next, u := EmitRandf(e, s)
	e.Set(s, next)
	return u
}

// emitMult emits poissonMult, advancing s and leaving the count in x.
func emitMult(e FlowEmitter, s, lam, x ir.Reg) {
	enlam := e.Op(ir.OpExp, ir.F32, e.Op(ir.OpNeg, ir.F32, lam))
	prod := e.Op(ir.OpMov, ir.F32, e.Const(ir.F32, float64(1)))
	e.Loop(func() {
		e.Set(prod, e.Op(ir.OpMul, ir.F32, prod, emitRandf(e, s)))
		e.If(e.Op(ir.OpGt, ir.Bool, prod, enlam), nil, e.Break)
		e.Set(x, e.Op(ir.OpAdd, ir.U32, x, e.Const(ir.U32, uint64(1))))
	})
}

// emitPTRS emits poissonPTRS, advancing s and leaving the count in k.
func emitPTRS(e FlowEmitter, s, lam, k ir.Reg) {
	f := func(x float32) ir.Reg { return e.Const(ir.F32, float64(x)) }
	op := func(o ir.Op, args ...ir.Reg) ir.Reg { return e.Op(o, ir.F32, args...) }
	test := func(o ir.Op, x, y ir.Reg) ir.Reg { return e.Op(o, ir.Bool, x, y) }
	slam, loglam := op(ir.OpSqrt, lam), op(ir.OpLog, lam)
	b := op(ir.OpAdd, f(ptrsB0), op(ir.OpMul, f(ptrsB1), slam))
	a := op(ir.OpAdd, f(ptrsA0), op(ir.OpMul, f(ptrsA1), b))
	invalpha := op(ir.OpAdd, f(ptrsI0), op(ir.OpDiv, f(ptrsI1), op(ir.OpSub, b, f(ptrsI2))))
	vr := op(ir.OpSub, f(ptrsV0), op(ir.OpDiv, f(ptrsV1), op(ir.OpSub, b, f(ptrsV2))))
	e.Loop(func() {
		u := op(ir.OpSub, emitRandf(e, s), f(0.5))
		v := emitRandf(e, s)
		us := op(ir.OpSub, f(0.5), op(ir.OpAbs, u))
		t := op(ir.OpMul, op(ir.OpAdd, op(ir.OpDiv, op(ir.OpMul, f(2), a), us), b), u)
		e.Set(k, e.Op(ir.OpConvert, ir.U32, op(ir.OpFloor, op(ir.OpAdd, op(ir.OpAdd, t, lam), f(ptrsShift)))))
		e.If(test(ir.OpGe, us, f(ptrsUs0)), func() { e.If(test(ir.OpLe, v, vr), e.Break, nil) }, nil)
		e.If(test(ir.OpLt, us, f(ptrsUs1)), func() { e.If(test(ir.OpGt, v, us), e.Continue, nil) }, nil)
		lhs := op(ir.OpSub, op(ir.OpAdd, op(ir.OpLog, v), op(ir.OpLog, invalpha)),
			op(ir.OpLog, op(ir.OpAdd, op(ir.OpDiv, a, op(ir.OpMul, us, us)), b)))
		kf := e.Op(ir.OpConvert, ir.F32, k)
		k1 := e.Op(ir.OpConvert, ir.F32, e.Op(ir.OpAdd, ir.U32, k, e.Const(ir.U32, uint64(1))))
		rhs := op(ir.OpSub, op(ir.OpAdd, op(ir.OpNeg, lam), op(ir.OpMul, kf, loglam)), emitLoggam(e, k1))
		e.If(test(ir.OpLe, lhs, rhs), e.Break, nil)
	})
}

// emitLoggam emits loggam(x) without branches. x is a u32 count plus one
// (0 where the count is 2^32 - 1 and the sum wraps), so its x < 7 loop
// runs at most 7 times: it is unrolled, each step kept where k <= n by a
// select, and the x = 1, 2 case selects 0 at the end. Steps not kept
// compute values that are dropped (floats do not trap), so the selects
// give loggam's bits.
func emitLoggam(e FlowEmitter, x ir.Reg) ir.Reg {
	f := func(v float32) ir.Reg { return e.Const(ir.F32, float64(v)) }
	op := func(o ir.Op, args ...ir.Reg) ir.Reg { return e.Op(o, ir.F32, args...) }
	small := e.Op(ir.OpLt, ir.Bool, x, f(7))
	n := e.Op(ir.OpSelect, ir.U32, small, e.Op(ir.OpConvert, ir.U32, op(ir.OpSub, f(7), x)), e.Const(ir.U32, uint64(0)))
	x0 := op(ir.OpAdd, x, e.Op(ir.OpConvert, ir.F32, n))
	inv := op(ir.OpDiv, f(1), x0)
	x2 := op(ir.OpMul, inv, inv)
	gl0 := f(loggamA[9])
	for i := 8; i >= 0; i-- {
		gl0 = op(ir.OpAdd, op(ir.OpMul, gl0, x2), f(loggamA[i]))
	}
	gl := op(ir.OpSub, op(ir.OpAdd, op(ir.OpAdd, op(ir.OpDiv, gl0, x0), f(halfLg2pi)),
		op(ir.OpMul, op(ir.OpSub, x0, f(0.5)), op(ir.OpLog, x0))), x0)
	for k := uint64(1); k <= 7; k++ {
		step := e.Op(ir.OpLe, ir.Bool, e.Const(ir.U32, k), n)
		down := op(ir.OpSub, x0, f(1))
		gl = e.Op(ir.OpSelect, ir.F32, step, op(ir.OpSub, gl, op(ir.OpLog, down)), gl)
		x0 = e.Op(ir.OpSelect, ir.F32, step, down, x0)
	}
	edge := e.Op(ir.OpOr, ir.Bool, e.Op(ir.OpEq, ir.Bool, x, f(1)), e.Op(ir.OpEq, ir.Bool, x, f(2)))
	return e.Op(ir.OpSelect, ir.F32, edge, f(0), gl)
}
