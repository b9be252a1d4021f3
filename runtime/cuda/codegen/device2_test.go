package codegen

import (
	"math"

	"github.com/gscript-lang/gscript/lang/ir"
)

// moreCases adds element-wise run cases: out[i] = op(a0[i], ...), with
// expected values from Go.
func moreCases(d *dumper) {
	ew := func(name string, op ir.Op, dst ir.Type, want any, ins ...any) {
		var ts []ir.Type
		var args []dumpArg
		for _, in := range ins {
			t := goType(in)
			ts = append(ts, t)
			args = append(args, vec(t, in))
		}
		out := vec(dst, want)
		n := out.Shape[0]
		out.Hex = le(make([]byte, int(n)*dst.Size()))
		args = append(args, out)
		d.run(dumpCase{Name: "run_" + name, Dims: []int64{n}, Args: args,
			Expect: map[int]string{len(ins): le(want)}}, opKernel("k", op, dst, ts...))
	}
	mi, mx := int32(math.MinInt32), int32(math.MaxInt32)
	ew("add_i32_wrap", ir.OpAdd, ir.I32, []int32{mi, -2, 0}, []int32{mx, mx, mi}, []int32{1, mx, mi})
	ew("mul_i32_wrap", ir.OpMul, ir.I32, []int32{mx * mx, mi * -1, -6}, []int32{mx, mi, 2}, []int32{mx, -1, -3})
	ew("neg_i32", ir.OpNeg, ir.I32, []int32{mi, -5, 0}, []int32{mi, 5, 0})
	ew("abs_i64", ir.OpAbs, ir.I64, []int64{math.MinInt64, 5, 5}, []int64{math.MinInt64, -5, 5})
	ew("add_u8", ir.OpAdd, ir.U8, []uint8{4, 255}, []uint8{250, 0}, []uint8{10, 255})
	ew("sub_u8", ir.OpSub, ir.U8, []uint8{246}, []uint8{0}, []uint8{10})
	ew("mul_u8", ir.OpMul, ir.U8, []uint8{1}, []uint8{255}, []uint8{255})
	ew("bitnot_u8", ir.OpBitNot, ir.U8, []uint8{0xf0}, []uint8{0x0f})
	ew("sign_i32", ir.OpSign, ir.I32, []int32{-1, 0, 1}, []int32{mi, 0, 7})
	ew("clamp_i32", ir.OpClamp, ir.I32, []int32{0, 5, 10, 1}, []int32{-4, 5, 99, 3}, []int32{0, 0, 0, 3}, []int32{10, 10, 10, 1})
	nan32 := float32(math.NaN())
	negz := float32(math.Copysign(0, -1))
	ew("sign_f32", ir.OpSign, ir.F32, []float32{-1, 1, negz, 0, nan32}, []float32{-2, 3, negz, 0, nan32})
	ew("round_f32", ir.OpRound, ir.F32, []float32{1, 2, 3, -1, -3, 0, 8388609},
		[]float32{0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, 8388609})
	ew("min_f32_nan", ir.OpMin, ir.F32, []float32{1, 2, 1}, []float32{nan32, 2, 1}, []float32{1, nan32, 3}) // NaN,NaN: payload may differ
	ew("max_f64_nan", ir.OpMax, ir.F64, []float64{1, 2, 3}, []float64{math.NaN(), 2, 1}, []float64{1, math.NaN(), 3})
	ew("clamp_f32", ir.OpClamp, ir.F32, []float32{0, 0.5, 1, 0}, []float32{-1, 0.5, 2, nan32}, []float32{0, 0, 0, 0}, []float32{1, 1, 1, 1})
	ew("fma_f32", ir.OpFma, ir.F32, []float32{float32(math.FMA(1+0x1p-12, 1+0x1p-12, -1))},
		[]float32{1 + 0x1p-12}, []float32{1 + 0x1p-12}, []float32{-1})
	// a*b + c as two instructions must not fuse: (1+2^-12)^2 - 1 rounded twice.
	x := float32(1 + 0x1p-12)
	sq := x * x
	ew("mul_no_fma", ir.OpMul, ir.F32, []float32{sq}, []float32{x}, []float32{x})
	ew("rsqrt_f32", ir.OpRsqrt, ir.F32, []float32{0.5, 1.0 / float32(math.Sqrt(3))}, []float32{4, 3})
	ew("sqrt_f64", ir.OpSqrt, ir.F64, []float64{math.Sqrt(2), 3}, []float64{2, 9})
	ew("div_f32", ir.OpDiv, ir.F32, []float32{float32(1.0) / 3, float32(math.Inf(1))}, []float32{1, 1}, []float32{3, 0})
	ew("isnan_f64", ir.OpIsNan, ir.Bool, []bool{true, false, false}, []float64{math.NaN(), math.Inf(1), 1})
	ew("isinf_f32", ir.OpIsInf, ir.Bool, []bool{false, true, true, false}, []float32{nan32, float32(math.Inf(1)), float32(math.Inf(-1)), 3})
	ew("isfinite_f32", ir.OpIsFinite, ir.Bool, []bool{false, false, true, true}, []float32{nan32, float32(math.Inf(-1)), 3, math.MaxFloat32})
	ew("cvt_i64_f32", ir.OpConvert, ir.F32, []float32{float32(int64(1<<53 + 1)), -1}, []int64{1<<53 + 1, -1})
	ew("cvt_u64_f64", ir.OpConvert, ir.F64, []float64{float64(uint64(math.MaxUint64)), 1}, []uint64{math.MaxUint64, 1})
	ew("cvt_f64_f32", ir.OpConvert, ir.F32, []float32{float32(0.1), float32(math.Inf(1))}, []float64{0.1, 1e300})
	ew("cvt_i32_u8", ir.OpConvert, ir.U8, []uint8{0xff, 0x2c}, []int32{-1, 300})
	ew("cvt_f32_bool", ir.OpConvert, ir.Bool, []bool{true, false, true}, []float32{nan32, 0, -2})
	ew("xor_bool", ir.OpXor, ir.Bool, []bool{false, true, true, false}, []bool{true, true, false, false}, []bool{true, false, true, false})
	atomicCases(d)
	tid4Case(d)
}

