package fuse

import (
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// arrayUnsupported are the binary operators array expressions do not
// compute: && || and @ never reach ArrayOps (interp evaluates them), and
// shifts of arrays are not supported yet (Binary says so); in and not in
// never reach it either (interp's binary answers them first).
var arrayUnsupported = map[token.Op]bool{
	token.LAnd: true, token.LOr: true, token.MatMul: true, token.Shl: true, token.Shr: true,
	token.In: true, token.NotIn: true,
}

// Every binary operator of token.All has a row of binaryOps or is listed
// as unsupported, so a new operator fails here until fuse maps it.
func TestBinaryOpsCoverEveryOperator(t *testing.T) {
	for _, op := range token.All() {
		_, row := binaryOps[op]
		if want := op.IsBinary() && !arrayUnsupported[op]; row != want {
			t.Errorf("binaryOps[%s]: present %v, want %v", op, row, want)
		}
		if row && binaryOps[op].cmp != op.IsComparison() {
			t.Errorf("binaryOps[%s].cmp = %v", op, binaryOps[op].cmp)
		}
	}
}

// Every prefix operator builds a node on an array of a type it takes.
func TestUnaryCoversEveryOperator(t *testing.T) {
	i := newArray(t, ir.I32, 4)
	b := mustf(t)(Binary(token.Gtr, i, interp.Int(0)))
	for _, op := range token.All() {
		if !op.IsUnary() {
			continue
		}
		x := interp.Value(i)
		if op == token.Not {
			x = b
		}
		if _, err := Unary(op, x); err != nil {
			t.Errorf("%s on an array: %v", op, err)
		}
	}
}

// ** on arrays is pow's op: floats and ints take it; a negative host int
// exponent of an int array is NumPy's error, bool ** bool is refused.
func TestPowOperator(t *testing.T) {
	if _, err := Binary(token.Pow, newArray(t, ir.F32, 4), interp.Int(2)); err != nil {
		t.Errorf("f32 array ** 2: %v", err)
	}
	if _, err := Binary(token.Pow, newArray(t, ir.I32, 4), interp.Int(2)); err != nil {
		t.Errorf("i32 array ** 2: %v", err)
	}
	_, err := Binary(token.Pow, newArray(t, ir.I64, 4), interp.Int(-1))
	if err == nil || err.Error() != "Integers to negative integer powers are not allowed" {
		t.Errorf("i64 array ** -1: %v", err)
	}
	_, err = Binary(token.Pow, newArray(t, ir.Bool, 4), newArray(t, ir.Bool, 4))
	if err == nil || err.Error() != "operator ** not defined on bool arrays" {
		t.Errorf("bool array ** bool array: %v", err)
	}
}
