package stdlib_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
)

const xSetup = `
let x = array([[0.5, -1.25, 2.0], [3.5, 0.75, -2.5]], dtype=DT, requires_grad=true)
`

func TestGradReductions(t *testing.T) {
	for _, body := range []string{
		"let y = sum(x)",
		"let y = mean(x)",
		"let y = max(x)",
		"let y = min(x)",
		"let y = sum(x, axis=0)",
		"let y = sum(x, axis=-1)",
		"let y = mean(x, axis=1, keepdims=true)",
		"let y = max(x, axis=0)",
		"let y = min(x, axis=-1, keepdims=true)",
		"let y = mean(x, axis=[0, 1])",
		"let y = norm(x)",
		"let y = norm(x, axis=0)",
		"let y = norm(x, axis=-1, keepdims=true)",
		"let y = prod(x)",
		"let y = prod(x, axis=0)",
		"let y = prod(x, axis=-1, keepdims=true)",
	} {
		t.Run(body, func(t *testing.T) {
			checkBoth(t, gradCase{setup: xSetup, body: body, inputs: []string{"x"}, out: "y"})
		})
	}
}

// TestGradMaxTies: tied maxima share the gradient evenly (PyTorch's amax),
// whole-array and along an axis; and where finite differences cannot
// look, a zero norm's gradient is 0 (x is the array checked).
func TestGradMaxTies(t *testing.T) {
	setup := "let x = array([[3.0, 1.0, 3.0], [2.0, 2.0, 2.0]], dtype=DT, requires_grad=true)\n" +
		"let z = array([[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]], dtype=DT, requires_grad=true)\n" +
		"let z2 = array([[0.0, 0.0, 2.0], [3.0, 0.0, 0.0]], dtype=DT, requires_grad=true)"
	for _, c := range []struct {
		body string
		want []float64
	}{
		{"let y = norm(z, axis=1)\nlet x = z", []float64{0, 0, 0, 0.6, 0.8, 0}}, // a zero norm: 0, not NaN
		{"let y = prod(z, axis=1)\nlet x = z", []float64{0, 0, 0, 0, 0, 12}},    // zeros: the product of the others
		{"let y = prod(z2, axis=0)\nlet x = z2", []float64{3, 0, 0, 0, 0, 2}},
		{"let y = max(x)", []float64{0.5, 0, 0.5, 0, 0, 0}},
		{"let y = max(x, axis=1)", []float64{0.5, 0, 0.5, 1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"let y = min(x, axis=0)", []float64{0, 1, 0, 1, 0, 1}},
	} {
		for _, dt := range []string{"f64", "f32"} {
			in := newGradInterp(t)
			execGS(t, in, strings.ReplaceAll(setup, "DT", dt))
			tp := interp.NewTape("t")
			if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(c.body)) }); err != nil {
				t.Fatal(err)
			}
			if err := in.Backward(tp, interp.Seed{Out: globalArr(t, in, "y").A, Grad: interp.Int(1)}); err != nil {
				t.Fatal(err)
			}
			if got := floats(t, globalArr(t, in, "x").Grad()); relErr(got, c.want) > 1e-6 {
				t.Errorf("%s in %s: x.grad = %v, want %v", c.body, dt, got, c.want)
			}
		}
	}
}

// TestGradFullReductionArray: on a tape a full reduction of an array that
// requires a gradient is a 1-element array (a loss); outside, a number.
func TestGradFullReductionArray(t *testing.T) {
	in := newGradInterp(t)
	execGS(t, in, strings.ReplaceAll(xSetup, "DT", "f64")+"let outside = sum(x)")
	if v, _ := in.Global("outside"); v.Type() != "float" {
		t.Fatalf("sum(x) outside a tape is %s, want float", v.Type())
	}
	tp := interp.NewTape("t")
	if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte("let y = sum(x)")) }); err != nil {
		t.Fatal(err)
	}
	y := globalArr(t, in, "y")
	if got := y.A.Shape(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("sum(x) on a tape has shape %v, want [1]", got)
	}
	if v := floats(t, y); v[0] != 3 {
		t.Fatalf("sum(x) = %v, want 3", v)
	}
}
