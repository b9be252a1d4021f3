package cpu

import (
	"math"
	"math/big"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// elem runs `out[i] = op(in0[i], in1[i], ...)` over len(in0) threads.
func elem[T, D any](t *testing.T, op ir.Op, it, dt ir.Type, ins ...[]T) []D {
	t.Helper()
	var params []ir.Param
	for range ins {
		params = append(params, arr("in", it, 1))
	}
	b := kernel("elem", append(params, arr("out", dt, 1))...)
	i := b.tid(0)
	var regs []ir.Reg
	for k := range ins {
		regs = append(regs, b.load(k, i))
	}
	b.store(len(ins), i, b.op(op, dt, regs...))
	n := len(ins[0])
	out := make([]D, n)
	var args []Arg
	for _, in := range ins {
		args = append(args, slice(in))
	}
	if err := b.compile(t).Launch([]int{n}, append(args, slice(out)), Options{}); err != nil {
		t.Fatalf("%s: %v", op, err)
	}
	return out
}

// pairs returns all (a, b) combinations of vals as two columns.
func pairs[T any](vals []T) ([]T, []T) {
	var a, b []T
	for _, x := range vals {
		for _, y := range vals {
			a, b = append(a, x), append(b, y)
		}
	}
	return a, b
}

func intVals[T integer]() []T {
	var out []T
	for _, v := range []int64{0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 127, 128, 255, 1 << 31, -1 << 31, 1<<31 - 1, 1<<63 - 1, -1 << 63} {
		out = append(out, T(v))
	}
	return out
}

func testInts[T integer](t *testing.T, it ir.Type) {
	a, b := pairs(intVals[T]())
	bin := map[ir.Op]func(x, y T) T{
		ir.OpAdd: func(x, y T) T { return x + y }, ir.OpSub: func(x, y T) T { return x - y },
		ir.OpMul: func(x, y T) T { return x * y }, ir.OpAnd: func(x, y T) T { return x & y },
		ir.OpOr: func(x, y T) T { return x | y }, ir.OpXor: func(x, y T) T { return x ^ y },
		ir.OpMin: func(x, y T) T { return min(x, y) }, ir.OpMax: func(x, y T) T { return max(x, y) },
	}
	for op, f := range bin {
		got := elem[T, T](t, op, it, it, a, b)
		for i := range got {
			if want := f(a[i], b[i]); got[i] != want {
				t.Errorf("%s %s(%v, %v) = %v, want %v", it, op, a[i], b[i], got[i], want)
			}
		}
	}
	cmp := map[ir.Op]func(x, y T) bool{
		ir.OpEq: func(x, y T) bool { return x == y }, ir.OpNe: func(x, y T) bool { return x != y },
		ir.OpLt: func(x, y T) bool { return x < y }, ir.OpLe: func(x, y T) bool { return x <= y },
		ir.OpGt: func(x, y T) bool { return x > y }, ir.OpGe: func(x, y T) bool { return x >= y },
	}
	for op, f := range cmp {
		got := elem[T, bool](t, op, it, ir.Bool, a, b)
		for i := range got {
			if want := f(a[i], b[i]); got[i] != want {
				t.Errorf("%s %s(%v, %v) = %v, want %v", it, op, a[i], b[i], got[i], want)
			}
		}
	}
	// Division: drop zero divisors (tested separately).
	var da, db []T
	for i := range a {
		if b[i] != 0 {
			da, db = append(da, a[i]), append(db, b[i])
		}
	}
	q := elem[T, T](t, ir.OpDiv, it, it, da, db)
	r := elem[T, T](t, ir.OpRem, it, it, da, db)
	for i := range q {
		if q[i] != da[i]/db[i] || r[i] != da[i]%db[i] {
			t.Errorf("%s %v / %v = %v rem %v", it, da[i], db[i], q[i], r[i])
		}
	}
	vals := intVals[T]()
	un := map[ir.Op]func(x T) T{
		ir.OpNeg: func(x T) T { return -x }, ir.OpBitNot: func(x T) T { return ^x },
		ir.OpAbs: func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		},
		ir.OpSign: func(x T) T {
			if x > 0 {
				return 1
			}
			if x < 0 {
				return ^T(0)
			}
			return 0
		},
	}
	for op, f := range un {
		got := elem[T, T](t, op, it, it, vals)
		for i := range got {
			if want := f(vals[i]); got[i] != want {
				t.Errorf("%s %s(%v) = %v, want %v", it, op, vals[i], got[i], want)
			}
		}
	}
	lo, hi := make([]T, len(vals)), make([]T, len(vals))
	for i := range lo {
		lo[i], hi[i] = 2, 100
	}
	got := elem[T, T](t, ir.OpClamp, it, it, vals, lo, hi)
	for i := range got {
		if want := min(max(vals[i], 2), 100); got[i] != want {
			t.Errorf("%s clamp(%v, 2, 100) = %v", it, vals[i], got[i])
		}
	}
}

