package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// Index arrays and boolean masks (issue 26), on every device through
// generated IR kernels: a[idx] is a gather leaf of the fused expression
// engine (stdlib/fuse), a[mask] a compaction: the cumulative sum of the
// mask (the scan kernels of cumsum) gives each selected element its
// place, and one kernel writes it there.

func init() { interp.RegisterIndexOps(indexOps{}) }

type indexOps struct{}

func (indexOps) Index(th *interp.Thread, x *interp.Array, idx interp.Value) (interp.Value, error) {
	src, err := x.Plain("an index array")
	if err != nil {
		return nil, err
	}
	ix, err := indexArg(th, idx, src.Device())
	if err != nil {
		return nil, err
	}
	if ix.DType() == ir.Bool {
		if th.Records(src) && src.DType().IsFloat() {
			return maskSelectTaped(th, src, ix)
		}
		return maskSelect(th, src, ix)
	}
	if src.NDim() == 0 {
		return nil, fmt.Errorf("too many indices for a 0-D array: 1")
	}
	return fuse.Gather(src, ix, 0)
}

func (indexOps) SetIndex(th *interp.Thread, x *interp.Array, idx, v interp.Value) error {
	dst, err := x.Plain("an index array")
	if err != nil {
		return err
	}
	ix, err := indexArg(th, idx, dst.Device())
	if err != nil {
		return err
	}
	if l, ok := v.(*interp.List); ok { // a[idx] = [1, 2], as NumPy takes it
		args := &interp.Args{Fn: "array", Positional: []interp.Value{l}, Names: []string{"device"}, Kw: []interp.Value{interp.String(dst.Device().String())}}
		if v, err = fromList(th, args, l); err != nil {
			return err
		}
	}
	if err := tapedWrite(th, "a[idx] = v", dst); err != nil {
		return err
	}
	err = th.Untaped(func() error { // recorded once, below
		if ix.DType() == ir.Bool {
			return maskAssign(th, dst, ix, v)
		}
		return fuse.Scatter(th, dst, ix, v, false)
	})
	if err != nil {
		return err
	}
	return recordWrite(th, "a[idx] = v", dst, ix, v)
}

// indexArg is an index value as an array on dev: an array (a computed
// expression), or a list made into one (a list of bools is a mask; an
// empty list selects nothing, as NumPy's).
func indexArg(th *interp.Thread, v interp.Value, dev mem.Device) (*mem.Array, error) {
	if d, ok := v.(interp.Deferred); ok {
		a, err := d.Materialise(th)
		if err != nil {
			return nil, err
		}
		v = a
	}
	var ix *mem.Array
	switch v := v.(type) {
	case *interp.Array:
		a, err := v.Plain("an index")
		if err != nil {
			return nil, err
		}
		ix = a
	case *interp.List:
		args := &interp.Args{Fn: "index", Positional: []interp.Value{v}, Names: []string{"device"}, Kw: []interp.Value{interp.String(dev.String())}}
		if v.Len() == 0 {
			args.Names, args.Kw = append(args.Names, "dtype"), append(args.Kw, interp.DType(ir.I64))
		}
		a, err := fromList(th, args, v)
		if err != nil {
			return nil, fmt.Errorf("index list: %v", err)
		}
		ix = a.(*interp.Array).A
	default:
		return nil, fmt.Errorf("an index must be an int, a slice, an int or bool array or a list, not %s", v.Type())
	}
	switch {
	case ix.Freed():
		return nil, mem.ErrFreed
	case ix.Device() != dev:
		return nil, fmt.Errorf("the index array is on %s and the array on %s: move it with .to(%q)", ix.Device(), dev, dev.String())
	case ix.DType() != ir.Bool && !ix.DType().IsInt():
		return nil, fmt.Errorf("index arrays must have an integer dtype (or bool, a mask), not %s", ix.DType())
	case ix.NDim() == 0 && ix.DType() != ir.Bool:
		return nil, fmt.Errorf("not yet supported: a 0-D index array (index with an int)")
	}
	return ix, nil
}

