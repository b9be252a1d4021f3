package interp

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// Host arithmetic. Untyped host numbers (Int, Float) behave like Python's;
// typed Scalars follow NumPy's NEP 50 promotion: a host number adapts to the
// scalar's dtype, two dtypes promote by NumPy's table. Int results that do
// not fit their type are errors, never wraps (LANGUAGE.md section 3).

// numClass is a number's type for promotion: an ir.Type, or untyped.
type numClass struct {
	t       ir.Type // Invalid for untyped
	isFloat bool    // untyped float (only when t is Invalid)
}

var (
	classInt   = numClass{}
	classFloat = numClass{isFloat: true}
)

func (c numClass) float() bool { return c.isFloat || c.t.IsFloat() }

// num is a decoded number.
type num struct {
	c numClass
	i int64   // signed ints and untyped ints
	u uint64  // unsigned ints
	f float64 // floats
}

func toNum(v Value) (num, bool) {
	switch v := v.(type) {
	case Int:
		return num{c: classInt, i: int64(v)}, true
	case Float:
		return num{c: classFloat, f: float64(v)}, true
	case Scalar:
		n := num{c: numClass{t: v.T}}
		switch v.T {
		case ir.U8, ir.U32, ir.U64:
			n.u = v.Bits
		case ir.I32:
			n.i = int64(int32(v.Bits))
		case ir.I64:
			n.i = int64(v.Bits)
		case ir.F32:
			n.f = float64(math.Float32frombits(uint32(v.Bits)))
		case ir.F64:
			n.f = math.Float64frombits(v.Bits)
		default:
			return num{}, false
		}
		return n, true
	}
	return num{}, false
}

func (n num) float64() float64 {
	switch {
	case n.c.float():
		return n.f
	case n.c.t == ir.U8 || n.c.t == ir.U32 || n.c.t == ir.U64:
		return float64(n.u)
	}
	return float64(n.i)
}

// bits converts n to type t by ir.Convert's rule (an f32 rounds once,
// also from a large int) and returns the raw bits.
func (n num) bits(t ir.Type) uint64 {
	switch {
	case n.c.float():
		return ir.FromFloat(n.f, t)
	case n.c.t == ir.U8 || n.c.t == ir.U32 || n.c.t == ir.U64:
		return ir.FromUint(n.u, t)
	}
	return ir.FromInt(n.i, t)
}

