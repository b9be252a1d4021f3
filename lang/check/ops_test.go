package check

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/token"
)

// TestOperatorTables holds each table of ops.go to every operator of its
// role in token.All, so a new operator fails here until the kernel
// checker maps it (or says why not).
func TestOperatorTables(t *testing.T) {
	for _, op := range token.All() {
		_, lowered := binOps[op]
		own := op == token.MatMul || op == token.Pow || isHostOnlyOp(op) // host-only, or lowered by pow.go
		if want := op.IsBinary() && !op.IsLogical() && !own; lowered != want {
			t.Errorf("binOps[%s]: present %v, want %v (&& || lower to control flow, @ in not in are host-only, ** is pow)", op, lowered, want)
		}
		_, folds := binTokens[op]
		if want := op.IsBinary() && !op.IsShift() && !own; folds != want {
			t.Errorf("binTokens[%s]: present %v, want %v (shifts fold with constant.Shift, ** with powConst)", op, folds, want)
		}
		for name, present := range map[string]bool{
			"unaryKinds":  unaryKinds[op] != nil,
			"unaryTokens": unaryTokens[op] != 0,
		} {
			if present != op.IsUnary() {
				t.Errorf("%s[%s]: present %v, want %v", name, op, present, op.IsUnary())
			}
		}
		if _, ok := unaryOps[op]; ok != (op.IsUnary() && op != token.Add) {
			t.Errorf("unaryOps[%s]: present %v (+ is its operand)", op, ok)
		}
	}
}