func goType(v any) ir.Type {
	switch v.(type) {
	case []bool:
		return ir.Bool
	case []uint8:
		return ir.U8
	case []int32:
		return ir.I32
	case []int64:
		return ir.I64
	case []uint32:
		return ir.U32
	case []uint64:
		return ir.U64
	case []float32:
		return ir.F32
	}
	return ir.F64
}

// atomicReduce: atomic_op(out, 0, a[i]) from every thread.
func atomicReduce(op ir.Op, t ir.Type) *ir.Kernel {
	b := newFunc("red", arr("a", t, 1), arr("out", t, 1))
	i := b.tid(0)
	z := b.konst(ir.I32, int64(0))
	b.inst(&ir.Inst{Op: op, Dst: ir.NoReg, Param: 1, Args: []ir.Reg{z, b.load(0, i)}})
	return b.kernel(1)
}

func atomicCases(d *dumper) {
	const n = 4096
	f32s, f64s, i64s, u64s, u32s := make([]float32, n), make([]float64, n), make([]int64, n), make([]uint64, n), make([]uint32, n)
	var sumI64 int64
	minU64, maxU32 := uint64(math.MaxUint64), uint32(0)
	maxF32, minF64 := float32(math.Inf(-1)), math.Inf(1)
	for i := range n {
		v := (i*7919)%4099 - 2000
		f32s[i], f64s[i], i64s[i] = float32(v)*0.25, float64(v)*0.5, int64(v)*1e12
		u64s[i], u32s[i] = uint64(v+5000)*3, uint32(v+9000)
		sumI64 -= i64s[i]
		minU64, maxU32 = min(minU64, u64s[i]), max(maxU32, u32s[i])
		maxF32, minF64 = max(maxF32, f32s[i]), min(minF64, f64s[i])
	}
	f32s[17], f64s[99] = float32(math.NaN()), math.NaN() // fmin/fmax ignore NaN operands
	one := func(t ir.Type, v any) dumpArg { return vec(t, v) }
	cases := []struct {
		name     string
		op       ir.Op
		t        ir.Type
		in, init any
		want     any
	}{
		{"atomic_max_f32", ir.OpAtomicMax, ir.F32, f32s, []float32{float32(math.Inf(-1))}, []float32{maxF32}},
		{"atomic_min_f64", ir.OpAtomicMin, ir.F64, f64s, []float64{math.Inf(1)}, []float64{minF64}},
		{"atomic_sub_i64", ir.OpAtomicSub, ir.I64, i64s, []int64{0}, []int64{sumI64}},
		{"atomic_min_u64", ir.OpAtomicMin, ir.U64, u64s, []uint64{math.MaxUint64}, []uint64{minU64}},
		{"atomic_max_u32", ir.OpAtomicMax, ir.U32, u32s, []uint32{0}, []uint32{maxU32}},
	}
	for _, c := range cases {
		d.run(dumpCase{Name: "run_" + c.name, Dims: []int64{n}, Args: []dumpArg{one(c.t, c.in), one(c.t, c.init)},
			Expect: map[int]string{1: le(c.want)}}, atomicReduce(c.op, c.t))
	}
	// CAS per element: old = atomic_cas(out, i, cmp[i], val[i]); cmp[i] = old.
	b := newFunc("cas", arr("out", ir.F32, 1), arr("cmp", ir.F32, 1), arr("val", ir.F32, 1))
	i := b.tid(0)
	old := b.f.NewReg(ir.F32)
	b.inst(&ir.Inst{Op: ir.OpAtomicCAS, Dst: old, Param: 0, Args: []ir.Reg{i, b.load(1, i), b.load(2, i)}})
	b.store(1, i, old)
	negz := float32(math.Copysign(0, -1))
	out, cmp, val := []float32{1, 0, 2}, []float32{1, negz, 3}, []float32{5, 6, 7}
	d.run(dumpCase{Name: "run_atomic_cas_f32", Dims: []int64{3}, Args: []dumpArg{vec(ir.F32, out), vec(ir.F32, cmp), vec(ir.F32, val)},
		Expect: map[int]string{0: le([]float32{5, 0, 2}), 1: le([]float32{1, 0, 2})}}, b.kernel(1))
}

