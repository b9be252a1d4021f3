package cuda

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// CUBLAS is the loaded cuBLAS library: the few entry points a matrix
// product needs, called as the C API is (cublas_api.h of CUDA 13.0).
type CUBLAS struct {
	path string

	cublasCreate, cublasDestroy, cublasSetStream, cublasSetWorkspace proc
	cublasSetMathMode, cublasGemmEx, cublasGemmStridedBatchedEx      proc
}

func (c *CUBLAS) table() []symbol {
	r := func(q *proc, name string) symbol { return symbol{q, []string{name}, true} }
	return []symbol{
		r(&c.cublasCreate, "cublasCreate_v2"), r(&c.cublasDestroy, "cublasDestroy_v2"),
		r(&c.cublasSetStream, "cublasSetStream_v2"), r(&c.cublasSetWorkspace, "cublasSetWorkspace_v2"),
		r(&c.cublasSetMathMode, "cublasSetMathMode"),
		r(&c.cublasGemmEx, "cublasGemmEx"), r(&c.cublasGemmStridedBatchedEx, "cublasGemmStridedBatchedEx"),
	}
}

// BLASHandle is a cublasHandle_t.
type BLASHandle uintptr

// DataType is a cudaDataType (library_types.h).
type DataType int32

// Data types of GEMM operands.
const (
	R32F DataType = 0 // CUDA_R_32F
	R64F DataType = 1 // CUDA_R_64F
)

// ComputeType is a cublasComputeType_t.
type ComputeType int32

// Compute types of GemmEx.
const (
	Compute32F         ComputeType = 68 // CUBLAS_COMPUTE_32F
	Compute32FFastTF32 ComputeType = 77 // CUBLAS_COMPUTE_32F_FAST_TF32: tensor cores, TF32 inputs
	Compute64F         ComputeType = 70 // CUBLAS_COMPUTE_64F
)

// Operation is a cublasOperation_t.
type Operation int32

// Operations on a GEMM operand.
const (
	OpN Operation = 0 // CUBLAS_OP_N
	OpT Operation = 1 // CUBLAS_OP_T
)

// GemmAlgo is a cublasGemmAlgo_t.
type GemmAlgo int32

// GemmDefault lets cuBLAS pick the algorithm (CUBLAS_GEMM_DEFAULT).
const GemmDefault GemmAlgo = -1

// MathMode is a cublasMath_t.
type MathMode int32

// Math modes of a handle.
const (
	DefaultMath  MathMode = 0 // CUBLAS_DEFAULT_MATH
	PedanticMath MathMode = 2 // CUBLAS_PEDANTIC_MATH
)

// Status codes (cublasStatus_t) that callers test for with IsCode.
const (
	BLASStatusNotInitialized = 1
	BLASStatusInvalidValue   = 7
	BLASStatusNotSupported   = 15
)

// cublasStatusNames is cublasStatus_t from cublas_api.h.
var cublasStatusNames = map[int]string{
	1:  "CUBLAS_STATUS_NOT_INITIALIZED",
	3:  "CUBLAS_STATUS_ALLOC_FAILED",
	7:  "CUBLAS_STATUS_INVALID_VALUE",
	8:  "CUBLAS_STATUS_ARCH_MISMATCH",
	11: "CUBLAS_STATUS_MAPPING_ERROR",
	13: "CUBLAS_STATUS_EXECUTION_FAILED",
	14: "CUBLAS_STATUS_INTERNAL_ERROR",
	15: "CUBLAS_STATUS_NOT_SUPPORTED",
	16: "CUBLAS_STATUS_LICENSE_ERROR",
}

var (
	cublasOnce   sync.Once
	cublasLoaded *CUBLAS
	cublasErr    error
)

// ErrNoCUBLAS is wrapped by LoadCUBLAS's error: CUDA itself may work.
var ErrNoCUBLAS = errors.New("cuBLAS not found")

// LoadCUBLAS finds and opens cuBLAS once per process (search order in
// cublasCandidates). The error wraps ErrNoCUBLAS and names the libraries
// looked for.
func LoadCUBLAS() (*CUBLAS, error) {
	cublasOnce.Do(func() { cublasLoaded, cublasErr = loadCUBLAS(cublasCandidates(osEnv{})) })
	return cublasLoaded, cublasErr
}

// loadCUBLAS opens the first candidate that loads and has every symbol.
func loadCUBLAS(candidates []string) (*CUBLAS, error) {
	var tried []string
	for _, cand := range candidates {
		lib, err := dl.Open(cand, true)
		if err != nil {
			continue
		}
		c := &CUBLAS{path: cand}
		missing := ""
		for _, s := range c.table() {
			s.p.names = s.names
			if s.p.addr = dl.Sym(lib, s.names[0]); s.p.addr == 0 && missing == "" {
				missing = s.names[0]
			}
		}
		if missing != "" {
			tried = append(tried, cand+" (lacks "+missing+")")
			continue
		}
		return c, nil
	}
	msg := strings.Join(cublasSonames, ", ") + " in the CUDA toolkit's lib64, the loader's path or a pip wheel" +
		" (install the CUDA toolkit, set CUDA_HOME, or pip install nvidia-cublas)"
	if len(tried) > 0 {
		msg += "; unusable: " + strings.Join(tried, ", ")
	}
	return nil, fmt.Errorf("%w: %s", ErrNoCUBLAS, msg)
}

// Path is the library that was loaded (a path, or a soname the loader
// resolved).
func (c *CUBLAS) Path() string { return c.path }

