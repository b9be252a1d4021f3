package stdlib

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/fuse"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// shapeFuncs are NumPy's joining, splitting and rearranging functions.
// Views come back where NumPy returns views (flip, split); everything
// else is a new array written by the store engine's copy kernels
// (Thread.CopyArray) on the arrays' device, or an array expression
// (diff, outer).
func shapeFuncs() map[string]fn {
	return map[string]fn{
		"concatenate": concatenate, "stack": stackFn, "split": split, "flip": flip,
		"roll": roll, "tile": tile, "repeat": repeat, "diff": diff, "outer": outer,
		"power": power,
	}
}

// newLike is a new array of dtype t and shape on a's device, written in
// full by the caller.
func newLike(th *interp.Thread, a *mem.Array, t ir.Type, shape []int) (*mem.Array, error) {
	return th.NewArrayUninit(t, shape, interp.String(a.Device().String()), nil)
}

// axisView is the view of a with axis restricted to count elements from
// start in steps of step; the other axes are whole.
func axisView(a *mem.Array, axis, start, count, step int) (*mem.Array, error) {
	sels := make([]mem.Sel, axis+1)
	for k := range axis {
		sels[k] = mem.Sel{Slice: true, Count: a.Shape()[k], Step: 1}
	}
	sels[axis] = mem.Sel{Slice: true, Start: start, Count: count, Step: step}
	if count == 0 {
		sels[axis].Start = 0
	}
	return a.View(sels)
}

// flat is a seen as 1-D in C order: a view of a contiguous array, else a
// contiguous copy (NumPy's ravel).
func flat(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	c, err := contiguous(th, a)
	if err != nil {
		return nil, err
	}
	return c.Reshape([]int{a.Size()})
}

// contiguous is a itself when it is contiguous, else a C-order copy.
func contiguous(th *interp.Thread, a *mem.Array) (*mem.Array, error) {
	if a.IsContiguous() {
		return a, nil
	}
	c, err := newLike(th, a, a.DType(), a.Shape())
	if err != nil {
		return nil, err
	}
	return c, th.CopyArray(c, a)
}

// copyOf is a new contiguous array of v's shape with v's elements (v may
// be a broadcast view: the copy kernels read its zero strides).
func copyOf(th *interp.Thread, v *mem.Array) (*mem.Array, error) {
	c, err := newLike(th, v, v.DType(), v.Shape())
	if err != nil || c.Size() == 0 {
		return c, err
	}
	return c, th.CopyArray(c, v)
}

// noAxis reports whether an axis= argument is absent or nil (NumPy's
// axis=None).
func noAxis(v interp.Value) bool {
	return v == nil || v == interp.Nil
}

// axisOf reads the int axis= (or positional i) of an ndim-D array,
// negative from the last; def when absent.
func axisOf(args *interp.Args, i int, def, ndim int) (int, error) {
	v := args.Get(i, "axis")
	if v == nil {
		return mem.WrapAxis(def, ndim)
	}
	ax, err := interp.ToInt(v)
	if err != nil {
		return 0, fmt.Errorf("axis must be an int, not %s", v.Type())
	}
	return mem.WrapAxis(ax, ndim)
}

// intsOf reads an int or a list of ints (shapes, reps, axes, shifts).
func intsOf(what string, v interp.Value) ([]int, error) {
	if n, err := interp.ToInt(v); err == nil {
		return []int{n}, nil
	}
	l, ok := v.(*interp.List)
	if !ok {
		return nil, fmt.Errorf("%s must be an int or a list of ints, not %s", what, v.Type())
	}
	out := make([]int, l.Len())
	for i := range out {
		n, err := interp.ToInt(l.At(i))
		if err != nil {
			return nil, fmt.Errorf("%s: element %d: %v", what, i, err)
		}
		out[i] = n
	}
	return out, nil
}

// arraysOf reads a list of arrays of one device (concatenate, stack).
func arraysOf(name string, v interp.Value) ([]*mem.Array, error) {
	l, ok := v.(*interp.List)
	if !ok {
		return nil, fmt.Errorf("%s: argument 1 must be a list of arrays, not %s", name, v.Type())
	}
	if l.Len() == 0 {
		return nil, fmt.Errorf("%s: need at least one array", name)
	}
	out := make([]*mem.Array, l.Len())
	for i := range out {
		a, ok := l.At(i).(*interp.Array)
		if !ok {
			return nil, fmt.Errorf("%s: element %d must be an array, not %s", name, i, l.At(i).Type())
		}
		p, err := a.Plain(name)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			if err := sameDevice(name, out[0], p); err != nil {
				return nil, err
			}
		}
		out[i] = p
	}
	return out, nil
}

