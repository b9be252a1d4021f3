package cuda

import (
	"runtime"
	"sync"
	"unsafe"
)

// Context is a device's primary context, retained once per process by
// PrimaryContext and shared by every caller.
//
// CUDA keeps the current context per OS thread, and goroutines move between
// threads, so code that calls the driver runs inside Do, which pins the
// goroutine to its thread and makes the context current there.
type Context struct {
	drv    *Driver
	handle uintptr
	dev    int
}

// PrimaryContext retains the primary context of a device (once; later calls
// return the same *Context until Release drops it).
func (d *Driver) PrimaryContext(ordinal int) (*Context, error) {
	h, err := d.handle(ordinal)
	if err != nil {
		return nil, err
	}
	d.ctxMu.Lock()
	defer d.ctxMu.Unlock()
	if c := d.ctxs[ordinal]; c != nil {
		return c, nil
	}
	var ctx uintptr
	if err := d.call2(&d.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&ctx)), h); err != nil {
		return nil, err
	}
	c := &Context{drv: d, handle: ctx, dev: ordinal}
	d.ctxs[ordinal] = c
	return c, nil
}

// Release drops the retain taken by PrimaryContext. The driver destroys
// the context when nothing else (another library) retains it; memory
// allocated in it is then gone.
func (c *Context) Release() error {
	d := c.drv
	d.ctxMu.Lock()
	defer d.ctxMu.Unlock()
	if d.ctxs[c.dev] != c {
		return nil
	}
	d.ctxs[c.dev] = nil
	h, _ := d.handle(c.dev)
	return d.call1(&d.cuDevicePrimaryCtxRelease, h)
}

// Handle is the CUcontext.
func (c *Context) Handle() uintptr { return c.handle }

// Device is the ordinal of the context's device.
func (c *Context) Device() int { return c.dev }

// Driver is the driver the context belongs to.
func (c *Context) Driver() *Driver { return c.drv }

// slotPool holds the out-parameter of cuCtxGetCurrent: a pointer handed to
// C must live on the heap, and reusing one keeps Do free of allocations.
var slotPool = sync.Pool{New: func() any { return new(uintptr) }}

// Do runs fn on the calling goroutine with its OS thread locked and c
// current on that thread, then makes the thread's previous context current
// again, so a caller that keeps its own context current on a locked thread
// (the interpreter does) is not disturbed. fn must not start work that
// expects c current on another goroutine. Nested Do calls are fine.
func (c *Context) Do(fn func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, err := c.swap()
	if err != nil {
		return err
	}
	err = fn()
	if prev != c.handle {
		if rerr := c.drv.call1(&c.drv.cuCtxSetCurrent, prev); err == nil {
			err = rerr
		}
	}
	return err
}

// SetCurrent makes c current on the calling OS thread, skipping the set
// when it already is. The caller must hold runtime.LockOSThread: otherwise
// the goroutine may run its next call on another thread.
func (c *Context) SetCurrent() error {
	_, err := c.swap()
	return err
}

// swap makes c current and returns the context that was current before.
func (c *Context) swap() (uintptr, error) {
	d := c.drv
	slot := slotPool.Get().(*uintptr)
	*slot = 0
	r := syscall(d.cuCtxGetCurrent.addr, uintptr(unsafe.Pointer(slot))) // slot: pooled heap memory
	cur := *slot
	slotPool.Put(slot)
	if code := uint32(r); code != 0 {
		return 0, d.newError(d.cuCtxGetCurrent.name(), int(int32(code)))
	}
	if cur == c.handle {
		return cur, nil
	}
	return cur, d.call1(&d.cuCtxSetCurrent, c.handle)
}

// CurrentContext is the CUcontext current on the calling OS thread (0 for
// none).
func (d *Driver) CurrentContext() (uintptr, error) {
	var cur uintptr
	err := d.call1(&d.cuCtxGetCurrent, uintptr(unsafe.Pointer(&cur)))
	return cur, err
}

// CtxSynchronize waits for all work of the current context.
func (d *Driver) CtxSynchronize() error { return d.call0(&d.cuCtxSynchronize) }

// CtxEnablePeerAccess lets the current context access memory of peer's
// context (flags must be 0). CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED comes
// back as an *Error: the caller decides whether that is a failure.
func (d *Driver) CtxEnablePeerAccess(peer *Context, flags uint32) error {
	return d.call2(&d.cuCtxEnablePeerAccess, peer.handle, uintptr(flags))
}
