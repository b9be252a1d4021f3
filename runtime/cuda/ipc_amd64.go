package cuda

import "encoding/binary"

// ipcOpenArgs lays out cuIpcOpenMemHandle_v2(CUdeviceptr*, CUipcMemHandle,
// unsigned) for the System V amd64 ABI: the 64-byte handle is passed by
// value in memory, so it takes no register; pdptr and flags take the first
// two, and the handle's eight words go to the stack, where purego puts
// arguments 7 and on. out and h must stay alive during the call (the
// caller holds them).
func ipcOpenArgs(out uintptr, h *IpcMemHandle, flags uintptr) []uintptr {
	a := make([]uintptr, 14)
	a[0], a[1] = out, flags
	for i := 0; i < 8; i++ {
		a[6+i] = uintptr(binary.LittleEndian.Uint64(h[8*i:]))
	}
	return a
}