// maskCheck checks mask against a: a bool array of a's leading axes (all
// of them for NumPy's usual a[a > 0]), on a's device, whose compaction
// launches fit one kernel; a 0-D pair is seen as 1-D.
func maskCheck(a, mask *mem.Array) (*mem.Array, *mem.Array, error) {
	if mask.NDim() > a.NDim() || mask.NDim() == 0 && a.NDim() > 0 || !slices.Equal(mask.Shape(), a.Shape()[:mask.NDim()]) {
		return nil, nil, fmt.Errorf("boolean index of shape %s does not match the indexed array of shape %s", interp.ShapeString(mask.Shape()), interp.ShapeString(a.Shape()))
	}
	if a.Size() > backend.MaxThreads {
		return nil, nil, fmt.Errorf("not yet supported: a boolean index into more than 2^31-1 elements")
	}
	if a.NDim() == 0 {
		var err error
		if a, err = a.Reshape([]int{1}); err == nil {
			mask, err = mask.Reshape([]int{1})
		}
		return a, mask, err
	}
	return a, mask, nil
}

// maskPlaces is the inclusive cumulative sum of mask (i64, of mask's
// shape): an element the mask selects goes to place cs - 1. count is the
// last sum, read back: the one synchronisation of a compaction.
func maskPlaces(th *interp.Thread, mask *mem.Array) (cs *mem.Array, count int, err error) {
	if th.Capturing(mask.Device()) {
		return nil, 0, fmt.Errorf("not yet supported: boolean indexing inside capture (the result's size is read back)")
	}
	flat, err := scanArray(th, reduce.ScanSpec{Kind: reduce.CumSum, In: ir.Bool}, mask, 0, true)
	if err != nil {
		return nil, 0, err
	}
	if flat.Size() == 0 {
		return flat, 0, nil
	}
	bits, err := flat.LoadElem(flat.Size() - 1)
	if err != nil {
		flat.Free()
		return nil, 0, err
	}
	if cs, err = flat.Reshape(mask.Shape()); err != nil {
		flat.Free()
		return nil, 0, err
	}
	return cs, int(int64(bits)), nil
}

// maskMode is what a mask kernel does at a selected element t, place p.
type maskMode int

const (
	maskSelectMode maskMode = iota // out[p, t[k:]] = a[t]
	maskExpandMode                 // a[t] = v[p, t[k:]]
	maskCoordsMode                 // out[p, d] = t[d] for each axis d of the mask
)

// maskKernel is the kernel of mode over an array of nd axes and a mask of
// its first k: parameters mask, cs, then a and out (select), a and v
// (expand) or out (coords); a of dtype t, v of vt.
func maskKernel(mode maskMode, t, vt ir.Type, nd, k int) (*ir.Kernel, error) {
	name := fmt.Sprintf("gscript_mask_%d_%s_%s_%d_%d", mode, t, vt, nd, k)
	return interp.GeneratedKernel(name, func() (*ir.Kernel, error) {
		f := &ir.Func{Name: "gscript_mask", Params: []ir.Param{{Name: "mask", Elem: ir.Bool, NDim: k}, {Name: "cs", Elem: ir.I64, NDim: k}}}
		dims := nd
		switch mode {
		case maskSelectMode:
			f.Params = append(f.Params, ir.Param{Name: "a", Elem: t, NDim: nd}, ir.Param{Name: "out", Elem: t, NDim: 1 + nd - k})
		case maskExpandMode:
			f.Params = append(f.Params, ir.Param{Name: "a", Elem: t, NDim: nd}, ir.Param{Name: "v", Elem: vt, NDim: 1 + nd - k})
		case maskCoordsMode:
			f.Params = append(f.Params, ir.Param{Name: "out", Elem: ir.I64, NDim: 2})
			dims = k
		}
		b := ir.NewBuilder(f)
		var at []ir.Reg
		for d := range dims {
			r := f.NewReg(ir.I32)
			b.Emit(&ir.Inst{Op: ir.OpTid, Dst: r, Imm: d})
			at = append(at, r)
		}
		load := func(param int, t ir.Type, idx ...ir.Reg) ir.Reg {
			r := f.NewReg(t)
			b.Emit(&ir.Inst{Op: ir.OpLoad, Dst: r, Param: param, Args: idx})
			return r
		}
		store := func(param int, idx ...ir.Reg) {
			b.Emit(&ir.Inst{Op: ir.OpStore, Dst: ir.NoReg, Param: param, Args: idx})
		}
		b.If(load(0, ir.Bool, at[:k]...), func() {
			p := b.Op(ir.OpSub, ir.I64, load(1, ir.I64, at[:k]...), b.Const(ir.I64, int64(1)))
			row := append([]ir.Reg{p}, at[k:]...)
			switch mode {
			case maskSelectMode:
				store(3, append(row, load(2, t, at...))...)
			case maskExpandMode:
				store(2, append(slices.Clone(at), b.Conv(t, load(3, vt, row...)))...)
			case maskCoordsMode:
				for d, r := range at {
					store(2, p, b.Const(ir.I32, int64(d)), b.Conv(ir.I64, r))
				}
			}
		})
		return &ir.Kernel{Entry: f, TidDims: dims}, nil
	})
}

