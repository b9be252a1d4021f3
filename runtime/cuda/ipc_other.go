//go:build !amd64 && !arm64

package cuda

// ipcOpenArgs: how a 64-byte struct is passed by value is ABI-specific and
// only amd64 and arm64 are implemented (nil: not supported).
func ipcOpenArgs(out uintptr, h *IpcMemHandle, flags uintptr) []uintptr { return nil }