func TestIntOps(t *testing.T) {
	t.Run("u8", func(t *testing.T) { testInts[uint8](t, ir.U8) })
	t.Run("i32", func(t *testing.T) { testInts[int32](t, ir.I32) })
	t.Run("i64", func(t *testing.T) { testInts[int64](t, ir.I64) })
	t.Run("u32", func(t *testing.T) { testInts[uint32](t, ir.U32) })
	t.Run("u64", func(t *testing.T) { testInts[uint64](t, ir.U64) })
}

// TestIntEdges pins down the C-like semantics with literal expectations.
func TestIntEdges(t *testing.T) {
	q := elem[int32, int32](t, ir.OpDiv, ir.I32, ir.I32, []int32{-7, 7, -7, math.MinInt32}, []int32{2, -2, -2, -1})
	r := elem[int32, int32](t, ir.OpRem, ir.I32, ir.I32, []int32{-7, 7, -7, math.MinInt32}, []int32{2, -2, -2, -1})
	if q[0] != -3 || q[1] != -3 || q[2] != 3 || q[3] != math.MinInt32 || r[0] != -1 || r[1] != 1 || r[2] != -1 || r[3] != 0 {
		t.Errorf("div %v rem %v", q, r)
	}
	add := elem[int32, int32](t, ir.OpAdd, ir.I32, ir.I32, []int32{math.MaxInt32}, []int32{1})
	if add[0] != math.MinInt32 {
		t.Errorf("MaxInt32+1 = %d", add[0])
	}
	abs := elem[int32, int32](t, ir.OpAbs, ir.I32, ir.I32, []int32{math.MinInt32, -5})
	if abs[0] != math.MinInt32 || abs[1] != 5 {
		t.Errorf("abs = %v", abs)
	}
}