// result turns a cublasStatus_t into an error.
func (c *CUBLAS) result(p *proc, r uintptr) error {
	code := int(int32(uint32(r)))
	if code == 0 {
		return nil
	}
	name, ok := cublasStatusNames[code]
	if !ok {
		name = "cublasStatus_t(" + strconv.Itoa(code) + ")"
	}
	return &Error{Code: code, Name: name, Func: p.name()}
}

// The methods below act on the device current on the calling OS thread
// when the handle was created: call them inside that context's Do.

// Create makes a handle for the current device (cublasCreate_v2). It
// allocates device memory: not inside a capture in global mode.
func (c *CUBLAS) Create() (BLASHandle, error) {
	var h BLASHandle
	err := c.call1(&c.cublasCreate, uintptr(unsafe.Pointer(&h)))
	return h, err
}

// Destroy frees a handle (cublasDestroy_v2).
func (c *CUBLAS) Destroy(h BLASHandle) error { return c.call1(&c.cublasDestroy, uintptr(h)) }

// SetStream makes h queue its work on s (cublasSetStream_v2).
func (c *CUBLAS) SetStream(h BLASHandle, s Stream) error {
	return c.call2(&c.cublasSetStream, uintptr(h), uintptr(s))
}

// SetWorkspace gives h n bytes of device memory at p for its scratch
// (cublasSetWorkspace_v2); without one, a GEMM inside a stream capture
// may allocate, which the capture forbids.
func (c *CUBLAS) SetWorkspace(h BLASHandle, p DevicePtr, n int) error {
	return c.call3(&c.cublasSetWorkspace, uintptr(h), uintptr(p), uintptr(n))
}

// SetMathMode sets h's math mode (cublasSetMathMode).
func (c *CUBLAS) SetMathMode(h BLASHandle, m MathMode) error {
	return c.call2(&c.cublasSetMathMode, uintptr(h), uintptr(m))
}

// GemmOperand is one matrix of a GemmEx call, column-major as BLAS has it.
type GemmOperand struct {
	Ptr    DevicePtr
	Type   DataType
	LD     int
	Stride int64 // elements between batch entries (strided batched only)
}

// Gemm is the argument list of cublasGemmEx and
// cublasGemmStridedBatchedEx: C = Alpha op(A) op(B) + Beta C, column-major,
// op(A) M x K, op(B) K x N. Alpha and Beta go to cuBLAS by host pointer
// (the default pointer mode), as float64 for Compute64F and as float32
// otherwise.
type Gemm struct {
	TransA, TransB Operation
	M, N, K        int
	Alpha, Beta    float64
	A, B, C        GemmOperand
	Batch          int // strided batched only
	Compute        ComputeType
	Algo           GemmAlgo
}

// check refuses extents that do not fit cuBLAS's int parameters.
func (g *Gemm) check() error {
	for _, v := range []int{g.M, g.N, g.K, g.A.LD, g.B.LD, g.C.LD, g.Batch} {
		if v < 0 || v > math.MaxInt32 {
			return fmt.Errorf("cuBLAS GEMM: extent %d out of range of a C int", v)
		}
	}
	return nil
}

// scalars returns host pointers to Alpha and Beta in the compute type's
// scalar type, in memory that stays put (the call wrappers keep it alive).
func (g *Gemm) scalars() (alpha, beta unsafe.Pointer) {
	if g.Compute == Compute64F {
		s := &[2]float64{g.Alpha, g.Beta}
		return unsafe.Pointer(&s[0]), unsafe.Pointer(&s[1])
	}
	s := &[2]float32{float32(g.Alpha), float32(g.Beta)}
	return unsafe.Pointer(&s[0]), unsafe.Pointer(&s[1])
}

// GemmEx queues one GEMM on h's stream (cublasGemmEx).
func (c *CUBLAS) GemmEx(h BLASHandle, g *Gemm) error {
	if err := g.check(); err != nil {
		return err
	}
	alpha, beta := g.scalars()
	return c.call19(&c.cublasGemmEx, uintptr(h), uintptr(g.TransA), uintptr(g.TransB),
		uintptr(g.M), uintptr(g.N), uintptr(g.K), uintptr(alpha),
		uintptr(g.A.Ptr), uintptr(g.A.Type), uintptr(g.A.LD),
		uintptr(g.B.Ptr), uintptr(g.B.Type), uintptr(g.B.LD), uintptr(beta),
		uintptr(g.C.Ptr), uintptr(g.C.Type), uintptr(g.C.LD),
		uintptr(g.Compute), uintptr(uint32(g.Algo)))
}

// GemmStridedBatchedEx queues g.Batch GEMMs, operand X of entry i at
// X.Ptr + i*X.Stride elements, on h's stream (cublasGemmStridedBatchedEx).
func (c *CUBLAS) GemmStridedBatchedEx(h BLASHandle, g *Gemm) error {
	if err := g.check(); err != nil {
		return err
	}
	alpha, beta := g.scalars()
	return c.call23(&c.cublasGemmStridedBatchedEx, uintptr(h), uintptr(g.TransA), uintptr(g.TransB),
		uintptr(g.M), uintptr(g.N), uintptr(g.K), uintptr(alpha),
		uintptr(g.A.Ptr), uintptr(g.A.Type), uintptr(g.A.LD), uintptr(g.A.Stride),
		uintptr(g.B.Ptr), uintptr(g.B.Type), uintptr(g.B.LD), uintptr(g.B.Stride), uintptr(beta),
		uintptr(g.C.Ptr), uintptr(g.C.Type), uintptr(g.C.LD), uintptr(g.C.Stride),
		uintptr(g.Batch), uintptr(g.Compute), uintptr(uint32(g.Algo)))
}
