package kernel

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

var _ backend.GEMMer = cudaBackend{}

func TestLoadBLASError(t *testing.T) {
	if _, err := loadBLAS(); err == nil {
		t.Skip("cuBLAS is installed")
	} else if !errors.Is(err, backend.ErrNoBLAS) || !strings.Contains(err.Error(), "libcublas.so.13") {
		t.Errorf("got %v", err)
	}
}

// gemmCase is a GEMM over operands in Go slices; Data holds 1, 2, 3 (A,
// B, C) so that a mapped call can be checked to read the right slice.
type gemmCase struct {
	g       backend.GEMM
	a, b, c []float64
}

// newGEMMCase lays out batch x (m x k) @ (k x n) with the given
// transposes, leading dimensions padded by pad, and a broadcast B when
// bcast.
func newGEMMCase(m, n, k, batch int, ta, tb bool, pad int, bcast bool) *gemmCase {
	mat := func(data uintptr, rows, cols int, trans bool, entries int) (backend.Matrix, []float64) {
		inner, outer := cols, rows
		if trans {
			inner, outer = rows, cols
		}
		ld := inner + pad
		stride := ld * max(outer, 1)
		x := backend.Matrix{Data: data, Trans: trans, LD: max(ld, 1), BatchStride: stride}
		if entries == 1 {
			x.BatchStride = 0
		}
		v := make([]float64, stride*entries)
		for i := range v {
			v[i] = float64((i*7+int(data))%11) - 5
		}
		return x, v
	}
	bEntries := batch
	if bcast {
		bEntries = 1
	}
	c := &gemmCase{g: backend.GEMM{DType: ir.F64, M: m, N: n, K: k, Batch: batch}}
	c.g.A, c.a = mat(1, m, k, ta, batch)
	c.g.B, c.b = mat(2, k, n, tb, bEntries)
	c.g.C, c.c = mat(3, m, n, false, batch)
	return c
}

// at is element (i, j) of batch entry z of x in v.
func at(x backend.Matrix, v []float64, z, i, j int) *float64 {
	if x.Trans {
		i, j = j, i
	}
	return &v[z*x.BatchStride+i*x.LD+j]
}

// rowMajor is the product by its definition, in the GEMM's own terms.
func (c *gemmCase) rowMajor() []float64 {
	out := append([]float64(nil), c.c...)
	g := c.g
	for z := range g.Batch {
		for i := range g.M {
			for j := range g.N {
				s := 0.0
				for l := range g.K {
					s += *at(g.A, c.a, z, i, l) * *at(g.B, c.b, z, l, j)
				}
				*at(g.C, out, z, i, j) = s
			}
		}
	}
	return out
}

// columnMajorRef runs a cuBLAS call as the reference BLAS defines it
// (column-major, op(X) = X or X^T), on the slices its pointers name.
func (c *gemmCase) columnMajorRef(bc cuda.Gemm) []float64 {
	out := append([]float64(nil), c.c...)
	slice := map[cuda.DevicePtr][]float64{1: c.a, 2: c.b, 3: out}
	elem := func(o cuda.GemmOperand, op cuda.Operation, z, i, j int) float64 {
		if op == cuda.OpT {
			i, j = j, i
		}
		v, k := slice[o.Ptr], int64(z)*o.Stride+int64(i+j*o.LD)
		if k >= int64(len(v)) {
			return math.NaN() // a wrong mapping reads past its operand
		}
		return v[k]
	}
	for z := range bc.Batch {
		for i := range bc.M {
			for j := range bc.N {
				s := 0.0
				for l := range bc.K {
					s += elem(bc.A, bc.TransA, z, i, l) * elem(bc.B, bc.TransB, z, l, j)
				}
				slice[bc.C.Ptr][int64(z)*bc.C.Stride+int64(i+j*bc.C.LD)] = bc.Alpha * s // Beta is 0: C is written, never read
			}
		}
	}
	return out
}

func gemmCases() []*gemmCase {
	var out []*gemmCase
	for _, sh := range [][4]int{{3, 5, 7, 1}, {1, 4, 2, 1}, {6, 1, 3, 2}, {4, 3, 5, 3}, {2, 2, 1, 1}} {
		for _, ta := range []bool{false, true} {
			for _, tb := range []bool{false, true} {
				for _, pad := range []int{0, 2} {
					out = append(out, newGEMMCase(sh[0], sh[1], sh[2], sh[3], ta, tb, pad, sh[3] > 1 && pad > 0))
				}
			}
		}
	}
	return out
}

func (c *gemmCase) String() string {
	g := c.g
	return fmt.Sprintf("M=%d N=%d K=%d batch=%d transA=%v transB=%v ldA=%d broadcastB=%v",
		g.M, g.N, g.K, g.Batch, g.A.Trans, g.B.Trans, g.A.LD, g.B.BatchStride == 0)
}

// TestColumnMajor checks the operand swap: the column-major call computes
// the row-major product for every layout.
func TestColumnMajor(t *testing.T) {
	for _, c := range gemmCases() {
		if err := c.g.Check(); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		bc := columnMajor(&c.g)
		if bc.Compute != cuda.Compute64F || bc.A.Type != cuda.R64F {
			t.Errorf("%v: compute %d type %d", c, bc.Compute, bc.A.Type)
		}
		want, got := c.rowMajor(), c.columnMajorRef(bc)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%v:\n got %v\nwant %v", c, got, want)
		}
	}
}

func TestColumnMajorCompute(t *testing.T) {
	g := backend.GEMM{DType: ir.F32}
	if c := columnMajor(&g); c.Compute != cuda.Compute32F || c.C.Type != cuda.R32F {
		t.Errorf("f32: compute %d type %d", c.Compute, c.C.Type)
	}
	g.TF32 = true
	if c := columnMajor(&g); c.Compute != cuda.Compute32FFastTF32 {
		t.Errorf("f32 with TF32: compute %d", c.Compute)
	}
	g.DType = ir.F64
	if c := columnMajor(&g); c.Compute != cuda.Compute64F {
		t.Errorf("f64 with TF32: compute %d", c.Compute)
	}
}
