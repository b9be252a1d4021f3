package ir

// promoteTable is NumPy's promote_types for gscript's dtypes, written as
// data (ARRAYS.md section 2: two arrays, or an array and a typed scalar,
// promote by NumPy's table). Rows and columns are in Type order: bool u8
// i32 i64 u32 u64 f32 f64. The table is symmetric; promote_test.go checks
// that and a NumPy transcript.
var promoteTable = [8][8]Type{
	//        bool u8   i32  i64  u32  u64  f32  f64
	/*bool*/ {Bool, U8, I32, I64, U32, U64, F32, F64},
	/*u8  */ {U8, U8, I32, I64, U32, U64, F32, F64},
	/*i32 */ {I32, I32, I32, I64, I64, F64, F64, F64},
	/*i64 */ {I64, I64, I64, I64, I64, F64, F64, F64},
	/*u32 */ {U32, U32, I64, I64, U32, U64, F64, F64},
	/*u64 */ {U64, U64, F64, F64, U64, U64, F64, F64},
	/*f32 */ {F32, F32, F64, F64, F64, F64, F32, F64},
	/*f64 */ {F64, F64, F64, F64, F64, F64, F64, F64},
}

// Promote is the dtype NumPy gives an operation on dtypes a and b
// (numpy.promote_types); Invalid when either is not a dtype.
func Promote(a, b Type) Type {
	if a < Bool || a > F64 || b < Bool || b > F64 {
		return Invalid
	}
	return promoteTable[a-Bool][b-Bool]
}

// kindRank orders the dtype kinds as NumPy's same_kind casting does:
// bool < unsigned < signed < float.
func kindRank(t Type) int {
	switch {
	case t == Bool:
		return 0
	case t.IsSigned():
		return 2
	case t.IsInt():
		return 1
	}
	return 3
}

// CanCastSameKind reports whether a value of dtype from may be stored in
// dtype to under NumPy's casting="same_kind" (the rule of in-place
// operators: f64 into f32 is allowed, float into int is not).
func CanCastSameKind(from, to Type) bool {
	return kindRank(from) <= kindRank(to)
}
