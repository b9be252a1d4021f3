package cpu

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/runtime/openblas"
)

// gemmCase is a random product with its operands in Go memory: each
// matrix transposed or not, rows padded past the minimum leading
// dimension, batch entries apart or broadcast (stride 0). Padding holds
// NaN, which a product that read it would spread.
type gemmCase struct {
	g       backend.GEMM
	a, b, c []float64
	work    int // multiply-adds per panel; 0: runGEMM's
}

func randomGEMM(r *rand.Rand, dt ir.Type) gemmCase {
	ext := func() int { return []int{0, 1, 2, 7, 33, 70, 131}[r.IntN(7)] }
	g := backend.GEMM{DType: dt, M: ext(), N: ext(), K: ext(), Batch: 1 + r.IntN(3)}
	var tc gemmCase
	tc.g = g
	tc.g.A, tc.a = randomMatrix(r, g.M, g.K, g.Batch, true)
	tc.g.B, tc.b = randomMatrix(r, g.K, g.N, g.Batch, true)
	tc.g.C, tc.c = randomMatrix(r, g.M, g.N, g.Batch, false)
	return tc
}

// randomMatrix lays out a batch of rows x cols matrices (C stays row-major
// and is never broadcast) and fills the elements with values in [-1, 1).
func randomMatrix(r *rand.Rand, rows, cols, batch int, operand bool) (backend.Matrix, []float64) {
	m := backend.Matrix{Trans: operand && r.IntN(2) == 1}
	inner, outer := cols, rows
	if m.Trans {
		inner, outer = rows, cols
	}
	m.LD = max(1, inner) + r.IntN(3)
	span := outer * m.LD
	m.BatchStride = span + r.IntN(5)
	if operand && r.IntN(4) == 0 {
		m.BatchStride = 0
	}
	x := make([]float64, (batch-1)*m.BatchStride+span+1)
	for i := range x {
		x[i] = math.NaN()
	}
	for z := range batch {
		for o := range outer {
			for n := range inner {
				x[z*m.BatchStride+o*m.LD+n] = 2*r.Float64() - 1
			}
		}
	}
	return m, x
}

// matElem is element (i, j) of batch entry z of a matrix laid out as m.
func matElem(m backend.Matrix, x []float64, z, i, j int) float64 {
	if m.Trans {
		i, j = j, i
	}
	return x[z*m.BatchStride+i*m.LD+j]
}

