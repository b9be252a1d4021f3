package cuda

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gscript-lang/gscript/runtime/internal/dl"
)

// driverLib is the soname of the CUDA driver library; the driver installs it
// (never the toolkit), so the loader's own search is the right one.
const driverLib = "libcuda.so.1"

// proc is one resolved C function. names lists the symbol to use first and
// older fallbacks; addr is 0 when the library exports none of them.
type proc struct {
	names []string
	addr  uintptr
}

func (p *proc) name() string { return p.names[0] }

// procs are the driver functions, by the exported (versioned) symbol that
// cuda.h of CUDA 13.0 maps each API name to.
type procs struct {
	cuInit, cuDriverGetVersion, cuGetErrorName, cuGetErrorString proc

	cuDeviceGet, cuDeviceGetCount, cuDeviceGetName, cuDeviceTotalMem proc
	cuDeviceGetAttribute, cuDeviceCanAccessPeer                      proc

	cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRelease proc
	cuCtxGetCurrent, cuCtxSetCurrent, cuCtxSynchronize  proc
	cuCtxEnablePeerAccess                               proc

	cuMemAlloc, cuMemFree, cuMemAllocManaged, cuMemAllocAsync, cuMemFreeAsync proc
	cuMemHostAlloc, cuMemFreeHost, cuMemGetInfo, cuMemPrefetchAsync           proc
	cuMemcpyHtoD, cuMemcpyDtoH, cuMemcpyDtoD                                  proc
	cuMemcpyHtoDAsync, cuMemcpyDtoHAsync, cuMemcpyDtoDAsync                   proc
	cuMemsetD8, cuMemsetD8Async, cuPointerGetAttributes                       proc
	cuMemPrefetchAsyncV1, cuMemPrefetchBatchAsync, cuMemAdvise, cuMemAdviseV1 proc

	cuDeviceGetDefaultMemPool, cuMemPoolCreate, cuMemPoolDestroy    proc
	cuMemAllocFromPoolAsync, cuMemPoolSetAccess, cuMemPoolGetAccess proc
	cuMemPoolTrimTo, cuMemPoolSetAttribute, cuMemPoolGetAttribute   proc

	cuIpcGetMemHandle, cuIpcOpenMemHandle, cuIpcCloseMemHandle proc

	cuStreamCreate, cuStreamSynchronize, cuStreamDestroy             proc
	cuStreamQuery                                                    proc
	cuEventCreate, cuEventRecord, cuEventSynchronize, cuEventDestroy proc
	cuEventElapsedTime                                               proc

	cuModuleLoadData, cuModuleGetFunction, cuModuleUnload, cuLaunchKernel proc
	cuModuleGetGlobal, cuFuncSetAttribute                                 proc

	cuStreamBeginCapture, cuStreamEndCapture, cuStreamIsCapturing proc
	cuGraphInstantiate, cuGraphLaunch, cuGraphDestroy             proc
	cuGraphExecDestroy, cuGraphGetNodes                           proc
	cuThreadExchangeStreamCaptureMode                             proc
}

// symbol is one row of the resolution table.
type symbol struct {
	p        *proc
	names    []string
	required bool // Load fails without it: nothing works
}

