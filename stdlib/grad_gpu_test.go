package stdlib_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestGPUGradMatchesCPU: the gradients of sum, mean, max (with ties),
// concatenate and a[mask] on cuda:0 are the cpu's bit for bit (they are
// elementwise, or count ties exactly: no atomics); matmul's, whose
// forward GEMMs sum in other orders, agree to 1e-5.
func TestGPUGradMatchesCPU(t *testing.T) {
	if mem.CUDADeviceCount() == 0 {
		t.Skip("no CUDA device")
	}
	setup := `
let a = floor(rand([64, 48], seed=1, dtype=DT) * 8.0)
requires_grad(a)
let b = rand([48, 32], seed=2, dtype=DT, requires_grad=true)
let w = rand([64, 32], seed=3, dtype=DT)
`
	for _, body := range []string{
		"let y = sum(a, axis=0)", "let y = mean(a, axis=-1)", "let y = max(a, axis=1)", "let y = max(a)",
		"let y = a @ b", "let y = concatenate([a, a], axis=1)", "let y = a[a > 3.0]",
	} {
		for _, dt := range []string{"f32", "f64"} {
			src := strings.ReplaceAll(setup, "DT", dt)
			cpu := gradOn(t, "cpu", src, body)
			gpu := gradOn(t, "cuda:0", src, body)
			for i := range cpu {
				if strings.Contains(body, "@") { // the GEMMs' orders differ: so do the forwards
					if e := relErr(gpu[i], cpu[i]); e > 1e-5 {
						t.Errorf("%s in %s: gradient %d differs between cpu and cuda:0 by %.3g", body, dt, i, e)
					}
				} else if !slices.Equal(cpu[i], gpu[i]) {
					t.Errorf("%s in %s: gradient %d differs between cpu and cuda:0", body, dt, i)
				}
			}
		}
	}
}

// gradOn runs body on a tape on dev, seeds y's gradient with ones and
// returns a's and b's gradients (b's when it has one).
func gradOn(t *testing.T, dev, setup, body string) [][]float64 {
	t.Helper()
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: dev, Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	execGS(t, in, setup)
	tp := interp.NewTape("t")
	if err := in.Record(tp, func() error { return in.Exec(context.Background(), "b.gs", []byte(body)) }); err != nil {
		t.Fatal(err)
	}
	y := globalArr(t, in, "y")
	execGS(t, in, "let ones__ = ones(y.shape, dtype=y.dtype)")
	if err := in.Backward(tp, interp.Seed{Out: y.A, Grad: globalArr(t, in, "ones__")}); err != nil {
		t.Fatal(err)
	}
	var out [][]float64
	for _, name := range []string{"a", "b"} {
		if g := globalArr(t, in, name).Grad(); g != nil {
			out = append(out, floats(t, g))
		}
	}
	return out
}
