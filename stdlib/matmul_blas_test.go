package stdlib_test

import (
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/gscript-lang/gscript/runtime/cpu"
)

// TestMatmulOpenBLASMatchesGonum multiplies random views through both
// cpu BLAS libraries in one interpreter: matrices, batches, broadcast
// batches (of one, or a matrix), transposed views (BLAS's transpose flag), strided ones
// (padded rows, or gathered), in f32 and f64. Each result is within the
// documented 2K·ε·Σ|a·b| of the exact product (runtime/cpu's doc.go), so
// the two differ by at most twice that; abs(a) @ abs(b) is Σ|a·b|.
func TestMatmulOpenBLASMatchesGonum(t *testing.T) {
	defer cpu.SetBLAS("")
	if err := cpu.SetBLAS("openblas"); err != nil {
		t.Skip(err)
	}
	in := newInterp(t, "cpu", io.Discard)
	r := rand.New(rand.NewPCG(27, 3))
	views := []string{"x", "x.T", "x[::2]", "x[:, ::3]", "x[1:]"}
	for n := range 40 {
		dt := []string{"f32", "f64"}[n%2]
		batch := r.IntN(3) // 0: a matrix
		bbatch := []int{0, 1, batch}[r.IntN(3)]
		if batch == 0 {
			bbatch = r.IntN(3)
		}
		m, k, p := 17+r.IntN(60), 17+r.IntN(60), 17+r.IntN(60)
		va, vb := views[r.IntN(len(views))], views[r.IntN(len(views))]
		src := fmt.Sprintf(`let a = %s
let b = %s
let eps = 1.1920928955078125e-07 // 2^-23
if a.dtype == f64 {
    eps = 2.220446049250313e-16 // 2^-52
}
let bound = 4.0 * float(a.shape[-1]) * eps * (abs(a) @ abs(b))
`, operand(va, batch, m, k, dt, 2*n), operand(vb, bbatch, k, p, dt, 2*n+1))
		run(t, in, src)
		run(t, in, "let c1 = a @ b")
		if err := cpu.SetBLAS("gonum"); err != nil {
			t.Fatal(err)
		}
		run(t, in, "let c2 = a @ b")
		if err := cpu.SetBLAS("openblas"); err != nil {
			t.Fatal(err)
		}
		run(t, in, fmt.Sprintf(`assert all(abs(c1 - c2) <= bound), "case %d %s: %s @ %s: OpenBLAS and gonum differ, past the bound by " + str(max(abs(c1 - c2) - bound))`, n, dt, va, vb))
	}
}

// operand is a gscript expression for a random [batch,] rows x cols view
// of kind v ("x.T" a transposed array, "x[::2]" every other row, ...).
func operand(v string, batch, rows, cols int, dt string, seed int) string {
	shape := func(r, c int) string {
		if batch == 0 {
			return fmt.Sprintf("[%d, %d]", r, c)
		}
		return fmt.Sprintf("[%d, %d, %d]", batch, r, c)
	}
	base := map[string]string{
		"x":         shape(rows, cols),
		"x.T":       shape(cols, rows),
		"x[::2]":    shape(2*rows, cols),
		"x[:, ::3]": shape(rows, 3*cols),
		"x[1:]":     shape(rows+1, cols),
	}[v]
	view := map[string]string{
		"x": "%s", "x.T": "%s.T", "x[::2]": "%s[::2]", "x[:, ::3]": "%s[:, ::3]", "x[1:]": "%s[1:]",
	}[v]
	if batch > 0 {
		view = map[string]string{
			"x": "%s", "x.T": "transpose(%s, [0, 2, 1])", "x[::2]": "%s[:, ::2]", "x[:, ::3]": "%s[:, :, ::3]", "x[1:]": "%s[:, 1:]",
		}[v]
	}
	return fmt.Sprintf(view, fmt.Sprintf("randn(%s, seed=%d, dtype=%s)", base, seed, dt))
}
