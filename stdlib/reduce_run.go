package stdlib

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"unsafe"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// fullReduce reduces every element of ins (one shape, one device) to a
// host value: two kernels on the arrays' device, then one wait and one
// read of the result. scal are the reduction's scalar arguments. With a
// producer, ins are its leaves and scal ends with its scalars.
func fullReduce(th *interp.Thread, name string, s reduce.Spec, pr reduce.Producer, ins []*mem.Array, scal []interp.Value) (interp.Value, error) {
	n := ins[0].Size()
	if n == 0 {
		return emptyValue(name, s)
	}
	dev := ins[0].Device()
	if th.Capturing(dev) {
		return nil, fmt.Errorf("%s: the result of a reduction cannot be read inside a capture block on %s: the block "+
			"records GPU work without running it (reduce along axis= to record it, or reduce after replay)", name, dev)
	}
	chunks, ok, err := hostSum(th, s, pr, ins)
	if !ok && err == nil {
		chunks, ok, err = hostExtreme(th, s, pr, ins)
	}
	if !ok && err == nil {
		chunks, err = runFull(th, s, pr, ins, scal)
	}
	if err != nil {
		return nil, err
	}
	return hostValue(name, s, n, chunks)
}

// hostSum is the full float sum, mean or norm of one contiguous array in
// host memory, by its backend's Summer where it has one (the cpu's Go
// loops): the kernels' result bit for bit, at memory speed (ok false: not
// such a reduction or no Summer, run the kernels).
func hostSum(th *interp.Thread, s reduce.Spec, pr reduce.Producer, ins []*mem.Array) ([][]uint64, bool, error) {
	a := ins[0]
	if pr != nil || len(ins) != 1 || !a.IsContiguous() || !a.HostAccessible() {
		return nil, false, nil
	}
	summer, ok := backend.SummerFor(a.Device())
	if !ok {
		return nil, false, nil
	}
	req, ok := reduce.HostSum(s.Kind, a.DType(), a.Size())
	if !ok {
		return nil, false, nil
	}
	b, err := a.ReadHost()
	if err != nil {
		return nil, false, err
	}
	req.X, req.Workers, req.Canceled = b, runtime.GOMAXPROCS(0), th.Canceled
	v, err := summer.Sum(&req)
	runtime.KeepAlive(a) // b is a's memory
	if errors.Is(err, backend.ErrCanceled) {
		return nil, false, errInterrupted
	}
	if err != nil {
		return nil, false, err
	}
	return [][]uint64{{math.Float64bits(v)}}, true, nil
}

// hostExtreme is the full min or max of one contiguous cpu array by Go
// loops (reduce.HostExtreme): the kernels' result at memory speed; ok
// false where the kernels must decide (a NaN, zeros of both signs) or
// for anything else.
func hostExtreme(th *interp.Thread, s reduce.Spec, pr reduce.Producer, ins []*mem.Array) ([][]uint64, bool, error) {
	a := ins[0]
	if (s.Kind != reduce.Min && s.Kind != reduce.Max) || pr != nil || len(ins) != 1 ||
		a.Device().Type != mem.CPU || !a.IsContiguous() || !a.HostAccessible() {
		return nil, false, nil
	}
	b, err := a.ReadHost()
	if err != nil || len(b) == 0 {
		return nil, false, err
	}
	bits, ok := reduce.HostExtreme(a.DType(), s.Kind == reduce.Max, unsafe.Pointer(&b[0]), a.Size(), th.Canceled)
	runtime.KeepAlive(a) // b is a's memory
	return [][]uint64{{bits}}, ok, nil
}

