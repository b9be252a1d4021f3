package token

import (
	"strings"
	"testing"
)

// Every operator has one spelling that Lookup maps back, and exactly one
// role besides the prefix operators that are also binary (- +).
func TestSpellings(t *testing.T) {
	seen := map[string]Op{}
	for _, op := range All() {
		s := op.String()
		if s == "" || strings.HasPrefix(s, "token.Op(") {
			t.Errorf("op %d has no spelling", op)
			continue
		}
		if prev, dup := seen[s]; dup {
			t.Errorf("%d and %d are both spelt %q", prev, op, s)
		}
		seen[s] = op
		if got := Lookup(s); got != op {
			t.Errorf("Lookup(%q) = %d, want %d", s, got, op)
		}
		roles := 0
		for _, is := range []bool{op.IsBinary(), op.IsUnary() && op != Sub && op != Add, op.IsAssign()} {
			if is {
				roles++
			}
		}
		if roles != 1 {
			t.Errorf("%s has %d roles (binary, unary only, assignment), want 1", op, roles)
		}
	}
	for _, s := range []string{"", "->", "=>", "***", "!!", "not", "notin"} {
		if op := Lookup(s); op != Invalid {
			t.Errorf("Lookup(%q) = %s, want Invalid", s, op)
		}
	}
	if s := Op(200).String(); s != "token.Op(200)" {
		t.Errorf("Op(200) prints %q", s)
	}
}

// A compound assignment's operator is its spelling without the "=", and
// is binary; = and the other operators have none.
func TestCompound(t *testing.T) {
	for _, op := range All() {
		c := op.Compound()
		if !op.IsAssign() || op == Assign {
			if c != Invalid {
				t.Errorf("%s.Compound() = %s, want Invalid", op, c)
			}
			continue
		}
		if want := Lookup(strings.TrimSuffix(op.String(), "=")); c != want || !c.IsBinary() {
			t.Errorf("%s.Compound() = %s, want %s", op, c, want)
		}
	}
}

// The predicates agree with the spellings they name.
func TestClasses(t *testing.T) {
	for _, op := range All() {
		s := op.String()
		cmp := s == "==" || s == "!=" || s == "<" || s == "<=" || s == ">" || s == ">="
		if op.IsComparison() != cmp {
			t.Errorf("%s.IsComparison() = %v", op, !cmp)
		}
		if op.IsLogical() != (s == "&&" || s == "||") {
			t.Errorf("%s.IsLogical() wrong", op)
		}
		if op.IsShift() != (s == "<<" || s == ">>") {
			t.Errorf("%s.IsShift() wrong", op)
		}
		if cmp && op.Precedence() != Eql.Precedence() {
			t.Errorf("comparison %s has precedence %d, == has %d", op, op.Precedence(), Eql.Precedence())
		}
	}
	if !(LOr.Precedence() < LAnd.Precedence() && LAnd.Precedence() < Eql.Precedence() &&
		Eql.Precedence() < Add.Precedence() && Add.Precedence() < Mul.Precedence()) {
		t.Error("precedence is not || < && < == < + < *")
	}
	if MatMul.Precedence() != Mul.Precedence() {
		t.Error("@ does not bind as * (NumPy)")
	}
}
