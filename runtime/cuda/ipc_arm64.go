package cuda

import "unsafe"

// ipcOpenArgs lays out cuIpcOpenMemHandle_v2(CUdeviceptr*, CUipcMemHandle,
// unsigned) for AAPCS64: a composite larger than 16 bytes is copied by the
// caller and passed by address, so the handle becomes a pointer to h (a
// private copy that the caller keeps alive during the call).
func ipcOpenArgs(out uintptr, h *IpcMemHandle, flags uintptr) []uintptr {
	return []uintptr{out, uintptr(unsafe.Pointer(h)), flags}
}
