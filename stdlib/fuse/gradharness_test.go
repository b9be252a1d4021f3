package fuse_test

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/stdlib"
	"github.com/gscript-lang/gscript/stdlib/fuse"
)

// input is an array of a gradient check: int ones (dtype set) get none.
type input struct {
	name  string
	shape []int
	vals  []float64
	dtype string // "" for the check's float dtype
}

// gradCheck is the gradient of expr against central finite differences
// of its forward, both run through the interpreter on dev.
type gradCheck struct {
	t    *testing.T
	dev  string
	dt   ir.Type // the inputs' float dtype
	ins  []input
	expr string
	h    float64 // the finite difference's step; 0: by dtype
}

func newInterp(t *testing.T, dev string) *interp.Interp {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: dev, Predeclared: universe()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// universe is stdlib's with the array math functions that scripts do
// not name on the host (rsqrt, atan2: kernels' and fuse.Math's only).
func universe() map[string]interp.Value {
	env := stdlib.Universe()
	for _, op := range ir.MathOps() {
		info, _ := op.Info()
		name := info.Builtin
		if _, ok := env[name]; ok || !fuse.IsMath(name) {
			continue
		}
		env[name] = &interp.Builtin{Name: name, Operands: true, Fn: func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
			return fuse.Math(name, args.Positional...)
		}}
	}
	return env
}

func (c *gradCheck) exec(in *interp.Interp, src string) error {
	return in.Exec(context.Background(), "check.gs", []byte(src))
}

// literal is vals as a nested list of shape.
func literal(shape []int, vals []float64) string {
	if len(shape) == 0 {
		return strconv.FormatFloat(vals[0], 'g', -1, 64)
	}
	var parts []string
	step := len(vals) / shape[0]
	for i := range shape[0] {
		parts = append(parts, literal(shape[1:], vals[i*step:(i+1)*step]))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// setup declares the inputs (with gradients when grad) and the seed w.
func (c *gradCheck) setup(ins []input, grad bool) string {
	var b strings.Builder
	for _, x := range ins {
		dt, rg := x.dtype, grad
		if dt == "" {
			dt = c.dt.String()
		} else {
			rg = false
		}
		fmt.Fprintf(&b, "let %s = array(%s, dtype=%s, requires_grad=%t)\n", x.name, literal(x.shape, x.vals), dt, rg)
	}
	return b.String()
}

// values reads a float array (or a number's one element) as f64s.
func values(t *testing.T, a *interp.Array) []float64 {
	t.Helper()
	var out []float64
	err := interp.ArrayElems(a.A, func(bits uint64) {
		if a.A.DType() == ir.F32 {
			out = append(out, float64(math.Float32frombits(uint32(bits))))
		} else {
			out = append(out, math.Float64frombits(bits))
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func global(t *testing.T, in *interp.Interp, name string) *interp.Array {
	t.Helper()
	v, _ := in.Global(name)
	a, ok := v.(*interp.Array)
	if !ok {
		t.Fatalf("%s is %v, not an array", name, v)
	}
	return a
}

// forward is expr's value at inputs ins.
func (c *gradCheck) forward(ins []input) []float64 {
	in := newInterp(c.t, c.dev)
	if err := c.exec(in, c.setup(ins, false)+"let y = "+c.expr+"\n"); err != nil {
		c.t.Fatalf("%s: %v", c.expr, err)
	}
	return values(c.t, global(c.t, in, "y"))
}

// seed is the backward's starting gradient for n elements.
func seed(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 0.5 + 0.75*float64((i*7)%5) - 1.25*float64(i%2)
	}
	return w
}

// grads records y = expr, runs the backward from seed w (y's shape) and
// returns the float inputs' gradients.
func (c *gradCheck) grads() (map[string][]float64, []float64) {
	in := newInterp(c.t, c.dev)
	if err := c.exec(in, c.setup(c.ins, true)); err != nil {
		c.t.Fatal(err)
	}
	tp := interp.NewTape("t")
	if err := in.Record(tp, func() error { return c.exec(in, "let y = "+c.expr+"\n") }); err != nil {
		c.t.Fatalf("%s: %v", c.expr, err)
	}
	y := global(c.t, in, "y")
	w := seed(y.A.Size())
	ws := fmt.Sprintf("let w = array(%s, dtype=%s)\n", literal(y.A.Shape(), w), y.A.DType())
	if err := c.exec(in, ws); err != nil {
		c.t.Fatal(err)
	}
	if err := in.Backward(tp, interp.Seed{Out: y.A, Grad: global(c.t, in, "w")}); err != nil {
		c.t.Fatalf("%s: backward: %v", c.expr, err)
	}
	out := map[string][]float64{}
	for _, x := range c.ins {
		if x.dtype != "" {
			continue
		}
		if g := global(c.t, in, x.name).Grad(); g != nil {
			out[x.name] = values(c.t, g)
		} else {
			out[x.name] = make([]float64, len(x.vals))
		}
	}
	return out, w
}

// round is v as the check's dtype holds it.
func (c *gradCheck) round(v float64) float64 {
	if c.dt == ir.F32 {
		return float64(float32(v))
	}
	return v
}

// fd is the central difference of sum(w * expr) along input i's element j.
func (c *gradCheck) fd(i, j int, w []float64) float64 {
	h := c.h
	switch {
	case h == 0 && c.dt == ir.F32:
		h = 1e-3
	case h == 0:
		h = 1e-6
	}
	at := func(v float64) []float64 {
		ins := append([]input(nil), c.ins...)
		ins[i].vals = append([]float64(nil), ins[i].vals...)
		ins[i].vals[j] = v
		return c.forward(ins)
	}
	x := c.ins[i].vals[j]
	hi, lo := c.round(x+h), c.round(x-h)
	yp, ym := at(hi), at(lo)
	s := 0.0
	for k := range w {
		s += w[k] * (yp[k] - ym[k])
	}
	return s / (hi - lo)
}

// run checks every float input's gradient to relative error tol (of the
// largest gradient element, at least 1).
func (c *gradCheck) run(tol float64) {
	c.t.Helper()
	for i := range c.ins {
		c.ins[i].vals = roundAll(c, c.ins[i].vals)
	}
	got, w := c.grads()
	for i, x := range c.ins {
		if x.dtype != "" {
			continue
		}
		var num []float64
		scale, worst := 1.0, 0.0
		for j := range x.vals {
			num = append(num, c.fd(i, j, w))
			scale = math.Max(scale, math.Abs(num[j]))
		}
		for j := range num {
			worst = math.Max(worst, math.Abs(got[x.name][j]-num[j]))
		}
		if worst/scale >= tol || math.IsNaN(worst) {
			c.t.Errorf("%s %s: d/d%s = %v, finite differences %v (relative error %.3g)", c.dt, c.expr, x.name, got[x.name], num, worst/scale)
		}
	}
}

func roundAll(c *gradCheck, vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = c.round(v)
	}
	return out
}
