package ir_test

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
)

func f32(v float32) uint64 { return uint64(math.Float32bits(v)) }
func f64(v float64) uint64 { return math.Float64bits(v) }
func i32(v int32) uint64   { return uint64(uint32(v)) }
func i64(v int64) uint64   { return uint64(v) }

var (
	nan32, inf32 = float32(math.NaN()), float32(math.Inf(1))
	nan64, inf64 = math.NaN(), math.Inf(1)
	negZero32    = float32(math.Copysign(0, -1))
	negZero64    = math.Copysign(0, -1)
)

// evalCase is one evaluation and its expected bits, written out by hand
// (C's and IEEE 754's results), not computed by the code under test.
type evalCase struct {
	op   ir.Op
	t    ir.Type
	args []uint64
	want uint64
}

var evalCases = []evalCase{
	// integer wrapping and division
	{ir.OpAdd, ir.I32, []uint64{i32(math.MaxInt32), 1}, i32(math.MinInt32)},
	{ir.OpSub, ir.U8, []uint64{0, 1}, 0xff},
	{ir.OpMul, ir.U32, []uint64{0x10000, 0x10000}, 0},
	{ir.OpNeg, ir.I64, []uint64{i64(math.MinInt64)}, i64(math.MinInt64)},
	{ir.OpNeg, ir.U32, []uint64{1}, 0xffffffff},
	{ir.OpDiv, ir.I32, []uint64{i32(-7), 2}, i32(-3)},
	{ir.OpRem, ir.I32, []uint64{i32(-7), 2}, i32(-1)},
	{ir.OpRem, ir.I64, []uint64{7, i64(-2)}, 1},
	{ir.OpDiv, ir.I32, []uint64{i32(math.MinInt32), i32(-1)}, i32(math.MinInt32)},
	{ir.OpRem, ir.I64, []uint64{i64(math.MinInt64), i64(-1)}, 0},
	{ir.OpDiv, ir.U8, []uint64{200, 7}, 28},
	{ir.OpBitNot, ir.U8, []uint64{0x0f}, 0xf0},
	{ir.OpBitNot, ir.I32, []uint64{0}, 0xffffffff},
	{ir.OpAbs, ir.I32, []uint64{i32(math.MinInt32)}, i32(math.MinInt32)},
	{ir.OpAbs, ir.I64, []uint64{i64(-5)}, 5},
	{ir.OpAbs, ir.U32, []uint64{0xffffffff}, 0xffffffff},
	{ir.OpSign, ir.I32, []uint64{i32(-9)}, i32(-1)},
	{ir.OpSign, ir.U64, []uint64{9}, 1},
	{ir.OpSign, ir.U8, []uint64{0}, 0},
	{ir.OpMin, ir.I32, []uint64{i32(-1), 1}, i32(-1)},
	{ir.OpMin, ir.U32, []uint64{0xffffffff, 1}, 1},
	{ir.OpMax, ir.I64, []uint64{i64(-1), 1}, 1},
	{ir.OpClamp, ir.I32, []uint64{i32(-5), 0, 10}, 0},
	{ir.OpClamp, ir.I32, []uint64{20, 0, 10}, 10},
	{ir.OpClamp, ir.I32, []uint64{5, 10, 0}, 0}, // lo > hi: hi wins, as min(max(a, lo), hi)
	{ir.OpLt, ir.I32, []uint64{i32(-1), 0}, 1},
	{ir.OpLt, ir.U32, []uint64{0xffffffff, 0}, 0},
	{ir.OpGe, ir.U8, []uint64{0xff, 0xfe}, 1},
	{ir.OpEq, ir.I64, []uint64{i64(-1), i64(-1)}, 1},
	{ir.OpAnd, ir.U64, []uint64{0xff00, 0x0ff0}, 0x0f00},
	{ir.OpXor, ir.I32, []uint64{i32(-1), 1}, i32(-2)},
	// bits above the width are ignored
	{ir.OpAdd, ir.U8, []uint64{0x1ff, 0x100}, 0xff},
	{ir.OpMov, ir.I32, []uint64{0xdead_0000_0001}, 1},

	// shifts: counts >= the width (and negative counts) shift everything out
	{ir.OpShl, ir.I32, []uint64{1, 31}, i32(math.MinInt32)},
	{ir.OpShl, ir.I32, []uint64{1, 32}, 0},
	{ir.OpShl, ir.I32, []uint64{1, i32(-1)}, 0},
	{ir.OpShl, ir.I32, []uint64{1, i64(-1)}, 0},
	{ir.OpShl, ir.U8, []uint64{0x81, 1}, 0x02},
	{ir.OpShl, ir.U8, []uint64{1, 8}, 0},
	{ir.OpShr, ir.I32, []uint64{i32(-8), 1}, i32(-4)},
	{ir.OpShr, ir.I32, []uint64{i32(-8), 40}, i32(-1)},
	{ir.OpShr, ir.I32, []uint64{i32(-8), i32(-3)}, i32(-1)},
	{ir.OpShr, ir.I32, []uint64{8, 40}, 0},
	{ir.OpShr, ir.U64, []uint64{1 << 63, 63}, 1},
	{ir.OpShr, ir.U64, []uint64{1 << 63, 64}, 0},
	{ir.OpShr, ir.U32, []uint64{0x80000000, 31}, 1},
	{ir.OpShl, ir.I64, []uint64{1, 63}, 1 << 63},

	// bools
	{ir.OpNot, ir.Bool, []uint64{1}, 0},
	{ir.OpAnd, ir.Bool, []uint64{1, 0}, 0},
	{ir.OpOr, ir.Bool, []uint64{1, 0}, 1},
	{ir.OpXor, ir.Bool, []uint64{1, 1}, 0},
	{ir.OpNe, ir.Bool, []uint64{1, 0}, 1},
	{ir.OpEq, ir.Bool, []uint64{0, 0}, 1},
	{ir.OpSelect, ir.I32, []uint64{1, 7, 9}, 7},
	{ir.OpSelect, ir.F64, []uint64{0, f64(1), f64(nan64)}, f64(nan64)},
	{ir.OpSelect, ir.Bool, []uint64{0, 0, 1}, 1},

	// floats: IEEE arithmetic in the operand type
	{ir.OpAdd, ir.F32, []uint64{f32(16777216), f32(1)}, f32(16777216)}, // rounds in f32, not f64
	{ir.OpAdd, ir.F64, []uint64{f64(0.1), f64(0.2)}, 0x3fd3333333333334},
	{ir.OpDiv, ir.F32, []uint64{f32(1), f32(0)}, f32(inf32)},
	{ir.OpDiv, ir.F64, []uint64{f64(-1), f64(0)}, f64(-inf64)},
	{ir.OpDiv, ir.F64, []uint64{f64(1), f64(negZero64)}, f64(-inf64)},
	{ir.OpNeg, ir.F32, []uint64{f32(0)}, 0x80000000},
	{ir.OpSub, ir.F64, []uint64{f64(0), f64(0)}, 0},
	{ir.OpMul, ir.F32, []uint64{f32(inf32), f32(0)}, 0x7fc00000},
	{ir.OpAbs, ir.F64, []uint64{f64(negZero64)}, 0},
	{ir.OpAbs, ir.F32, []uint64{f32(-inf32)}, f32(inf32)},
	{ir.OpSign, ir.F32, []uint64{f32(-3)}, f32(-1)},
	{ir.OpSign, ir.F32, []uint64{f32(negZero32)}, 0}, // both zeros give +0
	{ir.OpSign, ir.F64, []uint64{f64(inf64)}, f64(1)},
	{ir.OpSqrt, ir.F32, []uint64{f32(2)}, 0x3fb504f3},
	{ir.OpSqrt, ir.F64, []uint64{f64(negZero64)}, f64(negZero64)},
	{ir.OpRsqrt, ir.F32, []uint64{f32(4)}, f32(0.5)},
	{ir.OpRsqrt, ir.F32, []uint64{f32(0)}, f32(inf32)},
	{ir.OpRsqrt, ir.F32, []uint64{f32(negZero32)}, f32(-inf32)},
	{ir.OpRsqrt, ir.F64, []uint64{f64(inf64)}, 0},
	// rsqrt(3) is 1/sqrt(3) rounded twice in f32: sqrt(3) = 0x3fddb3d7, 1/that = 0x3f13cd3a
	{ir.OpRsqrt, ir.F32, []uint64{f32(3)}, 0x3f13cd3a},
	{ir.OpExp, ir.F64, []uint64{f64(0)}, f64(1)},
	{ir.OpLog, ir.F32, []uint64{f32(0)}, f32(-inf32)},
	{ir.OpLog2, ir.F64, []uint64{f64(8)}, f64(3)},
	{ir.OpLog10, ir.F32, []uint64{f32(1000)}, f32(3)},
	{ir.OpExp2, ir.F32, []uint64{f32(-1)}, f32(0.5)},
	{ir.OpCos, ir.F64, []uint64{f64(0)}, f64(1)},
	{ir.OpSin, ir.F32, []uint64{f32(negZero32)}, f32(negZero32)},
	{ir.OpAtan2, ir.F64, []uint64{f64(0), f64(-1)}, f64(math.Pi)},
	{ir.OpAtan2, ir.F32, []uint64{f32(1), f32(0)}, 0x3fc90fdb}, // pi/2 rounded to f32
	{ir.OpPow, ir.F64, []uint64{f64(2), f64(10)}, f64(1024)},
	{ir.OpPow, ir.F32, []uint64{f32(nan32), f32(0)}, f32(1)},
	{ir.OpFloor, ir.F32, []uint64{f32(-1.5)}, f32(-2)},
	{ir.OpCeil, ir.F64, []uint64{f64(-0.5)}, f64(negZero64)},
	{ir.OpRound, ir.F32, []uint64{f32(2.5)}, f32(3)}, // half away from zero
	{ir.OpRound, ir.F64, []uint64{f64(-2.5)}, f64(-3)},
	{ir.OpTrunc, ir.F64, []uint64{f64(-2.7)}, f64(-2)},
	{ir.OpAsin, ir.F64, []uint64{f64(1)}, f64(math.Pi / 2)},
	{ir.OpAcos, ir.F64, []uint64{f64(1)}, 0},
	{ir.OpTanh, ir.F32, []uint64{f32(inf32)}, f32(1)},

	// comparisons and tests with NaN
	{ir.OpEq, ir.F32, []uint64{f32(nan32), f32(nan32)}, 0},
	{ir.OpNe, ir.F64, []uint64{f64(nan64), f64(nan64)}, 1},
	{ir.OpLt, ir.F64, []uint64{f64(nan64), f64(1)}, 0},
	{ir.OpGe, ir.F32, []uint64{f32(nan32), f32(1)}, 0},
	{ir.OpEq, ir.F64, []uint64{f64(0), f64(negZero64)}, 1},
	{ir.OpLe, ir.F32, []uint64{f32(-inf32), f32(inf32)}, 1},
	{ir.OpIsNan, ir.F32, []uint64{f32(nan32)}, 1},
	{ir.OpIsNan, ir.F64, []uint64{f64(inf64)}, 0},
	{ir.OpIsInf, ir.F32, []uint64{f32(-inf32)}, 1},
	{ir.OpIsInf, ir.F64, []uint64{f64(nan64)}, 0},
	{ir.OpIsFinite, ir.F32, []uint64{f32(nan32)}, 0},
	{ir.OpIsFinite, ir.F64, []uint64{f64(math.MaxFloat64)}, 1},

	// min, max and clamp: fmin/fmax (a NaN yields the other operand)
	{ir.OpMin, ir.F32, []uint64{f32(nan32), f32(2)}, f32(2)},
	{ir.OpMin, ir.F64, []uint64{f64(2), f64(nan64)}, f64(2)},
	{ir.OpMax, ir.F64, []uint64{f64(nan64), f64(-1)}, f64(-1)},
	{ir.OpMin, ir.F32, []uint64{f32(0), f32(negZero32)}, f32(negZero32)},
	{ir.OpMax, ir.F64, []uint64{f64(negZero64), f64(0)}, 0},
	{ir.OpClamp, ir.F32, []uint64{f32(nan32), f32(0), f32(1)}, f32(0)},
	{ir.OpClamp, ir.F64, []uint64{f64(5), f64(0), f64(1)}, f64(1)},
	{ir.OpClamp, ir.F64, []uint64{f64(5), f64(nan64), f64(nan64)}, f64(5)},

	// fma: one rounding
	{ir.OpFma, ir.F64, []uint64{f64(0.1), f64(10), f64(-1)}, 0x3c90000000000000}, // 2^-54, the error of the rounded product
	// (1+2^-12)^2 - 1 = 2^-11 + 2^-24 exactly; the f32 product alone rounds to 1+2^-11
	{ir.OpFma, ir.F32, []uint64{f32(1 + 1.0/(1<<12)), f32(1 + 1.0/(1<<12)), f32(-1)}, f32(1.0/(1<<11) + 1.0/(1<<24))},
	{ir.OpFma, ir.F32, []uint64{f32(inf32), f32(0), f32(1)}, 0x7fc00000},
}