// maskLaunch runs mode's kernel over dims with the arrays that follow
// mask and cs.
func maskLaunch(th *interp.Thread, mode maskMode, t, vt ir.Type, nd int, mask, cs *mem.Array, dims []int, arrays ...*mem.Array) error {
	if slices.Contains(dims, 0) {
		return nil
	}
	k, err := maskKernel(mode, t, vt, nd, mask.NDim())
	if err != nil {
		return err
	}
	return th.LaunchLibrary(mask.Device(), dims, interp.ArgsFor(k).Arrays(mask, cs).Arrays(arrays...))
}

// maskSelect is a[mask]: a new array of the selected elements (or rows,
// for a mask of a's leading axes) in C order, on a's device.
func maskSelect(th *interp.Thread, a, mask *mem.Array) (interp.Value, error) {
	a, mask, err := maskCheck(a, mask)
	if err != nil {
		return nil, err
	}
	cs, count, err := maskPlaces(th, mask)
	if err != nil {
		return nil, err
	}
	defer cs.Free()
	return maskSelectAt(th, a, mask, cs, count)
}

// maskSelectAt is a[mask] for a checked a and mask whose places cs
// (count of them) maskPlaces gave.
func maskSelectAt(th *interp.Thread, a, mask, cs *mem.Array, count int) (interp.Value, error) {
	out, err := th.NewArrayUninit(a.DType(), slices.Concat([]int{count}, a.Shape()[mask.NDim():]), interp.String(a.Device().String()), nil)
	if err != nil || count == 0 {
		return &interp.Array{A: out}, err
	}
	if err := maskLaunch(th, maskSelectMode, a.DType(), ir.Invalid, a.NDim(), mask, cs, a.Shape(), a, out); err != nil {
		out.Free()
		return nil, err
	}
	return &interp.Array{A: out}, nil
}