// shiftKernel computes out[i] = a[i] op n[i] with an i32 count.
func shift[T integer](t *testing.T, op ir.Op, it ir.Type, a []T, n []int32) []T {
	b := kernel("sh", arr("a", it, 1), arr("n", ir.I32, 1), arr("out", it, 1))
	i := b.tid(0)
	b.store(2, i, b.op(op, it, b.load(0, i), b.load(1, i)))
	out := make([]T, len(a))
	if err := b.compile(t).Launch([]int{len(a)}, []Arg{slice(a), slice(n), slice(out)}, Options{}); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestShifts(t *testing.T) {
	n := []int32{0, 1, 31, 32, 33, 64, -1}
	l := shift(t, ir.OpShl, ir.I32, []int32{1, 1, 1, 1, 1, 1, 1}, n)
	if want := []int32{1, 2, math.MinInt32, 0, 0, 0, 0}; !equal(l, want) {
		t.Errorf("i32 shl = %v, want %v", l, want)
	}
	r := shift(t, ir.OpShr, ir.I32, []int32{-8, -8, -8, -8, 8, 8, -8}, n)
	if want := []int32{-8, -4, -1, -1, 0, 0, -1}; !equal(r, want) {
		t.Errorf("i32 shr = %v, want %v", r, want)
	}
	u := shift(t, ir.OpShr, ir.U64, []uint64{1 << 63, 1 << 63, 1 << 63, 1 << 63, 1 << 63, 1 << 63, 1 << 63}, n)
	if want := []uint64{1 << 63, 1 << 62, 1 << 32, 1 << 31, 1 << 30, 0, 0}; !equal(u, want) {
		t.Errorf("u64 shr = %v, want %v", u, want)
	}
	u8 := shift(t, ir.OpShl, ir.U8, []uint8{0x81, 0x81, 1, 1, 1, 1, 1}, n)
	if want := []uint8{0x81, 2, 0, 0, 0, 0, 0}; !equal(u8, want) {
		t.Errorf("u8 shl = %v, want %v", u8, want)
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// same compares floats, treating NaNs as equal and zeros by sign.
func same[T float](a, b T) bool {
	if a != a {
		return b != b
	}
	return a == b && math.Signbit(float64(a)) == math.Signbit(float64(b))
}

func floatVals[T float]() []T {
	var out []T
	for _, v := range []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2.5, -2.5, 3.7, -3.7, 0.1, 1e30, -1e30,
		1e-30, math.Inf(1), math.Inf(-1), math.NaN(), 100, 0.75} {
		out = append(out, T(v))
	}
	return out
}

func testFloats[T float](t *testing.T, ft ir.Type) {
	a, b := pairs(floatVals[T]())
	bin := map[ir.Op]func(x, y T) T{
		ir.OpAdd: func(x, y T) T { return x + y }, ir.OpSub: func(x, y T) T { return x - y },
		ir.OpMul: func(x, y T) T { return x * y }, ir.OpDiv: func(x, y T) T { return x / y },
		ir.OpAtan2: func(x, y T) T { return T(math.Atan2(float64(x), float64(y))) },
		ir.OpPow:   func(x, y T) T { return T(math.Pow(float64(x), float64(y))) },
		ir.OpMin: func(x, y T) T {
			switch {
			case x != x:
				return y
			case y != y:
				return x
			}
			return T(math.Min(float64(x), float64(y)))
		},
		ir.OpMax: func(x, y T) T {
			switch {
			case x != x:
				return y
			case y != y:
				return x
			}
			return T(math.Max(float64(x), float64(y)))
		},
	}
	for op, f := range bin {
		got := elem[T, T](t, op, ft, ft, a, b)
		for i := range got {
			if want := f(a[i], b[i]); !same(got[i], want) {
				t.Errorf("%s %s(%v, %v) = %v, want %v", ft, op, a[i], b[i], got[i], want)
			}
		}
	}
	cmp := map[ir.Op]func(x, y T) bool{
		ir.OpEq: func(x, y T) bool { return x == y }, ir.OpNe: func(x, y T) bool { return x != y },
		ir.OpLt: func(x, y T) bool { return x < y }, ir.OpLe: func(x, y T) bool { return x <= y },
		ir.OpGt: func(x, y T) bool { return x > y }, ir.OpGe: func(x, y T) bool { return x >= y },
	}
	for op, f := range cmp {
		got := elem[T, bool](t, op, ft, ir.Bool, a, b)
		for i := range got {
			if want := f(a[i], b[i]); got[i] != want {
				t.Errorf("%s %s(%v, %v) = %v, want %v", ft, op, a[i], b[i], got[i], want)
			}
		}
	}
	vals := floatVals[T]()
	g := func(f func(float64) float64) func(T) T { return func(x T) T { return T(f(float64(x))) } }
	un := map[ir.Op]func(T) T{
		ir.OpNeg: func(x T) T { return -x }, ir.OpAbs: g(math.Abs), ir.OpSqrt: g(math.Sqrt),
		ir.OpRsqrt: func(x T) T { return 1 / T(math.Sqrt(float64(x))) },
		ir.OpSin:   g(math.Sin), ir.OpCos: g(math.Cos), ir.OpTan: g(math.Tan), ir.OpAsin: g(math.Asin),
		ir.OpAcos: g(math.Acos), ir.OpAtan: g(math.Atan), ir.OpSinh: g(math.Sinh), ir.OpCosh: g(math.Cosh),
		ir.OpTanh: g(math.Tanh), ir.OpExp: g(math.Exp), ir.OpExp2: g(math.Exp2), ir.OpLog: g(math.Log),
		ir.OpLog2: g(math.Log2), ir.OpLog10: g(math.Log10), ir.OpFloor: g(math.Floor), ir.OpCeil: g(math.Ceil),
		ir.OpRound: g(math.Round), ir.OpTrunc: g(math.Trunc),
		ir.OpSign: func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			case x == 0:
				return 0
			}
			return x
		},
	}
	for op, f := range un {
		got := elem[T, T](t, op, ft, ft, vals)
		for i := range got {
			if want := f(vals[i]); !same(got[i], want) {
				t.Errorf("%s %s(%v) = %v, want %v", ft, op, vals[i], got[i], want)
			}
		}
	}
	tests := map[ir.Op]func(float64) bool{
		ir.OpIsNan: math.IsNaN, ir.OpIsInf: func(x float64) bool { return math.IsInf(x, 0) },
		ir.OpIsFinite: func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) },
	}
	for op, f := range tests {
		got := elem[T, bool](t, op, ft, ir.Bool, vals)
		for i := range got {
			if want := f(float64(vals[i])); got[i] != want {
				t.Errorf("%s %s(%v) = %v", ft, op, vals[i], got[i])
			}
		}
	}
	x, y := pairs(vals)
	z := make([]T, len(x))
	for i := range z {
		z[i] = T(0.25)
	}
	fma := elem[T, T](t, ir.OpFma, ft, ft, x, y, z)
	for i := range fma {
		if want := exactFma(x[i], y[i], 0.25); !same(fma[i], want) {
			t.Errorf("%s fma(%v, %v, 0.25) = %v, want %v", ft, x[i], y[i], fma[i], want)
		}
	}
}

