package openblas

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

func TestLoadMissing(t *testing.T) {
	_, err := load("/nonexistent/libopenblas.so.0")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "install libopenblas0-pthread") ||
		!strings.Contains(err.Error(), "/nonexistent/libopenblas.so.0") {
		t.Fatalf("load of a missing library: %v", err)
	}
	t.Log(err)
}

// TestLoadNotCBLAS opens a library that exists but has no CBLAS.
func TestLoadNotCBLAS(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("libc.so.6 is glibc's soname")
	}
	_, err := load("libc.so.6")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "libc.so.6 lacks cblas_sgemm") {
		t.Fatalf("load of libc: %v", err)
	}
}

func loadOrSkip(t *testing.T) *Lib {
	l, err := Load()
	if err != nil {
		t.Skip(err)
	}
	return l
}

func TestQueries(t *testing.T) {
	l := loadOrSkip(t)
	if c := l.Config(); !strings.HasPrefix(c, "OpenBLAS ") {
		t.Errorf("Config() = %q, want OpenBLAS's version first", c)
	}
	if n := l.NumThreads(); n < 1 {
		t.Errorf("NumThreads() = %d", n)
	}
}

// TestGemm checks every order and transpose combination, with alpha and
// beta that are not 1 and 0 (they travel in float registers), against a
// naive product; the operands are small integers, so the results are
// exact.
func TestGemm(t *testing.T) {
	l := loadOrSkip(t)
	const m, n, k = 3, 4, 5
	for _, order := range []Order{RowMajor, ColMajor} {
		for _, ta := range []Transpose{NoTrans, Trans} {
			for _, tb := range []Transpose{NoTrans, Trans} {
				a, lda := matrix(order, ta, m, k, 1)
				b, ldb := matrix(order, tb, k, n, 2)
				c, ldc := matrix(order, NoTrans, m, n, 3)
				want := naive(order, ta, tb, m, n, k, 2, a, lda, b, ldb, 0.5, c, ldc)
				g := Gemm{Order: order, TransA: ta, TransB: tb, M: m, N: n, K: k, Alpha: 2, Beta: 0.5,
					A: addr(a), B: addr(b), C: addr(c), LDA: lda, LDB: ldb, LDC: ldc}
				c32, a32, b32 := f32(c), f32(a), f32(b)
				g32 := g
				g32.A, g32.B, g32.C = addr(a32), addr(b32), addr(c32)
				if err := l.Dgemm(&g); err != nil {
					t.Fatal(err)
				}
				if err := l.Sgemm(&g32); err != nil {
					t.Fatal(err)
				}
				runtime.KeepAlive([]any{a, b, a32, b32})
				for i := range want {
					if c[i] != want[i] || float64(c32[i]) != want[i] {
						t.Fatalf("order %d trans %d %d: element %d: dgemm %v sgemm %v, want %v", order, ta, tb, i, c[i], c32[i], want[i])
					}
				}
			}
		}
	}
}

func TestGemmRange(t *testing.T) {
	l := loadOrSkip(t)
	g := Gemm{Order: RowMajor, TransA: NoTrans, TransB: NoTrans, M: 1, N: 1, K: math.MaxInt32 + 1, LDA: 1, LDB: 1, LDC: 1}
	if err := l.Sgemm(&g); !errors.Is(err, ErrRange) {
		t.Fatalf("Sgemm with K = 2^31: %v", err)
	}
}

// matrix is an r x c matrix (stored transposed when t is Trans) of small
// integers, with a leading dimension one past the minimum.
func matrix(o Order, t Transpose, r, c, seed int) ([]float64, int) {
	if (o == ColMajor) != (t == Trans) {
		r, c = c, r
	}
	ld := c + 1
	x := make([]float64, r*ld)
	for i := range x {
		x[i] = float64((i*seed*7+3)%9 - 4)
	}
	return x, ld
}

// naive computes alpha op(A) op(B) + beta C by the definition.
func naive(o Order, ta, tb Transpose, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) []float64 {
	at := func(x []float64, ld int, t Transpose, i, j int) float64 {
		if (o == ColMajor) != (t == Trans) {
			i, j = j, i
		}
		return x[i*ld+j]
	}
	out := append([]float64(nil), c...)
	for i := range m {
		for j := range n {
			s := 0.0
			for q := range k {
				s += at(a, lda, ta, i, q) * at(b, ldb, tb, q, j)
			}
			p := i*ldc + j
			if o == ColMajor {
				p = j*ldc + i
			}
			out[p] = alpha*s + beta*c[p]
		}
	}
	return out
}

func f32(x []float64) []float32 {
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(v)
	}
	return out
}

func addr[T any](x []T) uintptr { return uintptr(unsafe.Pointer(&x[0])) }
