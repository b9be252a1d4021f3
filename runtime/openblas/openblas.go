package openblas

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// Soname is the library Load opens: OpenBLAS's runtime library as Debian's
// libopenblas0-pthread (and most distributions) install it, found by the
// dynamic loader's own search (LD_LIBRARY_PATH, ld.so.cache), as the CUDA
// driver is.
const Soname = "libopenblas.so.0"

// Package is the Debian package that installs Soname, named in Load's error.
const Package = "libopenblas0-pthread"

// ErrNotFound is wrapped by Load's error when OpenBLAS cannot be used.
var ErrNotFound = errors.New("OpenBLAS not found")

// ErrRange is wrapped by a call's error when an extent or leading
// dimension does not fit CBLAS's 32-bit int; nothing was called.
var ErrRange = errors.New("out of range of a C int")

// Order is a CBLAS_ORDER (cblas.h).
type Order int32

// Storage orders of a GEMM's matrices.
const (
	RowMajor Order = 101 // CblasRowMajor
	ColMajor Order = 102 // CblasColMajor
)

// Transpose is a CBLAS_TRANSPOSE.
type Transpose int32

// Operations on a GEMM operand.
const (
	NoTrans Transpose = 111 // CblasNoTrans
	Trans   Transpose = 112 // CblasTrans
)

// Lib is the loaded OpenBLAS library: the few CBLAS entry points the cpu's
// matrix products need and two queries, called as the C API is. Its
// methods are safe for concurrent use (OpenBLAS's pthread build serialises
// what it must).
type Lib struct {
	path string

	sgemm func(order Order, ta, tb Transpose, m, n, k int32, alpha float32,
		a uintptr, lda int32, b uintptr, ldb int32, beta float32, c uintptr, ldc int32)
	dgemm func(order Order, ta, tb Transpose, m, n, k int32, alpha float64,
		a uintptr, lda int32, b uintptr, ldb int32, beta float64, c uintptr, ldc int32)
	// The queries are OpenBLAS extensions, absent from other CBLAS
	// libraries: nil when the library lacks them.
	getConfig     func() string
	getNumThreads func() int32
}

var (
	loadOnce sync.Once
	loaded   *Lib
	loadErr  error
)

// Load opens Soname once per process. The error wraps ErrNotFound and
// names the package to install. Opening it starts OpenBLAS's worker
// threads, so callers load it on first use.
func Load() (*Lib, error) {
	loadOnce.Do(func() { loaded, loadErr = load(Soname) })
	return loaded, loadErr
}

// load opens the library at path (a soname or a file) and resolves its
// symbols.
func load(path string) (*Lib, error) {
	h, err := dl.Open(path, false)
	if err != nil {
		msg := err.Error() // the loader's, which names path on glibc
		if !strings.Contains(msg, path) {
			msg = path + ": " + msg
		}
		return nil, fmt.Errorf("%w: %s (install %s, e.g. apt-get install %[3]s)", ErrNotFound, msg, Package)
	}
	l := &Lib{path: path}
	for _, s := range []struct {
		name     string
		fptr     any
		required bool
	}{
		{"cblas_sgemm", &l.sgemm, true}, {"cblas_dgemm", &l.dgemm, true},
		{"openblas_get_config", &l.getConfig, false}, {"openblas_get_num_threads", &l.getNumThreads, false},
	} {
		addr := dl.Sym(h, s.name)
		if addr == 0 && s.required {
			return nil, fmt.Errorf("%w: %s lacks %s (not a CBLAS library: install %s)", ErrNotFound, path, s.name, Package)
		}
		if addr != 0 {
			dl.Bind(s.fptr, addr)
		}
	}
	return l, nil
}

// Path is the library that was loaded (the soname the loader resolved).
func (l *Lib) Path() string { return l.path }

// Config is openblas_get_config(): the version and build options, e.g.
// "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64";
// "" when the library does not export it.
func (l *Lib) Config() string {
	if l.getConfig == nil {
		return ""
	}
	return l.getConfig()
}

// NumThreads is openblas_get_num_threads(): the threads one call may use
// (OPENBLAS_NUM_THREADS, else every core); 0 when the library does not
// export it.
func (l *Lib) NumThreads() int {
	if l.getNumThreads == nil {
		return 0
	}
	return int(l.getNumThreads())
}

// Gemm is the argument list of cblas_sgemm and cblas_dgemm:
// C = Alpha op(A) op(B) + Beta C with op(A) M x K and op(B) K x N, each
// matrix stored in Order with its leading dimension. A, B and C are
// addresses of memory Go does not move; the caller keeps it alive and
// checks that the leading dimensions fit (CBLAS reports a bad one on
// stderr through cblas_xerbla and computes nothing).
type Gemm struct {
	Order          Order
	TransA, TransB Transpose
	M, N, K        int
	Alpha, Beta    float64 // rounded to float32 by Sgemm
	A, B, C        uintptr
	LDA, LDB, LDC  int
}

// ints returns the extents as C ints, or an error wrapping ErrRange.
func (g *Gemm) ints() ([6]int32, error) {
	var out [6]int32
	for i, v := range []int{g.M, g.N, g.K, g.LDA, g.LDB, g.LDC} {
		if v < math.MinInt32 || v > math.MaxInt32 {
			return out, fmt.Errorf("CBLAS GEMM: extent %d %w", v, ErrRange)
		}
		out[i] = int32(v)
	}
	return out, nil
}

// Sgemm runs cblas_sgemm on float32 matrices.
func (l *Lib) Sgemm(g *Gemm) error {
	d, err := g.ints()
	if err != nil {
		return err
	}
	l.sgemm(g.Order, g.TransA, g.TransB, d[0], d[1], d[2], float32(g.Alpha), g.A, d[3], g.B, d[4], float32(g.Beta), g.C, d[5])
	return nil
}

// Dgemm runs cblas_dgemm on float64 matrices.
func (l *Lib) Dgemm(g *Gemm) error {
	d, err := g.ints()
	if err != nil {
		return err
	}
	l.dgemm(g.Order, g.TransA, g.TransB, d[0], d[1], d[2], g.Alpha, g.A, d[3], g.B, d[4], g.Beta, g.C, d[5])
	return nil
}
