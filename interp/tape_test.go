package interp_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

// tapeInterp runs setup, then records body on a new tape through the
// embedding API.
func tapeInterp(t *testing.T, setup, body string) (*interp.Interp, *interp.Tape, error) {
	t.Helper()
	return tapeInterpOn(t, "cpu", setup, body)
}

func tapeInterpOn(t *testing.T, dev, setup, body string) (*interp.Interp, *interp.Tape, error) {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: dev, Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	ctx := context.Background()
	if err := in.Exec(ctx, "setup.gs", []byte(setup)); err != nil {
		t.Fatal(err)
	}
	tp := interp.NewTape("t")
	err = in.Record(tp, func() error { return in.Exec(ctx, "body.gs", []byte(body)) })
	return in, tp, err
}

func globalArray(t *testing.T, in *interp.Interp, name string) *interp.Array {
	t.Helper()
	v, ok := in.Global(name)
	a, isArr := v.(*interp.Array)
	if !ok || !isArr {
		t.Fatalf("%s is %v, not an array", name, v)
	}
	return a
}

func f64s(t *testing.T, a *interp.Array) []float64 {
	t.Helper()
	var out []float64
	if err := interp.ArrayElems(a.A, func(bits uint64) { out = append(out, math.Float64frombits(bits)) }); err != nil {
		t.Fatal(err)
	}
	return out
}

const squareKernels = `
kernel square(x: array[f64], y: array[f64]) {
    let i = tid()
    y[i] = x[i] * x[i]
}
kernel total(y: array[f64], out: array[f64]) {
    let i = tid()
    atomic_add(out, 0, y[i])
}
let x = arange(4, dtype=f64, requires_grad=true)
let c = arange(4, dtype=f64)
let y = zeros(4, dtype=f64)
let loss = zeros(1, dtype=f64)
`

// TestTapeLaunches records two launches and checks d(sum x^2)/dx = 2x.
func TestTapeLaunches(t *testing.T) {
	in, tp, err := tapeInterp(t, squareKernels, "launch square[4](x, y)\nlaunch total[4](y, loss)\nlaunch square[4](c, y)")
	if err == nil || !strings.Contains(err.Error(), "writes over an array") {
		t.Fatalf("overwriting y on the tape: got %v", err)
	}
	if tp.Len() != 2 {
		t.Fatalf("recorded %d launches, want 2 (c needs no gradient, y's overwrite is refused)", tp.Len())
	}
	loss := globalArray(t, in, "loss")
	if err := in.Backward(tp, interp.Seed{Out: loss.A, Grad: interp.Int(1)}); err != nil {
		t.Fatal(err)
	}
	x := globalArray(t, in, "x")
	got := f64s(t, x.Grad())
	for i, g := range got {
		if g != 2*float64(i) {
			t.Fatalf("x.grad = %v, want 2x", got)
		}
	}
	if globalArray(t, in, "c").Grad() != nil {
		t.Fatal("c got a gradient")
	}
	// A second backward computes the intermediates anew (y.grad stays 1)
	// and adds as much again into the leaf x, as PyTorch's does.
	if err := in.Backward(tp, interp.Seed{Out: loss.A, Grad: interp.Int(1)}); err != nil {
		t.Fatal(err)
	}
	if g, yg := f64s(t, x.Grad()), f64s(t, globalArray(t, in, "y").Grad()); g[3] != 12 || yg[3] != 1 {
		t.Fatalf("after two backwards x.grad = %v, y.grad = %v; want 4x and 1", g, yg)
	}
	if err := in.ZeroGrad(tp); err != nil {
		t.Fatal(err)
	}
	if g := f64s(t, x.Grad()); g[3] != 0 {
		t.Fatalf("after zero_grad x.grad = %v", g)
	}
}

// TestTapeVersionCheck: writing a recorded input after the tape fails
// the backward, naming the kernel.
func TestTapeVersionCheck(t *testing.T) {
	in, tp, err := tapeInterp(t, squareKernels, "launch square[4](x, y)\nlaunch total[4](y, loss)")
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Exec(context.Background(), "w.gs", []byte("x[0] = 5.0")); err != nil {
		t.Fatal(err)
	}
	loss := globalArray(t, in, "loss")
	err = in.Backward(tp, interp.Seed{Out: loss.A, Grad: interp.Int(1)})
	if err == nil || !strings.Contains(err.Error(), "kernel square") || !strings.Contains(err.Error(), "written after") {
		t.Fatalf("backward after x was written: got %v", err)
	}
}