// runFull launches the two passes over ranges of at most Full.Chunk
// elements and returns each range's result values (raw bits).
func runFull(th *interp.Thread, s reduce.Spec, pr reduce.Producer, ins []*mem.Array, scal []interp.Value) ([][]uint64, error) {
	layouts := make([]reduce.Layout, len(ins))
	for i, a := range ins {
		layouts[i] = layoutOf(a)
	}
	plan := reduce.PlanFull(s.Kind, layouts)
	if pr != nil {
		plan = reduce.PlanFused(layouts)
	}
	f, err := reduce.FullKernels(s, pr, len(plan.Shape), reduce.Wide(plan.N))
	if err != nil {
		return nil, err
	}
	views, err := viewsOf(plan.View, ins...)
	if err != nil {
		return nil, err
	}
	dev := ins[0].Device()
	parts, res, err := scratch(th, dev, f)
	if err != nil {
		return nil, err
	}
	chunk := plan.N
	if f.Chunk > 0 {
		chunk = f.Chunk
	}
	var out [][]uint64
	for lo := 0; lo < plan.N; lo += chunk {
		hi := min(lo+chunk, plan.N)
		g := reduce.Blocks(hi - lo)
		args := interp.ArgsFor(f.Pass1).Arrays(views...).Arrays(parts...).Ints(lo, hi).Ints(plan.Shape[1:]...).Values(scal...)
		if err := th.LaunchLibrary(dev, []int{g}, args); err != nil {
			return nil, err
		}
		if err := th.LaunchLibrary(dev, []int{1}, interp.ArgsFor(f.Pass2).Arrays(parts...).Array(res).Ints(g)); err != nil {
			return nil, err
		}
		vals, err := readBits(th, res, f.NRes)
		if err != nil {
			return nil, err
		}
		out = append(out, vals)
	}
	return out, nil
}

// readBits waits for a's device (interruptibly) and reads its first n
// elements.
func readBits(th *interp.Thread, a *mem.Array, n int) ([]uint64, error) {
	if err := th.SyncDevice(a.Device()); err != nil {
		return nil, err
	}
	b, err := a.ReadHost()
	if err != nil {
		return nil, err
	}
	vals := make([]uint64, n)
	for i := range vals {
		vals[i] = mem.LoadBits(b, a.DType(), i)
	}
	runtime.KeepAlive(a) // b may be a's memory
	return vals, nil
}

// scratchKey keys a device's reduction scratch in the thread (Local).
type scratchKey struct{ dev mem.Device }

// scratchSlot is one scratch array: the i-th of type t of one length.
type scratchSlot struct {
	t    ir.Type
	i, n int
}

// scratch returns the partials (one array of reduce.MaxBlocks per
// accumulator component) and the result array of f on dev. They are
// allocated on first use with dev's default allocator and kept by the
// thread, so that a loop of reductions allocates nothing: at most 96 KiB per
// device and interpreter, which mem_info lists.
func scratch(th *interp.Thread, dev mem.Device, f *reduce.Full) ([]*mem.Array, *mem.Array, error) {
	arrays, _ := th.Local(scratchKey{dev}).(map[scratchSlot]*mem.Array)
	if arrays == nil {
		arrays = map[scratchSlot]*mem.Array{}
		th.SetLocal(scratchKey{dev}, arrays)
	}
	get := func(slot scratchSlot) (*mem.Array, error) {
		if a := arrays[slot]; a != nil {
			return a, nil
		}
		a, err := th.Tracker.New(th.Allocs.Default(dev), dev, slot.t, []int{slot.n})
		arrays[slot] = a
		return a, err
	}
	parts := make([]*mem.Array, len(f.Acc))
	seen := map[ir.Type]int{}
	for c, t := range f.Acc {
		a, err := get(scratchSlot{t, seen[t], reduce.MaxBlocks})
		if err != nil {
			return nil, nil, err
		}
		seen[t]++
		parts[c] = a
	}
	res, err := get(scratchSlot{f.Res, 0, f.NRes})
	return parts, res, err
}

// emptyValue is the reduction of no elements: the identity, or NumPy's
// error for those without one.
func emptyValue(name string, s reduce.Spec) (interp.Value, error) {
	float := s.In[0].IsFloat() || s.In[1].IsFloat()
	switch s.Kind {
	case reduce.Sum, reduce.Dot, reduce.Prod, reduce.NanSum:
		v := 0
		if s.Kind == reduce.Prod {
			v = 1
		}
		if float {
			return interp.Float(v), nil
		}
		return interp.Int(v), nil
	case reduce.Norm:
		return interp.Float(0), nil
	case reduce.CountNonzero:
		return interp.Int(0), nil
	case reduce.Any:
		return interp.Bool(false), nil
	case reduce.All, reduce.AllClose, reduce.Equal:
		return interp.Bool(true), nil
	}
	return nil, fmt.Errorf("%s of an empty array", name)
}

