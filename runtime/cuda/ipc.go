package cuda

import (
	"encoding/hex"
	"fmt"
	"runtime"
	"unsafe"
)

// IpcMemHandle is a CUipcMemHandle: 64 opaque bytes that another process
// opens with IpcOpenMemHandle.
type IpcMemHandle [64]byte

// String is the handle in hex.
func (h IpcMemHandle) String() string { return hex.EncodeToString(h[:]) }

// IpcMemLazyEnablePeerAccess is CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS.
const IpcMemLazyEnablePeerAccess = 1

// IpcGetMemHandle exports memory from MemAlloc (only that: managed and pool
// memory fail with CUDA_ERROR_INVALID_VALUE).
func (d *Driver) IpcGetMemHandle(p DevicePtr) (IpcMemHandle, error) {
	h := new(IpcMemHandle)
	err := d.call2(&d.cuIpcGetMemHandle, uintptr(unsafe.Pointer(h)), uintptr(p))
	return *h, err
}

// IpcOpenMemHandle maps memory exported by another process into the current
// context. A process cannot open its own handles.
func (d *Driver) IpcOpenMemHandle(h IpcMemHandle, flags uint32) (DevicePtr, error) {
	var out DevicePtr
	if p := &d.cuIpcOpenMemHandle; p.addr == 0 {
		return 0, d.missing(p)
	} else if r, ok := ipcOpen(p.addr, uintptr(unsafe.Pointer(&out)), uintptr(unsafe.Pointer(&h)), uintptr(flags)); !ok {
		return 0, fmt.Errorf("cuIpcOpenMemHandle_v2: passing CUipcMemHandle by value is not implemented for %s", runtime.GOARCH)
	} else if err := d.result(p, r); err != nil {
		return 0, err
	}
	return out, nil
}

// ipcOpen makes the call with the handle laid out for this ABI. The
// //go:uintptrescapes conversions keep out and h on the heap and alive.
//
//go:uintptrescapes
func ipcOpen(fn, out, h, flags uintptr) (uintptr, bool) {
	args := ipcOpenArgs(out, (*IpcMemHandle)(addr(h)), flags)
	if args == nil {
		return 0, false
	}
	return syscall(fn, args...), true
}

// IpcCloseMemHandle unmaps memory from IpcOpenMemHandle.
func (d *Driver) IpcCloseMemHandle(p DevicePtr) error {
	return d.call1(&d.cuIpcCloseMemHandle, uintptr(p))
}
