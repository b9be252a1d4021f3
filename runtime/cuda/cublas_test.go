package cuda

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

func TestCUBLASSearch(t *testing.T) {
	env := newFakeEnv(map[string]string{"CUDA_HOME": "/opt/cuda-13"},
		"/opt/cuda-13/lib64/libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.12",
		"/venv/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.12")
	env.env["VIRTUAL_ENV"] = "/venv"
	want := []string{
		"/opt/cuda-13/lib64/libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.12",
		"libcublas.so.13", "libcublas.so.12",
		"/venv/lib/python3.12/site-packages/nvidia/cublas/lib/libcublas.so.12",
	}
	if got := cublasCandidates(env); !reflect.DeepEqual(got, want) {
		t.Errorf("candidates:\n got %q\nwant %q", got, want)
	}
}

func TestLoadCUBLASNotFound(t *testing.T) {
	_, err := loadCUBLAS([]string{"/nonexistent/libcublas.so.13", "libgscript-no-cublas.so.1"})
	if !errors.Is(err, ErrNoCUBLAS) || !strings.Contains(err.Error(), "cuBLAS not found: libcublas.so.13, libcublas.so.12, libcublas.so in") {
		t.Errorf("got %v", err)
	}
	_, err = loadCUBLAS([]string{"libc.so.6"})
	if err == nil || !strings.Contains(err.Error(), "libc.so.6 (lacks cublasCreate_v2)") {
		t.Errorf("got %v", err)
	}
}

// fakeCUBLAS stands libc's labs in for every cuBLAS function: the status
// is |first argument|, so the handle picks it, and the 19- and 23-argument
// calls run through the real call path.
func fakeCUBLAS(t *testing.T) *CUBLAS {
	lib, err := dl.Open("libc.so.6", true)
	if err != nil {
		t.Skipf("no libc.so.6: %v", err)
	}
	labs := dl.Sym(lib, "labs")
	if labs == 0 {
		t.Skip("libc lacks labs")
	}
	c := &CUBLAS{path: "fake-libcublas"}
	for _, s := range c.table() {
		s.p.names, s.p.addr = s.names, labs
	}
	return c
}

func TestCUBLASStatus(t *testing.T) {
	c := fakeCUBLAS(t)
	g := &Gemm{M: 2, N: 2, K: 2, Alpha: 1, Batch: 2, Compute: Compute64F, Algo: GemmDefault}
	if err := c.GemmEx(0, g); err != nil {
		t.Errorf("status 0: %v", err)
	}
	err := c.GemmStridedBatchedEx(13, g)
	if err == nil || err.Error() != "cublasGemmStridedBatchedEx: CUBLAS_STATUS_EXECUTION_FAILED" {
		t.Errorf("got %v", err)
	}
	if err := c.SetStream(99, 0); err == nil || err.Error() != "cublasSetStream_v2: cublasStatus_t(99)" {
		t.Errorf("got %v", err)
	}
	if err := c.SetMathMode(BLASStatusNotSupported, DefaultMath); !IsCode(err, BLASStatusNotSupported) {
		t.Errorf("got %v", err)
	}
	if err := c.GemmEx(0, &Gemm{M: math.MaxInt32 + 1}); err == nil {
		t.Error("an M beyond a C int passed")
	}
}

// TestGPUCublas multiplies 64 x 64 matrices with GemmEx in f32 and f64 on
// the legacy stream and compares with a host product.
func TestGPUCublas(t *testing.T) {
	d, ctx := gpu(t)
	c, err := LoadCUBLAS()
	if err != nil {
		t.Skipf("no cuBLAS: %v", err)
	}
	t.Logf("cuBLAS: %s", c.Path())
	do(t, ctx, func() error {
		h, err := c.Create()
		if err != nil {
			return err
		}
		defer c.Destroy(h)
		if err := c.SetStream(h, 0); err != nil {
			return err
		}
		if err := gpuGemm64[float32](t, d, c, h, R32F, Compute32F); err != nil {
			return err
		}
		return gpuGemm64[float64](t, d, c, h, R64F, Compute64F)
	})
}

func gpuGemm64[T float32 | float64](t *testing.T, d *Driver, c *CUBLAS, h BLASHandle, dt DataType, ct ComputeType) error {
	const n = 64
	a, b := make([]T, n*n), make([]T, n*n)
	for i := range a {
		a[i], b[i] = T(i%7)-3, T(i%5)-2
	}
	var z T
	size := n * n * int(unsafe.Sizeof(z))
	var ptrs [3]DevicePtr
	for i := range ptrs {
		p, err := d.MemAlloc(size)
		if err != nil {
			return err
		}
		defer d.MemFree(p)
		ptrs[i] = p
	}
	if err := d.MemcpyHtoD(ptrs[0], unsafe.Pointer(&a[0]), size); err != nil {
		return err
	}
	if err := d.MemcpyHtoD(ptrs[1], unsafe.Pointer(&b[0]), size); err != nil {
		return err
	}
	g := &Gemm{TransA: OpN, TransB: OpT, M: n, N: n, K: n, Alpha: 1,
		A: GemmOperand{Ptr: ptrs[0], Type: dt, LD: n}, B: GemmOperand{Ptr: ptrs[1], Type: dt, LD: n},
		C: GemmOperand{Ptr: ptrs[2], Type: dt, LD: n}, Compute: ct, Algo: GemmDefault}
	if err := c.GemmEx(h, g); err != nil {
		return err
	}
	got := make([]T, n*n)
	if err := d.MemcpyDtoH(unsafe.Pointer(&got[0]), ptrs[2], size); err != nil {
		return err
	}
	// Column-major: C[i + j*n] = sum_l A[i + l*n] * B^T[l, j] = B[j + l*n].
	for i := range n {
		for j := range n {
			var s T
			for l := range n {
				s += a[i+l*n] * b[j+l*n]
			}
			if got[i+j*n] != s {
				t.Errorf("%T C[%d, %d] = %v, want %v", z, i, j, got[i+j*n], s)
				return nil
			}
		}
	}
	return nil
}
