package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Tapes (reverse-mode autodiff, docs/autodiff.md). Inside `tape t { }`
// every operation on arrays that require gradients is recorded, after it
// ran, as a TapeOp: the engine that ran it (stdlib/fuse for expressions,
// the library for reductions and matmul, this package for launches)
// records its own backward. backward(t, loss) seeds loss's gradient and
// runs the ops' backwards in reverse. Gradients live beside the arrays
// (runtime/mem/grad.go): a view's gradient is the same view of its
// buffer's gradient, so views need no record. Outside a tape nothing is
// recorded: the engines test Thread.Taping, one pointer, first.

// Tape is the record of a tape block, the value its name holds.
type Tape struct {
	Name string
	ops  []recorded
	// seen holds the arrays the recorded ops read or wrote, by buffer:
	// zero_grad clears their gradients, and a later op that writes over
	// one of them is refused.
	seen map[uint64][]*mem.Array
	// outputs are the arrays the recorded ops wrote: the intermediates,
	// whose gradients each backward computes anew (Thread.Backward).
	outputs []*mem.Array
}

// recorded is an op on a tape with what backward checks before it runs
// the op's backward: where it was recorded and the versions of the arrays
// it read and wrote then.
type recorded struct {
	op       TapeOp
	pos      ast.Pos
	arrays   []*mem.Array
	versions []uint64
}

func (*Tape) Type() string { return "tape" }
func (t *Tape) String() string {
	return fmt.Sprintf("<tape %s: %d operations>", t.Name, len(t.ops))
}

// Len is the number of operations recorded.
func (t *Tape) Len() int { return len(t.ops) }

// TapeOp is one recorded operation: what its backward needs to add its
// inputs' gradients from its outputs'.
type TapeOp interface {
	// Name names the op in errors: "kernel k", "array expression", "sum".
	Name() string
	// Inputs are the arrays the op read that require gradients (the
	// gradients its backward adds to), Outputs the arrays it wrote (whose
	// gradients its backward reads).
	Inputs() []*mem.Array
	Outputs() []*mem.Array
	// Backward adds the op's contribution to its inputs' gradients
	// (Thread.AccumulateGrad, Thread.GradArray), reading its outputs'
	// gradients (mem.Array.Grad). It launches on the arrays' device and
	// does not wait for the device, so a capture can record it.
	Backward(th *Thread) error
}

// Taping reports whether a tape block is recording: the one test an
// engine makes before anything else of a tape's.
func (th *Thread) Taping() bool { return th.tape != nil }

// Records reports whether an op reading xs is recorded: a tape is
// recording and one of xs requires a gradient.
func (th *Thread) Records(xs ...*mem.Array) bool {
	if th.tape == nil {
		return false
	}
	for _, x := range xs {
		if x != nil && x.RequiresGrad() {
			return true
		}
	}
	return false
}

// Record appends op, which has just run, to the recording tape; its
// outputs then require gradients (allocated when the backward first adds
// to one). An op that writes over an array an earlier recorded op read
// or wrote is refused: its backward would see the new values.
func (th *Thread) Record(op TapeOp) error {
	t := th.tape
	if t == nil {
		return nil
	}
	if err := th.TapeWrites(op.Name(), op.Outputs()...); err != nil {
		return err
	}
	r := recorded{op: op}
	if th.lastPos != nil {
		r.pos = *th.lastPos
	}
	for _, group := range [][]*mem.Array{op.Inputs(), op.Outputs()} {
		for _, a := range group {
			r.arrays = append(r.arrays, a)
			r.versions = append(r.versions, a.Version())
			t.seen[a.BufferID()] = append(t.seen[a.BufferID()], a)
		}
	}
	for _, o := range op.Outputs() {
		if o.DType().IsFloat() {
			o.WantGrad()
			t.outputs = append(t.outputs, o)
		}
	}
	t.ops = append(t.ops, r)
	return nil
}

// TapeWrites refuses, while a tape records, an op named name that
// writes over an array an earlier recorded op read or wrote (recorded
// itself or not): the earlier op's backward would see the new values.
func (th *Thread) TapeWrites(name string, outs ...*mem.Array) error {
	t := th.tape
	if t == nil {
		return nil
	}
	for _, o := range outs {
		for _, s := range t.seen[o.BufferID()] {
			if s.MayOverlap(o) {
				return fmt.Errorf("%s writes over an array that tape %s recorded earlier; a tape records each array written once: write the result to a new array", name, t.Name)
			}
		}
	}
	return nil
}

// NewTape makes an empty tape named name.
func NewTape(name string) *Tape { return &Tape{Name: name, seen: map[uint64][]*mem.Array{}} }

// RunTape records body's operations on t: tapes do not nest, and a
// capture block inside or around one records its launches as usual.
func (th *Thread) RunTape(t *Tape, body func() error) error {
	if th.tape != nil {
		return fmt.Errorf("tape blocks do not nest (already recording tape %s)", th.tape.Name)
	}
	th.tape = t
	defer func() {
		th.tape = nil
		t.settle()
	}()
	return body()
}