// in returns n converted to float type t, as a float64.
func (n num) in(t ir.Type) float64 {
	b := n.bits(t)
	if t == ir.F32 {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// asInt64 returns the value of an integer num as int64, if it fits.
func (n num) asInt64() (int64, bool) {
	if n.c.t == ir.U8 || n.c.t == ir.U32 || n.c.t == ir.U64 {
		return int64(n.u), n.u <= math.MaxInt64
	}
	return n.i, true
}

// asUint64 returns the value of an integer num as uint64, if it fits.
func (n num) asUint64() (uint64, bool) {
	if n.c.t == ir.U8 || n.c.t == ir.U32 || n.c.t == ir.U64 {
		return n.u, true
	}
	return uint64(n.i), n.i >= 0
}

// promote gives the result class of a binary operation (NEP 50).
func promote(a, b numClass) numClass {
	switch {
	case a.t == ir.Invalid && b.t == ir.Invalid:
		if a.isFloat || b.isFloat {
			return classFloat
		}
		return classInt
	case a.t == ir.Invalid:
		return adapt(a, b.t)
	case b.t == ir.Invalid:
		return adapt(b, a.t)
	}
	return numClass{t: promoteTypes(a.t, b.t)}
}

// adapt: an untyped host number meets dtype t.
func adapt(host numClass, t ir.Type) numClass {
	if host.isFloat && t.IsInt() {
		return numClass{t: ir.F64}
	}
	return numClass{t: t}
}

// promoteTypes is NumPy's promote_types (lang/ir's table).
func promoteTypes(a, b ir.Type) ir.Type { return ir.Promote(a, b) }

// makeNum packs a result value of class c into a Value, checking int ranges.
func makeNum(c numClass, i int64, u uint64, f float64) (Value, error) {
	switch {
	case c.t == ir.Invalid && c.isFloat:
		return Float(f), nil
	case c.t == ir.Invalid:
		return Int(i), nil
	case c.t == ir.F32:
		return Scalar{T: ir.F32, Bits: ir.FromFloat(f, ir.F32)}, nil
	case c.t == ir.F64:
		return Scalar{T: ir.F64, Bits: math.Float64bits(f)}, nil
	case c.t == ir.U64:
		return Scalar{T: ir.U64, Bits: u}, nil
	}
	return intScalar(c.t, i)
}

// intScalar makes a typed int scalar, or an error when v does not fit t.
func intScalar(t ir.Type, v int64) (Value, error) {
	lo, hi := intRange(t)
	if v < lo || v > hi {
		return nil, fmt.Errorf("%d overflows %s", v, t)
	}
	return Scalar{T: t, Bits: uint64(v) & sizeMask(t)}, nil
}

// sizeMask keeps the bits of a t-sized element: Scalars hold element bits
// exactly as an array stores them (zero-extended).
func sizeMask(t ir.Type) uint64 {
	if t.Size() == 8 {
		return math.MaxUint64
	}
	return uint64(1)<<(8*t.Size()) - 1
}

func intRange(t ir.Type) (lo, hi int64) {
	switch t {
	case ir.U8:
		return 0, math.MaxUint8
	case ir.I32:
		return math.MinInt32, math.MaxInt32
	case ir.U32:
		return 0, math.MaxUint32
	case ir.Bool:
		return 0, 1
	}
	return math.MinInt64, math.MaxInt64
}

var errIntDivZero = fmt.Errorf("integer division by zero")

// binaryNum applies an arithmetic or bit operator to two numbers.
func binaryNum(op token.Op, x, y Value) (Value, error) {
	if a, ok := x.(Int); ok {
		if b, ok := y.(Int); ok {
			r, err := intOp(op, int64(a), int64(b))
			return Int(r), err
		}
	}
	a, ok1 := toNum(x)
	b, ok2 := toNum(y)
	if !ok1 || !ok2 {
		return nil, errOperands(op, x, y)
	}
	if op.IsShift() {
		return shiftNum(op, a, b)
	}
	c := promote(a.c, b.c)
	if c.float() {
		if op == token.Rem || op == token.And || op == token.Or || op == token.Xor {
			return nil, errOperands(op, x, y)
		}
		fa, fb := a.float64(), b.float64()
		if c.t != ir.Invalid {
			// As in a kernel: both operands (an untyped literal included) take
			// the result dtype first, then the operation rounds once in it.
			fa, fb = a.in(c.t), b.in(c.t)
		}
		r, err := floatOp(op, fa, fb)
		if err != nil {
			return nil, err
		}
		return makeNum(c, 0, 0, r)
	}
	if c.t == ir.U64 {
		ua, ok1 := a.asUint64()
		ub, ok2 := b.asUint64()
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("negative value in u64 arithmetic")
		}
		r, err := uintOp(op, ua, ub)
		if err != nil {
			return nil, err
		}
		return makeNum(c, 0, r, 0)
	}
	ia, _ := a.asInt64()
	ib, _ := b.asInt64()
	if c.t != ir.Invalid {
		// The host operand adapts to the dtype: it must fit it (NEP 50).
		for _, n := range []num{a, b} {
			if n.c.t == ir.Invalid {
				if _, err := intScalar(c.t, n.i); err != nil {
					return nil, fmt.Errorf("int %d out of range for %s", n.i, c.t)
				}
			}
		}
	}
	r, err := intOp(op, ia, ib)
	if err != nil {
		return nil, err
	}
	if c.t == ir.Invalid {
		return Int(r), nil
	}
	return makeNum(c, r, 0, 0)
}

func floatOp(op token.Op, a, b float64) (float64, error) {
	switch op {
	case token.Add:
		return a + b, nil
	case token.Sub:
		return a - b, nil
	case token.Mul:
		return a * b, nil
	case token.Quo:
		return a / b, nil
	}
	return 0, fmt.Errorf("unknown operator %s", op)
}

var errOverflow = fmt.Errorf("integer overflow")

func intOp(op token.Op, a, b int64) (int64, error) {
	switch op {
	case token.Add:
		r := a + b
		if (r > a) != (b > 0) {
			return 0, errOverflow
		}
		return r, nil
	case token.Sub:
		r := a - b
		if (r < a) != (b > 0) {
			return 0, errOverflow
		}
		return r, nil
	case token.Mul:
		if a == 0 || b == 0 {
			return 0, nil
		}
		r := a * b
		if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return 0, errOverflow
		}
		return r, nil
	case token.Quo, token.Rem:
		if b == 0 {
			return 0, errIntDivZero
		}
		if a == math.MinInt64 && b == -1 {
			if op == token.Rem {
				return 0, nil
			}
			return 0, errOverflow
		}
		if op == token.Quo {
			return a / b, nil
		}
		return a % b, nil
	case token.And:
		return a & b, nil
	case token.Or:
		return a | b, nil
	case token.Xor:
		return a ^ b, nil
	case token.Shl:
		if b < 0 {
			return 0, fmt.Errorf("negative shift count %d", b)
		}
		if a == 0 {
			return 0, nil
		}
		if b >= 63 || (a<<b)>>b != a {
			return 0, errOverflow
		}
		return a << b, nil
	case token.Shr:
		if b < 0 {
			return 0, fmt.Errorf("negative shift count %d", b)
		}
		if b >= 63 {
			b = 63
		}
		return a >> b, nil
	}
	return 0, fmt.Errorf("unknown operator %s", op)
}