func TestEval(t *testing.T) {
	for _, c := range evalCases {
		got, err := ir.Eval(c.op, c.t, c.args...)
		info, _ := c.op.Info()
		if err != nil || !irtest.SameBits(info.ResultType(c.t), got, c.want) {
			t.Errorf("Eval(%s, %s, %#x) = %#x, %v; want %#x", c.op, c.t, c.args, got, err, c.want)
		}
	}
}

func TestEvalErrors(t *testing.T) {
	for _, op := range []ir.Op{ir.OpDiv, ir.OpRem} {
		for _, typ := range ir.Ints.Types() {
			if _, err := ir.Eval(op, typ, 5, 0); !errors.Is(err, ir.ErrDivZero) {
				t.Errorf("%s on %s by zero: %v, want ErrDivZero", op, typ, err)
			}
			// a zero in the low bits is zero, whatever lies above the width
			if typ.Size() < 8 {
				if _, err := ir.Eval(op, typ, 5, 1<<32); !errors.Is(err, ir.ErrDivZero) {
					t.Errorf("%s on %s by 1<<32: %v, want ErrDivZero", op, typ, err)
				}
			}
		}
	}
	if r, err := ir.Eval(ir.OpDiv, ir.F64, f64(0), f64(0)); err != nil || !math.IsNaN(math.Float64frombits(r)) {
		t.Errorf("float 0/0 = %#x, %v; want NaN", r, err)
	}
	for _, c := range []struct {
		op   ir.Op
		t    ir.Type
		args []uint64
		want string
	}{
		{ir.OpSqrt, ir.I32, []uint64{4}, "eval: sqrt is not defined on i32"},
		{ir.OpAdd, ir.Bool, []uint64{1, 1}, "eval: add is not defined on bool"},
		{ir.OpAdd, ir.I32, []uint64{1}, "eval: add takes 2 operands, not 1"},
		{ir.OpLoad, ir.I32, nil, "eval: load is not a value op"},
		{ir.OpWarpSum, ir.I32, []uint64{1}, "eval: warp_sum is not a value op"},
		{ir.NumOps, ir.I32, nil, "eval: Op(" + strconv.Itoa(int(ir.NumOps)) + ") is not a value op"},
		{ir.OpConvert, ir.I32, []uint64{1}, "eval: convert takes a destination type: use ir.Convert"},
	} {
		if _, err := ir.Eval(c.op, c.t, c.args...); err == nil || err.Error() != c.want {
			t.Errorf("Eval(%s, %s, %v): %v, want %q", c.op, c.t, c.args, err, c.want)
		}
	}
}

