package cpu

import (
	"fmt"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/runtime/openblas"
)

// GEMM multiplies host matrices in place, one BLAS call per batch entry:
// OpenBLAS where it loads, gonum's pure-Go BLAS otherwise (blas.go).
func (cpuBackend) GEMM(env *backend.Env, dev mem.Device, g *backend.GEMM) error {
	if err := g.Check(); err != nil {
		return err
	}
	c, err := currentBLAS()
	if err != nil {
		return err
	}
	return runGEMM(env, g, c.lib, smallGEMM)
}

// smallGEMM is the work (M*N*K) below which an entry runs through gonum
// even where OpenBLAS is loaded: a call into OpenBLAS costs 1.2-2.7 µs
// (purego's reflection, cgocall, OpenBLAS's own dispatch) where gonum
// multiplies two 2x2 matrices in 40 ns; the two break even near 15^3 on
// the 2-core development machine (16^3: OpenBLAS 1.4 µs, gonum 2.0).
const smallGEMM = 16 * 16 * 16

// BLASName says which library runs the cpu's matrix products.
func (cpuBackend) BLASName(mem.Device) string {
	c, err := currentBLAS()
	if err != nil {
		return err.Error()
	}
	return c.String()
}

// runGEMM runs a checked product with lib, or gonum where lib is nil or
// the product does less work than small, in panels (panels) with the
// cancellation and the step budget polled before each.
func runGEMM(env *backend.Env, g *backend.GEMM, lib *openblas.Lib, small int) error {
	return runPanels(env, g, lib, small, panelWork(lib, g.DType))
}

// panelWork is the multiply-adds of one panel: about 22 ms of the 2-core
// development machine's OpenBLAS (f32: 48 GMAC/s, a 1024^3 product in
// one call as before panels) and 25 ms of gonum's (5.5 GMAC/s), so that
// a Ctrl-C or a deadline is seen within 100 ms even on a slower machine;
// f64 runs at half the rate.
func panelWork(lib *openblas.Lib, t ir.Type) int {
	w := 1 << 30
	if lib == nil {
		w = 1 << 27
	}
	if t == ir.F64 {
		w /= 2
	}
	return w
}

// runPanels is runGEMM with panels of about work multiply-adds.
func runPanels(env *backend.Env, g *backend.GEMM, lib *openblas.Lib, small, work int) error {
	if g.M == 0 || g.N == 0 {
		return nil
	}
	if g.M*g.N*g.K < small {
		lib = nil
	}
	rows, cols := panelSize(g, work)
	for i := range g.Batch {
		for r := 0; r < g.M; r += rows {
			for c := 0; c < g.N; c += cols {
				p := panel(g, r, c, min(rows, g.M-r), min(cols, g.N-c))
				if err := poll(env, p.M*p.N*p.K); err != nil {
					return err
				}
				runEntry(&p, i, lib)
			}
		}
	}
	return nil
}

// runEntry computes batch entry i of g.
func runEntry(g *backend.GEMM, i int, lib *openblas.Lib) {
	switch {
	case g.K == 0:
		clearC(g, i)
	case lib == nil || openblasGEMM(lib, g, i) != nil:
		gonumGEMM(g, i)
	}
}

// poll is the check before a panel of n multiply-adds: the caller's
// cancellation, then the step budget, which a matrix product spends one
// step per multiply-add (a kernel's inner loop over K would count as
// many iterations), so that an embedder's MaxKernelSteps bounds it too.
func poll(env *backend.Env, n int) error {
	if env.Cancel != nil && env.Cancel.Load() {
		return backend.ErrCanceled
	}
	if env.Steps != nil && env.Steps.Add(int64(max(n, 1))) > env.MaxSteps {
		return fmt.Errorf("matmul: %w (a budget of %d kernel loop iterations; a product spends one per multiply-add)", backend.ErrStepBudget, env.MaxSteps)
	}
	return nil
}

// panelSize is the rows and columns of C that one panel computes: whole
// rows while 64 of them fit in work, else 64 rows by as many columns as
// fit; multiples of 64, which keeps gonum's blocks (64 x 64) and so its
// bits, and at least 64 x 64 whatever K is.
func panelSize(g *backend.GEMM, work int) (rows, cols int) {
	k := max(g.K, 1)
	if g.M*g.N*k <= work {
		return g.M, g.N
	}
	if rows = work / (g.N * k) / 64 * 64; rows >= 64 {
		return rows, g.N
	}
	return 64, max(64, work/(64*k)/64*64)
}

