package fuse

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// gatherLeaf is take(src, ix, axis): the leaf's element at index t (of
// shape src.shape[:axis] + ix.shape + src.shape[axis+1:]) is
// src[t[:axis], ix[t[axis:axis+m]], t[axis+m:]], m = ix's rank. The
// kernel reads ix and then src where ix points, so a[idx] * 2.0 + b is one
// kernel; an index outside the axis (after a negative one counts from the
// end) is recorded in the kernel's error slot (gatherErr) and read back.
type gatherLeaf struct {
	src, ix *mem.Array
	axis    int
	// checked: the indices were checked when the forward ran (a
	// backward's gathers, grad.go): no error slot, so no read back, and a
	// capture can record the kernel.
	checked bool
}

// Gather is take(src, ix, axis=axis) as an expression leaf: ix an array
// of an integer dtype on src's device, axis in range (the caller wraps a
// negative one).
func Gather(src, ix *mem.Array, axis int) (interp.Value, error) {
	if src.Freed() || ix.Freed() {
		return nil, mem.ErrFreed
	}
	if !ix.DType().IsInt() {
		return nil, fmt.Errorf("index arrays must have an integer dtype (or bool, a mask), not %s", ix.DType())
	}
	if axis < 0 || axis >= src.NDim() {
		return nil, fmt.Errorf("axis %d is out of range for a %d-D array", axis, src.NDim())
	}
	if src.Device() != ix.Device() {
		d := src.Device()
		_, err := joinDevice(&d, ptr(ix.Device()))
		return nil, err
	}
	shape := slices.Concat(src.Shape()[:axis], ix.Shape(), src.Shape()[axis+1:])
	if len(shape) > mem.MaxDims {
		return nil, fmt.Errorf("an index array of %d axes into a %d-D array gives more than %d axes", ix.NDim(), src.NDim(), mem.MaxDims)
	}
	d := src.Device()
	managed := src.Kind() == mem.CUDAManaged && ix.Kind() == mem.CUDAManaged
	return Value{&Expr{gat: &gatherLeaf{src: src, ix: ix, axis: axis}, t: src.DType(), shape: shape, dev: &d, managed: managed}}, nil
}

func ptr[T any](v T) *T { return &v }

// writeKey names gather leaf n: its axis, both ranks, the index dtype
// and which axes of its shape have extent 1 (those read index 0 when
// the expression broadcasts them).
func (gl *gatherLeaf) writeKey(b *strings.Builder, n int, shape []int) {
	fmt.Fprintf(b, "g%d.%d.%d.%d.%s.%d.", n, gl.axis, gl.src.NDim(), gl.ix.NDim(), gl.ix.DType(), b2i(gl.checked))
	for _, d := range shape {
		b.WriteByte('0' + byte(b2i(d == 1)))
	}
}

// checks reports whether a gather leaf's indices need checking: the
// kernel then has an error slot.
func (p *plan) checks() bool {
	return slices.ContainsFunc(p.gathers, func(e *Expr) bool { return !e.gat.checked })
}

// gatherParams appends each gather leaf's parameters (src, ix and the
// extent of src's indexed axis) and the kernel's error slot (where one
// checks), and returns the number of the first; none without gather
// leaves.
func (p *plan) gatherParams(f *ir.Func) int {
	first := len(f.Params)
	for i, e := range p.gathers {
		n := strconv.Itoa(i)
		f.Params = append(f.Params,
			ir.Param{Name: "g" + n, Elem: e.gat.src.DType(), NDim: e.gat.src.NDim()},
			ir.Param{Name: "gi" + n, Elem: e.gat.ix.DType(), NDim: e.gat.ix.NDim()},
			ir.Param{Name: "gn" + n, Elem: ir.I64})
	}
	if p.checks() {
		f.Params = append(f.Params, ir.Param{Name: "gerr", Elem: ir.I64, NDim: 1})
	}
	return first
}

// emitGather loads gather leaf slot's element at the thread index idx
// (the output's; the leaf's axes are its trailing ones).
func (p *plan) emitGather(g *gen, slot, first int, idx []ir.Reg) ir.Reg {
	e := p.gathers[slot]
	gl := e.gat
	at := make([]ir.Reg, len(e.shape))
	for k, d := range e.shape {
		if d == 1 {
			at[k] = g.Const(ir.I32, int64(0))
		} else {
			at[k] = idx[len(idx)-len(e.shape)+k]
		}
	}
	m := gl.ix.NDim()
	srcP, ixP := first+3*slot, first+3*slot+1
	errP := -1
	if p.checks() {
		errP = first + 3*len(p.gathers)
	}
	j := g.F.NewReg(gl.ix.DType())
	g.Emit(&ir.Inst{Op: ir.OpLoad, Dst: j, Param: ixP, Args: at[gl.axis : gl.axis+m]})
	n := g.Param(first + 3*slot + 2)
	k := checkIndex(g.Builder, g.Conv(ir.I64, j), n, errP, int64(slot+1))
	r := g.F.NewReg(gl.src.DType())
	g.Emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: srcP, Args: slices.Concat(at[:gl.axis], []ir.Reg{k}, at[gl.axis+m:])})
	return r
}

