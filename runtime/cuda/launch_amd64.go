package cuda

import "unsafe"

// The launch hot path on amd64 calls cuLaunchKernel through a trampoline of
// its own (launch_amd64.s) instead of purego.SyscallN. Both go through
// runtime.cgocall; SyscallN also copies its arguments twice into 32-word
// buffers and a pooled 58-word block. BenchmarkCallOverhead (an 11-argument
// libc call) measured 34 ns through the trampoline and 75 ns through
// SyscallN. Everything else still goes through purego, whose fakecgo
// runtime (linked in because this package imports purego) is what makes
// runtime.cgocall usable in a CGO_ENABLED=0 build.

// launchFrame is the trampoline's argument block: the function, its 11
// arguments, then the result. The assembly addresses the fields by offset.
type launchFrame struct {
	fn, f, gx, gy, gz, bx, by, bz, shared, stream, params, extra, r uintptr
}

// launchTrampoline is implemented in launch_amd64.s; it is called only by
// runtime.cgocall, never from Go.
func launchTrampoline()

// launchTrampolineABI0 is launchTrampoline's ABI0 entry address.
var launchTrampolineABI0 uintptr

// runtime_cgocall switches to the system stack, marks the goroutine as in
// a system call and calls fn(arg) with the C ABI. The frame arg points to
// lives on the caller's stack, which cannot move while the goroutine is in
// the call (the runtime never shrinks the stack of a goroutine in a
// system call).
//
//go:linkname runtime_cgocall runtime.cgocall
//go:noescape
func runtime_cgocall(fn uintptr, arg unsafe.Pointer) int32

// launch calls cuLaunchKernel (fn) with the given arguments and no extra
// options, returning its raw result register. The caller keeps params
// alive (Kernel and Args hold it in heap memory).
//
//go:uintptrescapes
func launch(fn, f, gx, gy, gz, bx, by, bz, shared, stream, params uintptr) uintptr {
	fr := launchFrame{fn: fn, f: f, gx: gx, gy: gy, gz: gz, bx: bx, by: by, bz: bz,
		shared: shared, stream: stream, params: params}
	runtime_cgocall(launchTrampolineABI0, unsafe.Pointer(&fr))
	return fr.r
}
