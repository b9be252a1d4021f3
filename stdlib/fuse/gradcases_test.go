package fuse_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
)

// taped runs setup, records body on a tape and runs the backward from a
// seed of 1 for out; it returns the interpreter and the record's error.
func taped(t *testing.T, dev, setup, body, out string) (*interp.Interp, error) {
	t.Helper()
	in := newInterp(t, dev)
	c := &gradCheck{t: t}
	if err := c.exec(in, setup); err != nil {
		t.Fatal(err)
	}
	tp := interp.NewTape("t")
	if err := in.Record(tp, func() error { return c.exec(in, body) }); err != nil {
		return in, err
	}
	return in, in.Backward(tp, interp.Seed{Out: global(t, in, out).A, Grad: interp.Int(1)})
}

// gradOf is name's gradient after taped, failing t on an error.
func gradOf(t *testing.T, in *interp.Interp, err error, name string) []float64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	g := global(t, in, name).Grad()
	if g == nil {
		t.Fatalf("%s has no gradient", name)
	}
	return values(t, g)
}

func wantGrad(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s: gradient %v, want %v", what, got, want)
	}
}

// TestGradNumberSeed: a seed of 1 for a broadcast expression counts every
// element an operand was stretched to.
func TestGradNumberSeed(t *testing.T) {
	setup := "let x = array([1.0, 2.0, 3.0], dtype=f64, requires_grad=true)\nlet m = ones([2, 3], dtype=f64, requires_grad=true)\n"
	in, err := taped(t, "cpu", setup, "let y = x * m + x\n", "y")
	wantGrad(t, "x of x*m + x", gradOf(t, in, err, "x"), []float64{4, 4, 4})
	wantGrad(t, "m of x*m + x", gradOf(t, in, err, "m"), []float64{1, 2, 3, 1, 2, 3})
	in, err = taped(t, "cpu", setup, "let y = x * 2.0 + 1.0\n", "y")
	wantGrad(t, "x of x*2 + 1 (a gradient without arrays)", gradOf(t, in, err, "x"), []float64{2, 2, 2})
	in, err = taped(t, "cpu", setup, "let y = m - x * 2.0\n", "y")
	wantGrad(t, "x of m - x*2 (a number's gradient summed)", gradOf(t, in, err, "x"), []float64{-4, -4, -4})
}

// TestGradGather: a[idx] and take along axis 1 add the gradient at each
// index, repeated ones accumulating (add_at).
func TestGradGather(t *testing.T) {
	setup := "let x = array([1.0, 2.0, 3.0, 4.0], dtype=f64, requires_grad=true)\nlet i = array([0, 2, 0, 1, 0], dtype=i64)\n"
	in, err := taped(t, "cpu", setup, "let y = x[i] * x[i] + 1.0\n", "y")
	wantGrad(t, "x of x[i]*x[i]", gradOf(t, in, err, "x"), []float64{6, 4, 6, 0})
	setup = "let m = array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=f64, requires_grad=true)\nlet i = array([2, 2, 0], dtype=i32)\n"
	in, err = taped(t, "cpu", setup, "let y = take(m, i, axis=1) * 3.0\n", "y")
	wantGrad(t, "m of take(m, i, axis=1)*3", gradOf(t, in, err, "m"), []float64{3, 0, 6, 3, 0, 6})
}

// TestGradGatherFD checks a gather inside an expression against finite
// differences, in f64 and f32: repeated and negative indices, an index
// array of two axes, take along axis 1 broadcast against x.
func TestGradGatherFD(t *testing.T) {
	ix := input{name: "i", shape: []int{2, 3}, vals: []float64{3, 1, 3, 0, 3, 2}, dtype: "i64"}
	jx := input{name: "j", shape: []int{4}, vals: []float64{1, 1, 0, -1}, dtype: "i32"}
	m := input{name: "m", shape: []int{3, 2}, vals: []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}}
	for _, dt := range []ir.Type{ir.F64, ir.F32} {
		for _, expr := range []string{"exp(x[i]) * z[i]", "sin(x[i]) + x[i]", "take(m, j, axis=1) * x"} {
			(&gradCheck{t: t, dev: "cpu", dt: dt, ins: []input{vx, vz, m, ix, jx}, expr: expr}).run(tolerance(dt))
		}
	}
}

