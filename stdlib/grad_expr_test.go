package stdlib_test

import "testing"

// TestGradExprOperands: reductions and writes whose operand is an array
// expression hand its gradient to fuse.BackwardExpr (skipped while that
// says "not yet supported").
func TestGradExprOperands(t *testing.T) {
	for _, c := range []struct {
		body   string
		inputs []string
	}{
		{"let y = sum(x * x)", []string{"x"}},
		{"let y = mean(x * 2.0 - x, axis=0)", []string{"x"}},
		{"let y = max(x * 3.0, axis=-1, keepdims=true)", []string{"x"}},
		{"let y = min(x + x, axis=0)", []string{"x"}},
		{"let y = sum(take(x, idx2, axis=1), axis=0)", []string{"x"}},
		{"let y = sum(x[rep2], axis=1)", []string{"x"}},
	} {
		t.Run(c.body, func(t *testing.T) {
			setup := indexSetup + "let idx2 = array([2, 0, 2])\nlet rep2 = array([1, 1, 0])\n"
			checkBoth(t, gradCase{setup: setup, body: c.body, inputs: c.inputs, out: "y"})
		})
	}
}
