package stdlib

import (
	"errors"
	"fmt"
	"math"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// arange and linspace compute each element on the array's device, with
// kernels built as IR (rangekernels.go) and launched like any kernel: no
// element passes through the host, and a capture block records them.

// rangeFill writes every element of a fresh 1-D array on its device.
type rangeFill func(th *interp.Thread, a *mem.Array) error

// arange is arange(stop), arange(start, stop[, step]), as NumPy's: integer
// bounds give exact integers, float bounds f64 arithmetic (see planArange).
// The default dtype is array()'s for the three bounds: i32 (i64 when a
// bound needs it) for ints, f32 when one is a float.
func arange(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(1, 3, placement...); err != nil {
		return nil, err
	}
	p := args.Positional
	bounds := [3]interp.Value{interp.Int(0), p[0], interp.Int(1)}
	if len(p) > 1 {
		bounds[0], bounds[1] = p[0], p[1]
	}
	if len(p) > 2 {
		bounds[2] = p[2]
	}
	dt, err := dtypeArg(args, inferDType(interp.NewList(bounds[:]...)))
	if err != nil {
		return nil, err
	}
	n, fill, err := planArange(bounds, dt)
	if err == nil && dt == ir.Bool && n > 2 {
		err = fmt.Errorf("a bool range has at most 2 elements, not %d", n) // NumPy's rule
	}
	return makeRange(th, args, dt, n, fill, err)
}

// planArange checks a range and returns its length and the fill that
// writes it in dtype t: exactly in integers when the bounds and t are
// integers, else element i is start + i*step computed in f64 and then
// converted to t (truncated toward zero for integer dtypes). Integer
// elements must fit t: a range never wraps.
func planArange(b [3]interp.Value, t ir.Type) (int, rangeFill, error) {
	if isInt(b[0]) && isInt(b[1]) && isInt(b[2]) {
		return planIntRange(b, t)
	}
	var v [3]float64
	for i := range b {
		f, err := interp.ToFloat(b[i])
		if err != nil {
			return 0, nil, err
		}
		v[i] = f
	}
	n, err := floatRangeLen(v[0], v[1], v[2])
	if err != nil {
		return 0, nil, err
	}
	s := seq{start: v[0], scale: v[2], div: 1, last: -1}
	if n == 1 {
		s.scale = 0 // the one element is start, also for an infinite step (0 * inf is NaN)
	}
	fill, err := planSeq("gscript_arange", s, n, t, false)
	return n, fill, err
}

func isInt(v interp.Value) bool {
	switch v := v.(type) {
	case interp.Int:
		return true
	case interp.Scalar:
		return v.T.IsInt()
	}
	return false
}

// planIntRange is planArange for integer bounds, in int64: the length is
// exact (interp.RangeLen), and so are the elements start + i*step for an
// integer dtype, also beyond 2^53 where f64 would round them. A float or
// bool dtype gets them through f64, as for float bounds.
func planIntRange(b [3]interp.Value, t ir.Type) (int, rangeFill, error) {
	var v [3]int64
	for i := range b {
		n, err := interp.ToInt(b[i])
		if err != nil {
			return 0, nil, err
		}
		v[i] = int64(n)
	}
	start, step := v[0], v[2]
	if step == 0 {
		return 0, nil, errZeroStep
	}
	un := interp.RangeLen(start, v[1], step)
	if un > mem.MaxElems {
		return 0, nil, fmt.Errorf("the range has %d elements, more than an array holds (%d)", un, mem.MaxElems)
	}
	n := int(un)
	if !t.IsInt() {
		fill, err := planSeq("gscript_arange", seq{start: float64(start), scale: float64(step), div: 1, last: -1}, n, t, false)
		return n, fill, err
	}
	// The last element lies between start and stop, so it fits an int64
	// and the wrapping arithmetic gives it exactly (the kernel's too).
	if n > 0 {
		if err := checkFits(t, interp.Int(start), interp.Int(start+int64(n-1)*step)); err != nil {
			return 0, nil, err
		}
	}
	return n, func(th *interp.Thread, a *mem.Array) error {
		k, err := interp.GeneratedKernel("gscript_arange_exact_"+t.String(), func() (*ir.Kernel, error) { return exactRangeKernel(t), nil })
		if err != nil {
			return err
		}
		return launchChunks(th, k, a, func(args *interp.KernelArgs) { args.Int(start).Int(step) })
	}, nil
}

var errZeroStep = errors.New("step must not be zero")

// floatRangeLen is NumPy's length of a float range: ceil((stop - start) /
// step), at least 0; 1 when the quotient underflows to +0 (a step of inf).
func floatRangeLen(start, stop, step float64) (int, error) {
	if step == 0 {
		return 0, errZeroStep
	}
	q := (stop - start) / step
	switch {
	case math.IsNaN(q) || math.IsInf(q, 0):
		return 0, fmt.Errorf("cannot compute the length of the range from %v to %v by %v", start, stop, step)
	case q == 0 && stop != start && !math.Signbit(q):
		return 1, nil
	case q <= 0:
		return 0, nil
	case math.Ceil(q) > mem.MaxElems:
		return 0, fmt.Errorf("the range has %v elements, more than an array holds (%d)", math.Ceil(q), mem.MaxElems)
	}
	return int(math.Ceil(q)), nil
}

// linspace is linspace(start, stop, num, endpoint=true), as NumPy's: num
// elements from start to stop, computed in f64 (linSeq) and converted to
// the dtype (f32 by default); integer dtypes take the floor first.
func linspace(th *interp.Thread, args *interp.Args) (interp.Value, error) {
	if err := args.Check(3, 3, "dtype", "device", "allocator", "endpoint"); err != nil {
		return nil, err
	}
	s, n, err := linspaceArgs(args)
	if err != nil {
		return nil, err
	}
	dt, err := dtypeArg(args, ir.F32)
	if err != nil {
		return nil, err
	}
	fill, err := planSeq("gscript_linspace", s, n, dt, true)
	return makeRange(th, args, dt, n, fill, err)
}

func linspaceArgs(args *interp.Args) (seq, int, error) {
	var v [2]float64
	for i := range v {
		f, err := interp.ToFloat(args.Positional[i])
		if err != nil {
			return seq{}, 0, fmt.Errorf("linspace: %v", err)
		}
		v[i] = f
	}
	n, err := interp.ToInt(args.Positional[2])
	if err != nil || n < 0 {
		return seq{}, 0, fmt.Errorf("linspace: the count must be a non-negative int")
	}
	endpoint := true
	if e := args.Kwarg("endpoint"); e != nil {
		b, ok := e.(interp.Bool)
		if !ok {
			return seq{}, 0, fmt.Errorf("linspace: endpoint must be a bool, not %s", e.Type())
		}
		endpoint = bool(b)
	}
	return linSeq(v[0], v[1], n, endpoint), n, nil
}

// linSeq is NumPy's linspace formula: with div = num - 1 (endpoint) or
// num, step = (stop - start) / div and element i is i*step + start; when
// step underflows to zero, (i / div) * (stop - start) + start; when there
// is no step (div 0), i * (stop - start) + start. With endpoint and num >
// 1 the last element is stop exactly.
func linSeq(start, stop float64, n int, endpoint bool) seq {
	div := n
	if endpoint {
		div = n - 1
	}
	delta := stop - start
	s := seq{start: start, scale: delta, div: 1, stop: stop, last: -1}
	if div > 0 {
		if step := delta / float64(div); step != 0 {
			s.scale = step
		} else {
			s.div = float64(div)
		}
	}
	if endpoint && n > 1 {
		s.last = int64(n - 1)
	}
	return s
}

// seq is a sequence in f64 as seqKernel computes it: element i is stop
// when i is last, else i / div * scale + start.
type seq struct {
	start, scale, div, stop float64
	last                    int64 // -1: none
}

// at is element i on the host; the conversion keeps Go from fusing the
// multiply and add, which the kernel never does.
func (s seq) at(i int) float64 {
	if int64(i) == s.last {
		return s.stop
	}
	return float64(float64(i)/s.div*s.scale) + s.start
}

// planSeq checks that the n elements of s, rounded toward zero (floor
// false, a kernel conversion) or down (floor), fit an integer dtype t, and
// returns the fill that computes them with the kernel called name.
func planSeq(name string, s seq, n int, t ir.Type, floor bool) (rangeFill, error) {
	round := math.Trunc
	if floor {
		round = math.Floor
	}
	if t.IsInt() && n > 0 {
		if err := checkFits(t, interp.Float(round(s.at(0))), interp.Float(round(s.at(n-1)))); err != nil {
			return nil, err
		}
	}
	name += "_" + t.String()
	return func(th *interp.Thread, a *mem.Array) error {
		k, err := interp.GeneratedKernel(name, func() (*ir.Kernel, error) { return seqKernel(name, t, floor), nil })
		if err != nil {
			return err
		}
		return launchChunks(th, k, a, func(args *interp.KernelArgs) {
			args.Float(s.start).Float(s.scale).Float(s.div).Float(s.stop).Int(s.last)
		})
	}, nil
}

// checkFits refuses an integer range whose first or last element t cannot
// hold; ranges are monotonic, so the others fit too.
func checkFits(t ir.Type, first, last interp.Value) error {
	for _, v := range []interp.Value{first, last} {
		if _, err := interp.ElemBits(v, t); err != nil {
			return fmt.Errorf("element %s does not fit %s", v, t)
		}
	}
	return nil
}

// makeRange allocates the n elements of a range (unless planning failed
// with err) and fills them on the array's device.
func makeRange(th *interp.Thread, args *interp.Args, dt ir.Type, n int, fill rangeFill, err error) (interp.Value, error) {
	if err != nil {
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	a, err := newArray(th, args, dt, []int{n})
	if err != nil {
		return nil, err
	}
	if err := fill(th, a); err != nil {
		a.Free()
		return nil, fmt.Errorf("%s: %v", args.Fn, err)
	}
	return &interp.Array{A: a}, nil
}

// launchChunks launches k over the elements of a (1-D, contiguous) on its
// device, at most 2^31-1 threads a launch (interp.Chunks): each launch
// gets its part of a, then the arguments scalars adds, then the part's
// offset in a.
func launchChunks(th *interp.Thread, k *ir.Kernel, a *mem.Array, scalars func(*interp.KernelArgs)) error {
	return interp.Chunks(a.Shape(), func(lo, hi int) error {
		part, err := a.Slice(lo, hi)
		if err != nil {
			return err
		}
		args := interp.ArgsFor(k).Array(part)
		scalars(args)
		return th.LaunchLibrary(a.Device(), []int{hi - lo}, args.Int(int64(lo)))
	})
}