// hostValue turns the result values of a full reduction of n elements
// into the host value ARRAYS.md section 3 gives.
func hostValue(name string, s reduce.Spec, n int, chunks [][]uint64) (interp.Value, error) {
	v, t := chunks[0], s.In[0]
	float := t.IsFloat() || s.In[1].IsFloat()
	f := math.Float64frombits(v[0])
	switch s.Kind {
	case reduce.Sum, reduce.Dot, reduce.NanSum:
		if float {
			return interp.Float(f), nil
		}
		return exactSum(name, chunks)
	case reduce.NanMean:
		return interp.Float(f / math.Float64frombits(v[1])), nil
	case reduce.NanArgMin, reduce.NanArgMax:
		if int64(v[0]) < 0 {
			return nil, errAllNaN(name)
		}
		return interp.Int(int64(v[0])), nil
	case reduce.Prod:
		if float {
			return interp.Float(f), nil
		}
		if v[1] != 0 {
			return nil, fmt.Errorf("%s overflows int", name)
		}
		return interp.Int(int64(v[0])), nil
	case reduce.Mean:
		return interp.Float(f / float64(n)), nil
	case reduce.Norm:
		return interp.Float(math.Sqrt(f)), nil
	case reduce.Min, reduce.Max, reduce.NanMin, reduce.NanMax:
		return interp.ConvertScalarBits(t, v[0]), nil
	case reduce.ArgMin, reduce.ArgMax, reduce.CountNonzero:
		return interp.Int(int64(v[0])), nil
	}
	return interp.Bool(v[0] != 0), nil
}

// exactSum adds the ranges' int sums: one value each, or limbs (hi, lo)
// meaning hi*2^32 + lo, with an overflow flag third for dot. The total
// must fit a host int.
func exactSum(name string, chunks [][]uint64) (interp.Value, error) {
	total, part := new(big.Int), new(big.Int)
	for _, v := range chunks {
		part.SetInt64(int64(v[0]))
		if len(v) > 1 {
			part.Lsh(part, 32).Add(part, big.NewInt(int64(v[1])))
		}
		total.Add(total, part)
		if len(v) > 2 && v[2] != 0 {
			return nil, fmt.Errorf("%s overflows int", name)
		}
	}
	if !total.IsInt64() {
		return nil, fmt.Errorf("%s overflows int", name)
	}
	return interp.Int(total.Int64()), nil
}

// targetOf describes dev for planning.
func targetOf(dev mem.Device) reduce.Target {
	return reduce.Target{CUDA: dev.IsCUDA(), Workers: runtime.GOMAXPROCS(0)}
}

// axisInput is what an axis reduction reads: one array of dtype t, or
// the leaves of an expression of dtype t that pr computes (its scalars
// scal), all broadcast to the expression's shape.
type axisInput struct {
	t      ir.Type
	arrays []*mem.Array
	pr     reduce.Producer
	scal   []interp.Value
}

func (in axisInput) plan(axes []int, keep bool) (reduce.AxisPlan, error) {
	t := targetOf(in.arrays[0].Device())
	if in.pr == nil {
		return reduce.PlanAxis(layoutOf(in.arrays[0]), axes, keep, t)
	}
	ls := make([]reduce.Layout, len(in.arrays))
	for i, a := range in.arrays {
		ls[i] = layoutOf(a)
	}
	return reduce.PlanAxisFused(ls, axes, keep, t)
}