// concatenate(arrays, axis=0) joins arrays along an existing axis (axis=nil:
// their flattened elements), in the dtype they promote to (NumPy's).
func concatenate(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "axis"); err != nil {
		return nil, err
	}
	as, err := arraysOf(args.Fn, args.Positional[0])
	if err != nil {
		return nil, err
	}
	axis := 0
	if v := args.Get(1, "axis"); v == interp.Nil {
		for i, a := range as {
			if as[i], err = flat(th, a); err != nil {
				return nil, err
			}
		}
	} else {
		if as[0].NDim() == 0 {
			return nil, fmt.Errorf("%s: zero-dimensional arrays cannot be concatenated", args.Fn)
		}
		if axis, err = axisOf(args, 1, 0, as[0].NDim()); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	out, err := join(th, args.Fn, as, axis)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: out}, nil
}

// join is concatenate of arrays of one rank along axis.
func join(th *interp.Thread, name string, as []*mem.Array, axis int) (*mem.Array, error) {
	shape := slices.Clone(as[0].Shape())
	t := as[0].DType()
	for i, a := range as[1:] {
		if err := joinable(as[0], a, i+1, axis); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		shape[axis] += a.Shape()[axis]
		t = ir.Promote(t, a.DType())
	}
	out, err := newLike(th, as[0], t, shape)
	if err != nil {
		return nil, err
	}
	at := 0
	for _, a := range as {
		n := a.Shape()[axis]
		if n == 0 || a.Size() == 0 {
			continue
		}
		dst, err := axisView(out, axis, at, n, 1)
		if err != nil {
			return nil, err
		}
		if err := th.CopyArray(dst, a); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		at += n
	}
	return out, nil
}

// joinable checks that array i matches the first in rank and in every
// extent but axis's, with NumPy's messages.
func joinable(first, a *mem.Array, i, axis int) error {
	if a.NDim() != first.NDim() {
		return fmt.Errorf("all the input arrays must have the same number of dimensions, but the array at index 0 has %d dimension(s) and the array at index %d has %d dimension(s)",
			first.NDim(), i, a.NDim())
	}
	for k, n := range a.Shape() {
		if k != axis && n != first.Shape()[k] {
			return fmt.Errorf("all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d",
				k, first.Shape()[k], i, n)
		}
	}
	return nil
}

// stackFn is stack(arrays, axis=0): it joins arrays of one shape along a new axis.
func stackFn(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "axis"); err != nil {
		return nil, err
	}
	as, err := arraysOf(args.Fn, args.Positional[0])
	if err != nil {
		return nil, err
	}
	axis, err := axisOf(args, 1, 0, as[0].NDim()+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	for _, a := range as {
		if !slices.Equal(a.Shape(), as[0].Shape()) {
			return nil, fmt.Errorf("%s: all input arrays must have the same shape (%s and %s)", args.Fn,
				interp.ShapeString(as[0].Shape()), interp.ShapeString(a.Shape()))
		}
	}
	for i, a := range as {
		if as[i], err = a.NewAxis(axis); err != nil {
			return nil, err
		}
	}
	out, err := join(th, args.Fn, as, axis)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: out}, nil
}

// split(a, sections, axis=0) is a list of views of a along axis: sections
// equal parts (an int that divides the extent, as NumPy's split), or the
// parts between the indices of a list (clamped as slices are).
func split(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 3, "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	if a.NDim() == 0 {
		return nil, fmt.Errorf("%s: a 0-D array cannot be split", args.Fn)
	}
	axis, err := axisOf(args, 2, 0, a.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	n := a.Shape()[axis]
	cuts, err := splitPoints(args.Positional[1], n)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	parts := make([]interp.Value, len(cuts)+1)
	lo := 0
	for i := range parts {
		hi := n
		if i < len(cuts) {
			hi = cuts[i]
		}
		start, count, _ := mem.SliceBounds(n, &lo, &hi, 1)
		v, err := axisView(a, axis, start, count, 1)
		if err != nil {
			return nil, err
		}
		parts[i] = &interp.Array{A: v}
		lo = hi
	}
	return th.HoldList(interp.NewList(parts...))
}

