package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

const abSetup = `
let a = array([[0.5, -1.25, 2.0], [3.5, 0.75, -2.5]], dtype=DT, requires_grad=true)
let b = array([[1.5, -0.5], [0.25, 2.0], [-1.0, 0.125]], dtype=DT, requires_grad=true)
let v = array([0.75, -2.0], dtype=DT, requires_grad=true)
let w = array([1.0, 0.5, -1.5], dtype=DT, requires_grad=true)
let a3 = array([[[0.5, -1.0], [2.0, 1.5]], [[-0.25, 3.0], [1.0, -2.0]], [[0.5, 0.5], [-1.5, 2.5]]], dtype=DT, requires_grad=true)
let m2 = array([[1.0, -0.5, 0.25], [2.0, 0.75, -1.0]], dtype=DT, requires_grad=true)
`

func TestGradMatmul(t *testing.T) {
	for _, c := range []struct {
		body   string
		inputs []string
	}{
		{"let y = a @ b", []string{"a", "b"}},
		{"let y = matmul(b, a)", []string{"a", "b"}},
		{"let y = v @ a", []string{"v", "a"}},
		{"let y = a @ w", []string{"a", "w"}},
		{"let y = a.T @ a", []string{"a"}},
		{"let y = a3 @ m2", []string{"a3", "m2"}},
		{"let y = m2.T @ a3", []string{"a3", "m2"}},
		{"let y = sum(a @ b, axis=0)", []string{"a", "b"}},
		{"let h = a @ b\nlet y = mean(max(h, axis=1))", []string{"a", "b"}},
		{"let y = sum(concatenate([a @ b, m2 @ b]), axis=0)", []string{"a", "b", "m2"}},
		{"let y = dot(w, w)", []string{"w"}},
		{"let y = dot(w, a[1])", []string{"w", "a"}}, // a[1] is a view of a: its gradient is a.grad's row
		{"let y = dot(w, b[:, 0])", []string{"w", "b"}},
		{"let h = a @ b\nlet y = h @ m2", []string{"a", "b", "m2"}}, // h's gradient is written by the GEMM
	} {
		t.Run(c.body, func(t *testing.T) {
			checkBoth(t, gradCase{setup: abSetup, body: c.body, inputs: c.inputs, out: "y"})
		})
	}
}

// TestGradAccumulates: the backwards of two tapes add into a parameter's
// gradient (+=), and zero_grad clears it.
func TestGradAccumulates(t *testing.T) {
	in := newGradInterp(t)
	execGS(t, in, strings.ReplaceAll(abSetup, "DT", "f64"))
	var tp *interp.Tape
	for _, name := range []string{"y1", "y2"} {
		tp = interp.NewTape(name)
		body := "let " + name + " = sum(a @ b)"
		if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) }); err != nil {
			t.Fatal(err)
		}
		if err := in.Backward(tp, interp.Seed{Out: globalArr(t, in, name).A, Grad: interp.Int(1)}); err != nil {
			t.Fatal(err)
		}
	}
	// d sum(a @ b) / da[i, k] = sum over j of b[k, j]: b's row sums, twice.
	want := []float64{2, 4.5, -1.75, 2, 4.5, -1.75}
	if got := floats(t, globalArr(t, in, "a").Grad()); relErr(got, want) > 1e-12 {
		t.Fatalf("a.grad after two backwards = %v, want %v", got, want)
	}
	if err := in.ZeroGrad(tp); err != nil {
		t.Fatal(err)
	}
	if got := floats(t, globalArr(t, in, "a").Grad()); relErr(got, make([]float64, 6)) != 0 {
		t.Fatalf("a.grad after zero_grad = %v", got)
	}
}