// table lists every symbol with its versioned name (cuda.h #defines the
// plain API name to these) and whether the package is useless without it.
func (p *procs) table() []symbol {
	r := func(q *proc, names ...string) symbol { return symbol{q, names, true} }
	o := func(q *proc, names ...string) symbol { return symbol{q, names, false} }
	return []symbol{
		r(&p.cuInit, "cuInit"), r(&p.cuDriverGetVersion, "cuDriverGetVersion"),
		r(&p.cuGetErrorName, "cuGetErrorName"), r(&p.cuGetErrorString, "cuGetErrorString"),
		r(&p.cuDeviceGet, "cuDeviceGet"), r(&p.cuDeviceGetCount, "cuDeviceGetCount"),
		r(&p.cuDeviceGetName, "cuDeviceGetName"), r(&p.cuDeviceTotalMem, "cuDeviceTotalMem_v2"),
		r(&p.cuDeviceGetAttribute, "cuDeviceGetAttribute"), o(&p.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer"),
		r(&p.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
		r(&p.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
		r(&p.cuCtxGetCurrent, "cuCtxGetCurrent"), r(&p.cuCtxSetCurrent, "cuCtxSetCurrent"),
		r(&p.cuCtxSynchronize, "cuCtxSynchronize"), o(&p.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess"),
		r(&p.cuMemAlloc, "cuMemAlloc_v2"), r(&p.cuMemFree, "cuMemFree_v2"),
		o(&p.cuMemAllocManaged, "cuMemAllocManaged"),
		o(&p.cuMemAllocAsync, "cuMemAllocAsync"), o(&p.cuMemFreeAsync, "cuMemFreeAsync"),
		o(&p.cuMemHostAlloc, "cuMemHostAlloc"), o(&p.cuMemFreeHost, "cuMemFreeHost"),
		r(&p.cuMemGetInfo, "cuMemGetInfo_v2"),
		// The v1 prefetch and advice symbols have other signatures: they
		// are procs of their own, never fallbacks of the v2 ones.
		o(&p.cuMemPrefetchAsync, "cuMemPrefetchAsync_v2"), o(&p.cuMemPrefetchAsyncV1, "cuMemPrefetchAsync"),
		o(&p.cuMemAdvise, "cuMemAdvise_v2"), o(&p.cuMemAdviseV1, "cuMemAdvise"),
		o(&p.cuMemPrefetchBatchAsync, "cuMemPrefetchBatchAsync"),
		r(&p.cuMemcpyHtoD, "cuMemcpyHtoD_v2"), r(&p.cuMemcpyDtoH, "cuMemcpyDtoH_v2"),
		r(&p.cuMemcpyDtoD, "cuMemcpyDtoD_v2"),
		o(&p.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"), o(&p.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
		o(&p.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"),
		o(&p.cuMemsetD8, "cuMemsetD8_v2"), o(&p.cuMemsetD8Async, "cuMemsetD8Async"),
		o(&p.cuPointerGetAttributes, "cuPointerGetAttributes"),
		o(&p.cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool"),
		o(&p.cuMemPoolCreate, "cuMemPoolCreate"), o(&p.cuMemPoolDestroy, "cuMemPoolDestroy"),
		o(&p.cuMemAllocFromPoolAsync, "cuMemAllocFromPoolAsync"),
		o(&p.cuMemPoolSetAccess, "cuMemPoolSetAccess"), o(&p.cuMemPoolGetAccess, "cuMemPoolGetAccess"),
		o(&p.cuMemPoolTrimTo, "cuMemPoolTrimTo"),
		o(&p.cuMemPoolSetAttribute, "cuMemPoolSetAttribute"), o(&p.cuMemPoolGetAttribute, "cuMemPoolGetAttribute"),
		o(&p.cuIpcGetMemHandle, "cuIpcGetMemHandle"), o(&p.cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2"),
		o(&p.cuIpcCloseMemHandle, "cuIpcCloseMemHandle"),
		r(&p.cuStreamCreate, "cuStreamCreate"), r(&p.cuStreamSynchronize, "cuStreamSynchronize"),
		r(&p.cuStreamQuery, "cuStreamQuery"),
		r(&p.cuStreamDestroy, "cuStreamDestroy_v2"),
		r(&p.cuEventCreate, "cuEventCreate"), r(&p.cuEventRecord, "cuEventRecord"),
		r(&p.cuEventSynchronize, "cuEventSynchronize"), r(&p.cuEventDestroy, "cuEventDestroy_v2"),
		// CUDA 13 maps cuEventElapsedTime to _v2; older drivers only have
		// the original, which has the same signature.
		r(&p.cuEventElapsedTime, "cuEventElapsedTime_v2", "cuEventElapsedTime"),
		r(&p.cuModuleLoadData, "cuModuleLoadData"), r(&p.cuModuleGetFunction, "cuModuleGetFunction"),
		r(&p.cuModuleUnload, "cuModuleUnload"), r(&p.cuLaunchKernel, "cuLaunchKernel"),
		r(&p.cuModuleGetGlobal, "cuModuleGetGlobal_v2"), o(&p.cuFuncSetAttribute, "cuFuncSetAttribute"),
		o(&p.cuStreamBeginCapture, "cuStreamBeginCapture_v2"), o(&p.cuStreamEndCapture, "cuStreamEndCapture"),
		o(&p.cuStreamIsCapturing, "cuStreamIsCapturing"),
		o(&p.cuGraphInstantiate, "cuGraphInstantiateWithFlags"), o(&p.cuGraphLaunch, "cuGraphLaunch"),
		o(&p.cuGraphDestroy, "cuGraphDestroy"), o(&p.cuGraphExecDestroy, "cuGraphExecDestroy"),
		o(&p.cuGraphGetNodes, "cuGraphGetNodes"),
		o(&p.cuThreadExchangeStreamCaptureMode, "cuThreadExchangeStreamCaptureMode"),
	}
}

// resolve fills every proc from lookup and returns the first required
// symbol that is missing ("" when all are there).
func (p *procs) resolve(lookup func(string) uintptr) (missing string) {
	for _, s := range p.table() {
		s.p.names = s.names
		for _, n := range s.names {
			if s.p.addr = lookup(n); s.p.addr != 0 {
				break
			}
		}
		if s.p.addr == 0 && s.required && missing == "" {
			missing = s.names[0]
		}
	}
	return missing
}

// Driver is the loaded CUDA driver. Its methods are the driver API calls;
// like the C API they act on the context current on the calling OS thread
// (see Context.Do), except where a method takes a *Context.
type Driver struct {
	lib     string
	version int
	procs
	handles []int32 // CUdevice per ordinal

	devOnce []sync.Once
	devInfo []*DeviceInfo
	devErr  []error

	ctxMu sync.Mutex
	ctxs  []*Context
}

var (
	loadOnce sync.Once
	loaded   *Driver
	loadErr  error
)

// Load opens libcuda.so.1, resolves its symbols and calls cuInit(0), once
// per process. Without a driver the error wraps ErrNotAvailable; with a
// driver but no device it wraps ErrNoDevice.
func Load() (*Driver, error) {
	loadOnce.Do(func() { loaded, loadErr = load(driverLib) })
	return loaded, loadErr
}

func load(lib string) (*Driver, error) {
	h, err := dl.Open(lib, true)
	if err != nil {
		return nil, loadLibError(lib, err.Error(), "install the NVIDIA driver")
	}
	d := &Driver{lib: lib}
	if miss := d.resolve(func(n string) uintptr { return dl.Sym(h, n) }); miss != "" {
		return nil, fmt.Errorf("%w: %s lacks %s (the NVIDIA driver is too old: update it)", ErrNotAvailable, lib, miss)
	}
	if err := d.init(); err != nil {
		return nil, err
	}
	return d, nil
}

// init runs cuInit and enumerates devices.
func (d *Driver) init() error {
	if err := d.call1(&d.cuInit, 0); err != nil {
		if IsCode(err, CodeNoDevice) {
			return fmt.Errorf("%w (%w)", ErrNoDevice, err)
		}
		return fmt.Errorf("%w: %w", ErrNotAvailable, err)
	}
	var v, n int32
	if err := d.call1(&d.cuDriverGetVersion, uintptr(unsafe.Pointer(&v))); err != nil {
		return fmt.Errorf("%w: %w", ErrNotAvailable, err)
	}
	d.version = int(v)
	if err := d.call1(&d.cuDeviceGetCount, uintptr(unsafe.Pointer(&n))); err != nil {
		return fmt.Errorf("%w: %w", ErrNotAvailable, err)
	}
	if n == 0 {
		return ErrNoDevice
	}
	d.handles = make([]int32, n)
	for i := range d.handles {
		if err := d.call2(&d.cuDeviceGet, uintptr(unsafe.Pointer(&d.handles[i])), uintptr(i)); err != nil {
			return fmt.Errorf("%w: %w", ErrNotAvailable, err)
		}
	}
	d.devOnce = make([]sync.Once, n)
	d.devInfo = make([]*DeviceInfo, n)
	d.devErr = make([]error, n)
	d.ctxs = make([]*Context, n)
	return nil
}

// Version is the driver's CUDA version as cuDriverGetVersion reports it,
// 1000*major + 10*minor (13000 for CUDA 13.0).
func (d *Driver) Version() int { return d.version }

// Library is the driver library that was loaded.
func (d *Driver) Library() string { return d.lib }

// newError describes code with the driver's own name and string.
func (d *Driver) newError(fn string, code int) *Error {
	e := &Error{Code: code, Func: fn, Name: fallbackName(code)}
	var s uintptr
	if d.cuGetErrorName.addr != 0 {
		if r, _, _ := purego.SyscallN(d.cuGetErrorName.addr, uintptr(code), uintptr(unsafe.Pointer(&s))); uint32(r) == 0 && s != 0 {
			e.Name = goString(s)
		}
	}
	s = 0
	if d.cuGetErrorString.addr != 0 {
		if r, _, _ := purego.SyscallN(d.cuGetErrorString.addr, uintptr(code), uintptr(unsafe.Pointer(&s))); uint32(r) == 0 && s != 0 {
			e.Msg = goString(s)
		}
	}
	return e
}
