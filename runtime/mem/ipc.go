package mem

import (
	"encoding/hex"
	"fmt"
	"runtime"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/cuda"
)

// ipcSupported is legacy IPC support: cuIpcGetMemHandle has no attribute
// of its own; it needs Linux, unified addressing and no TCC driver.
func ipcSupported(info *cuda.DeviceInfo) (bool, string) {
	switch {
	case runtime.GOOS != "linux":
		return false, "CUDA IPC needs Linux"
	case !info.Caps.UnifiedAddressing:
		return false, "unified_addressing=0"
	case info.IPC.TCCDriver:
		return false, "tcc_driver=1"
	}
	return true, ""
}

// ipcCheck applies the rejections of MEMORY.md section 5 in order, before
// any CUDA call (the driver answers managed and pool pointers with a bare
// CUDA_ERROR_INVALID_VALUE). info gives the device's attributes.
func ipcCheck(a *Array, info func(Device) (*cuda.DeviceInfo, error)) error {
	dev := a.Device()
	switch {
	case a.Freed():
		return fmt.Errorf("ipc_handle: %w", ErrFreed)
	case !dev.IsCUDA():
		return fmt.Errorf("ipc_handle: the array is on %s (memory_kind=%s), not a CUDA device: IPC shares CUDA device memory", dev, a.Kind())
	case a.Kind() == CUDAManaged:
		return fmt.Errorf("ipc_handle: IPC is not supported for managed memory (memory_kind=CUDA_MANAGED)")
	}
	di, err := info(dev)
	if err != nil {
		return fmt.Errorf("ipc_handle: %w", err)
	}
	if ok, why := ipcSupported(di); !ok {
		return fmt.Errorf("ipc_handle: device %s does not support IPC (%s)", dev, why)
	}
	b := a.buf
	switch {
	case a.Kind() == CUDAMempool:
		return fmt.Errorf("ipc_handle: IPC needs memory from the device allocator, and this array (memory_kind=CUDA_MEMPOOL) comes from a memory pool: allocate it with `using device`")
	case a.IsView():
		return fmt.Errorf("ipc_handle: IPC is not supported for views: export the whole array")
	case b.origin != fromAllocator:
		return fmt.Errorf("ipc_handle: IPC is not supported for externally wrapped arrays")
	case !IsBuiltin(b.a.alloc) || a.Kind() != CUDADevice:
		return fmt.Errorf("ipc_handle: IPC is not supported for arrays from the %s allocator: allocate with `using device`", b.a.alloc.Name())
	}
	return nil
}

func realDeviceInfo(dev Device) (*cuda.DeviceInfo, error) {
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return nil, err
	}
	return d.Info, nil
}

// IPCMemHandle is a CUipcMemHandle: 64 opaque bytes that another process
// opens with FromIPC.
type IPCMemHandle [64]byte

// String is the handle in hex, the form a script passes between processes.
func (h IPCMemHandle) String() string { return hex.EncodeToString(h[:]) }

// IPCHandle exports a's memory for another process (cuIpcGetMemHandle).
// Only whole arrays of the device allocator qualify.
func IPCHandle(a *Array) (IPCMemHandle, error) {
	var h IPCMemHandle
	if err := ipcCheck(a, realDeviceInfo); err != nil {
		return h, err
	}
	if a.buf.a.nbytes == 0 {
		return h, fmt.Errorf("ipc_handle: a zero-size array has no memory to share")
	}
	d, err := getCUDADevice(a.Device().Ordinal)
	if err != nil {
		return h, err
	}
	err = d.Ctx.Do(func() error {
		// Exported memory must hold its data before the other process
		// reads it: finish the queued zero-fill and writes.
		if err := d.Drv.StreamSynchronize(d.Stream); err != nil {
			return err
		}
		ch, err := d.Drv.IpcGetMemHandle(cuda.DevicePtr(a.buf.a.ptr))
		h = IPCMemHandle(ch)
		return err
	})
	if err != nil {
		return h, fmt.Errorf("ipc_handle: %w", err)
	}
	return h, nil
}

// ipcMapping is the releaser of memory opened from an IPC handle.
type ipcMapping struct{}

func (ipcMapping) Name() string            { return "ipc" }
func (ipcMapping) Kind() Kind              { return Unknown }
func (ipcMapping) AppliesTo(d Device) bool { return d.IsCUDA() }
func (ipcMapping) Alloc(Device, int) (uintptr, error) {
	return 0, fmt.Errorf("IPC memory is opened with FromIPC, not allocated")
}

// Free closes the mapping (cuIpcCloseMemHandle) in dev's context.
func (ipcMapping) Free(dev Device, ptr uintptr, _ int) error {
	return cudaFree(dev, func(d *cudaDev) error { return d.Drv.IpcCloseMemHandle(cuda.DevicePtr(ptr)) })
}

// FromIPC opens memory another process exported with IPCHandle as an array
// of dtype and shape on dev; the mapping is closed when the array is
// freed. The memory is classified like a wrapped pointer. The handle does
// not carry a size: the caller's shape must fit the exported array.
func FromIPC(t *Tracker, h IPCMemHandle, dtype ir.Type, shape []int, dev Device) (*Array, error) {
	n, err := checkShape(shape)
	if err != nil {
		return nil, err
	}
	if !dev.IsCUDA() {
		return nil, fmt.Errorf("from_ipc: IPC memory opens on a CUDA device, not %s", dev)
	}
	d, err := getCUDADevice(dev.Ordinal)
	if err != nil {
		return nil, fmt.Errorf("from_ipc: %w", err)
	}
	var p cuda.DevicePtr
	var pi cuda.PointerInfo
	err = d.Ctx.Do(func() error {
		var err error
		if p, err = d.Drv.IpcOpenMemHandle(cuda.IpcMemHandle(h), cuda.IpcMemLazyEnablePeerAccess); err != nil {
			return err
		}
		pi, _ = d.Drv.PointerInfo(p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("from_ipc on %s: %w", dev, err)
	}
	kind, err := wrapKind(dev, pi, nil)
	if err != nil {
		d.Ctx.Do(func() error { return d.Drv.IpcCloseMemHandle(p) })
		return nil, fmt.Errorf("from_ipc on %s: %w", dev, err)
	}
	return t.adopt(uintptr(p), n*dtype.Size(), dev, ipcMapping{}, kind, poolOf(kind, pi), fromIPC, dtype, shape), nil
}
