package ir

import "testing"

func TestPromoteSymmetric(t *testing.T) {
	for a := Bool; a <= F64; a++ {
		for b := Bool; b <= F64; b++ {
			if Promote(a, b) != Promote(b, a) {
				t.Errorf("Promote(%s, %s) = %s but Promote(%s, %s) = %s", a, b, Promote(a, b), b, a, Promote(b, a))
			}
		}
	}
}

// TestPromoteNumPy checks rows of numpy.promote_types (NumPy 2.x).
func TestPromoteNumPy(t *testing.T) {
	for _, c := range []struct{ a, b, want Type }{
		{Bool, Bool, Bool}, {Bool, I32, I32}, {Bool, F32, F32},
		{U8, I32, I32}, {U8, U32, U32}, {U8, F32, F32}, {U8, U64, U64},
		{I32, U32, I64}, {I32, U64, F64}, {I32, F32, F64}, {I32, I64, I64},
		{I64, U32, I64}, {I64, U64, F64}, {I64, F32, F64},
		{U32, U64, U64}, {U32, F32, F64}, {U64, F32, F64},
		{F32, F32, F32}, {F32, F64, F64},
		{Invalid, F32, Invalid},
	} {
		if got := Promote(c.a, c.b); got != c.want {
			t.Errorf("Promote(%s, %s) = %s, want %s", c.a, c.b, got, c.want)
		}
	}
}

func TestCanCastSameKind(t *testing.T) {
	for _, c := range []struct {
		from, to Type
		ok       bool
	}{{F64, F32, true}, {F32, I32, false}, {I64, I32, true}, {U8, I32, true}, {I32, U8, false}, {Bool, F32, true}, {I32, Bool, false}} {
		if got := CanCastSameKind(c.from, c.to); got != c.ok {
			t.Errorf("CanCastSameKind(%s, %s) = %v", c.from, c.to, got)
		}
	}
}