// run computes the product into a copy of c with lib (nil: gonum; gonum
// too below small work), in the case's dtype, and returns C as float64s.
func (tc *gemmCase) run(t *testing.T, lib *openblas.Lib, small int) []float64 {
	c, err := tc.product(lib, small)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// product is run's work, for any goroutine.
func (tc *gemmCase) product(lib *openblas.Lib, small int) ([]float64, error) {
	g := tc.g
	var keep []any
	data := func(x []float64) uintptr {
		if g.DType == ir.F64 {
			y := append([]float64(nil), x...)
			keep = append(keep, y)
			return uintptr(unsafe.Pointer(&y[0]))
		}
		y := make([]float32, len(x))
		for i, v := range x {
			y[i] = float32(v)
		}
		keep = append(keep, y)
		return uintptr(unsafe.Pointer(&y[0]))
	}
	g.A.Data, g.B.Data, g.C.Data = data(tc.a), data(tc.b), data(tc.c)
	if err := g.Check(); err != nil {
		return nil, err
	}
	work := tc.work
	if work == 0 {
		work = panelWork(lib, g.DType)
	}
	if err := runPanels(&backend.Env{}, &g, lib, small, work); err != nil {
		return nil, err
	}
	out := make([]float64, len(tc.c))
	for i := range out {
		if g.DType == ir.F64 {
			out[i] = *(*float64)(mem.HostPointer(g.C.Data + uintptr(8*i)))
		} else {
			out[i] = float64(*(*float32)(mem.HostPointer(g.C.Data + uintptr(4*i))))
		}
	}
	runtime.KeepAlive(keep)
	return out, nil
}

// check compares C with the float64 product by the definition, within
// the documented tolerance (doc.go): 2K·ε·Σ|a·b|, a bound on the rounding
// error of any summation order. C's padding must still be NaN.
func (tc *gemmCase) check(t *testing.T, name string, got []float64) {
	g := tc.g
	eps := 0x1p-52
	if g.DType == ir.F32 {
		eps = 0x1p-23
	}
	written := make([]bool, len(got))
	for z := range g.Batch {
		for i := range g.M {
			for j := range g.N {
				ref, mag := 0.0, 0.0
				for q := range g.K {
					p := matElem(g.A, tc.a, z, i, q) * matElem(g.B, tc.b, z, q, j)
					ref, mag = ref+p, mag+math.Abs(p)
				}
				at := z*g.C.BatchStride + i*g.C.LD + j
				written[at] = true
				if d := math.Abs(got[at] - ref); !(d <= 2*float64(g.K)*eps*mag) {
					t.Fatalf("%s: entry %d (%d, %d) = %v, want %v (|difference| %g)", name, z, i, j, got[at], ref, d)
				}
			}
		}
	}
	for i, w := range written {
		if !w && !math.IsNaN(got[i]) {
			t.Fatalf("%s: padding element %d of C was written (%v)", name, i, got[i])
		}
	}
}

// TestGEMMOpenBLASGonum runs random products, batched, strided,
// transposed and broadcast, through gonum and OpenBLAS: each within the
// tolerance of the exact product (so within twice it of each other).
func TestGEMMOpenBLASGonum(t *testing.T) {
	lib, err := openblas.Load()
	if err != nil {
		t.Logf("gonum only: %v", err)
	}
	r := rand.New(rand.NewPCG(27, 1))
	for n := range 120 {
		dt := []ir.Type{ir.F32, ir.F64}[n%2]
		tc := randomGEMM(r, dt)
		name := fmt.Sprintf("%s M=%d N=%d K=%d batch=%d A=%+v B=%+v C=%+v", dt, tc.g.M, tc.g.N, tc.g.K, tc.g.Batch, tc.g.A, tc.g.B, tc.g.C)
		tc.check(t, name+" gonum", tc.run(t, nil, 0))
		if lib != nil {
			tc.check(t, name+" OpenBLAS", tc.run(t, lib, 0))
		}
	}
}

// TestGEMMPanels cuts random products into the smallest panels (64 x 64
// of C): gonum gives the bits of the whole product, OpenBLAS stays
// within the tolerance, and no padding is written.
func TestGEMMPanels(t *testing.T) {
	lib, err := openblas.Load()
	if err != nil {
		t.Logf("gonum only: %v", err)
	}
	r := rand.New(rand.NewPCG(27, 2))
	split := 0
	for n := range 80 {
		tc := randomGEMM(r, []ir.Type{ir.F32, ir.F64}[n%2])
		name := fmt.Sprintf("%s M=%d N=%d K=%d batch=%d", tc.g.DType, tc.g.M, tc.g.N, tc.g.K, tc.g.Batch)
		whole := tc.run(t, nil, 0)
		tc.work = 1
		if rows, cols := panelSize(&tc.g, 1); rows < tc.g.M || cols < tc.g.N {
			split++
		}
		got := tc.run(t, nil, 0)
		tc.check(t, name+" gonum panels", got)
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(whole[i]) {
				t.Fatalf("%s: element %d is %v in panels, %v whole", name, i, got[i], whole[i])
			}
		}
		if lib != nil {
			tc.check(t, name+" OpenBLAS panels", tc.run(t, lib, 0))
		}
	}
	if split < 20 {
		t.Fatalf("only %d of 80 products were split", split)
	}
}

// TestGEMMPanelsBudget stops a product of four 64 x 64 panels at the
// panel that passes the step budget, which counts multiply-adds.
func TestGEMMPanelsBudget(t *testing.T) {
	const m, k = 128, 7
	x := make([]float32, 3*m*m)
	at := func(i int) uintptr { return uintptr(unsafe.Pointer(&x[i*m*m])) }
	g := backend.GEMM{DType: ir.F32, M: m, N: m, K: k, Batch: 1,
		A: backend.Matrix{Data: at(0), LD: k}, B: backend.Matrix{Data: at(1), LD: m}, C: backend.Matrix{Data: at(2), LD: m}}
	steps := new(atomic.Int64)
	env := &backend.Env{Steps: steps, MaxSteps: 64 * 64 * k}
	if err := runPanels(env, &g, nil, 0, 1); !errors.Is(err, backend.ErrStepBudget) || steps.Load() != 2*64*64*k {
		t.Fatalf("budget of one panel: %v after %d steps", err, steps.Load())
	}
	steps.Store(0)
	env.MaxSteps = m * m * k
	if err := runPanels(env, &g, nil, 0, 1); err != nil || steps.Load() != m*m*k {
		t.Fatalf("budget of the whole product: %v after %d steps", err, steps.Load())
	}
	runtime.KeepAlive(x)
}

