package cuda

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// GPU tests: each skips cleanly when no driver or device is there. They
// keep GPU memory use to a few MiB.

func gpu(t testing.TB) (*Driver, *Context) {
	t.Helper()
	d, err := Load()
	if err != nil {
		t.Skipf("no GPU: %v", err)
	}
	c, err := d.PrimaryContext(0)
	if err != nil {
		t.Fatalf("PrimaryContext(0): %v", err)
	}
	return d, c
}

// do runs fn with c current and fails the test on error.
func do(t testing.TB, c *Context, fn func() error) {
	t.Helper()
	if err := c.Do(fn); err != nil {
		t.Fatal(err)
	}
}

const testKernels = `
extern "C" __global__ void empty() {}

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void inc(int* p, int n) {
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) p[i] += 1;
}

extern "C" __global__ void add3(const float* a, const float* b, float* c) {
	if (threadIdx.x == 0 && blockIdx.x == 0 && c == 0) c[0] = a[0] + b[0];
}
`

// kernels compiles testKernels once per process for device 0 (cubin).
var kernels struct {
	once  sync.Once
	image []byte
	err   error
}

func loadKernels(t testing.TB, d *Driver) Module {
	t.Helper()
	info, err := d.Device(0)
	if err != nil {
		t.Fatal(err)
	}
	kernels.once.Do(func() {
		nv, err := LoadNVRTC()
		if err != nil {
			kernels.err = err
			return
		}
		arch := fmt.Sprintf("-arch=sm_%d%d", info.Major, info.Minor)
		var log string
		kernels.image, log, kernels.err = nv.Compile(testKernels, "test_kernels.cu", []string{arch})
		if kernels.err != nil {
			kernels.err = fmt.Errorf("%w\n%s", kernels.err, log)
		}
	})
	if kernels.err != nil {
		t.Fatalf("compiling test kernels: %v", kernels.err)
	}
	m, err := d.ModuleLoadData(kernels.image)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func fn(t testing.TB, d *Driver, m Module, name string) Function {
	t.Helper()
	f, err := d.ModuleGetFunction(m, name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGPUDevices(t *testing.T) {
	d, _ := gpu(t)
	t.Logf("driver %s, CUDA %d.%d, %d device(s)", d.Library(), d.Version()/1000, d.Version()%1000/10, d.DeviceCount())
	for i := 0; i < d.DeviceCount(); i++ {
		info, err := d.Device(i)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("cuda:%d %q sm_%d%d, %d SMs, %.1f GiB, paradigm %s", i, info.Name, info.Major, info.Minor,
			info.MultiprocessorCount, float64(info.TotalMem)/(1<<30), info.Paradigm)
		for _, a := range info.Attributes() {
			t.Logf("  %-46s (%3d) = %d", a.Name, a.Attr, a.Value)
		}
		if info.Name == "" || info.Major < 3 || info.TotalMem == 0 || info.MultiprocessorCount == 0 || info.WarpSize != 32 {
			t.Errorf("implausible device info %+v", info)
		}
		// Cached: a second call returns the same record.
		if again, _ := d.Device(i); again != info {
			t.Error("device info read twice")
		}
		// The table agrees with an uncached read.
		if v, err := d.DeviceGetAttribute(i, AttrConcurrentManagedAccess); err != nil || (v != 0) != info.Caps.ConcurrentManagedAccess {
			t.Errorf("concurrent_managed_access: uncached %d (%v), cached %v", v, err, info.Caps.ConcurrentManagedAccess)
		}
	}
	if _, err := d.Device(d.DeviceCount()); err == nil {
		t.Error("Device past the last ordinal succeeded")
	}
}

func TestGPUErrorFromDriver(t *testing.T) {
	d, c := gpu(t)
	err := c.Do(func() error {
		_, err := d.MemAlloc(1 << 50) // 1 PiB
		return err
	})
	if got, want := fmt.Sprint(err), "cuMemAlloc_v2: CUDA_ERROR_OUT_OF_MEMORY: out of memory"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// roundTrip writes a pattern into buf through HtoD, copies it DtoD into a
// device scratch buffer and back, synchronously and on a stream.
func roundTrip(t *testing.T, d *Driver, buf DevicePtr, n int, s Stream) {
	t.Helper()
	src := make([]byte, n)
	for i := range src {
		src[i] = byte(i*7 + 3)
	}
	scratch, err := d.MemAlloc(n)
	if err != nil {
		t.Fatal(err)
	}
	defer d.MemFree(scratch)
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	check("HtoD", d.MemcpyHtoD(buf, unsafe.Pointer(&src[0]), n))
	check("DtoD", d.MemcpyDtoD(scratch, buf, n))
	dst := make([]byte, n)
	check("DtoH", d.MemcpyDtoH(unsafe.Pointer(&dst[0]), scratch, n))
	if !bytes.Equal(src, dst) {
		t.Fatal("synchronous round trip changed the data")
	}
	// Async copies stage through pinned memory, as the async rule asks.
	pin, err := d.MemHostAlloc(n, 0)
	check("MemHostAlloc", err)
	defer d.MemFreeHost(pin)
	pinned := unsafe.Slice((*byte)(addr(pin)), n)
	check("MemsetD8Async", d.MemsetD8Async(buf, 0x5a, n, s))
	check("DtoDAsync", d.MemcpyDtoDAsync(scratch, buf, n, s))
	check("DtoHAsync", d.MemcpyDtoHAsync(addr(pin), scratch, n, s))
	check("sync", d.StreamSynchronize(s))
	if bytes.Count(pinned, []byte{0x5a}) != n {
		t.Fatal("async memset/copy round trip wrong")
	}
	copy(pinned, src)
	check("HtoDAsync", d.MemcpyHtoDAsync(buf, addr(pin), n, s))
	check("sync", d.StreamSynchronize(s))
	check("MemsetD8", d.MemsetD8(scratch, 0, n))
	check("DtoD", d.MemcpyDtoD(scratch, buf, n))
	clear(dst)
	check("DtoH", d.MemcpyDtoH(unsafe.Pointer(&dst[0]), scratch, n))
	if !bytes.Equal(src, dst) {
		t.Fatal("async HtoD round trip wrong")
	}
}

func TestGPUMemoryRoundTrip(t *testing.T) {
	d, c := gpu(t)
	info, _ := d.Device(0)
	const n = 1 << 20
	var s Stream
	do(t, c, func() error {
		free, total, err := d.MemGetInfo()
		if err != nil || free == 0 || free > total {
			return fmt.Errorf("MemGetInfo: %d free of %d, %v", free, total, err)
		}
		s, err = d.StreamCreate(StreamNonBlocking)
		return err
	})
	defer do(t, c, func() error { return d.StreamDestroy(s) })
	// A subtest runs on its own goroutine, so each makes c current itself.
	sub := func(name string, body func(t *testing.T)) {
		t.Run(name, func(t *testing.T) { do(t, c, func() error { body(t); return nil }) })
	}
	sub("device", func(t *testing.T) {
		p, err := d.MemAlloc(n)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFree(p)
		roundTrip(t, d, p, n, s)
	})
	sub("managed", func(t *testing.T) {
		if !info.Caps.ManagedMemory {
			t.Skip("no managed memory")
		}
		p, err := d.MemAllocManaged(n, MemAttachGlobal)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFree(p)
		roundTrip(t, d, p, n, s)
		// The host reads managed memory directly once the GPU is idle.
		if err := d.CtxSynchronize(); err != nil {
			t.Fatal(err)
		}
		if b := unsafe.Slice((*byte)(addr(uintptr(p))), n); b[10] != byte(10*7+3) {
			t.Errorf("host read of managed memory: %d", b[10])
		}
		if info.Caps.ConcurrentManagedAccess {
			if err := d.MemPrefetchAsync(p, n, DeviceLocation(0), 0, s); err != nil {
				t.Fatal(err)
			}
			if err := d.MemPrefetchAsync(p, n, HostLocation, 0, s); err != nil {
				t.Fatal(err)
			}
			if err := d.StreamSynchronize(s); err != nil {
				t.Fatal(err)
			}
		}
	})
	sub("mempool", func(t *testing.T) {
		if !info.Caps.MemoryPoolsSupported {
			t.Skip("no memory pools")
		}
		p, err := d.MemAllocAsync(n, s)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, d, p, n, s)
		if err := d.MemFreeAsync(p, s); err != nil {
			t.Fatal(err)
		}
		if err := d.StreamSynchronize(s); err != nil {
			t.Fatal(err)
		}
	})
	sub("managed_pool", func(t *testing.T) {
		pool, err := d.MemPoolCreate(MemPoolProps{AllocType: MemAllocationManaged, Location: DeviceLocation(0)})
		if IsCode(err, CodeNotSupported) || IsCode(err, CodeInvalidValue) {
			t.Skipf("no managed pools on this driver: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemPoolDestroy(pool)
		p, err := d.MemAllocFromPoolAsync(n, pool, s)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, d, p, n, s)
		if err := d.MemFreeAsync(p, s); err != nil {
			t.Fatal(err)
		}
		if err := d.StreamSynchronize(s); err != nil {
			t.Fatal(err)
		}
	})
	sub("pinned", func(t *testing.T) {
		h, err := d.MemHostAlloc(n, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer d.MemFreeHost(h)
		// With unified addressing the host address is a device address.
		roundTrip(t, d, DevicePtr(h), n, s)
		if b := unsafe.Slice((*byte)(addr(h)), n); b[10] != byte(10*7+3) {
			t.Errorf("host read of pinned memory: %d", b[10])
		}
	})
}

// kindOf applies MEMORY.md section 1's classification to PointerInfo, to
// check that the attributes read are the ones that scheme needs.
func kindOf(pi PointerInfo) string {
	switch {
	case pi.IsManaged:
		return "CUDA_MANAGED"
	case pi.MemoryType == MemoryTypeHost:
		return "PINNED"
	case pi.MemoryType != MemoryTypeDevice:
		return "UNKNOWN"
	case pi.MemPool != 0:
		return "CUDA_MEMPOOL"
	}
	return "CUDA_DEVICE"
}

func TestGPUPointerAttributes(t *testing.T) {
	d, c := gpu(t)
	info, _ := d.Device(0)
	do(t, c, func() error {
		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer d.StreamDestroy(s)
		classify := func(name string, p DevicePtr, want string, wantPool bool) {
			pi, err := d.PointerInfo(p)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			t.Logf("%-12s %+v -> %s", name, pi, kindOf(pi))
			if got := kindOf(pi); got != want {
				t.Errorf("%s classified %s, want %s", name, got, want)
			}
			if (pi.MemPool != 0) != wantPool {
				t.Errorf("%s: mempool handle %#x", name, pi.MemPool)
			}
			if want != "UNKNOWN" && want != "PINNED" && pi.DeviceOrdinal != 0 {
				t.Errorf("%s: device ordinal %d", name, pi.DeviceOrdinal)
			}
		}
		dev, err := d.MemAlloc(4096)
		if err != nil {
			return err
		}
		defer d.MemFree(dev)
		classify("device", dev, "CUDA_DEVICE", false)
		if pi, _ := d.PointerInfo(dev); !pi.LegacyIPCCapable {
			t.Error("cuMemAlloc memory not legacy-IPC capable")
		}
		man, err := d.MemAllocManaged(4096, MemAttachGlobal)
		if err != nil {
			return err
		}
		defer d.MemFree(man)
		classify("managed", man, "CUDA_MANAGED", false)
		pin, err := d.MemHostAlloc(4096, 0)
		if err != nil {
			return err
		}
		defer d.MemFreeHost(pin)
		classify("pinned", DevicePtr(pin), "PINNED", false)
		if info.Caps.MemoryPoolsSupported {
			pool, err := d.MemAllocAsync(4096, s)
			if err != nil {
				return err
			}
			defaultPool, err := d.DeviceGetDefaultMemPool(0)
			if err != nil {
				return err
			}
			classify("mempool", pool, "CUDA_MEMPOOL", true)
			if pi, _ := d.PointerInfo(pool); pi.MemPool != defaultPool {
				t.Errorf("pool pointer reports pool %#x, default pool is %#x", pi.MemPool, defaultPool)
			}
			if f, err := d.MemPoolGetAccess(defaultPool, DeviceLocation(0)); err != nil || f != MemAccessReadWrite {
				t.Errorf("own device's access to its pool: %d, %v", f, err)
			}
			d.MemFreeAsync(pool, s)
		}
		if mp, err := d.MemPoolCreate(MemPoolProps{AllocType: MemAllocationManaged, Location: DeviceLocation(0)}); err == nil {
			p, err := d.MemAllocFromPoolAsync(4096, mp, s)
			if err != nil {
				return err
			}
			// GPU.md: managed pool pointers report IS_MANAGED and a pool.
			classify("managed_pool", p, "CUDA_MANAGED", true)
			d.MemFreeAsync(p, s)
			d.StreamSynchronize(s)
			d.MemPoolDestroy(mp)
		} else {
			t.Logf("managed pool: %v", err)
		}
		goMem := make([]byte, 64)
		pi, err := d.PointerInfo(DevicePtr(unsafe.Pointer(&goMem[0])))
		t.Logf("Go heap pointer: %+v, %v", pi, err)
		if err == nil && kindOf(pi) != "UNKNOWN" {
			t.Errorf("Go heap memory classified %s", kindOf(pi))
		}
		runtime.KeepAlive(goMem)
		return d.StreamSynchronize(s)
	})
}

func TestGPUSaxpy(t *testing.T) {
	d, c := gpu(t)
	info, _ := d.Device(0)
	const n = 1 << 16
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i), float32(2*i)
	}
	nv, err := LoadNVRTC()
	if err != nil {
		t.Fatal(err)
	}
	major, minor := nv.Version()
	t.Logf("NVRTC %d.%d from %s", major, minor, nv.Path())
	for _, arch := range []string{fmt.Sprintf("sm_%d%d", info.Major, info.Minor), fmt.Sprintf("compute_%d%d", info.Major, info.Minor)} {
		t.Run(arch, func(t *testing.T) {
			image, log, err := nv.Compile(testKernels, "saxpy.cu", []string{"-arch=" + arch})
			if err != nil {
				t.Fatalf("%v\n%s", err, log)
			}
			isELF := bytes.HasPrefix(image, []byte("\x7fELF"))
			if isELF != strings.HasPrefix(arch, "sm_") {
				t.Fatalf("%s gave ELF=%v", arch, isELF)
			}
			do(t, c, func() error {
				m, err := d.ModuleLoadData(image)
				if err != nil {
					return err
				}
				defer d.ModuleUnload(m)
				f := fn(t, d, m, "saxpy")
				dx, _ := d.MemAlloc(4 * n)
				dy, _ := d.MemAlloc(4 * n)
				defer d.MemFree(dx)
				defer d.MemFree(dy)
				d.MemcpyHtoD(dx, unsafe.Pointer(&x[0]), 4*n)
				d.MemcpyHtoD(dy, unsafe.Pointer(&y[0]), 4*n)
				a := NewArgs(4).F32(3).Ptr(dx).Ptr(dy).I32(n)
				if err := d.LaunchKernel(f, [3]uint32{n / 256, 1, 1}, [3]uint32{256, 1, 1}, 0, 0, a.Params()); err != nil {
					return err
				}
				out := make([]float32, n)
				if err := d.MemcpyDtoH(unsafe.Pointer(&out[0]), dy, 4*n); err != nil {
					return err
				}
				for i := range out {
					if want := 3*x[i] + y[i]; out[i] != want {
						return fmt.Errorf("y[%d] = %v, want %v", i, out[i], want)
					}
				}
				return nil
			})
		})
	}
	// A compile error comes back with the log and the first error line.
	_, log, err := nv.Compile("__global__ void k() { undefined_name = 1; }", "bad.cu", nil)
	if err == nil || !strings.Contains(log, "undefined_name") || !strings.Contains(err.Error(), "nvrtcCompileProgram: NVRTC_ERROR_COMPILATION: bad.cu") {
		t.Errorf("compile error: %v\nlog: %s", err, log)
	}
}

func TestGPUEvents(t *testing.T) {
	d, c := gpu(t)
	do(t, c, func() error {
		m := loadKernels(t, d)
		defer d.ModuleUnload(m)
		f := fn(t, d, m, "empty")
		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer d.StreamDestroy(s)
		e0, _ := d.EventCreate(EventDefault)
		e1, _ := d.EventCreate(EventDefault)
		defer d.EventDestroy(e0)
		defer d.EventDestroy(e1)
		if err := d.EventRecord(e0, s); err != nil {
			return err
		}
		for range 100 {
			if err := d.LaunchKernel(f, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, s, nil); err != nil {
				return err
			}
		}
		d.EventRecord(e1, s)
		if err := d.EventSynchronize(e1); err != nil {
			return err
		}
		ms, err := d.EventElapsedTime(e0, e1)
		t.Logf("100 empty kernels: %.3f ms on the GPU", ms)
		if err == nil && (ms <= 0 || ms > 1000) {
			return fmt.Errorf("elapsed %v ms", ms)
		}
		return err
	})
}

func TestGPUGraphCapture(t *testing.T) {
	d, c := gpu(t)
	const n = 1024
	do(t, c, func() error {
		m := loadKernels(t, d)
		defer d.ModuleUnload(m)
		f := fn(t, d, m, "inc")
		buf, err := d.MemAlloc(4 * n)
		if err != nil {
			return err
		}
		defer d.MemFree(buf)
		d.MemsetD8(buf, 0, 4*n)
		s, _ := d.StreamCreate(StreamNonBlocking)
		defer d.StreamDestroy(s)
		a := NewArgs(2).Ptr(buf).I32(n)
		if err := d.StreamBeginCapture(s, CaptureModeGlobal); err != nil {
			return err
		}
		if st, err := d.StreamIsCapturing(s); err != nil || st != CaptureStatusActive {
			return fmt.Errorf("capture status %d, %v", st, err)
		}
		for range 10 {
			if err := d.LaunchKernel(f, [3]uint32{n / 128, 1, 1}, [3]uint32{128, 1, 1}, 0, s, a.Params()); err != nil {
				return err
			}
		}
		g, err := d.StreamEndCapture(s)
		if err != nil {
			return err
		}
		defer d.GraphDestroy(g)
		if st, _ := d.StreamIsCapturing(s); st != CaptureStatusNone {
			return fmt.Errorf("still capturing: %d", st)
		}
		if nodes, err := d.GraphNodeCount(g); err != nil || nodes != 10 {
			return fmt.Errorf("graph has %d nodes (%v), want 10", nodes, err)
		}
		ge, err := d.GraphInstantiate(g, 0)
		if err != nil {
			return err
		}
		defer d.GraphExecDestroy(ge)
		// Capturing ran nothing; three replays add 30.
		for range 3 {
			if err := d.GraphLaunch(ge, s); err != nil {
				return err
			}
		}
		if err := d.StreamSynchronize(s); err != nil {
			return err
		}
		out := make([]int32, n)
		d.MemcpyDtoH(unsafe.Pointer(&out[0]), buf, 4*n)
		for i, v := range out {
			if v != 30 {
				return fmt.Errorf("p[%d] = %d after 3 replays of 10 increments", i, v)
			}
		}
		return nil
	})
}

// TestGPUContextThreads checks that Do makes the context current on
// whatever thread runs the goroutine, including threads where another (no)
// context was current.
func TestGPUContextThreads(t *testing.T) {
	d, c := gpu(t)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			if g%2 == 0 { // clear the thread's context first
				if err := d.call1(&d.cuCtxSetCurrent, 0); err != nil {
					errs <- err
					return
				}
			}
			for range 20 {
				errs <- c.Do(func() error {
					if cur, err := d.CurrentContext(); err != nil || cur != c.Handle() {
						return fmt.Errorf("current context %#x, want %#x (%v)", cur, c.Handle(), err)
					}
					p, err := d.MemAlloc(256)
					if err != nil {
						return err
					}
					return d.MemFree(p)
				})
				runtime.Gosched()
			}
		}()
	}
	go func() { wg.Wait(); close(errs) }()
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if c2, err := d.PrimaryContext(0); err != nil || c2 != c {
		t.Errorf("PrimaryContext not shared: %v", err)
	}
}

func TestGPUPeer(t *testing.T) {
	d, c := gpu(t)
	if d.DeviceCount() < 2 {
		t.Skip("one device")
	}
	ok, err := d.DeviceCanAccessPeer(0, 1)
	t.Logf("cuda:0 can access cuda:1: %v (%v)", ok, err)
	if !ok {
		return
	}
	c1, err := d.PrimaryContext(1)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Do(func() error { return d.CtxEnablePeerAccess(c1, 0) })
	if err != nil && !IsCode(err, CodePeerAccessAlreadyEnabled) {
		t.Fatal(err)
	}
	err = c.Do(func() error { return d.CtxEnablePeerAccess(c1, 0) })
	if !IsCode(err, CodePeerAccessAlreadyEnabled) {
		t.Errorf("second enable: %v", err)
	}
	// Grant cuda:1 access to cuda:0's default pool and read it back.
	pool, err := d.DeviceGetDefaultMemPool(0)
	if err != nil {
		t.Fatal(err)
	}
	do(t, c, func() error {
		return d.MemPoolSetAccess(pool, []MemAccessDesc{{DeviceLocation(1), MemAccessReadWrite}})
	})
	if f, err := d.MemPoolGetAccess(pool, DeviceLocation(1)); err != nil || f != MemAccessReadWrite {
		t.Errorf("pool access of cuda:1: %d, %v", f, err)
	}
}

// TestGPUIPC exports device memory and opens it in a child process (a
// process cannot open its own handle), which checks the contents.
func TestGPUIPC(t *testing.T) {
	d, c := gpu(t)
	const n = 4096
	do(t, c, func() error {
		man, err := d.MemAllocManaged(n, MemAttachGlobal)
		if err != nil {
			return err
		}
		defer d.MemFree(man)
		if _, err := d.IpcGetMemHandle(man); !IsCode(err, CodeInvalidValue) {
			t.Errorf("IPC handle of managed memory: %v, want CUDA_ERROR_INVALID_VALUE", err)
		}
		p, err := d.MemAlloc(n)
		if err != nil {
			return err
		}
		defer d.MemFree(p)
		d.MemsetD8(p, 0xab, n)
		h, err := d.IpcGetMemHandle(p)
		if err != nil {
			return err
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		cmd := exec.Command(exe, "-test.run=^TestGPUIPCChild$", "-test.v")
		cmd.Env = append(os.Environ(), "GSCRIPT_CUDA_IPC_HANDLE="+h.String())
		out, err := cmd.CombinedOutput()
		t.Logf("child:\n%s", out)
		if err != nil || !strings.Contains(string(out), "IPC child ok") {
			return fmt.Errorf("child failed: %v", err)
		}
		return nil
	})
}

func TestGPUIPCChild(t *testing.T) {
	hx := os.Getenv("GSCRIPT_CUDA_IPC_HANDLE")
	if hx == "" {
		t.Skip("run by TestGPUIPC")
	}
	d, c := gpu(t)
	var h IpcMemHandle
	if b, err := hex.DecodeString(hx); err != nil || len(b) != len(h) {
		t.Fatalf("bad handle %q", hx)
	} else {
		copy(h[:], b)
	}
	do(t, c, func() error {
		p, err := d.IpcOpenMemHandle(h, IpcMemLazyEnablePeerAccess)
		if err != nil {
			return err
		}
		buf := make([]byte, 4096)
		if err := d.MemcpyDtoH(unsafe.Pointer(&buf[0]), p, len(buf)); err != nil {
			return err
		}
		if bytes.Count(buf, []byte{0xab}) != len(buf) {
			return fmt.Errorf("opened memory holds %x...", buf[:8])
		}
		if err := d.IpcCloseMemHandle(p); err != nil {
			return err
		}
		fmt.Println("IPC child ok")
		return nil
	})
}

func TestGPULaunchAllocs(t *testing.T) {
	d, c := gpu(t)
	do(t, c, func() error {
		m := loadKernels(t, d)
		defer d.ModuleUnload(m)
		f := fn(t, d, m, "add3")
		buf, _ := d.MemAlloc(64)
		defer d.MemFree(buf)
		a := NewArgs(3)
		launch := func() {
			a.Reset().Ptr(buf).Ptr(buf + 16).Ptr(buf + 32)
			if err := d.LaunchKernel(f, [3]uint32{1, 1, 1}, [3]uint32{1, 1, 1}, 0, 0, a.Params()); err != nil {
				t.Fatal(err)
			}
		}
		launch()
		if n := testing.AllocsPerRun(1000, launch); n != 0 {
			t.Errorf("a launch allocates %v times", n)
		}
		return d.CtxSynchronize()
	})
}

// BenchmarkLaunchEmpty: back-to-back launches of an empty kernel (1
// thread) on a non-blocking stream (as baseline.cu), synchronized at the
// end.
func BenchmarkLaunchEmpty(b *testing.B) {
	d, c := gpu(b)
	do(b, c, func() error {
		m := loadKernels(b, d)
		f := fn(b, d, m, "empty")
		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer d.StreamDestroy(s)
		one := [3]uint32{1, 1, 1}
		b.ReportAllocs()
		for b.Loop() {
			if err := d.LaunchKernel(f, one, one, 0, s, nil); err != nil {
				return err
			}
		}
		return d.StreamSynchronize(s)
	})
}

// BenchmarkLaunchEmptyDo: the same with Context.Do around every launch,
// the cost a caller pays for not knowing its thread.
func BenchmarkLaunchEmptyDo(b *testing.B) {
	d, c := gpu(b)
	var f Function
	do(b, c, func() error { f = fn(b, d, loadKernels(b, d), "empty"); return nil })
	one := [3]uint32{1, 1, 1}
	launch := func() error { return d.LaunchKernel(f, one, one, 0, 0, nil) }
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(launch); err != nil {
			b.Fatal(err)
		}
	}
	do(b, c, d.CtxSynchronize)
}

// BenchmarkLaunch3Args: packing three array pointers and launching.
func BenchmarkLaunch3Args(b *testing.B) {
	d, c := gpu(b)
	do(b, c, func() error {
		f := fn(b, d, loadKernels(b, d), "add3")
		buf, _ := d.MemAlloc(64)
		defer d.MemFree(buf)
		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer d.StreamDestroy(s)
		a := NewArgs(3)
		one := [3]uint32{1, 1, 1}
		b.ReportAllocs()
		for b.Loop() {
			a.Reset().Ptr(buf).Ptr(buf + 16).Ptr(buf + 32)
			if err := d.LaunchKernel(f, one, one, 0, s, a.Params()); err != nil {
				return err
			}
		}
		return d.StreamSynchronize(s)
	})
}

// BenchmarkGraphReplay: per-kernel cost of replaying a captured graph of
// 100 empty kernels.
func BenchmarkGraphReplay(b *testing.B) {
	d, c := gpu(b)
	do(b, c, func() error {
		f := fn(b, d, loadKernels(b, d), "empty")
		s, _ := d.StreamCreate(StreamNonBlocking)
		defer d.StreamDestroy(s)
		one := [3]uint32{1, 1, 1}
		d.StreamBeginCapture(s, CaptureModeGlobal)
		for range 100 {
			d.LaunchKernel(f, one, one, 0, s, nil)
		}
		g, err := d.StreamEndCapture(s)
		if err != nil {
			return err
		}
		defer d.GraphDestroy(g)
		ge, err := d.GraphInstantiate(g, 0)
		if err != nil {
			return err
		}
		defer d.GraphExecDestroy(ge)
		replays := 0
		for b.Loop() {
			if err := d.GraphLaunch(ge, s); err != nil {
				return err
			}
			replays++
		}
		err = d.StreamSynchronize(s)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(replays)/100, "ns/kernel")
		return err
	})
}