// TestEvalEveryOp: every value op evaluates at every operand type of its
// row, so a row (or a type in a row) added without an evaluation fails.
func TestEvalEveryOp(t *testing.T) {
	n := 0
	for _, op := range ir.Ops() {
		info, _ := op.Info()
		if !info.IsValue() || op == ir.OpConvert {
			continue
		}
		for _, typ := range info.Types.Types() {
			args := make([]uint64, info.Arity)
			for i := range args {
				args[i] = ir.FromFloat(float64(i+1), typ) // nonzero: no division by zero
			}
			if info.Form == ir.FormSelect {
				args[0] = 1
			}
			if _, err := ir.Eval(op, typ, args...); err != nil {
				t.Errorf("%s on %s: %v", op, typ, err)
			}
			n++
		}
	}
	if n < 150 {
		t.Errorf("only %d (op, type) pairs are value ops", n)
	}
}

// Eval allocates nothing: linalg's host evaluation and rng's host samplers
// call it once per scalar op.
func TestEvalAllocs(t *testing.T) {
	var sink uint64
	for _, c := range []evalCase{
		{ir.OpFma, ir.F32, []uint64{f32(1), f32(2), f32(3)}, 0},
		{ir.OpSin, ir.F64, []uint64{f64(1)}, 0},
		{ir.OpDiv, ir.I32, []uint64{7, 2}, 0},
		{ir.OpShr, ir.I64, []uint64{7, 2}, 0},
		{ir.OpSelect, ir.F32, []uint64{1, 2, 3}, 0},
	} {
		a := [3]uint64(append(c.args, make([]uint64, 3-len(c.args))...))
		n := len(c.args)
		allocs := testing.AllocsPerRun(100, func() {
			var r uint64
			switch n {
			case 1:
				r, _ = ir.Eval(c.op, c.t, a[0])
			case 2:
				r, _ = ir.Eval(c.op, c.t, a[0], a[1])
			default:
				r, _ = ir.Eval(c.op, c.t, a[0], a[1], a[2])
			}
			sink += r
		})
		if allocs != 0 {
			t.Errorf("Eval(%s, %s) allocates %v times", c.op, c.t, allocs)
		}
	}
	h := &ir.Host{}
	if allocs := testing.AllocsPerRun(100, func() { sink += h.Op(ir.OpFma, ir.F64, 1, 2, 3) }); allocs != 0 {
		t.Errorf("Host.Op allocates %v times", allocs)
	}
	_ = sink
}