// panel is the product of rows x cols of C from (r, c): a GEMM of one
// batch entry's rows of A and columns of B, batch strides kept.
func panel(g *backend.GEMM, r, c, rows, cols int) backend.GEMM {
	p := *g
	p.M, p.N = rows, cols
	n := uintptr(g.DType.Size())
	if g.A.Trans { // element (i, q) at q*LD + i
		p.A.Data += uintptr(r) * n
	} else {
		p.A.Data += uintptr(r*g.A.LD) * n
	}
	if g.B.Trans { // element (q, j) at j*LD + q
		p.B.Data += uintptr(c*g.B.LD) * n
	} else {
		p.B.Data += uintptr(c) * n
	}
	p.C.Data += uintptr(r*g.C.LD+c) * n
	return p
}

// gonumGEMM runs batch entry i through gonum.
func gonumGEMM(g *backend.GEMM, i int) {
	if g.DType == ir.F32 {
		sgemm(g, i)
	} else {
		dgemm(g, i)
	}
}

// clearC zeroes batch entry i of C: a product over no terms (gonum
// rejects K = 0).
func clearC(g *backend.GEMM, i int) {
	n := g.DType.Size()
	for r := range g.M {
		p := g.C.Data + uintptr((i*g.C.BatchStride+r*g.C.LD)*n)
		clear(unsafe.Slice((*byte)(mem.HostPointer(p)), g.N*n))
	}
}

// openblasGEMM runs batch entry i through CBLAS, row-major as the
// operands are. Its only error wraps openblas.ErrRange (an extent past a
// C int), for which nothing ran and gonum computes the entry.
func openblasGEMM(lib *openblas.Lib, g *backend.GEMM, i int) error {
	n := uintptr(g.DType.Size())
	at := func(m backend.Matrix) uintptr { return m.Data + uintptr(i*m.BatchStride)*n }
	trans := func(m backend.Matrix) openblas.Transpose {
		if m.Trans {
			return openblas.Trans
		}
		return openblas.NoTrans
	}
	call := openblas.Gemm{Order: openblas.RowMajor, TransA: trans(g.A), TransB: trans(g.B),
		M: g.M, N: g.N, K: g.K, Alpha: 1, Beta: 0,
		A: at(g.A), B: at(g.B), C: at(g.C), LDA: g.A.LD, LDB: g.B.LD, LDC: g.C.LD}
	if g.DType == ir.F32 {
		return lib.Sgemm(&call)
	}
	return lib.Dgemm(&call)
}

func sgemm(g *backend.GEMM, i int) {
	a, ta, lda := operand[float32](g.A, i, g.M, g.K)
	b, tb, ldb := operand[float32](g.B, i, g.K, g.N)
	c, _, ldc := operand[float32](g.C, i, g.M, g.N)
	gonum.Implementation{}.Sgemm(ta, tb, g.M, g.N, g.K, 1, a, lda, b, ldb, 0, c, ldc)
}

func dgemm(g *backend.GEMM, i int) {
	a, ta, lda := operand[float64](g.A, i, g.M, g.K)
	b, tb, ldb := operand[float64](g.B, i, g.K, g.N)
	c, _, ldc := operand[float64](g.C, i, g.M, g.N)
	gonum.Implementation{}.Dgemm(ta, tb, g.M, g.N, g.K, 1, a, lda, b, ldb, 0, c, ldc)
}

// operand is batch entry i of a rows x cols matrix as the slice gonum
// checks (exactly the elements it spans), its transpose flag and leading
// dimension. An empty matrix is an empty slice.
func operand[T float32 | float64](m backend.Matrix, i, rows, cols int) ([]T, blas.Transpose, int) {
	t := blas.NoTrans
	if m.Trans {
		t, rows, cols = blas.Trans, cols, rows
	}
	if rows == 0 || cols == 0 {
		return nil, t, m.LD
	}
	var z T
	p := m.Data + uintptr(i*m.BatchStride)*unsafe.Sizeof(z)
	return unsafe.Slice((*T)(mem.HostPointer(p)), (rows-1)*m.LD+cols), t, m.LD
}