// settle takes the versions of the recorded arrays as the tape ends:
// every write to one of them inside the tape went through TapeWrites,
// which refused it where it overlapped what an op recorded (a row stored
// after another is not an overwrite), so only writes after the tape can
// make a backward read new values.
func (t *Tape) settle() {
	for i := range t.ops {
		r := &t.ops[i]
		for j, a := range r.arrays {
			r.versions[j] = a.Version()
		}
	}
}

// Untaped runs f with the recording tape paused: a library op that
// records itself as one op runs the engines under it (the store engine's
// copies) without their records.
func (th *Thread) Untaped(f func() error) error {
	t := th.tape
	th.tape = nil
	defer func() { th.tape = t }()
	return f()
}

// RequireGrad gives a a zero-filled gradient, allocated on a's device
// through the allocator scopes, unless it has one: requires_grad=true.
func (th *Thread) RequireGrad(a *mem.Array) error {
	if !a.DType().IsFloat() {
		return fmt.Errorf("only arrays of floats can require gradients, not %s", a.DType())
	}
	if a.Grad() != nil {
		return nil
	}
	return th.allocGrad(a, true)
}

// allocGrad allocates the gradient of a's whole buffer, zero-filled or
// not.
func (th *Thread) allocGrad(a *mem.Array, zero bool) error {
	t, n := a.DType(), a.BufferBytes()
	if n%t.Size() != 0 {
		t = ir.U8
	}
	g, err := th.newArray(t, []int{n / t.Size()}, String(a.Device().String()), nil, zero)
	if err != nil {
		return fmt.Errorf("allocating a gradient: %w", err)
	}
	return a.SetGrad(g)
}

// GradArray is a's gradient, allocated zero-filled when a requires one
// and has none yet: for a backward that adds into it itself (an atomic
// scatter, a kernel's adjoint, matmul's beta = 1). A gradient this
// backward has not reached yet is cleared first (fresh).
func (th *Thread) GradArray(a *mem.Array) (*mem.Array, error) {
	if g := a.Grad(); g != nil {
		if th.fresh[a.BufferID()] {
			delete(th.fresh, a.BufferID())
			if err := th.StoreArray(a.WholeGrad(), Int(0), CastUnsafe); err != nil {
				return nil, err
			}
		}
		return g, nil
	}
	if !a.RequiresGrad() {
		return nil, fmt.Errorf("internal error: a gradient for an array that does not require one")
	}
	if err := th.allocGrad(a, true); err != nil {
		return nil, err
	}
	delete(th.fresh, a.BufferID())
	return a.Grad(), nil
}

// OverwriteGrad is a's gradient for a caller that writes every element
// of it instead of adding (a GEMM's output, AccumulateGrad's first
// store): where a covers its buffer and its gradient is fresh (none yet,
// or one this backward has not reached), allocated without a fill if
// needed. Otherwise it is nil, and the caller adds into GradArray.
func (th *Thread) OverwriteGrad(a *mem.Array) (*mem.Array, error) {
	g := a.Grad()
	if !a.CoversBuffer() || g != nil && !th.fresh[a.BufferID()] {
		return nil, nil
	}
	if g == nil {
		if err := th.allocGrad(a, false); err != nil {
			return nil, err
		}
	}
	delete(th.fresh, a.BufferID())
	return a.Grad(), nil
}

// AccumulateGrad adds v (an array expression, an array or a number,
// broadcast to a's shape) into a's gradient. Where a covers its buffer
// and its gradient is fresh (an intermediate this backward has not
// reached, or none allocated yet) v is stored instead of added to zeros.
func (th *Thread) AccumulateGrad(a *mem.Array, v Value) error {
	if !a.RequiresGrad() {
		return nil
	}
	if arrayOps == nil {
		return fmt.Errorf("array expressions are not available (no stdlib/fuse)")
	}
	g, err := th.OverwriteGrad(a)
	if err != nil {
		return err
	}
	if g != nil {
		return arrayOps.Store(th, g, v, CastUnsafe)
	}
	g, err = th.GradArray(a)
	if err != nil {
		return err
	}
	sum, err := arrayOps.Binary(th, token.Add, &Array{A: g}, v)
	if err != nil {
		return err
	}
	return arrayOps.Store(th, g, sum, CastUnsafe)
}

// runTape runs a tape block's body on a new tape named after the block,
// which becomes the name's value.
func (th *Thread) runTape(s *ast.TapeBlock, body func() (ctrl, error)) (Value, ctrl, error) {
	t := NewTape(s.Name.Name)
	var r ctrl
	err := th.RunTape(t, func() error {
		var err error
		r, err = body()
		return err
	})
	if err != nil {
		return nil, r, th.errorAt(s.Pos, err)
	}
	return t, r, nil
}
