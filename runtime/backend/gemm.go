package backend

import (
	"errors"
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// GEMM is one (batched) matrix product C = A @ B of row-major matrices:
// Batch products of an M x K matrix by a K x N one. The caller checks
// shapes and picks each operand's layout (Matrix); a backend only checks
// what it needs to run without crashing.
type GEMM struct {
	DType   ir.Type // F32 or F64 (GEMMer.GEMM refuses others with ErrGEMMType)
	M, N, K int
	Batch   int
	A, B, C Matrix // C is never Trans
	// TF32 allows f32 products on tensor cores with TF32 inputs
	// (config.allow_tf32); backends without them ignore it.
	TF32 bool
}

// Matrix is one operand of a GEMM in memory on the GEMM's device.
type Matrix struct {
	Data uintptr // address of element [0, 0] of batch entry 0
	// Trans says the matrix is stored as its transpose (column-major):
	// element (i, j) is at j*LD + i instead of i*LD + j.
	Trans bool
	LD    int // elements between rows (columns when Trans); at least 1
	// BatchStride is the elements between batch entries; 0 repeats one
	// matrix for every entry (a broadcast batch).
	BatchStride int
}

// GEMMer is the optional interface of a backend that multiplies matrices
// with a BLAS library.
type GEMMer interface {
	// GEMM queues g on dev as launches are queued (CUDA: on the device's
	// stream, so that a capture records it; cpu: to completion).
	GEMM(env *Env, dev mem.Device, g *GEMM) error
}

// BLASNamer is the optional interface of a GEMMer that says which library
// runs its products (gscript devices, device_info), e.g. the cpu's
// OpenBLAS with its build options, or gonum and why.
type BLASNamer interface {
	BLASName(dev mem.Device) string
}

// BLASName is the library behind dev's matrix products; "" when its
// backend does not say.
func BLASName(dev mem.Device) string {
	g, err := GEMMFor(dev)
	if err != nil {
		return ""
	}
	if n, ok := g.(BLASNamer); ok {
		return n.BLASName(dev)
	}
	return ""
}

// ErrNoBLAS is wrapped by a GEMM error that means the device has no BLAS
// library in this process (cuBLAS not found): the caller falls back to a
// generated kernel.
var ErrNoBLAS = errors.New("no BLAS library")

// ErrGEMMType is wrapped by a GEMM error for a dtype BLAS does not have.
var ErrGEMMType = errors.New("no BLAS routine for this dtype")

// GEMMFor returns the GEMMer of dev's backend; its error wraps ErrNoBLAS
// when the backend has none.
func GEMMFor(dev mem.Device) (GEMMer, error) {
	b, err := For(dev)
	if err != nil {
		return nil, err
	}
	g, ok := b.(GEMMer)
	if !ok {
		return nil, fmt.Errorf("%w: the backend of %s has no matrix product", ErrNoBLAS, dev)
	}
	return g, nil
}

// Check reports a malformed GEMM: extents, leading dimensions too short
// for their rows, a dtype without a routine.
func (g *GEMM) Check() error {
	if g.DType != ir.F32 && g.DType != ir.F64 {
		return fmt.Errorf("%w: %s", ErrGEMMType, g.DType)
	}
	if g.M < 0 || g.N < 0 || g.K < 0 || g.Batch < 0 {
		return fmt.Errorf("GEMM extents M=%d N=%d K=%d batch=%d", g.M, g.N, g.K, g.Batch)
	}
	if g.C.Trans {
		return errors.New("GEMM: C must be row-major")
	}
	for _, c := range []struct {
		name       string
		m          Matrix
		rows, cols int
	}{{"A", g.A, g.M, g.K}, {"B", g.B, g.K, g.N}, {"C", g.C, g.M, g.N}} {
		inner := c.cols
		if c.m.Trans {
			inner = c.rows
		}
		if c.m.LD < max(1, inner) {
			return fmt.Errorf("GEMM: %s has leading dimension %d, want at least %d", c.name, c.m.LD, max(1, inner))
		}
	}
	return nil
}
