package kernel

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/internal/cudadev"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// gpuBLAS is cuda:0 with cuBLAS, or a skip.
func gpuBLAS(t *testing.T) *cudadev.Dev {
	t.Helper()
	d, err := cudadev.Get(0)
	if err != nil {
		t.Skip("no CUDA: ", err)
	}
	if _, err := loadBLAS(); err != nil {
		t.Skip(err)
	}
	return d
}

// TestGPUGEMM runs every layout of TestColumnMajor (non-square,
// transposed, padded, batched, broadcast) through the backend on cuda:0
// against the host product, then products over no terms (K = 0: C
// cleared row by row; stdlib/testdata/matmul.gs has a contiguous one) and
// one larger than cuBLAS's tiles.
func TestGPUGEMM(t *testing.T) {
	d := gpuBLAS(t)
	cases := append(gemmCases(), newGEMMCase(3, 4, 0, 2, false, false, 1, false),
		newGEMMCase(2, 3, 0, 1, true, false, 1, false), newGEMMCase(300, 129, 257, 2, false, true, 3, true))
	for _, c := range cases {
		got, err := deviceGEMM(d, c, false)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if want := c.rowMajor(); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%v:\n got %v\nwant %v", c, got, want)
		}
	}
}

// TestGPUGEMMCapture records a batched, transposed GEMM in a capture of
// the device's stream, then replays the graph into a cleared C.
func TestGPUGEMMCapture(t *testing.T) {
	d := gpuBLAS(t)
	c := newGEMMCase(33, 17, 65, 3, true, false, 0, false) // no padding: the replay check clears all of C
	got, err := deviceGEMM(d, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := c.rowMajor(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("replayed:\n got %v\nwant %v", got, want)
	}
}

// deviceGEMM copies c's operands to d, runs the GEMM (recorded by a
// capture and replayed, with capture) and returns C.
func deviceGEMM(d *cudadev.Dev, c *gemmCase, capture bool) ([]float64, error) {
	out := make([]float64, len(c.c))
	err := d.Ctx.Do(func() error {
		host := [][]float64{c.a, c.b, c.c}
		var ptrs [3]cuda.DevicePtr
		for i, v := range host {
			p, err := d.Drv.MemAlloc(8 * len(v))
			if err != nil {
				return err
			}
			defer d.Drv.MemFree(p)
			if err := d.Drv.MemcpyHtoD(p, unsafe.Pointer(&v[0]), 8*len(v)); err != nil {
				return err
			}
			ptrs[i] = p
		}
		g := c.g
		g.A.Data, g.B.Data, g.C.Data = uintptr(ptrs[0]), uintptr(ptrs[1]), uintptr(ptrs[2])
		gemm := func() error { return cudaBackend{}.GEMM(&backend.Env{}, mem.Device{Type: mem.CUDA}, &g) }
		run := gemm
		if capture {
			run = func() error { return captured(d, gemm, ptrs[2], 8*len(c.c)) }
		}
		if err := run(); err != nil {
			return err
		}
		if err := d.Drv.StreamSynchronize(d.Stream); err != nil {
			return err
		}
		return d.Drv.MemcpyDtoH(unsafe.Pointer(&out[0]), ptrs[2], 8*len(out))
	})
	return out, err
}

// captured records fn on d's stream, clears the n bytes at c, then
// launches the graph.
func captured(d *cudadev.Dev, fn func() error, c cuda.DevicePtr, n int) error {
	if _, err := blasFor(d); err != nil {
		return err // the handle is made outside the capture, as a warm process has it
	}
	if err := d.Drv.StreamBeginCapture(d.Stream, cuda.CaptureModeGlobal); err != nil {
		return err
	}
	d.SetCapturing(true)
	err := fn()
	d.SetCapturing(false)
	graph, eerr := d.Drv.StreamEndCapture(d.Stream)
	if err != nil || eerr != nil {
		return fmt.Errorf("capture: %v; end: %v", err, eerr)
	}
	defer d.Drv.GraphDestroy(graph)
	exec, err := d.Drv.GraphInstantiate(graph, 0)
	if err != nil {
		return err
	}
	defer d.Drv.GraphExecDestroy(exec)
	if err := d.Drv.MemsetD8Async(c, 0, n, d.Stream); err != nil {
		return err
	}
	return d.Drv.GraphLaunch(exec, d.Stream)
}
