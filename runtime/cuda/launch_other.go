//go:build !amd64

package cuda

// launch calls cuLaunchKernel (fn) through purego.SyscallN (the amd64
// build has a cheaper trampoline of its own), with fixed arity like the
// callN wrappers so that the parameter array stays alive and nothing is
// allocated.
//
//go:uintptrescapes
func launch(fn, f, gx, gy, gz, bx, by, bz, shared, stream, params uintptr) uintptr {
	return syscall(fn, f, gx, gy, gz, bx, by, bz, shared, stream, params, 0)
}
