package fuse

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
)

func init() { interp.RegisterArrayOps(ops{}) }

// ops is the engine interp calls for operators on arrays.
type ops struct{}

func (ops) Binary(th *interp.Thread, op token.Op, x, y interp.Value) (interp.Value, error) {
	return Binary(op, x, y)
}

func (ops) Unary(th *interp.Thread, op token.Op, x interp.Value) (interp.Value, error) {
	return Unary(op, x)
}

func (ops) AsType(th *interp.Thread, x interp.Value, t ir.Type) (interp.Value, error) {
	return AsType(x, t)
}

func (ops) Store(th *interp.Thread, dst *mem.Array, v interp.Value, cast interp.Cast) error {
	e, err := Leaf(v)
	if err != nil {
		return err
	}
	return Store(th, dst, e, cast)
}

// Materialise computes e into a new array on its device, allocated
// through th's allocator scopes (so capture's rules apply), in one
// kernel.
func Materialise(th *interp.Thread, e *Expr) (*interp.Array, error) {
	if e.dev == nil {
		return nil, fmt.Errorf("an array expression without arrays") // Binary never builds one
	}
	taped := th.Taping() && RequiresGrad(e)
	if taped {
		if err := checkRecord(e, nil); err != nil {
			return nil, err
		}
	}
	out, err := th.NewArrayUninit(e.t, e.shape, interp.String(e.dev.String()), nil)
	if err != nil {
		return nil, err
	}
	if err := launch(th, out, e); err != nil {
		return nil, err
	}
	if taped {
		return &interp.Array{A: out}, record(th, e, out)
	}
	return &interp.Array{A: out}, nil
}

// Store writes e into dst in place, the one store engine (interp's fills,
// copies, slice assignment and `op=`): e broadcasts to dst's shape (less
// leading extents of 1 beyond dst's rank, interp.StoreTarget), its
// dtype converts to dst's as a kernel conversion does (CastUnsafe, NumPy's
// `=`) or only within its kind (CastSameKind, NumPy's in-place operators:
// y += 0.5 into an int array is an error), and an array leaf that overlaps
// dst through another view is read from a copy (NumPy's result for
// x[1:6] += x[0:5]). A host number must fit dst's dtype.
func Store(th *interp.Thread, dst *mem.Array, e *Expr, cast interp.Cast) error {
	if dst.Freed() {
		return mem.ErrFreed
	}
	to := interp.StoreTarget(dst, e.shape)
	if s, err := broadcast(to.Shape(), e.shape); err != nil || !slices.Equal(s, to.Shape()) {
		return fmt.Errorf("cannot store an expression of shape %s into an array of shape %s", interp.ShapeString(e.shape), interp.ShapeString(dst.Shape()))
	}
	dst = to
	if cast == interp.CastSameKind && !e.weak && !ir.CanCastSameKind(e.t, dst.DType()) {
		return fmt.Errorf("cannot store %s values into a %s array in place (NumPy's same_kind rule): convert with .astype(%s)", e.t, dst.DType(), dst.DType())
	}
	if e.weak {
		if _, err := interp.ElemBits(e.val, dst.DType()); err != nil {
			return err
		}
		e = &Expr{val: e.val, t: dst.DType()}
	}
	if e.dev != nil && *e.dev != dst.Device() {
		d := dst.Device() // here: a variable whose address escapes costs an allocation
		if j := (&Expr{dev: &d}); j.joinOperand(e) != nil || *j.dev != d {
			_, err := joinDevice(&d, e.dev)
			return err
		}
	}
	taped := th.Taping() && RequiresGrad(e)
	if taped {
		if err := checkRecord(e, dst); err != nil {
			return err
		}
	}
	e, err := unalias(th, dst, e)
	if err != nil {
		return err
	}
	if err := th.TapeWrites("an array store", dst); err != nil {
		return err
	}
	dst.Touch()
	if err := launch(th, dst, e); err != nil || !taped {
		return err
	}
	return record(th, e, dst)
}

