package ir

import "math"

// The scalar conversion rule, written once. The cpu executor, codegen's
// constants and its generated C helpers, the checker's constant folding and
// every host conversion (array(..., dtype=), copy, .npy decoding) follow it.
//
//   - int -> int keeps the low bits (two's complement wrap); int -> float and
//     float -> float round to nearest even, once.
//   - float -> int truncates toward zero. NaN and values outside the range of
//     i32 (for i32, u8) or i64 (for i64, u32) give the minimum integer
//     0x80...0; u8 then keeps the low byte of the i32 and u32 the low word of
//     the i64. u64 converts values at or above 2^63 as i64(x - 2^63) | 1<<63,
//     so NaN and +-Inf give 1<<63.
//   - x -> bool is x != 0 (NaN is true); bool -> x is 0 or 1.
//
// This is Go's conversion on amd64 (CVTTSD2SI and its "integer indefinite"
// result), which the cpu executor implemented first; the CUDA backend's
// gs_f2* helpers guard the C casts so that the GPU gives the same bits
// instead of cvt.rzi's saturation. The rule does not depend on the machine
// running the Go code.

// Convert converts the scalar whose raw bits are b (in the low bytes, as a
// register or array element holds it) from type from to type to and returns
// the raw bits of the result (zero-extended). Bits above from's size are
// ignored.
func Convert(b uint64, from, to Type) uint64 {
	switch {
	case from == to:
		return b & mask(to) // keeps NaN payloads
	case from.IsFloat():
		return FromFloat(floatOf(b, from), to)
	case from.IsSigned():
		return FromInt(intOf(b, from), to)
	}
	return FromUint(b&mask(from), to)
}

// FromFloat converts a float64 (possibly holding an f32 value) to type to.
func FromFloat(f float64, to Type) uint64 {
	switch to {
	case F32:
		return uint64(math.Float32bits(float32(f)))
	case F64:
		return math.Float64bits(f)
	case Bool:
		return b2u(f != 0)
	case U8, I32:
		return uint64(uint32(FloatToI32(f))) & mask(to)
	case U64:
		return FloatToU64(f)
	}
	return uint64(FloatToI64(f)) & mask(to) // i64, u32
}

// FromInt converts a signed integer value to type to.
func FromInt(v int64, to Type) uint64 {
	switch to {
	case F32:
		return uint64(math.Float32bits(float32(v)))
	case F64:
		return math.Float64bits(float64(v))
	case Bool:
		return b2u(v != 0)
	}
	return uint64(v) & mask(to)
}

// FromUint converts an unsigned integer value to type to.
func FromUint(v uint64, to Type) uint64 {
	switch to {
	case F32:
		return uint64(math.Float32bits(float32(v)))
	case F64:
		return math.Float64bits(float64(v))
	case Bool:
		return b2u(v != 0)
	}
	return v & mask(to)
}

// FloatToI32 is the float -> i32 conversion: truncation, and the minimum
// i32 for NaN and values out of range.
func FloatToI32(f float64) int32 {
	if f > -2147483649 && f < 2147483648 {
		return int32(f)
	}
	return math.MinInt32
}

// FloatToI64 is the float -> i64 conversion: truncation, and the minimum
// i64 for NaN and values out of range.
func FloatToI64(f float64) int64 {
	if f >= -9223372036854775808 && f < 9223372036854775808 {
		return int64(f)
	}
	return math.MinInt64
}

// FloatToU64 is the float -> u64 conversion: through i64 below 2^63, else
// i64(f - 2^63) with the top bit set.
func FloatToU64(f float64) uint64 {
	if f < 9223372036854775808 {
		return uint64(FloatToI64(f))
	}
	return uint64(FloatToI64(f-9223372036854775808)) | 1<<63
}

// ImmBits converts an instruction immediate (bool, int, int64, uint64 or
// float64) to the raw bits of a t; ok is false for another Go type.
func ImmBits(imm any, t Type) (bits uint64, ok bool) {
	switch v := imm.(type) {
	case bool:
		return FromInt(int64(b2u(v)), t), true
	case int:
		return FromInt(int64(v), t), true
	case int64:
		return FromInt(v, t), true
	case uint64:
		return FromUint(v, t), true
	case float64:
		return FromFloat(v, t), true
	}
	return 0, false
}

// floatOf decodes the bits of an f32 or f64.
func floatOf(b uint64, t Type) float64 {
	if t == F32 {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// intOf sign-extends the bits of an i32 or i64.
func intOf(b uint64, t Type) int64 {
	if t == I32 {
		return int64(int32(b))
	}
	return int64(b)
}

// mask keeps the bits of a t-sized value (bool is one bit).
func mask(t Type) uint64 {
	switch t.Size() {
	case 1:
		if t == Bool {
			return 1
		}
		return 0xff
	case 4:
		return 0xffffffff
	}
	return math.MaxUint64
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
