package stdlib

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// scanFn is cumsum or cumprod (ARRAYS.md section 3): along axis= (from
// the last when negative), or of
// the flattened array without it, into a new array on a's device made
// with the thread's allocator scopes. Nothing is read back, so a capture
// block records the kernels.
func scanFn(k reduce.ScanKind) fn {
	return func(th *interp.Thread, args *interp.Args) (interp.Value, error) {
		if err := args.Check(1, 1, "axis"); err != nil {
			return nil, err
		}
		a, err := arrayArg(args, 0)
		if err != nil {
			return nil, err
		}
		axis, flat := 0, true
		if v := args.Kwarg("axis"); v != nil {
			if axis, err = interp.ToInt(v); err != nil {
				return nil, fmt.Errorf("%s: axis must be an int, not %s", args.Fn, v.Type())
			}
			if axis, err = mem.WrapAxis(axis, a.NDim()); err != nil {
				return nil, fmt.Errorf("%s: %v", args.Fn, err)
			}
			flat = false
		}
		out, err := scanArray(th, reduce.ScanSpec{Kind: k, In: a.DType()}, a, axis, flat)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", args.Fn, err)
		}
		if k == reduce.CumSum && th.Taping() {
			return &interp.Array{A: out}, recordCumsum(th, a, out, axis, flat)
		}
		return &interp.Array{A: out}, nil
	}
}

// scanArray runs the scan s of a (see scanFn).
func scanArray(th *interp.Thread, s reduce.ScanSpec, a *mem.Array, axis int, flat bool) (*mem.Array, error) {
	return scanInto(th, s, a, axis, flat, nil)
}

// scanInto is scanArray writing into out when it is not nil (an array of
// the result's dtype and shape that a loop of scans reuses: the sort's
// passes).
func scanInto(th *interp.Thread, s reduce.ScanSpec, a *mem.Array, axis int, flat bool, out *mem.Array) (*mem.Array, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if a.NDim() == 0 && flat { // NumPy: the scan of a scalar is 1-D
		var err error
		if a, err = a.Reshape([]int{1}); err != nil {
			return nil, err
		}
	}
	dev := a.Device()
	plan, err := reduce.PlanScan(layoutOf(a), axis, flat, targetOf(dev))
	if err != nil {
		return nil, err
	}
	if out == nil { // The kernels write every element.
		out, err = th.NewArrayUninit(reduce.ScanOut(s.In), plan.Out, interp.String(dev.String()), nil)
	}
	if err != nil || plan.M*plan.K == 0 {
		return out, err
	}
	shaped, err := out.Reshape(a.Shape())
	if err != nil {
		return nil, err
	}
	views, err := viewsOf(plan.View, a, shaped)
	if err != nil {
		return nil, err
	}
	if done, err := hostScan(th, s, plan, views); done || err != nil {
		return out, err
	}
	launches, err := reduce.ScanKernels(s, plan)
	if err != nil {
		return nil, err
	}
	for _, l := range launches {
		args := interp.ArgsFor(l.Kernel).Arrays(views...).Ints(plan.M, plan.K, plan.Tile, plan.Tiles)
		args.Ints(tail(plan.Ext[:plan.Kept])...).Ints(tail(plan.Ext[plan.Kept:])...)
		if err := th.LaunchLibrary(dev, []int{l.Grid}, args); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// hostScan is the scan of views[0] into views[1] (the plan's views) on
// the cpu by Go loops in host memory (reduce.HostScan): the kernels' bits
// at memory speed. done is false where the kernels must run: another
// device, a capture block (which records the kernels), or scanned axes
// that do not merge.
func hostScan(th *interp.Thread, s reduce.ScanSpec, plan reduce.ScanPlan, views []*mem.Array) (done bool, err error) {
	x, out := views[0], views[1]
	dev := x.Device()
	if dev.Type != mem.CPU || th.Capturing(dev) || !x.HostAccessible() || !out.HostAccessible() {
		return false, nil
	}
	xb, err := x.ReadHost()
	if err != nil {
		return false, err
	}
	ob, err := out.ReadHost() // waits for earlier work on a reused output
	if err != nil {
		return false, err
	}
	xp := unsafe.Pointer(&xb[x.HostOrigin()*x.DType().Size()])
	op := unsafe.Pointer(&ob[out.HostOrigin()*out.DType().Size()])
	done, err = reduce.HostScan(s, plan, xp, op, x.Strides(), out.Strides(), th.Canceled)
	runtime.KeepAlive(views) // xb and ob are their memory
	if errors.Is(err, backend.ErrCanceled) {
		return true, errInterrupted
	}
	return done, err
}
