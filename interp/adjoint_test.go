package interp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/stdlib"
)

const customAdjoint = `kernel scale(x: array[f32], y: array[f32], a: f32) adjoint scale_adj {
    let i = tid()
    y[i] = a * x[i]
}
kernel scale_adj(x: array[f32], y: array[f32], a: f32, x_grad: array[f32], y_grad: array[f32]) {
    let i = tid()
    x_grad[i] += a * y_grad[i]
}
kernel plain(x: array[f32]) {}
`

// TestCustomAdjointWiring: a kernel declared with `adjoint k_adj` is a
// Kernel whose Adjoint is k_adj, in Program.Kernels and bound when a
// script runs; other kernels have none.
func TestCustomAdjointWiring(t *testing.T) {
	p, err := interp.Compile("t.gs", []byte(customAdjoint), stdlib.Universe())
	if err != nil {
		t.Fatal(err)
	}
	ks := p.Kernels()
	if len(ks) != 3 || ks[0].Adjoint == nil || ks[0].Adjoint.Name != "scale_adj" || ks[0].Adjoint.IR != ks[1].IR ||
		ks[1].Adjoint != nil || ks[2].Adjoint != nil {
		t.Fatalf("kernels %v: want scale with the adjoint scale_adj (its IR), the others none", ks)
	}
	if ks[0].Adjoint.Pos.Line != 5 || len(ks[0].Adjoint.Params) != 5 {
		t.Errorf("adjoint at %v with %d params, want line 5 and 5", ks[0].Adjoint.Pos, len(ks[0].Adjoint.Params))
	}
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := in.Exec(context.Background(), "t.gs", []byte(customAdjoint)); err != nil {
		t.Fatal(err)
	}
	v, _ := in.Global("scale")
	if k, ok := v.(*interp.Kernel); !ok || k.Adjoint == nil || k.Adjoint.Name != "scale_adj" {
		t.Errorf("scale is bound to %v, want a kernel with the adjoint scale_adj", v)
	}
}

// TestCustomAdjointMismatch: a wrong adjoint is a compile error at the
// clause's name, spelling both signatures.
func TestCustomAdjointMismatch(t *testing.T) {
	src := strings.Replace(customAdjoint, "y_grad: array[f32])", "y_grad: array[f64])", 1)
	src = strings.Replace(src, "a * y_grad[i]", "a", 1)
	_, err := interp.Compile("t.gs", []byte(src), stdlib.Universe())
	want := "t.gs:1:60: adjoint scale_adj of kernel scale must take (x: array[f32], y: array[f32], a: f32, x_grad: array[f32], y_grad: array[f32]); it takes (x: array[f32], y: array[f32], a: f32, x_grad: array[f32], y_grad: array[f64])"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

// TestTapeAndAdjointStayNames: the two contextual keywords are ordinary
// names wherever they are not a tape block or an adjoint clause.
func TestTapeAndAdjointStayNames(t *testing.T) {
	var out strings.Builder
	in, err := interp.New(interp.Options{Stdout: &out, Device: "cpu", Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	src := `fn adjoint(tape) { return tape * 2 }
let tape = 3
tape = adjoint(tape)
kernel k(adjoint: array[f32], tape: f32) {
    adjoint[tid()] = tape
}
let a = zeros(2)
launch k[2](a, 1.5)
print(tape, a)
`
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "6 [1.5, 1.5]\n" {
		t.Errorf("output %q", got)
	}
}
