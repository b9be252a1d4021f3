package interp

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/token"
)

// TestHostOperators holds the host evaluator to every operator of
// token.All that reaches binary or unary (evalBinary handles && || and @
// itself): each computes its result on host ints, so a new operator fails
// here until arith.go and ops.go evaluate it.
func TestHostOperators(t *testing.T) {
	binaryWant := map[token.Op]Value{
		token.Add: Int(9), token.Sub: Int(3), token.Mul: Int(18), token.Quo: Int(2), token.Rem: Int(0),
		token.And: Int(2), token.Or: Int(7), token.Xor: Int(5), token.Shl: Int(48), token.Shr: Int(0),
		token.Eql: Bool(false), token.Neq: Bool(true), token.Lss: Bool(false), token.Leq: Bool(false),
		token.Gtr: Bool(true), token.Geq: Bool(true), token.Pow: Int(216),
	}
	unaryWant := map[token.Op][2]Value{ // operand, result
		token.Sub: {Int(6), Int(-6)}, token.Add: {Int(6), Int(6)},
		token.Not: {Bool(true), Bool(false)}, token.BitNot: {Int(6), Int(-7)},
	}
	for _, op := range token.All() {
		if op == token.In || op == token.NotIn {
			continue // container operators: TestContains
		}
		if want, ok := binaryWant[op]; ok {
			if got, err := binary(nil, op, Int(6), Int(3)); err != nil || got != want {
				t.Errorf("6 %s 3 = %v, %v; want %v", op, got, err, want)
			}
		} else if op.IsBinary() && !op.IsLogical() && op != token.MatMul {
			t.Errorf("binary operator %s has no host case here", op)
		}
		if c, ok := unaryWant[op]; ok {
			if got, err := unary(op, c[0]); err != nil || got != c[1] {
				t.Errorf("%s%v = %v, %v; want %v", op, c[0], got, err, c[1])
			}
		} else if op.IsUnary() {
			t.Errorf("unary operator %s has no host case here", op)
		}
	}
}

// Floats take the arithmetic and comparison operators; the integer ones
// are refused by name, never reach an "unknown operator".
func TestHostFloatOperators(t *testing.T) {
	for _, op := range token.All() {
		if !op.IsBinary() || op.IsLogical() || op == token.MatMul || op == token.In || op == token.NotIn {
			continue
		}
		got, err := binary(nil, op, Float(6), Float(3))
		intOnly := op == token.Rem || op == token.And || op == token.Or || op == token.Xor || op.IsShift()
		switch {
		case intOnly && (err == nil || strings.Contains(err.Error(), "unknown operator")):
			t.Errorf("6.0 %s 3.0 = %v, %v; want it refused on floats", op, got, err)
		case !intOnly && err != nil:
			t.Errorf("6.0 %s 3.0: %v", op, err)
		}
	}
	if got, err := binary(nil, token.Quo, Float(6), Float(4)); err != nil || got != Float(1.5) {
		t.Errorf("6.0 / 4.0 = %v, %v", got, err)
	}
}