// exactFma is a*b+c rounded once to T, computed with math/big (float64
// math.FMA then a float32 conversion would round twice).
func exactFma[T float](a, b, c T) T {
	fa, fb, fc := float64(a), float64(b), float64(c)
	if math.IsNaN(fa) || math.IsNaN(fb) || math.IsNaN(fc) || math.IsInf(fa, 0) || math.IsInf(fb, 0) || math.IsInf(fc, 0) {
		return T(math.FMA(fa, fb, fc))
	}
	p := new(big.Float).SetPrec(2000).SetFloat64(fa)
	p.Mul(p, new(big.Float).SetFloat64(fb))
	p.Add(p, new(big.Float).SetFloat64(fc))
	var z T
	if _, ok := any(z).(float32); ok {
		f, _ := p.Float32()
		return T(f)
	}
	f, _ := p.Float64()
	return T(f)
}

func TestFloatOps(t *testing.T) {
	t.Run("f32", func(t *testing.T) { testFloats[float32](t, ir.F32) })
	t.Run("f64", func(t *testing.T) { testFloats[float64](t, ir.F64) })
}

// TestFloatEdges pins the C semantics with literal expectations.
func TestFloatEdges(t *testing.T) {
	nan := float32(math.NaN())
	r := elem[float32, float32](t, ir.OpRound, ir.F32, ir.F32, []float32{2.5, -2.5, 0.5, 1.49999994})
	if !equal(r, []float32{3, -3, 1, 1}) {
		t.Errorf("round = %v", r)
	}
	mn := elem[float32, float32](t, ir.OpMin, ir.F32, ir.F32, []float32{nan, 1, nan}, []float32{1, nan, nan})
	if mn[0] != 1 || mn[1] != 1 || mn[2] == mn[2] {
		t.Errorf("fminf = %v", mn)
	}
	cl := elem[float32, float32](t, ir.OpClamp, ir.F32, ir.F32, []float32{-5, 5, 50, nan}, []float32{0, 0, 0, 0}, []float32{10, 10, 10, 10})
	if !equal(cl, []float32{0, 5, 10, 0}) {
		t.Errorf("clamp = %v", cl)
	}
	// fmaf must round once: a*b+c is exactly halfway between two floats
	// plus a tiny bit that a float64 sum loses.
	a, b := float32(1+1.0/(1<<12)), float32(1+1.0/(1<<12)) // a*b = 1 + 2^-11 + 2^-24
	c := float32(-1.0 / (1 << 11))                         // leaves 1 + 2^-24: halfway
	got := elem[float32, float32](t, ir.OpFma, ir.F32, ir.F32, []float32{a}, []float32{b}, []float32{c})
	if got[0] != 1 { // exact 1 + 2^-24 is a tie: to even gives 1
		t.Errorf("fma tie = %v", got[0])
	}
	a2 := float32(1 + 1.0/(1<<23))
	c2 := float32(1.0 / (1 << 30))
	got = elem[float32, float32](t, ir.OpFma, ir.F32, ir.F32, []float32{a2}, []float32{1}, []float32{c2})
	if want := float32(math.FMA(float64(a2), 1, float64(c2))); got[0] != want {
		t.Errorf("fma = %v, want %v", got[0], want)
	}
	if ir.FMA32(1+1.0/(1<<23), 1.0/(1<<24)*(1+1.0/(1<<23)), 1) != 1+1.0/(1<<23) {
		// 1 + 2^-24 + 2^-47 (+tiny) rounds up although the float64 sum is a tie
		t.Errorf("FMA32 double rounding")
	}
}