func TestGEMMCanceled(t *testing.T) {
	one := backend.Matrix{LD: 1}
	g := backend.GEMM{DType: ir.F32, M: 1, N: 1, K: 1, Batch: 1, A: one, B: one, C: one}
	env := &backend.Env{Cancel: new(atomic.Bool)}
	env.Cancel.Store(true)
	if err := runGEMM(env, &g, nil, 0); !errors.Is(err, backend.ErrCanceled) {
		t.Fatalf("canceled GEMM: %v", err)
	}
}

// TestChooseBLAS covers every name, with a library that loads and one
// that does not.
func TestChooseBLAS(t *testing.T) {
	lib := &openblas.Lib{}
	ok := func() (*openblas.Lib, error) { return lib, nil }
	missing := func() (*openblas.Lib, error) { return nil, openblas.ErrNotFound }
	for _, tt := range []struct {
		name    string
		fromEnv bool
		load    func() (*openblas.Lib, error)
		lib     *openblas.Lib
		want    string // the gonum reason, or the error
	}{
		{"", true, ok, lib, ""},
		{"", true, missing, nil, "OpenBLAS not found"},
		{"openblas", true, ok, lib, ""},
		{"openblas", true, missing, nil, "GSCRIPT_BLAS=openblas: OpenBLAS not found"},
		{"openblas", false, missing, nil, `SetBLAS("openblas"): OpenBLAS not found`},
		{"gonum", true, ok, nil, "chosen by GSCRIPT_BLAS=gonum"},
		{"gonum", false, ok, nil, `chosen by SetBLAS("gonum")`},
		{"mkl", true, ok, nil, `GSCRIPT_BLAS=mkl: the cpu's BLAS is "openblas" or "gonum"`},
	} {
		c, err := chooseBLAS(tt.name, tt.fromEnv, tt.load)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case c.lib != tt.lib:
			t.Errorf("chooseBLAS(%q, %v): library %v, want %v", tt.name, tt.fromEnv, c.lib, tt.lib)
		default:
			got = c.why
		}
		if got != tt.want {
			t.Errorf("chooseBLAS(%q, %v) = %q, want %q", tt.name, tt.fromEnv, got, tt.want)
		}
	}
}

// TestSetBLAS switches the process to gonum and back, as BLASName says.
func TestSetBLAS(t *testing.T) {
	defer SetBLAS("")
	if err := SetBLAS("gonum"); err != nil {
		t.Fatal(err)
	}
	if got := (cpuBackend{}).BLASName(mem.Device{Type: mem.CPU}); got != `gonum (pure Go; chosen by SetBLAS("gonum"))` {
		t.Errorf("BLASName after SetBLAS(gonum) = %q", got)
	}
	if err := SetBLAS("fast"); err == nil {
		t.Error("SetBLAS(fast) succeeded")
	}
	_, loadErr := openblas.Load()
	if err := SetBLAS("openblas"); (err == nil) != (loadErr == nil) {
		t.Fatalf("SetBLAS(openblas) = %v; Load: %v", err, loadErr)
	}
	if got := (cpuBackend{}).BLASName(mem.Device{Type: mem.CPU}); loadErr == nil && !strings.HasPrefix(got, "OpenBLAS (libopenblas.so.0: OpenBLAS ") {
		t.Errorf("BLASName after SetBLAS(openblas) = %q", got)
	}
}

// TestGEMMSmallRunsGonum gives a product below smallGEMM an empty Lib,
// whose calls would crash: gonum must compute it.
func TestGEMMSmallRunsGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tc := gemmCase{g: backend.GEMM{DType: ir.F64, M: 15, N: 15, K: 15, Batch: 2}}
	tc.g.A, tc.a = randomMatrix(r, 15, 15, 2, true)
	tc.g.B, tc.b = randomMatrix(r, 15, 15, 2, true)
	tc.g.C, tc.c = randomMatrix(r, 15, 15, 2, false)
	tc.check(t, "15^3 given an empty Lib", tc.run(t, &openblas.Lib{}, smallGEMM))
}

// TestGEMMConcurrent runs OpenBLAS products from several goroutines at
// once, as interpreters on their own goroutines do.
func TestGEMMConcurrent(t *testing.T) {
	lib, err := openblas.Load()
	if err != nil {
		t.Skip(err)
	}
	cases := make([]gemmCase, 8)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range cases {
		cases[i] = randomGEMM(r, []ir.Type{ir.F32, ir.F64}[i%2])
	}
	got := make([][]float64, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i := range cases {
		wg.Go(func() { got[i], errs[i] = cases[i].product(lib, 0) })
	}
	wg.Wait()
	for i := range cases {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		cases[i].check(t, fmt.Sprintf("goroutine %d", i), got[i])
	}
}