// checkIndex is index j (i64) into an axis of n elements, counted from
// the end when negative. An index still outside [0, n) is recorded in
// the i64 error slot errP (errP < 0: none), the first one to land wins
// the slot: err[0] = tag, err[1] = the index. It reads as 0 then, so the
// kernel's own accesses stay in bounds.
func checkIndex(b *ir.Builder, j, n ir.Reg, errP int, tag int64) ir.Reg {
	zero := b.Const(ir.I64, int64(0))
	k := b.Op(ir.OpSelect, ir.I64, b.Op(ir.OpLt, ir.Bool, j, zero), b.Op(ir.OpAdd, ir.I64, j, n), j)
	bad := b.Op(ir.OpOr, ir.Bool, b.Op(ir.OpLt, ir.Bool, k, zero), b.Op(ir.OpGe, ir.Bool, k, n))
	if errP >= 0 {
		b.If(bad, func() {
			i0 := b.Const(ir.I32, int64(0))
			old := b.F.NewReg(ir.I64)
			b.Emit(&ir.Inst{Op: ir.OpAtomicCAS, Dst: old, Param: errP, Args: []ir.Reg{i0, zero, b.Const(ir.I64, tag)}})
			b.If(b.Op(ir.OpEq, ir.Bool, old, zero), func() {
				b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: errP, Args: []ir.Reg{b.Const(ir.I32, int64(1)), j}})
			})
		})
	}
	return b.Op(ir.OpSelect, ir.I64, bad, zero, k)
}

// gatherArgs appends the gather leaves' arguments and returns the error
// slot, a zeroed i64[2] on dev (nil without leaves to check), for
// readIndexError after the launch.
func (p *plan) gatherArgs(th *interp.Thread, args *interp.KernelArgs, dev mem.Device) (*mem.Array, error) {
	if len(p.gathers) == 0 {
		return nil, nil
	}
	for _, e := range p.gathers {
		gl := e.gat
		if gl.src.Freed() || gl.ix.Freed() {
			return nil, mem.ErrFreed
		}
		args.Array(gl.src).Array(gl.ix).Int(int64(gl.src.Shape()[gl.axis]))
	}
	if !p.checks() {
		return nil, nil
	}
	slot, err := newErrSlot(th, dev)
	if err == nil {
		args.Array(slot)
	}
	return slot, err
}

// newErrSlot is a kernel's index error slot on dev. Reading it back is a
// synchronisation, which a capture cannot record.
func newErrSlot(th *interp.Thread, dev mem.Device) (*mem.Array, error) {
	if th.Capturing(dev) {
		return nil, fmt.Errorf("not yet supported: index arrays inside capture (their bounds are checked on the host after the kernel)")
	}
	return th.NewArray(ir.I64, []int{2}, interp.String(dev.String()), nil)
}

// readIndexError frees the error slot and turns a recorded bad index
// into NumPy's IndexError text; axisOf gives the axis and its extent
// for a tag.
func readIndexError(slot *mem.Array, axisOf func(tag int) (int, int)) error {
	defer slot.Free()
	b, err := slot.ReadHost()
	if err != nil {
		return err
	}
	tag := int(int64(mem.LoadBits(b, ir.I64, 0)))
	if tag == 0 {
		return nil
	}
	axis, n := axisOf(tag)
	return fmt.Errorf("index %d is out of bounds for axis %d with size %d", int64(mem.LoadBits(b, ir.I64, 1)), axis, n)
}

// launchGathers runs dst = e for a plan with gather leaves: one rank-D
// launch (the leaves index their sources with the thread's own index, so
// it is not split; past 2^31-1 elements is an error), then the error
// slot is read.
func launchGathers(th *interp.Thread, dst *mem.Array, p *plan, k *ir.Kernel) error {
	if dst.Size() > backend.MaxThreads {
		return fmt.Errorf("not yet supported: an index-array expression of more than 2^31-1 elements (%s)", interp.ShapeString(dst.Shape()))
	}
	for _, e := range p.gathers {
		if err := emptyAxisError(e.gat.src, e.gat.ix, e.gat.axis); err != nil {
			return err
		}
	}
	args := interp.ArgsFor(k).Array(dst)
	for _, a := range p.arrays {
		v, err := a.BroadcastTo(dst.Shape())
		if err != nil {
			return err
		}
		args.Array(v)
	}
	for _, s := range p.scalars {
		args.Value(s.val)
	}
	slot, err := p.gatherArgs(th, args, dst.Device())
	if err != nil {
		return err
	}
	if err := kernelError(th.LaunchLibrary(dst.Device(), dst.Shape(), args)); err != nil || slot == nil {
		if slot != nil {
			slot.Free()
		}
		return err
	}
	return readIndexError(slot, func(tag int) (int, int) {
		gl := p.gathers[tag-1].gat
		return gl.axis, gl.src.Shape()[gl.axis]
	})
}

// emptyAxisError is the error of indexing an axis of extent 0 with a
// non-empty index array (every index is out of bounds; the kernel could
// not even read index 0), naming the first index.
func emptyAxisError(src, ix *mem.Array, axis int) error {
	if src.Shape()[axis] != 0 || ix.Size() == 0 {
		return nil
	}
	bits, err := ix.LoadElem(0)
	if err != nil {
		return err
	}
	return fmt.Errorf("index %s is out of bounds for axis %d with size 0", interp.Scalar{T: ix.DType(), Bits: bits}, axis)
}

// Ungather replaces e's gather leaves by arrays computed from them, for
// consumers that read leaves at their own index (a fused reduction's
// Producer).
func Ungather(th *interp.Thread, e *Expr) (*Expr, error) {
	switch {
	case !hasGather(e):
		return e, nil
	case e.gat != nil:
		a, err := Materialise(th, e)
		if err != nil {
			return nil, err
		}
		return Leaf(a)
	case e.isLeaf():
		return e, nil
	}
	out := *e
	out.args = make([]*Expr, len(e.args))
	for i, a := range e.args {
		var err error
		if out.args[i], err = Ungather(th, a); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

func hasGather(e *Expr) bool {
	return e.gat != nil || slices.ContainsFunc(e.args, hasGather)
}
