package cuda

import (
	"sync"

	"github.com/ebitengine/purego"
)

// Calling C through purego without allocating.
//
// purego.SyscallN is variadic and //go:uintptrescapes, which moves its
// argument array to the heap on every call. Passing an existing slice with
// ... avoids that, so syscall copies the arguments into pooled heap memory
// first. The typed wrappers below (callN: N arguments) are themselves
// //go:uintptrescapes with fixed arity: a pointer converted to uintptr in
// their argument list is moved to the heap and kept alive until they
// return, so the driver may write through it, and no stack move can strand
// it (heap objects never move). A variadic //go:uintptrescapes function
// would allocate its argument array again, hence one wrapper per arity.

// maxArgs is the most arguments any call here passes
// (cublasGemmStridedBatchedEx; purego.SyscallN takes up to 32, every one
// past the integer registers on the stack, which is where the C ABI wants
// integer and pointer arguments past the registers).
const maxArgs = 23

type argBuf [maxArgs]uintptr

var argPool = sync.Pool{New: func() any { return new(argBuf) }}

// syscall calls fn with args and returns the raw result register. The
// caller keeps whatever the arguments point to alive.
func syscall(fn uintptr, args ...uintptr) uintptr {
	b := argPool.Get().(*argBuf)
	n := copy(b[:], args)
	r, _, _ := purego.SyscallN(fn, b[:n]...)
	argPool.Put(b)
	return r
}

// result turns a driver function's CUresult into an error. CUresult is a
// 32-bit enum: the upper half of the result register is garbage.
func (d *Driver) result(p *proc, r uintptr) error {
	if code := uint32(r); code != 0 {
		return d.newError(p.name(), int(int32(code)))
	}
	return nil
}

func (d *Driver) missing(p *proc) error { return &SymbolError{Lib: d.lib, Symbol: p.name()} }

//go:uintptrescapes
func (d *Driver) call0(p *proc) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr))
}

//go:uintptrescapes
func (d *Driver) call1(p *proc, a0 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0))
}

//go:uintptrescapes
func (d *Driver) call2(p *proc, a0, a1 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0, a1))
}

//go:uintptrescapes
func (d *Driver) call3(p *proc, a0, a1, a2 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0, a1, a2))
}

//go:uintptrescapes
func (d *Driver) call4(p *proc, a0, a1, a2, a3 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0, a1, a2, a3))
}

//go:uintptrescapes
func (d *Driver) call5(p *proc, a0, a1, a2, a3, a4 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0, a1, a2, a3, a4))
}

//go:uintptrescapes
func (d *Driver) call8(p *proc, a0, a1, a2, a3, a4, a5, a6, a7 uintptr) error {
	if p.addr == 0 {
		return d.missing(p)
	}
	return d.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5, a6, a7))
}

// result turns an nvrtcResult into an error.
func (n *NVRTC) result(p *proc, r uintptr) error {
	if code := int(int32(uint32(r))); code != 0 {
		return n.newError(p.name(), code)
	}
	return nil
}

//go:uintptrescapes
func (n *NVRTC) call1(p *proc, a0 uintptr) error {
	return n.result(p, syscall(p.addr, a0))
}

//go:uintptrescapes
func (n *NVRTC) call2(p *proc, a0, a1 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1))
}

//go:uintptrescapes
func (n *NVRTC) call3(p *proc, a0, a1, a2 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1, a2))
}

//go:uintptrescapes
func (n *NVRTC) call6(p *proc, a0, a1, a2, a3, a4, a5 uintptr) error {
	return n.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5))
}

// cuBLAS calls: functions that return a cublasStatus_t.

//go:uintptrescapes
func (c *CUBLAS) call1(p *proc, a0 uintptr) error {
	return c.result(p, syscall(p.addr, a0))
}

//go:uintptrescapes
func (c *CUBLAS) call2(p *proc, a0, a1 uintptr) error {
	return c.result(p, syscall(p.addr, a0, a1))
}

//go:uintptrescapes
func (c *CUBLAS) call3(p *proc, a0, a1, a2 uintptr) error {
	return c.result(p, syscall(p.addr, a0, a1, a2))
}

//go:uintptrescapes
func (c *CUBLAS) call19(p *proc, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18 uintptr) error {
	return c.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18))
}

//go:uintptrescapes
func (c *CUBLAS) call23(p *proc, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22 uintptr) error {
	return c.result(p, syscall(p.addr, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22))
}