func uintOp(op token.Op, a, b uint64) (uint64, error) {
	switch op {
	case token.Add:
		r, c := bits.Add64(a, b, 0)
		if c != 0 {
			return 0, errOverflow
		}
		return r, nil
	case token.Sub:
		r, c := bits.Sub64(a, b, 0)
		if c != 0 {
			return 0, errOverflow
		}
		return r, nil
	case token.Mul:
		hi, lo := bits.Mul64(a, b)
		if hi != 0 {
			return 0, errOverflow
		}
		return lo, nil
	case token.Quo, token.Rem:
		if b == 0 {
			return 0, errIntDivZero
		}
		if op == token.Quo {
			return a / b, nil
		}
		return a % b, nil
	case token.And:
		return a & b, nil
	case token.Or:
		return a | b, nil
	case token.Xor:
		return a ^ b, nil
	}
	return 0, fmt.Errorf("unknown operator %s", op)
}

// shiftNum shifts keeping the left operand's class (as Go does).
func shiftNum(op token.Op, a, b num) (Value, error) {
	if a.c.float() || b.c.float() {
		return nil, fmt.Errorf("shift of non-integer operands")
	}
	n, ok := b.asInt64()
	if !ok || n < 0 {
		return nil, fmt.Errorf("negative or huge shift count")
	}
	if a.c.t == ir.U64 || a.c.t == ir.U32 || a.c.t == ir.U8 {
		if op == token.Shr {
			if n >= 64 {
				return makeNum(a.c, 0, 0, 0)
			}
			return makeNum(a.c, 0, a.u>>n, 0)
		}
		if a.u != 0 && (n >= 64 || (a.u<<n)>>n != a.u) {
			return nil, errOverflow
		}
		r := a.u << n
		if a.c.t != ir.U64 {
			return intScalarErr(a.c.t, int64(r))
		}
		return makeNum(a.c, 0, r, 0)
	}
	r, err := intOp(op, a.i, n)
	if err != nil {
		return nil, err
	}
	if a.c.t == ir.Invalid {
		return Int(r), nil
	}
	return intScalarErr(a.c.t, r)
}

func intScalarErr(t ir.Type, v int64) (Value, error) {
	r, err := intScalar(t, v)
	if err != nil {
		return nil, errOverflow
	}
	return r, nil
}

// compareNum orders two numbers: -1, 0, 1; unordered (NaN) gives ok=false.
func compareNum(a, b num) (int, bool) {
	if !a.c.float() && !b.c.float() {
		ai, aok := a.asInt64()
		bi, bok := b.asInt64()
		if aok && bok {
			return cmp3(ai < bi, ai > bi), true
		}
		au, _ := a.asUint64()
		bu, _ := b.asUint64()
		switch {
		case !aok && !bok:
			return cmp3(au < bu, au > bu), true
		case !aok: // a is a huge u64, b fits int64
			return 1, true
		default:
			return -1, true
		}
	}
	x, y := a.float64(), b.float64()
	if c := promote(a.c, b.c); c.t != ir.Invalid {
		// As in a kernel: an untyped literal compared with an f32 is
		// converted to f32 first (f32(0.2) == 0.2 holds).
		x, y = a.in(c.t), b.in(c.t)
	}
	if x != x || y != y {
		return 0, false
	}
	return cmp3(x < y, x > y), true
}