// maskAssign is a[mask] = v: a number (or an array of one element) goes
// to every selected element with one where kernel; an array broadcasts
// to the selection's shape, [count] + a.shape[k:], and its elements go
// to the selected places in C order (NumPy's), cast as an assignment.
func maskAssign(th *interp.Thread, a, mask *mem.Array, v interp.Value) error {
	a, mask, err := maskCheck(a, mask)
	if err != nil {
		return err
	}
	if d, ok := v.(interp.Deferred); ok {
		if v, err = d.Materialise(th); err != nil {
			return err
		}
	}
	arr, isArr := v.(*interp.Array)
	if !isArr || arr.A.Size() == 1 {
		return maskFill(th, a, mask, v)
	}
	src, err := arr.Plain("an assignment through a mask")
	if err != nil {
		return err
	}
	if src.Device() != a.Device() {
		return fmt.Errorf("cannot assign an array on %s to an array on %s: move it first with .to(%q)", src.Device(), a.Device(), a.Device().String())
	}
	cs, count, err := maskPlaces(th, mask)
	if err != nil {
		return err
	}
	defer cs.Free()
	sel := slices.Concat([]int{count}, a.Shape()[mask.NDim():])
	if src, err = broadcastInto(src, sel); err != nil {
		return fmt.Errorf("cannot assign an array of shape %s to a boolean selection of shape %s", interp.ShapeString(arr.A.Shape()), interp.ShapeString(sel))
	}
	if src, err = detached(th, a, src); err != nil {
		return err
	}
	return maskLaunch(th, maskExpandMode, a.DType(), src.DType(), a.NDim(), mask, cs, a.Shape(), a, src)
}

// maskFill is a[mask] = x for one value x: where(mask, x, a) stored into
// a, the mask given unit axes for a's trailing ones.
func maskFill(th *interp.Thread, a, mask *mem.Array, x interp.Value) error {
	m, err := mask.Reshape(slices.Concat(mask.Shape(), slices.Repeat([]int{1}, a.NDim()-mask.NDim())))
	if err != nil {
		if m, err = copyArr(th, mask); err == nil {
			defer m.Free()
			m, err = m.Reshape(slices.Concat(mask.Shape(), slices.Repeat([]int{1}, a.NDim()-mask.NDim())))
		}
		if err != nil {
			return err
		}
	}
	e, err := fuse.Where(&interp.Array{A: m}, x, &interp.Array{A: a})
	if err != nil {
		return err
	}
	return th.StoreArray(a, e, interp.CastUnsafe)
}

// broadcastInto is src broadcast to shape, less the leading extents of 1
// it has beyond shape's rank (NumPy's assignment rule).
func broadcastInto(src *mem.Array, shape []int) (*mem.Array, error) {
	for src.NDim() > len(shape) && src.Shape()[0] == 1 {
		var err error
		if src, err = src.Sub(0); err != nil {
			return nil, err
		}
	}
	return src.BroadcastTo(shape)
}

// detached is src, or a copy of it when it may share bytes with dst.
func detached(th *interp.Thread, dst, src *mem.Array) (*mem.Array, error) {
	if !src.MayOverlap(dst) {
		return src, nil
	}
	return copyArr(th, src)
}

