package ir

import (
	"math"
	"testing"
)

func f64(f float64) uint64 { return math.Float64bits(f) }
func f32(f float32) uint64 { return uint64(math.Float32bits(f)) }

func TestConvert(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		b        uint64
		from, to Type
		want     uint64
	}{
		// float -> int: truncation; NaN and out of range give the minimum int.
		{f64(3e9), F64, I32, 0x80000000},
		{f64(-3e9), F64, I32, 0x80000000},
		{f64(2147483647.9), F64, I32, 2147483647},
		{f64(-2147483648.9), F64, I32, 0x80000000},
		{f64(2147483648), F64, I32, 0x80000000},
		{f64(nan), F64, I32, 0x80000000},
		{f64(inf), F64, I32, 0x80000000},
		{f64(-0.5), F64, I32, 0},
		{f64(-1.5), F64, I32, 0xffffffff},
		{f64(300), F64, U8, 44},
		{f64(-1), F64, U8, 0xff},
		{f64(3e9), F64, U8, 0},
		{f64(3e9), F64, U32, 3000000000},
		{f64(-1), F64, U32, 0xffffffff},
		{f64(1e19), F64, U32, 0},
		{f64(3e9), F64, I64, 3000000000},
		{f64(9223372036854775808), F64, I64, 1 << 63},
		{f64(nan), F64, I64, 1 << 63},
		{f64(-inf), F64, I64, 1 << 63},
		{f64(9223372036854775808), F64, U64, 1 << 63},
		{f64(1.8446744073709552e19), F64, U64, 1 << 63},
		{f64(1.5e19), F64, U64, 15000000000000000000},
		{f64(nan), F64, U64, 1 << 63},
		{f64(inf), F64, U64, 1 << 63},
		{f64(-1), F64, U64, math.MaxUint64},
		{f32(3e9), F32, I32, 0x80000000},
		{f32(-2.5), F32, I64, uint64(math.MaxUint64 - 1)},
		{f32(float32(nan)), F32, Bool, 1},
		{f64(-0.0), F64, Bool, 0},
		// int -> int wraps; int -> float rounds once.
		{0xffffffff, I32, I64, math.MaxUint64},
		{0xffffffff, U32, I64, 0xffffffff},
		{300, I64, U8, 44},
		{1<<53 + 1, I64, F32, f32(float32(1 << 53))},
		{1<<24 + 1, I32, F32, f32(1 << 24)},
		{math.MaxUint64, U64, F64, f64(1.8446744073709552e19)},
		{0xff, U8, I32, 255},
		{0x80, I32, U8, 0x80},
		{0xffffffff00000005, I32, I64, 5}, // bits above the size are ignored
		{2, I32, Bool, 1},
		{1, Bool, F32, f32(1)},
		// float -> float rounds to nearest.
		{f64(0.1), F64, F32, f32(0.1)},
		{f64(1e300), F64, F32, f32(float32(inf))},
		{f32(0.1), F32, F64, f64(float64(float32(0.1)))},
		{f64(nan) | 5, F64, F64, f64(nan) | 5},
	}
	for _, tt := range tests {
		if got := Convert(tt.b, tt.from, tt.to); got != tt.want {
			t.Errorf("Convert(%#x, %s, %s) = %#x, want %#x", tt.b, tt.from, tt.to, got, tt.want)
		}
	}
}

func TestImmBits(t *testing.T) {
	tests := []struct {
		imm  any
		t    Type
		want uint64
	}{
		{true, F32, f32(1)}, {int(-1), U8, 0xff}, {int64(-1), I32, 0xffffffff},
		{uint64(math.MaxUint64), F64, f64(1.8446744073709552e19)}, {3e9, I32, 0x80000000}, {2.5, F32, f32(2.5)},
	}
	for _, tt := range tests {
		if got, ok := ImmBits(tt.imm, tt.t); !ok || got != tt.want {
			t.Errorf("ImmBits(%v, %s) = %#x, %v, want %#x", tt.imm, tt.t, got, ok, tt.want)
		}
	}
	if _, ok := ImmBits("x", I32); ok {
		t.Error("a string immediate converts")
	}
}
