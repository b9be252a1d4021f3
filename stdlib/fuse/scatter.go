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

// Scatter is dst[ix] = v (add false) or add_at(dst, ix, v) (add true)
// along dst's axis 0: v (an array, an expression or a number) broadcasts
// to ix.shape + dst.shape[1:], and its values are cast as an assignment
// casts them (CastUnsafe) or as NumPy's add.at does (same kind). The
// check kernels read every index first (one outside the axis is an error
// and nothing is written) and, for an assignment, elect the last
// occurrence of each repeated index (atomic max of its position in C
// order, so the result is NumPy's last write on every device); the last
// kernel writes, or adds with atomics.
func Scatter(th *interp.Thread, dst, ix *mem.Array, v interp.Value, add bool) error {
	if dst.Freed() || ix.Freed() {
		return mem.ErrFreed
	}
	if !ix.DType().IsInt() {
		return fmt.Errorf("index arrays must have an integer dtype (or bool, a mask), not %s", ix.DType())
	}
	if dst.NDim() == 0 {
		return fmt.Errorf("too many indices for a 0-D array: 1")
	}
	if add && !ir.Atomics.Has(dst.DType()) {
		return fmt.Errorf("not supported on an array of %s (atomics take i32, i64, u32, u64, f32 and f64)", dst.DType())
	}
	e, err := scatterValue(th, dst, ix, v, add)
	if err != nil || ix.Size() == 0 {
		return err
	}
	if ix.MayOverlap(dst) {
		if ix, err = copyOf(th, ix); err != nil {
			return err
		}
	}
	if err := emptyAxisError(dst, ix, 0); err != nil {
		return err
	}
	win, err := checkScatter(th, dst, ix, !add)
	if err != nil {
		return err
	}
	if win != nil {
		defer win.Free()
	}
	return scatterLaunch(th, dst, ix, win, e, add)
}

// scatterValue is v as an expression of shape ix.shape + dst.shape[1:],
// of a dtype dst takes, with no leaf overlapping dst (a scatter writes
// elements the leaves may still have to be read at).
func scatterValue(th *interp.Thread, dst, ix *mem.Array, v interp.Value, add bool) (*Expr, error) {
	e, err := Leaf(v)
	if err != nil {
		return nil, err
	}
	shape := slices.Concat(ix.Shape(), dst.Shape()[1:])
	if s, err := broadcast(shape, e.shape); err != nil || !slices.Equal(s, shape) {
		return nil, fmt.Errorf("cannot assign a value of shape %s to an indexed selection of shape %s", interp.ShapeString(e.shape), interp.ShapeString(shape))
	}
	if add && !e.weak && !ir.CanCastSameKind(e.t, dst.DType()) {
		return nil, fmt.Errorf("cannot add %s values to a %s array (NumPy's same_kind rule): convert with .astype(%s)", e.t, dst.DType(), dst.DType())
	}
	if e.weak {
		if _, err := interp.ElemBits(e.val, dst.DType()); err != nil {
			return nil, err
		}
		e = &Expr{val: e.val, t: dst.DType()}
	}
	if e.dev != nil && *e.dev != dst.Device() {
		_, err := joinDevice(ptr(dst.Device()), e.dev)
		return nil, err
	}
	return detach(th, dst, e)
}