// BenchmarkDo: the CPU cost of Context.Do with the context already
// current (lock the thread, cuCtxGetCurrent, compare, unlock).
func BenchmarkDo(b *testing.B) {
	_, c := gpu(b)
	nop := func() error { return nil }
	b.ReportAllocs()
	for b.Loop() {
		if err := c.Do(nop); err != nil {
			b.Fatal(err)
		}
	}
}

// TestGPUPrefetchAdvise runs prefetch (v2, v1 and batched) and every
// advice on 8 MiB of managed memory, and records what the driver does with
// a prefetch or an advice inside a global-mode capture (MEMORY.md section
// 8 says: error 900, and the capture is invalidated).
func TestGPUPrefetchAdvise(t *testing.T) {
	d, c := gpu(t)
	info, err := d.Device(0)
	if err != nil {
		t.Fatal(err)
	}
	if !info.Caps.ConcurrentManagedAccess {
		t.Skip("no concurrent managed access")
	}
	const n = 8 << 20
	do(t, c, func() error {
		s, err := d.StreamCreate(StreamNonBlocking)
		if err != nil {
			return err
		}
		defer d.StreamDestroy(s)
		var p [2]DevicePtr
		for i := range p {
			if p[i], err = d.MemAllocManaged(n, MemAttachGlobal); err != nil {
				return err
			}
			defer d.MemFree(p[i])
		}
		t.Run("advise", func(t *testing.T) { do(t, c, func() error { return adviseAll(d, p[0], n) }) })
		t.Run("batch", func(t *testing.T) {
			if !d.HasMemPrefetchBatch() {
				t.Skip("the driver lacks cuMemPrefetchBatchAsync")
			}
			do(t, c, func() error {
				ptrs, sizes := p[:], []uintptr{n, n / 2}
				for _, loc := range []MemLocation{DeviceLocation(0), HostLocation} {
					if err := d.MemPrefetchBatchAsync(ptrs, sizes, []MemLocation{loc}, []uintptr{0}, 0, s); err != nil {
						return err
					}
				}
				return d.StreamSynchronize(s)
			})
		})
		t.Run("v1", func(t *testing.T) { do(t, c, func() error { return prefetchV1(t, d, p[1], n, s) }) })
		t.Run("capture", func(t *testing.T) { do(t, c, func() error { return prefetchInCapture(t, d, p[0], n, s) }) })
		return nil
	})
}