// splitPoints are the interior cut indices of split's second argument over
// an axis of n.
func splitPoints(v interp.Value, n int) ([]int, error) {
	if k, err := interp.ToInt(v); err == nil {
		if k <= 0 {
			return nil, fmt.Errorf("number sections must be larger than 0")
		}
		if n%k != 0 {
			return nil, fmt.Errorf("array split does not result in an equal division: %d into %d", n, k)
		}
		cuts := make([]int, k-1)
		for i := range cuts {
			cuts[i] = (i + 1) * (n / k)
		}
		return cuts, nil
	}
	return intsOf("indices_or_sections", v)
}

// flip(a, axis=) is the view of a with the order of the elements along
// axis (an int or a list of ints; every axis without it) reversed.
func flip(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 2, "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	axes := allAxes(a.NDim())
	if v := args.Get(1, "axis"); !noAxis(v) {
		if axes, err = intsOf("axis", v); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
		if axes, err = wrapAxes(axes, a.NDim()); err != nil {
			return nil, fmt.Errorf("%s: %v", args.Fn, err)
		}
	}
	if a.NDim() == 0 {
		return &interp.Array{A: a}, nil
	}
	sels := make([]mem.Sel, a.NDim())
	for k, n := range a.Shape() {
		sels[k] = mem.Sel{Slice: true, Count: n, Step: 1}
		if slices.Contains(axes, k) && n > 0 {
			sels[k] = mem.Sel{Slice: true, Start: n - 1, Count: n, Step: -1}
		}
	}
	v, err := a.View(sels)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: v}, nil
}