func TestConvert(t *testing.T) {
	fs := []float64{0, 1.9, -1.9, 300.7, -300.7, 3e9, -3e9, 1e19, 2e19, -1e19, math.NaN(), math.Inf(1), math.Inf(-1), 4294967297.5}
	i32 := elem[float64, int32](t, ir.OpConvert, ir.F64, ir.I32, fs)
	u8 := elem[float64, uint8](t, ir.OpConvert, ir.F64, ir.U8, fs)
	u32 := elem[float64, uint32](t, ir.OpConvert, ir.F64, ir.U32, fs)
	i64 := elem[float64, int64](t, ir.OpConvert, ir.F64, ir.I64, fs)
	u64 := elem[float64, uint64](t, ir.OpConvert, ir.F64, ir.U64, fs)
	wantI32 := []int32{0, 1, -1, 300, -300, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32}
	wantU8 := []uint8{0, 1, 255, 44, 212, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	wantU32 := []uint32{0, 1, 4294967295, 300, 4294966996, 3000000000, 1294967296, 0, 0, 0, 0, 0, 0, 1}
	wantI64 := []int64{0, 1, -1, 300, -300, 3000000000, -3000000000, math.MinInt64, math.MinInt64, math.MinInt64, math.MinInt64, math.MinInt64, math.MinInt64, 4294967297}
	wantU64 := []uint64{0, 1, 1<<64 - 1, 300, 1<<64 - 300, 3000000000, 1<<64 - 3000000000, 10000000000000000000, 1 << 63, 1 << 63, 1 << 63, 1 << 63, 1 << 63, 4294967297}
	if !equal(i32, wantI32) || !equal(u8, wantU8) || !equal(u32, wantU32) || !equal(i64, wantI64) || !equal(u64, wantU64) {
		t.Errorf("float->int:\ni32 %v\nu8 %v\nu32 %v\ni64 %v\nu64 %v", i32, u8, u32, i64, u64)
	}
	// The portable definitions agree with this host's Go conversions where
	// Go has amd64 semantics.
	f32 := elem[int64, float32](t, ir.OpConvert, ir.I64, ir.F32, []int64{1<<24 + 1, -3})
	if !equal(f32, []float32{1 << 24, -3}) {
		t.Errorf("i64->f32 = %v", f32)
	}
	w := elem[int64, uint8](t, ir.OpConvert, ir.I64, ir.U8, []int64{257, -1})
	b := elem[int32, bool](t, ir.OpConvert, ir.I32, ir.Bool, []int32{0, 5})
	n := elem[bool, float64](t, ir.OpConvert, ir.Bool, ir.F64, []bool{true, false})
	if !equal(w, []uint8{1, 255}) || !equal(b, []bool{false, true}) || !equal(n, []float64{1, 0}) {
		t.Errorf("convert: %v %v %v", w, b, n)
	}
	h := elem[float32, float64](t, ir.OpConvert, ir.F32, ir.F64, []float32{0.1})
	if h[0] != float64(float32(0.1)) {
		t.Errorf("f32->f64 = %v", h)
	}
}

func TestBoolOps(t *testing.T) {
	a, b := []bool{false, false, true, true}, []bool{false, true, false, true}
	and := elem[bool, bool](t, ir.OpAnd, ir.Bool, ir.Bool, a, b)
	or := elem[bool, bool](t, ir.OpOr, ir.Bool, ir.Bool, a, b)
	xor := elem[bool, bool](t, ir.OpXor, ir.Bool, ir.Bool, a, b)
	eq := elem[bool, bool](t, ir.OpEq, ir.Bool, ir.Bool, a, b)
	not := elem[bool, bool](t, ir.OpNot, ir.Bool, ir.Bool, a)
	if !equal(and, []bool{false, false, false, true}) || !equal(or, []bool{false, true, true, true}) ||
		!equal(xor, []bool{false, true, true, false}) || !equal(eq, []bool{true, false, false, true}) ||
		!equal(not, []bool{true, true, false, false}) {
		t.Errorf("bool ops: %v %v %v %v %v", and, or, xor, eq, not)
	}
	sel := elem[bool, bool](t, ir.OpSelect, ir.Bool, ir.Bool, a, b, []bool{true, true, true, true})
	if !equal(sel, []bool{true, true, false, true}) {
		t.Errorf("select = %v", sel)
	}
}
