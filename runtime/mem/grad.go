package mem

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Gradients (autodiff, interp's tapes). A buffer may carry a gradient: a
// second buffer of the same byte size on the same device. Every view of
// the buffer has as its gradient the same view of the gradient buffer
// (the same offset, dtype, shape and strides), as Warp's a[i].grad is
// a.grad[i]: gradients flow through slices, reshapes and transposes
// without being recorded, and a view made before the gradient existed
// sees it. mem only keeps the association; when a gradient exists, is
// allocated and accumulated is the tape's policy (interp/tape.go).
//
// The version counts writes to the buffer that the interpreter makes (a
// store, a launch's written arguments): a tape keeps the versions of the
// arrays whose values its backward reads and refuses a backward after
// one of them was overwritten (PyTorch's version counter).

// Grad is a's gradient, or nil when its buffer has none.
func (a *Array) Grad() *Array {
	g := a.buf.grad.Load()
	if g == nil {
		return nil
	}
	v := *a
	v.buf = g
	return &v
}

// WholeGrad is the whole of a's buffer's gradient as bytes (u8), for
// clearing it; nil when it has none.
func (a *Array) WholeGrad() *Array {
	g := a.buf.grad.Load()
	if g == nil {
		return nil
	}
	n := g.a.nbytes
	return &Array{buf: g, dtype: ir.U8, shape: []int{n}, strides: []int{1}}
}

// CoversBuffer reports whether a is its buffer's every byte, in order.
func (a *Array) CoversBuffer() bool {
	return a.IsContiguous() && a.off == 0 && a.NBytes() == a.buf.a.nbytes
}

// BufferBytes is the size of a's whole buffer, which a gradient buffer
// must have.
func (a *Array) BufferBytes() int { return a.buf.a.nbytes }

// SetGrad makes g's buffer the gradient of a's buffer. g must be a whole
// buffer of BufferBytes on a's device, and a's buffer must not have one.
func (a *Array) SetGrad(g *Array) error {
	switch {
	case g.buf.a.nbytes != a.buf.a.nbytes:
		return fmt.Errorf("a gradient buffer of %d bytes for a buffer of %d", g.buf.a.nbytes, a.buf.a.nbytes)
	case g.Device() != a.Device():
		return fmt.Errorf("a gradient on %s for an array on %s", g.Device(), a.Device())
	case g.buf == a.buf:
		return fmt.Errorf("an array cannot be its own gradient")
	}
	if !a.buf.grad.CompareAndSwap(nil, g.buf) {
		return fmt.Errorf("the array already has a gradient")
	}
	a.buf.wantsGrad.Store(true)
	return nil
}

// DropGrad removes a's buffer's gradient (a tape's reset of an
// intermediate), returning the gradient's buffer as an array (nil when
// there was none) for the caller to free. The buffer keeps wanting one.
func (a *Array) DropGrad() *Array {
	g := a.Grad()
	a.buf.grad.Store(nil)
	return g
}

// WantGrad marks a's buffer as requiring a gradient without allocating
// it: a tape's intermediate, whose gradient is allocated when the first
// one is accumulated into it.
func (a *Array) WantGrad() { a.buf.wantsGrad.Store(true) }

// RequiresGrad reports whether a's buffer has or wants a gradient.
func (a *Array) RequiresGrad() bool { return a.buf.wantsGrad.Load() }

// Version is the count of writes to a's buffer (Touch).
func (a *Array) Version() uint64 { return a.buf.version.Load() }

// Touch counts a write to a's buffer.
func (a *Array) Touch() { a.buf.version.Add(1) }