// detach replaces each leaf of e that may share bytes with dst by a copy.
func detach(th *interp.Thread, dst *mem.Array, e *Expr) (*Expr, error) {
	switch {
	case e.arr != nil && e.arr.MayOverlap(dst), e.gat != nil && (e.gat.src.MayOverlap(dst) || e.gat.ix.MayOverlap(dst)):
		c, err := Materialise(th, &Expr{op: ir.OpConvert, in: e.t, t: e.t, args: []*Expr{e}, shape: e.shape, dev: e.dev})
		if err != nil {
			return nil, err
		}
		return Leaf(c)
	case e.isLeaf():
		return e, nil
	}
	out := *e
	out.args = make([]*Expr, len(e.args))
	for i, a := range e.args {
		var err error
		if out.args[i], err = detach(th, dst, a); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// copyOf is a contiguous copy of a on its device.
func copyOf(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	c, err := Materialise(th, &Expr{op: ir.OpConvert, in: a.DType(), t: a.DType(), args: []*Expr{{arr: a, t: a.DType(), shape: a.Shape(), dev: ptr(a.Device())}}, shape: a.Shape(), dev: ptr(a.Device())})
	if err != nil {
		return nil, err
	}
	return c.A, nil
}

// checkScatter runs the check kernel over ix: an index outside dst's
// axis 0 is an error; with elect, it returns win, i64 per row of dst: 1 +
// the C-order position in ix of the last index naming that row, valid at
// the rows ix names. Only those are reset (win is not zero-filled), so a
// few indices into a large array cost a few elements' work.
func checkScatter(th *interp.Thread, dst, ix *mem.Array, elect bool) (*mem.Array, error) {
	if ix.Size() > backend.MaxThreads {
		return nil, fmt.Errorf("not yet supported: an index array of more than 2^31-1 elements")
	}
	dev := dst.Device()
	var win *mem.Array
	first := passCheck
	if elect {
		var err error
		if win, err = th.NewArrayUninit(ir.I64, dst.Shape()[:1], interp.String(dev.String()), nil); err != nil {
			return nil, err
		}
		first = passReset
	}
	err := scatterPass(th, first, dst, ix, win)
	if err == nil && elect {
		err = scatterPass(th, passElect, dst, ix, win)
	}
	if err != nil && win != nil {
		win.Free()
		win = nil
	}
	return win, err
}

// scatterPass launches the check kernel of pass over ix, reading its
// error slot back after a checking pass.
func scatterPass(th *interp.Thread, pass checkPass, dst, ix, win *mem.Array) error {
	dev := dst.Device()
	name := fmt.Sprintf("gscript_scatter_check_%s_%d_%d", ix.DType(), ix.NDim(), pass)
	k, err := interp.GeneratedKernel(name, func() (*ir.Kernel, error) { return checkKernel(ix.DType(), ix.NDim(), pass), nil })
	if err != nil {
		return err
	}
	slot, err := newErrSlot(th, dev)
	if err != nil {
		return err
	}
	args := interp.ArgsFor(k).Array(ix).Array(slot).Int(int64(dst.Shape()[0])).Ints(ix.Shape()...)
	if pass != passCheck {
		args.Array(win)
	}
	if err := kernelError(th.LaunchLibrary(dev, ix.Shape(), args)); err != nil || pass == passElect {
		slot.Free() // passElect records nothing: no read back, no synchronisation
		return err
	}
	return readIndexError(slot, func(int) (int, int) { return 0, dst.Shape()[0] })
}

// checkPass is one kernel of checkScatter: passCheck checks every index,
// passReset also zeroes win at its row, passElect (after it) takes the
// atomic max of 1 + its position there.
type checkPass int

const (
	passCheck checkPass = iota
	passReset
	passElect
)

// checkKernel is checkScatter's kernel of pass: parameters ix (m axes),
// err, n (the rows of dst), e0.. (ix's extents) and, but for passCheck,
// win.
func checkKernel(it ir.Type, m int, pass checkPass) *ir.Kernel {
	f := &ir.Func{Name: "gscript_scatter_check", Params: []ir.Param{{Name: "ix", Elem: it, NDim: m}, {Name: "err", Elem: ir.I64, NDim: 1}, {Name: "n", Elem: ir.I64}}}
	for k := range m {
		f.Params = append(f.Params, ir.Param{Name: "e" + strconv.Itoa(k), Elem: ir.I64})
	}
	winP := len(f.Params)
	if pass != passCheck {
		f.Params = append(f.Params, ir.Param{Name: "win", Elem: ir.I64, NDim: 1})
	}
	b := ir.NewBuilder(f)
	t := tids(b, m)
	j := b.F.NewReg(it)
	b.Emit(&ir.Inst{Op: ir.OpLoad, Dst: j, Param: 0, Args: t})
	errP := 1
	if pass == passElect {
		errP = -1 // checked by passReset
	}
	k := checkIndex(b, b.Conv(ir.I64, j), b.Param(2), errP, 1)
	switch pass {
	case passReset:
		b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: winP, Args: []ir.Reg{k, b.Const(ir.I64, int64(0))}})
	case passElect:
		pos := flatPos(b, t, func(k int) ir.Reg { return b.Param(3 + k) })
		old := b.F.NewReg(ir.I64)
		b.Emit(&ir.Inst{Op: ir.OpAtomicMax, Dst: old, Param: winP, Args: []ir.Reg{k, b.Op(ir.OpAdd, ir.I64, pos, b.Const(ir.I64, int64(1)))}})
	}
	return &ir.Kernel{Entry: f, TidDims: max(m, 1), UsesAtomics: true}
}

// tids are the thread's indices along n axes (one for n = 0, a 0-D
// launch of one thread).
func tids(b *ir.Builder, n int) []ir.Reg {
	var t []ir.Reg
	for k := range max(n, 1) {
		r := b.F.NewReg(ir.I32)
		b.Emit(&ir.Inst{Op: ir.OpTid, Dst: r, Imm: k})
		t = append(t, r)
	}
	return t[:n]
}

