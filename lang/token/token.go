// Package token defines the operators of gscript's syntax tree: one
// constant per operator, its one source spelling (String), the lookup the
// parser maps a spelling with (Lookup) and the facts that several layers
// read (Precedence, Compound, IsComparison). It is a leaf: lang/ast,
// lang/syntax, lang/check, lang/linalg, interp and stdlib import it.
//
// Decisions:
//   - Operators are an enum, not strings, so that each has one spelling
//     (error messages print String), a switch over them is checked by the
//     compiler (a misspelt case does not compile; consumers that map every
//     operator have a test that ranges over All) and the host evaluator
//     dispatches on a byte instead of comparing strings.
//   - The grammar still captures the spelling; lang/syntax's converter maps
//     it here once and reports an unknown one with its position.
//   - Unary minus and plus are Sub and Add, as in go/token: the node kind
//     (UnaryExpr or BinaryExpr) says which arity is meant.
package token

import "strconv"

// Op is an operator of the syntax tree.
type Op uint8

// The operators. Binary operators come first, by precedence; Not and
// BitNot are unary only; the assignments close the list.
const (
	Invalid Op = iota

	LOr  // ||
	LAnd // &&

	Eql   // ==
	Neq   // !=
	Lss   // <
	Leq   // <=
	Gtr   // >
	Geq   // >=
	In    // in
	NotIn // not in

	Add // +
	Sub // -
	Or  // |
	Xor // ^

	Mul    // *
	MatMul // @
	Quo    // /
	Rem    // %
	Shl    // <<
	Shr    // >>
	And    // &

	Pow // **: right-associative, binds tighter than the unary operators

	Not    // !
	BitNot // ~

	Assign    // =
	AddAssign // +=
	SubAssign // -=
	MulAssign // *=
	QuoAssign // /=
	RemAssign // %=
	PowAssign // **=

	numOps
)

var spellings = [numOps]string{
	LOr: "||", LAnd: "&&",
	Eql: "==", Neq: "!=", Lss: "<", Leq: "<=", Gtr: ">", Geq: ">=", In: "in", NotIn: "not in",
	Add: "+", Sub: "-", Or: "|", Xor: "^",
	Mul: "*", MatMul: "@", Quo: "/", Rem: "%", Shl: "<<", Shr: ">>", And: "&",
	Pow: "**",
	Not: "!", BitNot: "~",
	Assign: "=", AddAssign: "+=", SubAssign: "-=", MulAssign: "*=", QuoAssign: "/=", RemAssign: "%=", PowAssign: "**=",
}

// Binary precedence, as in Go; MatMul is NumPy's: that of Mul. In and
// NotIn are comparisons, as in Python; Pow is above them all (and above
// the unary operators, which the parser handles).
var precedence = [numOps]uint8{
	LOr: 1, LAnd: 2,
	Eql: 3, Neq: 3, Lss: 3, Leq: 3, Gtr: 3, Geq: 3, In: 3, NotIn: 3,
	Add: 4, Sub: 4, Or: 4, Xor: 4,
	Mul: 5, MatMul: 5, Quo: 5, Rem: 5, Shl: 5, Shr: 5, And: 5,
	Pow: 6,
}

// compound is the binary operator of each compound assignment.
var compound = [numOps]Op{AddAssign: Add, SubAssign: Sub, MulAssign: Mul, QuoAssign: Quo, RemAssign: Rem, PowAssign: Pow}

var bySpelling = func() map[string]Op {
	m := make(map[string]Op, numOps)
	for _, op := range All() {
		m[op.String()] = op
	}
	return m
}()

// All lists every operator (not Invalid), for tests that check a consumer
// handles each one.
func All() []Op {
	ops := make([]Op, 0, numOps-1)
	for op := Invalid + 1; op < numOps; op++ {
		ops = append(ops, op)
	}
	return ops
}

// Lookup is the operator spelt s, or Invalid.
func Lookup(s string) Op { return bySpelling[s] }

// String is the operator's source spelling; an Op outside the enum prints
// as token.Op(N).
func (op Op) String() string {
	if op > Invalid && op < numOps {
		return spellings[op]
	}
	return "token.Op(" + strconv.Itoa(int(op)) + ")"
}

// Precedence is a binary operator's precedence, 1 (||) to 6 (**); it is 0 for an operator that is not binary.
func (op Op) Precedence() int {
	if op < numOps {
		return int(precedence[op])
	}
	return 0
}

// IsBinary reports whether op is an infix operator of an expression.
func (op Op) IsBinary() bool { return op.Precedence() > 0 }

// IsUnary reports whether op is a prefix operator (- + ! ~).
func (op Op) IsUnary() bool { return op == Sub || op == Add || op == Not || op == BitNot }

// IsAssign reports whether op is = or a compound assignment.
func (op Op) IsAssign() bool { return op >= Assign && op < numOps }

// Compound is the binary operator a compound assignment applies (Add for
// +=); it is Invalid for = and for an operator that is not an assignment.
func (op Op) Compound() Op {
	if op < numOps {
		return compound[op]
	}
	return Invalid
}

// IsComparison reports whether op is == != < <= > or >= (not In or NotIn:
// they test membership in a host container).
func (op Op) IsComparison() bool { return op >= Eql && op <= Geq }

// IsLogical reports whether op is && or ||.
func (op Op) IsLogical() bool { return op == LAnd || op == LOr }

// IsShift reports whether op is << or >>.
func (op Op) IsShift() bool { return op == Shl || op == Shr }