// TestGradEdges: abs at 0 gives 0, ties of minimum and maximum split the
// gradient half and half, where sends none to the branch not taken.
func TestGradEdges(t *testing.T) {
	setup := "let x = array([-1.0, 0.0, 2.0, 3.0], dtype=f64, requires_grad=true)\nlet z = array([1.0, 0.0, 2.0, -3.0], dtype=f64, requires_grad=true)\n"
	in, err := taped(t, "cpu", setup, "let y = abs(x)\n", "y")
	wantGrad(t, "abs", gradOf(t, in, err, "x"), []float64{-1, 0, 1, 1})
	in, err = taped(t, "cpu", setup, "let y = maximum(x, z) + minimum(x, z) * 2.0\n", "y")
	wantGrad(t, "x of max+2min", gradOf(t, in, err, "x"), []float64{2, 1.5, 1.5, 1})
	wantGrad(t, "z of max+2min", gradOf(t, in, err, "z"), []float64{1, 1.5, 1.5, 2})
	in, err = taped(t, "cpu", setup, "let y = where(x > 0.5, x * 3.0, z)\n", "y")
	wantGrad(t, "x of where", gradOf(t, in, err, "x"), []float64{0, 0, 3, 3})
	wantGrad(t, "z of where", gradOf(t, in, err, "z"), []float64{1, 1, 0, 0})
}

// TestGradStores: a store into an array that needs no gradient is
// recorded (out += x * x gives x 2x, not more), into a view too; one
// over an operand that requires a gradient is refused before it writes.
func TestGradStores(t *testing.T) {
	setup := "let x = array([1.0, 2.0, 3.0], dtype=f64, requires_grad=true)\nlet out = zeros(3, dtype=f64)\nlet wide = zeros([2, 3], dtype=f64)\n"
	in, err := taped(t, "cpu", setup, "out += x * x\n", "out")
	wantGrad(t, "x of out += x*x", gradOf(t, in, err, "x"), []float64{2, 4, 6})
	in, err = taped(t, "cpu", setup, "wide[1] = x * 2.0\n", "wide")
	wantGrad(t, "x of a row store", gradOf(t, in, err, "x"), []float64{2, 2, 2})
	in, err = taped(t, "cpu", setup, "wide[:] = x\n", "wide")
	wantGrad(t, "x stored broadcast", gradOf(t, in, err, "x"), []float64{2, 2, 2})
	in, err = taped(t, "cpu", setup, "x += x * 2.0\n", "x")
	if err == nil || !strings.Contains(err.Error(), "writes over an operand that requires a gradient") {
		t.Errorf("x += x*2 on a tape: got %v, want a refusal", err)
	}
	if got := values(t, global(t, in, "x")); !slices.Equal(got, []float64{1, 2, 3}) {
		t.Errorf("the refused store wrote: x = %v", got)
	}
}

// TestGradRecomputeChecksLeaves: the backward recomputes from every leaf,
// so one that needs no gradient but was overwritten after the tape
// recorded it fails the backward instead of giving a wrong gradient.
func TestGradRecomputeChecksLeaves(t *testing.T) {
	in := newInterp(t, "cpu")
	c := &gradCheck{t: t}
	setup := "let x = array([1.0, 2.0], dtype=f64, requires_grad=true)\nlet k = array([3.0, 4.0], dtype=f64)\n"
	if err := c.exec(in, setup); err != nil {
		t.Fatal(err)
	}
	tp := interp.NewTape("t")
	if err := in.Record(tp, func() error { return c.exec(in, "let y = x * k\n") }); err != nil {
		t.Fatal(err)
	}
	if err := c.exec(in, "k[0] = 100.0\n"); err != nil {
		t.Fatal(err)
	}
	err := in.Backward(tp, interp.Seed{Out: global(t, in, "y").A, Grad: interp.Int(1)})
	if err == nil || !strings.Contains(err.Error(), "written after tape t recorded it") {
		t.Errorf("backward after k changed: got %v", err)
	}
}