// flatPos is the C-order position (i64) of index t in extents ext.
func flatPos(b *ir.Builder, t []ir.Reg, ext func(k int) ir.Reg) ir.Reg {
	pos := b.Const(ir.I64, int64(0))
	for k, r := range t {
		if k > 0 {
			pos = b.Op(ir.OpMul, ir.I64, pos, ext(k))
		}
		pos = b.Op(ir.OpAdd, ir.I64, pos, b.Conv(ir.I64, r))
	}
	return pos
}

// scatterLaunch runs the writing kernel over ix.shape + dst.shape[1:]:
// the plan of e supplies the value, the store goes to dst at row ix[t]
// (where win elects this position) or adds to it atomically.
func scatterLaunch(th *interp.Thread, dst, ix, win *mem.Array, e *Expr, add bool) error {
	shape := slices.Concat(ix.Shape(), dst.Shape()[1:])
	n := 1
	for _, d := range shape {
		n *= d
	}
	if n > backend.MaxThreads {
		return fmt.Errorf("not yet supported: an indexed assignment of more than 2^31-1 elements (%s)", interp.ShapeString(shape))
	}
	if n == 0 {
		return nil
	}
	p := newPlanOf(e)
	p.rank, p.out, p.flat = len(shape), dst.DType(), false
	p.collect(e, shape)
	var key strings.Builder
	fmt.Fprintf(&key, "gscript_scatter_%s_%d_%s_%d_%t=", dst.DType(), dst.NDim(), ix.DType(), ix.NDim(), add)
	p.writeKey(&key, e)
	k, err := interp.GeneratedKernel(key.String(), func() (*ir.Kernel, error) {
		return scatterKernel(p, dst.DType(), dst.NDim(), ix.DType(), ix.NDim(), add), nil
	})
	if err != nil {
		return err
	}
	args := interp.ArgsFor(k).Array(dst)
	for _, a := range p.arrays {
		v, err := a.BroadcastTo(shape)
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
	args.Array(ix).Int(int64(dst.Shape()[0])).Ints(ix.Shape()...)
	if win != nil {
		args.Array(win)
	}
	err = kernelError(th.LaunchLibrary(dst.Device(), shape, args))
	if slot == nil {
		return err
	}
	if err != nil {
		slot.Free()
		return err
	}
	return readIndexError(slot, func(tag int) (int, int) {
		gl := p.gathers[tag-1].gat
		return gl.axis, gl.src.Shape()[gl.axis]
	})
}

// scatterKernel is scatterLaunch's kernel: out (dst), the plan's leaves,
// then ix, n (dst's rows), e0.. (ix's extents) and, for an assignment,
// win (an add needs no election: atomics combine every occurrence).
func scatterKernel(p *plan, dt ir.Type, nd int, it ir.Type, m int, add bool) *ir.Kernel {
	f := &ir.Func{Name: "gscript_scatter", Params: []ir.Param{{Name: "out", Elem: dt, NDim: nd}}}
	k := p.build(f, p.rank, func(g *gen, idx []ir.Reg, v ir.Reg) {
		ixP := len(f.Params)
		f.Params = append(f.Params, ir.Param{Name: "ix", Elem: it, NDim: m}, ir.Param{Name: "n", Elem: ir.I64})
		for k := range m {
			f.Params = append(f.Params, ir.Param{Name: "e" + strconv.Itoa(k), Elem: ir.I64})
		}
		j := g.F.NewReg(it)
		g.Emit(&ir.Inst{Op: ir.OpLoad, Dst: j, Param: ixP, Args: idx[:m]})
		row := checkIndex(g.Builder, g.Conv(ir.I64, j), g.Param(ixP+1), -1, 0)
		at := append([]ir.Reg{row}, idx[m:]...)
		if add {
			old := g.F.NewReg(dt)
			g.Emit(&ir.Inst{Op: ir.OpAtomicAdd, Dst: old, Param: 0, Args: append(at, v)})
			return
		}
		write := func() { g.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: 0, Args: append(at, v)}) }
		winP := len(f.Params)
		f.Params = append(f.Params, ir.Param{Name: "win", Elem: ir.I64, NDim: 1})
		pos := flatPos(g.Builder, idx[:m], func(k int) ir.Reg { return g.Param(ixP + 2 + k) })
		w := g.F.NewReg(ir.I64)
		g.Emit(&ir.Inst{Op: ir.OpLoad, Dst: w, Param: winP, Args: []ir.Reg{row}})
		g.If(g.Op(ir.OpEq, ir.Bool, w, g.Op(ir.OpAdd, ir.I64, pos, g.Const(ir.I64, int64(1)))), write)
	})
	k.UsesAtomics = true
	return k
}