// copyArr is a new contiguous copy of a on its device.
func copyArr(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	c, err := th.NewArrayUninit(a.DType(), a.Shape(), interp.String(a.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	if err := th.CopyArray(c, a); err != nil {
		c.Free()
		return nil, err
	}
	return c, nil
}

// indexFuncs are the builtins of index arrays and masks.
func indexFuncs() map[string]fn {
	return map[string]fn{"take": take, "add_at": addAt, "nonzero": nonzero, "argwhere": argwhere}
}

// take(a, idx, axis=) gathers along axis (from the last when negative);
// without axis, from the flattened array (NumPy's). The result fuses into
// the expression that consumes it.
func take(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2, "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	ix, err := indexArg(th, args.Positional[1], a.Device())
	if err != nil {
		return nil, fmt.Errorf("take: %v", err)
	}
	if ix.DType() == ir.Bool {
		return nil, fmt.Errorf("take: the indices must be ints, not bool (a[mask] selects by a mask)")
	}
	axis := 0
	if v := args.Kwarg("axis"); v != nil {
		if axis, err = interp.ToInt(v); err != nil {
			return nil, fmt.Errorf("take: axis must be an int, not %s", v.Type())
		}
		if axis, err = mem.WrapAxis(axis, a.NDim()); err != nil {
			return nil, fmt.Errorf("take: %v", err)
		}
	} else if a, err = flattened(th, a); err != nil {
		return nil, err
	}
	v, err := fuse.Gather(a, ix, axis)
	if err != nil {
		return nil, fmt.Errorf("take: %v", err)
	}
	return v, nil
}

// flattened is a as 1-D: a view when its layout allows, else a copy.
func flattened(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	if f, err := a.Reshape([]int{a.Size()}); err == nil {
		return f, nil
	}
	c, err := copyArr(th, a)
	if err != nil {
		return nil, err
	}
	return c.Reshape([]int{a.Size()})
}

// add_at(a, idx, v) adds v (broadcast to a[idx]'s shape) at a's rows idx,
// each occurrence of a repeated index once more (NumPy's np.add.at), with
// atomic adds on the device: float sums may round in any order.
func addAt(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(3, 3); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	ix, err := indexArg(th, args.Positional[1], a.Device())
	if err != nil {
		return nil, fmt.Errorf("add_at: %v", err)
	}
	if ix.DType() == ir.Bool {
		return nil, fmt.Errorf("add_at: the indices must be ints, not bool")
	}
	if err := tapedWrite(th, "add_at", a); err != nil {
		return nil, err
	}
	if err := th.Untaped(func() error { return fuse.Scatter(th, a, ix, args.Positional[2], true) }); err != nil {
		return nil, fmt.Errorf("add_at: %v", err)
	}
	return interp.Nil, recordWrite(th, "add_at", a, ix, args.Positional[2])
}

// nonzero(a) is the indices of a's nonzero elements (true for bool), one
// i64 array per axis, in C order: the rows of one (ndim, count) array.
func nonzero(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	coords, err := nonzeroCoords(th, args, true)
	if err != nil {
		return nil, err
	}
	rows := make([]interp.Value, coords.Shape()[0])
	for d := range rows {
		row, err := coords.Sub(d)
		if err != nil {
			return nil, err
		}
		rows[d] = &interp.Array{A: row}
	}
	return interp.NewList(rows...), nil
}

// argwhere(a) is the indices of a's nonzero elements as an (count, ndim)
// i64 array, one row per element in C order.
func argwhere(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	coords, err := nonzeroCoords(th, args, false)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: coords}, nil
}

// nonzeroCoords computes the coordinates of argument 0's nonzero
// elements: an (ndim, count) array when byAxis, else (count, ndim).
func nonzeroCoords(th *interp.Thread, args *interp.Args, byAxis bool) (*mem.Array, error) {
	v, err := materialiseAll(th, args.Positional[:1])
	if err != nil {
		return nil, err
	}
	args.Positional = v
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a.NDim() == 0 {
		return nil, fmt.Errorf("%s of a 0-D array: reshape it to 1-D first (a.reshape([1]))", args.Fn)
	}
	mask, err := nonzeroMask(th, a)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if mask != a {
		defer mask.Free()
	}
	if _, _, err := maskCheck(mask, mask); err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	cs, count, err := maskPlaces(th, mask)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	defer cs.Free()
	shape := []int{count, a.NDim()}
	if byAxis {
		shape = []int{a.NDim(), count}
	}
	out, err := th.NewArrayUninit(ir.I64, shape, interp.String(a.Device().String()), nil)
	if err != nil {
		return nil, err
	}
	rows := out
	if byAxis {
		if rows, err = out.Transpose(); err != nil {
			return nil, err
		}
	}
	if err := maskLaunch(th, maskCoordsMode, ir.I64, ir.Invalid, a.NDim(), mask, cs, mask.Shape(), rows); err != nil {
		out.Free()
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return out, nil
}

// nonzeroMask is a != 0 as a bool array (a itself when it is one).
func nonzeroMask(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	if a.DType() == ir.Bool {
		return a, nil
	}
	e, err := fuse.Binary(token.Neq, &interp.Array{A: a}, interp.Int(0))
	if err != nil {
		return nil, err
	}
	m, err := e.(interp.Deferred).Materialise(th)
	if err != nil {
		return nil, err
	}
	return m.A, nil
}