func adviseAll(d *Driver, p DevicePtr, n int) error {
	steps := []struct {
		a   MemAdvise
		loc MemLocation
	}{
		{MemAdviseSetReadMostly, DeviceLocation(0)}, {MemAdviseUnsetReadMostly, DeviceLocation(0)},
		{MemAdviseSetPreferredLocation, DeviceLocation(0)}, {MemAdviseSetPreferredLocation, HostLocation},
		{MemAdviseUnsetPreferredLocation, HostLocation}, {MemAdviseSetAccessedBy, DeviceLocation(0)},
		{MemAdviseSetAccessedBy, HostLocation}, {MemAdviseUnsetAccessedBy, DeviceLocation(0)},
		{MemAdviseUnsetAccessedBy, HostLocation},
	}
	for _, st := range steps {
		if err := d.MemAdvise(p, n, st.a, st.loc); err != nil {
			return fmt.Errorf("advice %d at %+v: %w", st.a, st.loc, err)
		}
	}
	return nil
}

// prefetchV1 calls the v1 entry points, as on a driver older than 12.2, by
// hiding the v2 symbols for the duration of the test.
func prefetchV1(t *testing.T, d *Driver, p DevicePtr, n int, s Stream) error {
	if d.cuMemPrefetchAsyncV1.addr == 0 || d.cuMemAdviseV1.addr == 0 {
		t.Skip("the driver does not export the v1 symbols")
	}
	v2p, v2a := d.cuMemPrefetchAsync.addr, d.cuMemAdvise.addr
	d.cuMemPrefetchAsync.addr, d.cuMemAdvise.addr = 0, 0
	defer func() { d.cuMemPrefetchAsync.addr, d.cuMemAdvise.addr = v2p, v2a }()
	for _, loc := range []MemLocation{DeviceLocation(0), HostLocation} {
		if err := d.MemPrefetchAsync(p, n, loc, 0, s); err != nil {
			return err
		}
	}
	if err := d.MemAdvise(p, n, MemAdviseSetPreferredLocation, HostLocation); err != nil {
		return err
	}
	if err := d.MemAdvise(p, n, MemAdviseUnsetPreferredLocation, HostLocation); err != nil {
		return err
	}
	return d.StreamSynchronize(s)
}

func prefetchInCapture(t *testing.T, d *Driver, p DevicePtr, n int, s Stream) error {
	calls := []struct {
		name string
		call func() error
	}{
		{"prefetch", func() error { return d.MemPrefetchAsync(p, n, DeviceLocation(0), 0, s) }},
		{"advise", func() error { return d.MemAdvise(p, n, MemAdviseSetReadMostly, DeviceLocation(0)) }},
	}
	for _, c := range calls {
		if err := d.StreamBeginCapture(s, CaptureModeGlobal); err != nil {
			return err
		}
		callErr := c.call()
		g, endErr := d.StreamEndCapture(s)
		if g != 0 {
			d.GraphDestroy(g)
		}
		t.Logf("%s inside a global capture: %v; ending the capture: %v", c.name, callErr, endErr)
		if c.name == "prefetch" && !IsCode(callErr, CodeStreamCaptureUnsupported) {
			t.Errorf("prefetch inside a capture: %v, GPU.md measured error 900", callErr)
		}
	}
	return d.StreamSynchronize(s)
}