// TestTapeSpringFD checks the recorded spring step's gradient of w
// against central finite differences of the forward.
func TestTapeSpringFD(t *testing.T) {
	in, tp, err := tapeInterp(t, tapeKernels, "launch spring[64](x, w, y, 9)\nlaunch energy[64](y, loss)")
	if err != nil {
		t.Fatal(err)
	}
	loss := globalArray(t, in, "loss")
	if err := in.Backward(tp, interp.Seed{Out: loss.A, Grad: interp.Int(1)}); err != nil {
		t.Fatal(err)
	}
	got := f64s(t, globalArray(t, in, "w").Grad())
	ctx := context.Background()
	eval := func(j int, h float64) float64 {
		src := fmt.Sprintf("let w2 = array(w)\nw2[%d] += %v\nlet l2 = zeros(1, dtype=f64)\nlaunch spring[64](x, w2, y2, 9)\nlaunch energy[64](y2, l2)\nlet out = l2[0]", j, h)
		if err := in.Exec(ctx, "fd.gs", []byte("let y2 = zeros(64, dtype=vec3d)\n"+src)); err != nil {
			t.Fatal(err)
		}
		v, _ := in.Global("out")
		return math.Float64frombits(v.(interp.Scalar).Bits)
	}
	for _, j := range []int{0, 17, 63} {
		const h = 1e-6
		fd := (eval(j, h) - eval(j, -h)) / (2 * h)
		if math.Abs(fd-got[j]) > 1e-6*(1+math.Abs(fd)) {
			t.Fatalf("w.grad[%d] = %v, finite difference %v", j, got[j], fd)
		}
	}
}

// TestTapeRefusals: a kernel lang/ad cannot differentiate is refused when
// the tape records it, naming the kernel, and not when nothing it reads
// requires a gradient.
func TestTapeRefusals(t *testing.T) {
	setup := `
kernel inplace(x: array[f64]) {
    let i = tid()
    x[i] = x[i] * 2.0
}
kernel rowsum(x: array[f64], out: array[f64]) block(64) {
    let s = block_sum(x[tid()])
    if thread_id() == 0 {
        out[block_id()] = s
    }
}
let x = arange(64, dtype=f64, requires_grad=true)
let c = arange(64, dtype=f64)
let out = zeros(1, dtype=f64)
`
	for body, want := range map[string]string{
		"launch inplace[64](x)":             "overwrites its input x",
		"launch rowsum[grid(1)](x, out)":    "not differentiable yet",
		"launch inplace[64](c)\nlet ok = 1": "",
	} {
		_, tp, err := tapeInterp(t, setup, body)
		if want == "" {
			if err != nil || tp.Len() != 0 {
				t.Errorf("%q: got %v with %d ops recorded", body, err, tp.Len())
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "body.gs:1:1") {
			t.Errorf("%q: got %v, want %q at body.gs:1:1", body, err, want)
		}
	}
}

// TestTapeBlockCustomAdjoint: a tape block in a script records a launch
// of a kernel with a declared adjoint, whose backward runs it instead of
// a generated one.
func TestTapeBlockCustomAdjoint(t *testing.T) {
	src := `
kernel double(x: array[f64], y: array[f64]) adjoint double_adj {
    let i = tid()
    y[i] = x[i] * 2.0
}
kernel double_adj(x: array[f64], y: array[f64], x_grad: array[f64], y_grad: array[f64]) {
    let i = tid()
    x_grad[i] += y_grad[i] * 3.0   // not the true derivative: shows which ran
}
let x = ones(4, dtype=f64, requires_grad=true)
let y = zeros(4, dtype=f64)
tape t {
    launch double[4](x, y)
}
backward(t, y, grads=1.0)
let g = x.grad[2]
let n = t.len
`
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Exec(context.Background(), "adj.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	g, _ := in.Global("g")
	n, _ := in.Global("n")
	if g.String() != "3.0" || n.String() != "1" {
		t.Fatalf("x.grad[2] = %v, t.len = %v; want 3.0 (the declared adjoint) and 1", g, n)
	}
}

// TestTapeRowStores: stores into disjoint rows of one array on a tape
// are not overwrites; a write after the tape is.
func TestTapeRowStores(t *testing.T) {
	setup := "let x = arange(3, dtype=f64, requires_grad=true)\nlet w = zeros([2, 3], dtype=f64)\n"
	in, tp, err := tapeInterp(t, setup, "w[1] = x * 2.0\nw[0] = x * x")
	if err != nil {
		t.Fatal(err)
	}
	w := globalArray(t, in, "w")
	if err := in.Backward(tp, interp.Seed{Out: w.A, Grad: interp.Int(1)}); err != nil {
		t.Fatal(err)
	}
	if g := f64s(t, globalArray(t, in, "x").Grad()); g[2] != 6 {
		t.Fatalf("x.grad = %v, want 2x + 2", g)
	}
	if err := in.Exec(context.Background(), "w.gs", []byte("w[0, 0] = 1.0")); err != nil {
		t.Fatal(err)
	}
	if err := in.Backward(tp, interp.Seed{Out: w.A, Grad: interp.Int(1)}); err == nil || !strings.Contains(err.Error(), "written after") {
		t.Fatalf("backward after w was written: %v", err)
	}
}

// TestTapeMethodCopies: the to and reshape methods, which do not record
// a copy, are refused on a tape where they would copy an array that
// requires a gradient; a reshape that is a view is not.
func TestTapeMethodCopies(t *testing.T) {
	setup := "let x = arange(64, dtype=f64, requires_grad=true)\n"
	for body, want := range map[string]string{
		"let y = x.reshape([8, 8]).T.reshape([64])": "write reshape(a, shape)",
		`let y = x.to("cpu")`:                       "write to(a, dev)",
		"let y = x.reshape([8, 8])":                 "",
	} {
		_, _, err := tapeInterp(t, setup, body)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: got %v, want %q", body, err, want)
		}
	}
}
