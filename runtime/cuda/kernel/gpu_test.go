package kernel

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/check"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/lang/pos"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// quickstartKernels are the kernels of examples/quickstart.gs.
const quickstartKernels = `
kernel scale_add(x: array[f32], out: array[f32], s: f32, c: f32) {
    let i = tid()
    out[i] = s * x[i] + c
}
kernel transpose(src: array[i32, 2], dst: array[i32, 2]) {
    let i, j = tid()
    dst[j, i] = src[i, j]
}
func cube(v: f32) -> f32 {
    return v * v * v
}
kernel cube_all(x: array[f32]) {
    let i = tid()
    if i % 2 == 0 {
        x[i] = cube(x[i])
    }
}
kernel oob(x: array[f32]) {
    x[tid() + 1] = 1.0
}
`

func kernels(t testing.TB, src string) map[string]*ir.Kernel {
	f, err := syntax.Parse("k.gs", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	info, err := check.NewChecker(func(string) bool { return false }).Check(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*ir.Kernel{}
	for _, k := range info.Kernels {
		out[k.Entry.Name] = k
	}
	return out
}

func gpu(t testing.TB) (*cuda.Driver, *cuda.Context, *cuda.DeviceInfo) {
	drv, err := cuda.Load()
	if err != nil {
		t.Skip("no CUDA: ", err)
	}
	ctx, err := drv.PrimaryContext(0)
	if err != nil {
		t.Fatal(err)
	}
	info, err := drv.Device(0)
	if err != nil {
		t.Fatal(err)
	}
	return drv, ctx, info
}

// TestGPUBuildColdWarm compiles the quick-start kernels with an empty cache
// (NVRTC), then again from the cache in a new builder, and reports both.
func TestGPUBuildColdWarm(t *testing.T) {
	drv, ctx, info := gpu(t)
	ks := kernels(t, quickstartKernels)
	cache := &Cache{Dir: t.TempDir()}
	names := []string{"scale_add", "transpose", "cube_all"}
	id, known := cuda.NVRTCIdentity()
	t.Logf("NVRTC identity without loading it: %q (%v)", id, known)
	for _, label := range []string{"cold (NVRTC load and compile)", "warm (cache)"} {
		b := NewBuilder(drv, cache)
		start := time.Now()
		if label[0] == 'c' {
			b.loadNVRTC()
			t.Logf("NVRTC library load: %v", time.Since(start))
		}
		err := ctx.Do(func() error {
			for _, n := range names {
				k, err := b.Build(ks[n], info, Options{})
				if err != nil {
					return err
				}
				k.Unload()
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		d := time.Since(start)
		t.Logf("%s build of %d quick-start kernels: %v total, %v per module", label, len(names), d, d/time.Duration(len(names)))
	}
}

// TestGPUEveryOp compiles with NVRTC, and loads, the kernel of every op of
// the table at every operand type its row allows (lang/ir/irtest), plain,
// with debug checks and with fast math: codegen's exhaustiveness test proves it prints
// every op, this that what it prints is CUDA C that NVRTC takes.
func TestGPUEveryOp(t *testing.T) {
	drv, ctx, info := gpu(t)
	var cases []irtest.Case
	for _, op := range ir.Ops() {
		cases = append(cases, irtest.Cases(op)...)
	}
	b := NewBuilder(drv, nil)
	jobs := make(chan int)
	errs := make(chan error, len(cases))
	start := time.Now()
	for range 8 {
		go func() {
			for i := range jobs {
				errs <- ctx.Do(func() error {
					for _, opts := range []Options{{}, {Debug: true}, {FastMath: true}} {
						k, err := b.Build(cases[i].Kernel, info, opts)
						if err != nil {
							return fmt.Errorf("%s (%+v): %w", cases[i], opts, err)
						}
						k.Unload()
					}
					return nil
				})
			}
		}()
	}
	for i := range cases {
		jobs <- i
	}
	close(jobs)
	for range cases {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	t.Logf("%d op kernels compiled three times each in %v", len(cases), time.Since(start))
}

// TestGPULaunchAndDebug launches a kernel and checks the debug-mode bounds
// report, then that the context still works.
func TestGPULaunchAndDebug(t *testing.T) {
	drv, ctx, info := gpu(t)
	ks := kernels(t, quickstartKernels)
	b := NewBuilder(drv, &Cache{Dir: t.TempDir()})
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		const n = 1000
		x, err := drv.MemAlloc(4 * n)
		if err != nil {
			return err
		}
		defer drv.MemFree(x)
		host := make([]float32, n)
		for i := range host {
			host[i] = float32(i)
		}
		if err := drv.MemcpyHtoD(x, unsafe.Pointer(&host[0]), 4*n); err != nil {
			return err
		}
		k, err := b.Build(ks["scale_add"], info, Options{})
		if err != nil {
			return err
		}
		arr := backend.Array{Data: uintptr(x), Shape: [4]int{n}, Strides: [4]int{1}}
		args := []backend.Arg{{Array: arr}, {Array: arr}, {Bits: uint64(math.Float32bits(2))}, {Bits: uint64(math.Float32bits(1))}}
		if err := k.Launch(s, []int{n}, args); err != nil {
			return err
		}
		if err := drv.StreamSynchronize(s); err != nil {
			return err
		}
		if err := drv.MemcpyDtoH(unsafe.Pointer(&host[0]), x, 4*n); err != nil {
			return err
		}
		for i, v := range host {
			if v != 2*float32(i)+1 {
				t.Fatalf("x[%d] = %v", i, v)
			}
		}
		dk, err := b.Build(ks["oob"], info, Options{Debug: true})
		if err != nil {
			return err
		}
		if err := dk.Launch(s, []int{n}, []backend.Arg{{Array: arr}}); err != nil {
			return err
		}
		err = dk.CheckDebug(s, []backend.Arg{{Array: arr}})
		var ke *backend.KernelError
		if !errors.As(err, &ke) || ke.Msg != "index 1000 out of bounds for axis 0 of array x with shape [1000]" || ke.Pos.Line != 20 {
			t.Fatalf("debug report: %v", err)
		}
		// The context survives: a normal launch still works.
		if err := k.Launch(s, []int{n}, args); err != nil {
			return err
		}
		return drv.StreamSynchronize(s)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGPUCompileErrorPosition feeds NVRTC generated code with an error
// planted under the marker of script line 3 and checks that the error
// names the script's file, line and column.
func TestGPUCompileErrorPosition(t *testing.T) {
	drv, _, info := gpu(t)
	k := kernels(t, `kernel bad(x: array[f32]) {
    let i = tid()
    x[i] = x[i] * 2.0
}`)["bad"]
	src, err := codegen.Source(k, codegen.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(src, "\n")
	var want pos.Pos
	for i, l := range lines {
		if strings.Contains(l, `// gs:pos 3:`) {
			want, _ = codegen.ScriptPos(src, i+1)
			lines[i] += "\n  gs_planted_error = 1;"
			break
		}
	}
	if want.Line != 3 {
		t.Fatalf("no marker for line 3 in:\n%s", src)
	}
	_, err = NewBuilder(drv, nil).image(k, strings.Join(lines, "\n"), fmt.Sprintf("sm_%d%d", info.Major, info.Minor), false)
	var ce *backend.CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want a CompileError, got %v", err)
	}
	if ce.Pos != want || !strings.Contains(ce.Error(), want.String()+": error") {
		t.Errorf("position %v, want %v; message:\n%v", ce.Pos, want, ce)
	}
	t.Logf("NVRTC error as reported: %v", ce)
}

// TestGPUCoarsened runs kernels with every CUDA thread running
// codegen.CoarsenPer launch threads (as a launch far larger than the GPU
// does) and checks every element: a small 2-D kernel with an early return
// (the entry's unrolled path) and one with a loop (the general path).
func TestGPUCoarsened(t *testing.T) {
	drv, ctx, info := gpu(t)
	ks := kernels(t, `kernel stripes(x: array[i32, 2]) {
    let i, j = tid()
    if (i + j) % 3 == 0 { return }
    x[i, j] = i * 1000 + j
}
kernel sums(x: array[i32, 2]) {
    let i, j = tid()
    if (i + j) % 3 == 0 { return }
    let s = 0
    for k in range(j + 1) { s = s + k }
    x[i, j] = i * 1000 + s - j * (j + 1) / 2 + j
}`)
	const rows, cols = 37, 53
	for _, name := range []string{"stripes", "sums"} {
		err := ctx.Do(func() error {
			k, err := NewBuilder(drv, nil).Build(ks[name], info, Options{UnitStride: true})
			if err != nil {
				return err
			}
			defer k.Unload()
			k.coarsenAt = 1
			if g := geometry(rows*cols, k.coarsenAt); g.PerThread != codegen.CoarsenPer {
				t.Fatalf("PerThread = %d, want %d", g.PerThread, codegen.CoarsenPer)
			}
			x, err := drv.MemAlloc(4 * rows * cols)
			if err != nil {
				return err
			}
			defer drv.MemFree(x)
			if err := drv.MemsetD8Async(x, 0, 4*rows*cols, 0); err != nil {
				return err
			}
			arr := backend.Array{Data: uintptr(x), Shape: [4]int{rows, cols}, Strides: [4]int{cols, 1}}
			if err := k.Launch(0, []int{rows, cols}, []backend.Arg{{Array: arr}}); err != nil {
				return err
			}
			host := make([]int32, rows*cols)
			if err := drv.MemcpyDtoH(unsafe.Pointer(&host[0]), x, 4*rows*cols); err != nil {
				return err
			}
			for i := range rows {
				for j := range cols {
					want := int32(i*1000 + j)
					if (i+j)%3 == 0 {
						want = 0
					}
					if got := host[i*cols+j]; got != want {
						t.Fatalf("%s: x[%d, %d] = %d, want %d", name, i, j, got, want)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(name, ": ", err)
		}
	}
}

// BenchmarkKernelLaunch3Arrays times Kernel.Launch with three array
// arguments (by-value structs) and one thread, without the interpreter:
// compare with runtime/cuda's BenchmarkLaunch3Args (three pointers) and
// the script-level bench/launch.gs.
func BenchmarkKernelLaunch3Arrays(b *testing.B) {
	drv, ctx, info := gpu(b)
	ks := kernels(b, `kernel k3(a: array[f32], b: array[f32], c: array[f32]) {
    if len(a) < 0 { a[0] = b[0] + c[0] }
}`)
	err := ctx.Do(func() error {
		s, err := drv.StreamCreate(cuda.StreamNonBlocking)
		if err != nil {
			return err
		}
		defer drv.StreamDestroy(s)
		k, err := NewBuilder(drv, nil).Build(ks["k3"], info, Options{UnitStride: true})
		if err != nil {
			return err
		}
		p, err := drv.MemAlloc(64)
		if err != nil {
			return err
		}
		defer drv.MemFree(p)
		arr := backend.Array{Data: uintptr(p), Shape: [4]int{1}, Strides: [4]int{1}}
		args := []backend.Arg{{Array: arr}, {Array: arr}, {Array: arr}}
		dims := []int{1}
		for i := 0; i < 1000; i++ {
			k.Launch(s, dims, args)
		}
		drv.StreamSynchronize(s)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := k.Launch(s, dims, args); err != nil {
				return err
			}
		}
		return drv.StreamSynchronize(s)
	})
	if err != nil {
		b.Fatal(err)
	}
}