// unalias replaces each array leaf of e that overlaps dst, other than dst
// itself element for element, with a copy.
func unalias(th *interp.Thread, dst *mem.Array, e *Expr) (*Expr, error) {
	switch {
	case e.arr != nil:
		if !e.arr.MayOverlap(dst) {
			return e, nil
		}
		if b, err := e.arr.BroadcastTo(dst.Shape()); err == nil && b.SameLayout(dst) {
			return e, nil
		}
		c, err := Materialise(th, &Expr{op: ir.OpConvert, in: e.t, t: e.t, args: []*Expr{e}, shape: e.shape, dev: e.dev})
		if err != nil {
			return nil, err
		}
		return Leaf(c)
	case e.gat != nil:
		if !e.gat.src.MayOverlap(dst) && !e.gat.ix.MayOverlap(dst) {
			return e, nil
		}
		return Ungather(th, e)
	case e.isLeaf():
		return e, nil
	}
	out := *e
	out.args = make([]*Expr, len(e.args))
	for i, a := range e.args {
		var err error
		if out.args[i], err = unalias(th, dst, a); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// launch runs dst = e with the cached kernel of e's plan, in launches of
// at most 2^31-1 threads (interp.Chunks): a flat kernel over runs of the
// flat index, a rank-D one over whole rows of axis 0.
func launch(th *interp.Thread, dst *mem.Array, e *Expr) error {
	if dst.Size() == 0 {
		return nil
	}
	p := newPlan(e, dst)
	if ok, err := hostRun(th, dst, p); ok {
		return err
	}
	k, err := p.cachedKernel()
	if err != nil {
		return err
	}
	if len(p.gathers) > 0 {
		return launchGathers(th, dst, p, k)
	}
	shape := dst.Shape()
	view := func(a *mem.Array) (*mem.Array, error) { return a.BroadcastTo(shape) }
	if p.flat {
		shape = []int{dst.Size()}
		view = func(a *mem.Array) (*mem.Array, error) { return a.Reshape(shape) }
	}
	return interp.Chunks(shape, func(lo, hi int) error {
		args := interp.ArgsFor(k)
		for i := -1; i < len(p.arrays); i++ { // dst, then each array leaf
			a := dst
			if i >= 0 {
				a = p.arrays[i]
			}
			v, err := view(a)
			if err == nil && (lo > 0 || hi < shape[0]) {
				v, err = v.Slice(lo, hi)
			}
			if err != nil {
				return err
			}
			args.Array(v)
		}
		for _, s := range p.scalars {
			args.Value(s.val)
		}
		dims := append([]int{hi - lo}, shape[1:]...)
		return kernelError(th.LaunchLibrary(dst.Device(), dims, args))
	})
}

// leafKernels holds the kernels of flat stores of one leaf, by whether
// the leaf is an array, its dtype and the output's: fills and contiguous
// copies, the statements loops repeat most, find their kernel without a
// key built and boxed each time (the kernels are GeneratedKernel's).
var leafKernels [2][ir.F64 + 1][ir.F64 + 1]atomic.Pointer[ir.Kernel]

// cachedKernel is the plan's kernel from the process cache.
func (p *plan) cachedKernel() (*ir.Kernel, error) {
	var memo *atomic.Pointer[ir.Kernel]
	if r := p.roots[0]; len(p.roots) == 1 && p.flat && r.isLeaf() {
		memo = &leafKernels[b2i(r.arr != nil)][r.t][p.out]
		if k := memo.Load(); k != nil {
			return k, nil
		}
	}
	k, err := interp.GeneratedKernel(p.key(), func() (*ir.Kernel, error) { return p.kernel(), nil })
	if err == nil && memo != nil {
		memo.Store(k)
	}
	return k, err
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// kernelError turns a failure inside a generated kernel (an integer
// division by zero on the cpu), which has no source position of its own,
// into a plain error that the evaluator positions at the expression.
func kernelError(err error) error {
	if err == nil {
		return nil // errors.As's target would cost an allocation
	}
	var ee *interp.EvalError
	if errors.As(err, &ee) && !ee.Pos.IsValid() {
		return fmt.Errorf("array expression: %s", strings.TrimPrefix(ee.Msg, "kernel gscript_fused: "))
	}
	return err
}