// axisReduce reduces in along axes into a new array on its device, made
// with the thread's allocator scopes (inside a capture block the kernel
// is recorded).
func axisReduce(th *interp.Thread, name string, k reduce.Kind, in axisInput, axes []int, keep bool) (interp.Value, error) {
	dev := in.arrays[0].Device()
	plan, err := in.plan(axes, keep)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if plan.K == 0 && plan.M > 0 && !k.HasIdentity() {
		return nil, fmt.Errorf("%s along an axis of length 0: the reduction has no identity", name)
	}
	// Every element is written: by the kernel, or with the identity.
	out, err := th.NewArrayUninit(reduce.AxisOut(k, in.t), plan.Out, interp.String(dev.String()), nil)
	if err != nil || plan.M == 0 {
		return &interp.Array{A: out}, err
	}
	if plan.K == 0 {
		return &interp.Array{A: out}, fillIdentity(th, k, out)
	}
	if ok, err := hostRowSums(th, k, in, plan, out); ok || err != nil {
		return &interp.Array{A: out}, err
	}
	s := reduce.Spec{Kind: k, In: [2]ir.Type{in.t}}
	kern, err := reduce.AxisKernel(s, in.pr, plan.Strategy, plan.Kept, len(plan.Ext)-plan.Kept, plan.Wide())
	if err != nil {
		return nil, err
	}
	views, err := viewsOf(plan.View, in.arrays...)
	if err != nil {
		return nil, err
	}
	flat, err := out.Reshape([]int{plan.M})
	if err != nil {
		return nil, err
	}
	args := interp.ArgsFor(kern).Arrays(views...).Array(flat).Ints(plan.M, plan.K)
	args.Ints(tail(plan.Ext[:plan.Kept])...).Ints(tail(plan.Ext[plan.Kept:])...).Values(in.scal...)
	if err := th.LaunchLibrary(dev, []int{plan.Grid}, args); err != nil {
		return nil, err
	}
	if k == reduce.NanArgMin || k == reduce.NanArgMax {
		return &interp.Array{A: out}, checkAllNaN(th, name, out)
	}
	return &interp.Array{A: out}, nil
}

// hostRowSums is an axis sum, mean or norm of one cpu array whose rows
// (the plan's view) are contiguous, by the backend's RowSummer (the cpu's
// Go loops in the Row kernel's order: its bits at memory speed); ok
// false where the kernel must run.
func hostRowSums(th *interp.Thread, k reduce.Kind, in axisInput, plan reduce.AxisPlan, out *mem.Array) (bool, error) {
	a := in.arrays[0]
	if in.pr != nil || a.Device().Type != mem.CPU || !a.HostAccessible() || !out.IsContiguous() {
		return false, nil
	}
	b, _ := backend.For(a.Device())
	rs, ok := b.(backend.RowSummer)
	if !ok {
		return false, nil
	}
	req, ok := reduce.HostRowSums(k, in.t, plan)
	if !ok {
		return false, nil
	}
	views, err := viewsOf(plan.View, a)
	if err != nil || !views[0].IsContiguous() {
		return false, err
	}
	x, err := views[0].ReadHost()
	if err != nil {
		return false, err
	}
	dst, err := out.HostBytes()
	if err != nil {
		return false, err
	}
	sums := make([]float64, plan.M)
	req.X, req.Workers, req.Canceled = x, runtime.GOMAXPROCS(0), th.Canceled
	err = rs.RowSums(&req, sums)
	runtime.KeepAlive(views) // x is their memory
	if errors.Is(err, backend.ErrCanceled) {
		return true, errInterrupted
	}
	for m, v := range sums {
		mem.StoreBits(dst, out.DType(), m, ir.FromFloat(reduce.RowValue(k, v, plan.K), out.DType()))
	}
	return true, err
}

// fillIdentity sets the output of reductions of no elements.
func fillIdentity(th *interp.Thread, k reduce.Kind, out *mem.Array) error {
	var v interp.Value = interp.Int(0)
	switch k {
	case reduce.Prod:
		v = interp.Int(1)
	case reduce.Any:
		v = interp.Bool(false)
	case reduce.All:
		v = interp.Bool(true)
	case reduce.Mean, reduce.NanMean:
		v = interp.Float(math.NaN())
	}
	return th.FillArray(out, v)
}

// tail is xs without its first element (the extents kernels need to
// split an index).
func tail(xs []int) []int {
	if len(xs) == 0 {
		return nil
	}
	return xs[1:]
}