func cmp3(lt, gt bool) int {
	switch {
	case lt:
		return -1
	case gt:
		return 1
	}
	return 0
}

func errOperands(op token.Op, x, y Value) error {
	return fmt.Errorf("operator %s not defined on %s and %s", op, x.Type(), y.Type())
}

// negate is unary minus.
func negate(v Value) (Value, error) {
	switch v := v.(type) {
	case Int:
		if v == math.MinInt64 {
			return nil, errOverflow
		}
		return -v, nil
	case Float:
		return -v, nil
	case *Vector:
		return vectorNegate(v)
	}
	n, ok := toNum(v)
	if !ok {
		return nil, fmt.Errorf("operator %s not defined on %s", token.Sub, v.Type())
	}
	switch {
	case n.c.float():
		return makeNum(n.c, 0, 0, -n.f)
	case n.c.t == ir.U8 || n.c.t == ir.U32 || n.c.t == ir.U64:
		if n.u == 0 {
			return v, nil
		}
		return nil, fmt.Errorf("negation of unsigned %s value %d overflows", n.c.t, n.u)
	}
	return intScalarErr(n.c.t, -n.i)
}

// bitNot is unary ~.
func bitNot(v Value) (Value, error) {
	if i, ok := v.(Int); ok {
		return ^i, nil
	}
	if s, ok := v.(Scalar); ok && s.T.IsInt() {
		return Scalar{T: s.T, Bits: ^s.Bits & sizeMask(s.T)}, nil
	}
	return nil, fmt.Errorf("operator %s not defined on %s", token.BitNot, v.Type())
}

// power is x ** y on numbers: an int to a non-negative int is an exact
// int (overflow is an error), an untyped int to a negative one a float;
// floats follow math.Pow (inf on overflow); dtype scalars promote by NEP
// 50 as the other operators, a typed int to a negative power being an
// error (NumPy's).
func power(x, y Value) (Value, error) {
	a, ok1 := toNum(x)
	b, ok2 := toNum(y)
	if !ok1 || !ok2 {
		return nil, errOperands(token.Pow, x, y)
	}
	c := promote(a.c, b.c)
	if c.float() {
		fa, fb := a.float64(), b.float64()
		if c.t == ir.Invalid || c.t == ir.F64 {
			return makeNum(c, 0, 0, math.Pow(fa, fb))
		}
		// f32: computed in f64, rounded once (an f32 pow is not more exact).
		return makeNum(c, 0, 0, math.Pow(a.in(c.t), b.in(c.t)))
	}
	e, ok := b.asInt64()
	if !ok {
		return nil, errOverflow // a u64 exponent above MaxInt64, of a base other than 0 and 1
	}
	if e < 0 {
		if c.t == ir.Invalid {
			return Float(math.Pow(a.float64(), float64(e))), nil
		}
		return nil, fmt.Errorf("%s to a negative power: integer dtypes have no fractions (convert to a float first)", c.t)
	}
	if c.t == ir.U64 {
		u, _ := a.asUint64()
		r, err := uintPow(u, uint64(e))
		if err != nil {
			return nil, err
		}
		return makeNum(c, 0, r, 0)
	}
	i, _ := a.asInt64()
	r, err := intPow(i, e)
	if err != nil {
		return nil, err
	}
	if c.t == ir.Invalid {
		return Int(r), nil
	}
	return intScalarErr(c.t, r)
}

// intPow is a**e (e >= 0) by squaring, at most 63 multiplications, an
// overflow being an error: 10 ** 100000 fails at once. The base is not
// squared past the last bit, so (-2) ** 63 is exact.
func intPow(a, e int64) (int64, error) {
	r := int64(1)
	for {
		var err error
		if e&1 == 1 {
			if r, err = intOp(token.Mul, r, a); err != nil {
				return 0, err
			}
		}
		if e >>= 1; e == 0 {
			return r, nil
		}
		if a, err = intOp(token.Mul, a, a); err != nil {
			return 0, err
		}
	}
}

func uintPow(a, e uint64) (uint64, error) {
	r := uint64(1)
	for {
		var err error
		if e&1 == 1 {
			if r, err = uintOp(token.Mul, r, a); err != nil {
				return 0, err
			}
		}
		if e >>= 1; e == 0 {
			return r, nil
		}
		if a, err = uintOp(token.Mul, a, a); err != nil {
			return 0, err
		}
	}
}