// tid4Case: out[i, j, k, l] = ((i*3 + j)*4 + k)*5 + l over a 2x3x4x5 launch,
// written through a transposed view (strides reversed) to test both decode
// order and strided stores.
func tid4Case(d *dumper) {
	b := newFunc("t4", arr("out", ir.I32, 4))
	i, j, k, l := b.tid(0), b.tid(1), b.tid(2), b.tid(3)
	v := i
	for axis, r := range []ir.Reg{j, k, l} {
		v = b.op(ir.OpAdd, ir.I32, b.op(ir.OpMul, ir.I32, v, b.konst(ir.I32, int64([]int{3, 4, 5}[axis]))), r)
	}
	b.store(0, i, j, k, l, v)
	want := make([]int32, 120)
	for lin := range want {
		ii, jj, kk, ll := lin/60, lin/20%3, lin/5%4, lin%5
		want[ii+2*jj+6*kk+24*ll] = int32(lin) // element [i,j,k,l] at i*1 + j*2 + k*6 + l*24
	}
	out := vec(ir.I32, make([]int32, 120))
	out.Shape, out.Strides = []int64{2, 3, 4, 5}, []int64{1, 2, 6, 24}
	d.run(dumpCase{Name: "run_tid4", Dims: []int64{2, 3, 4, 5}, Debug: true, Args: []dumpArg{out},
		Expect: map[int]string{0: le(want)}}, b.kernel(4))
}