// roll(a, shift, axis=) is a new array of a's elements shifted by shift
// along axis, wrapping around (an int, or lists of shifts and axes of one
// length); without axis, of the flattened array, shaped back as a.
func roll(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 3, "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	shifts, err := intsOf("shift", args.Positional[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	v := args.Get(2, "axis")
	if noAxis(v) {
		if len(shifts) != 1 {
			return nil, fmt.Errorf("%s: a list of shifts needs a list of axes", args.Fn)
		}
		f, err := flat(th, a)
		if err != nil {
			return nil, err
		}
		out, err := newLike(th, a, a.DType(), a.Shape())
		if err != nil {
			return nil, err
		}
		dst, err := out.Reshape([]int{a.Size()})
		if err != nil {
			return nil, err
		}
		return &interp.Array{A: out}, rollAxis(th, dst, f, 0, shifts[0])
	}
	axes, err := intsOf("axis", v)
	if err == nil {
		axes, err = wrapAxes(axes, a.NDim())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if len(shifts) == 1 {
		shifts = slices.Repeat(shifts, len(axes))
	}
	if len(shifts) != len(axes) {
		return nil, fmt.Errorf("%s: shift and axis must have one length, not %d and %d", args.Fn, len(shifts), len(axes))
	}
	out := a
	for i, ax := range axes {
		next, err := newLike(th, a, a.DType(), a.Shape())
		if err != nil {
			return nil, err
		}
		if err := rollAxis(th, next, out, ax, shifts[i]); err != nil {
			return nil, err
		}
		out = next
	}
	if out == a {
		out, err = copyOf(th, a)
	}
	return wrapView(&interp.Array{A: out}, err)
}

// rollAxis writes a rolled by shift along axis into out, of a's shape:
// two copies.
func rollAxis(th *interp.Thread, out, a *mem.Array, axis, shift int) error {
	n := a.Shape()[axis]
	if a.Size() == 0 {
		return nil
	}
	s := (shift%n + n) % n
	// out[s:] = a[:n-s]; out[:s] = a[n-s:]
	for _, part := range [][3]int{{s, 0, n - s}, {0, n - s, s}} {
		if part[2] == 0 {
			continue
		}
		dst, err := axisView(out, axis, part[0], part[2], 1)
		if err != nil {
			return err
		}
		src, err := axisView(a, axis, part[1], part[2], 1)
		if err != nil {
			return err
		}
		if err := th.CopyArray(dst, src); err != nil {
			return err
		}
	}
	return nil
}

// tile(a, reps) repeats the whole of a reps times along each axis (an
// int, or a list; the shorter of a's shape and reps gets leading ones), as
// NumPy's. a is copied into the output's corner, then each axis is filled
// by doubling: the part written so far is copied after itself, so an axis
// of r repetitions takes about log2(r) copies (a broadcast view, NumPy's
// way, would need twice a's rank, past mem.MaxDims).
func tile(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	reps, err := intsOf("reps", args.Positional[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	for _, r := range reps {
		if r < 0 {
			return nil, fmt.Errorf("%s: negative repetition %d", args.Fn, r)
		}
	}
	for a.NDim() < len(reps) {
		if a, err = a.NewAxis(0); err != nil {
			return nil, err
		}
	}
	reps = append(slices.Repeat([]int{1}, a.NDim()-len(reps)), reps...)
	shape := slices.Clone(a.Shape())
	for k, r := range reps {
		shape[k] *= r
	}
	out, err := newLike(th, a, a.DType(), shape)
	if err != nil || out.Size() == 0 {
		return &interp.Array{A: out}, err
	}
	ext := slices.Clone(a.Shape())
	if err := copyBox(th, out, a, make([]int, len(ext)), ext); err != nil {
		return nil, err
	}
	for k := range reps {
		if err := double(th, out, ext, k, shape[k]); err != nil {
			return nil, err
		}
		ext[k] = shape[k]
	}
	return &interp.Array{A: out}, nil
}

// double fills axis k of out's box [0, ext) up to n by copying the part
// written so far after itself.
func double(th *interp.Thread, out *mem.Array, ext []int, k, n int) error {
	done := ext[k]
	for done < n {
		c := min(done, n-done)
		from, size := make([]int, len(ext)), slices.Clone(ext)
		size[k] = c
		src, err := box(out, from, size)
		if err != nil {
			return err
		}
		from[k] = done
		if err := copyBox(th, out, src, from, size); err != nil {
			return err
		}
		done += c
	}
	return nil
}

// box is the view of a of extents size from the corner at.
func box(a *mem.Array, at, size []int) (*mem.Array, error) {
	sels := make([]mem.Sel, len(size))
	for k := range sels {
		sels[k] = mem.Sel{Slice: true, Start: at[k], Count: size[k], Step: 1}
	}
	return a.View(sels)
}

// copyBox copies src into out's box of src's extents at the corner at.
func copyBox(th *interp.Thread, out, src *mem.Array, at, size []int) error {
	dst, err := box(out, at, size)
	if err != nil {
		return err
	}
	return th.CopyArray(dst, src)
}

// repeat(a, repeats, axis=) repeats each element repeats times along axis
// (of the flattened array without it), or with a list, element i
// repeats[i] times (repeatEach). An int count: a seen as [outer, d, inner]
// (contiguous: a strided a is copied first), broadcast to
// [outer, d, repeats, inner] and copied, which stays within mem.MaxDims.
func repeat(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 3, "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	counts, err := intsOf("repeats", args.Positional[1])
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	for _, c := range counts {
		if c < 0 {
			return nil, fmt.Errorf("%s: negative dimensions are not allowed (repeats %d)", args.Fn, c)
		}
	}
	axis := 0
	if v := args.Get(2, "axis"); noAxis(v) {
		if a, err = flat(th, a); err != nil {
			return nil, err
		}
	} else if axis, err = axisOf(args, 2, 0, a.NDim()); err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	if _, each := args.Positional[1].(*interp.List); each {
		if len(counts) != a.Shape()[axis] {
			return nil, fmt.Errorf("%s: operands could not be broadcast together: %d repeats for an axis of %d", args.Fn, len(counts), a.Shape()[axis])
		}
		return repeatEach(th, a, axis, counts)
	}
	r := counts[0]
	shape := slices.Clone(a.Shape())
	shape[axis] *= r
	out, err := newLike(th, a, a.DType(), shape)
	if err != nil || out.Size() == 0 {
		return &interp.Array{A: out}, err
	}
	if a, err = contiguous(th, a); err != nil {
		return nil, err
	}
	d := a.Shape()[axis]
	outer, inner := prod(a.Shape()[:axis]), prod(a.Shape()[axis+1:])
	if a, err = a.Reshape([]int{outer, d, 1, inner}); err != nil {
		return nil, err
	}
	wide := []int{outer, d, r, inner}
	b, err := a.BroadcastTo(wide)
	if err != nil {
		return nil, err
	}
	dst, err := out.Reshape(wide)
	if err != nil {
		return nil, err
	}
	return &interp.Array{A: out}, th.CopyArray(dst, b)
}

// repeatEach is repeat with counts[i] copies of row i along axis: the
// rows' sources are made on the host (total of them) and one gather
// kernel writes the output.
func repeatEach(th *interp.Thread, a *mem.Array, axis int, counts []int) (interp.Value, error) {
	var src []int
	for i, c := range counts {
		for range c {
			src = append(src, i)
		}
	}
	shape := slices.Clone(a.Shape())
	shape[axis] = len(src)
	out, err := newLike(th, a, a.DType(), shape)
	if err != nil || out.Size() == 0 {
		return &interp.Array{A: out}, err
	}
	if a, err = contiguous(th, a); err != nil {
		return nil, err
	}
	idx, err := hostArray(th, a.Device(), ir.I64, len(src), func(i int) uint64 { return uint64(src[i]) })
	if err != nil {
		return nil, err
	}
	defer idx.Free()
	n := out.Size()
	k, err := reduce.RepeatKernel(a.DType(), reduce.Wide(max(n, a.Size())))
	if err != nil {
		return nil, err
	}
	x, err := a.Reshape([]int{a.Size()})
	if err != nil {
		return nil, err
	}
	o, err := out.Reshape([]int{n})
	if err != nil {
		return nil, err
	}
	ka := interp.ArgsFor(k).Arrays(x, idx, o).Ints(n, a.Shape()[axis], len(src), prod(a.Shape()[axis+1:]))
	return &interp.Array{A: out}, launch1D(th, a.Device(), n, ka)
}

func prod(xs []int) int {
	p := 1
	for _, x := range xs {
		p *= x
	}
	return p
}

// diff(a, n=1, axis=-1) is the n-th difference along axis: a[1:] - a[:-1]
// n times (for bools a[1:] != a[:-1], as NumPy's).
func diff(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 3, "n", "axis"); err != nil {
		return nil, err
	}
	a, err := arrayArg(args, 0)
	if err != nil {
		return nil, err
	}
	n := 1
	if v := args.Get(1, "n"); v != nil {
		if n, err = interp.ToInt(v); err != nil {
			return nil, fmt.Errorf("%s: n must be an int, not %s", args.Fn, v.Type())
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("%s: order must be non-negative but got %d", args.Fn, n)
	}
	if a.NDim() == 0 {
		return nil, fmt.Errorf("%s requires input that is at least one dimensional", args.Fn)
	}
	axis, err := axisOf(args, 2, -1, a.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	v := &interp.Array{A: a}
	for range n {
		if v, err = diffOnce(th, v.A, axis); err != nil {
			return nil, fmt.Errorf("%s: %w", args.Fn, err)
		}
	}
	return v, nil
}

// diffOnce is a[1:] - a[:-1] along axis, materialised.
func diffOnce(th *interp.Thread, a *mem.Array, axis int) (*interp.Array, error) {
	m := max(a.Shape()[axis]-1, 0)
	hi, err := axisView(a, axis, 1, m, 1)
	if err != nil {
		return nil, err
	}
	lo, err := axisView(a, axis, 0, m, 1)
	if err != nil {
		return nil, err
	}
	op := token.Sub
	if a.DType() == ir.Bool {
		op = token.Neq
	}
	return elementwise(th, op, hi, lo)
}

// elementwise is x op y (broadcast) computed into a new array.
func elementwise(th *interp.Thread, op token.Op, x, y *mem.Array) (*interp.Array, error) {
	e, err := fuse.Binary(op, &interp.Array{A: x}, &interp.Array{A: y})
	if err != nil {
		return nil, err
	}
	return e.(interp.Deferred).Materialise(th)
}

// outer(a, b) is the matrix a[i] * b[j] of the flattened arrays (and
// for bools, as NumPy's multiply of bools).
func outer(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(2, 2); err != nil {
		return nil, err
	}
	a, b, err := arrayPair(args)
	if err != nil {
		return nil, err
	}
	if err := sameDevice(args.Fn, a, b); err != nil {
		return nil, err
	}
	if a, err = flat(th, a); err == nil {
		b, err = flat(th, b)
	}
	if err != nil {
		return nil, err
	}
	col, err := a.NewAxis(1)
	if err != nil {
		return nil, err
	}
	row, err := b.NewAxis(0)
	if err != nil {
		return nil, err
	}
	op := token.Mul
	if a.DType() == ir.Bool && b.DType() == ir.Bool {
		op = token.And
	}
	out, err := elementwise(th, op, col, row)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", args.Fn, err)
	}
	return out, nil
}
