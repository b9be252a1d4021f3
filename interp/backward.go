package interp

import (
	"fmt"

	"github.com/gscript-lang/gscript/runtime/mem"
)

// Seed is one output of a backward with the gradient it starts from: a
// number (1 for a loss) or an array of the output's shape.
type Seed struct {
	Out  *mem.Array
	Grad Value
}

// Backward runs t's recorded ops in reverse from seeds, adding into the
// gradients of the arrays that require them: backward(t, loss). The
// gradients of the arrays t's ops wrote (intermediates) are computed
// anew by each backward, as PyTorch's non-leaf gradients are: they start
// fresh, cleared or overwritten when first reached (GradArray,
// AccumulateGrad), so a second backward of the same tape gives the same
// intermediates and adds the same amount again into the leaves (arrays
// no recorded op wrote), whose gradients accumulate across backwards as
// in PyTorch and Warp: zero_grad(t) clears them. An op none of whose
// outputs this backward reached is skipped. An array that an op read or
// wrote and that was written again after the op was recorded fails the
// backward, naming the op and where it was recorded: its backward would
// read the new values.
func (th *Thread) Backward(t *Tape, seeds []Seed) error {
	if th.tape != nil {
		return fmt.Errorf("backward inside a tape block: end the block first")
	}
	th.fresh = map[uint64]bool{}
	defer func() { th.fresh = nil }()
	for _, o := range t.outputs {
		th.fresh[o.BufferID()] = true
	}
	for _, s := range seeds {
		if !s.Out.RequiresGrad() {
			return fmt.Errorf("backward: the output does not require a gradient (no recorded operation on tape %s wrote it from arrays that require one)", t.Name)
		}
		if err := th.AccumulateGrad(s.Out, s.Grad); err != nil {
			return fmt.Errorf("backward: seeding the output's gradient: %w", err)
		}
	}
	for i := len(t.ops) - 1; i >= 0; i-- {
		r := &t.ops[i]
		if !th.reached(r.op.Outputs()) {
			continue
		}
		if err := r.check(t); err != nil {
			return th.errorAt(r.pos, err)
		}
		if err := r.op.Backward(th); err != nil {
			return th.errorAt(r.pos, fmt.Errorf("backward of %s: %w", r.op.Name(), err))
		}
	}
	return nil
}

// reached reports whether this backward has added a gradient into one
// of xs.
func (th *Thread) reached(xs []*mem.Array) bool {
	for _, x := range xs {
		if x.Grad() != nil && !th.fresh[x.BufferID()] {
			return true
		}
	}
	return false
}

// check refuses an op whose arrays were written after it was recorded.
func (r *recorded) check(t *Tape) error {
	for i, a := range r.arrays {
		if a.Freed() {
			return fmt.Errorf("backward of %s: an array it used was freed", r.op.Name())
		}
		if a.Version() != r.versions[i] {
			return fmt.Errorf("backward of %s: an array it used was written after tape %s recorded it; its backward would read the new values (write to a new array instead of over it)", r.op.Name(), t.Name)
		}
	}
	return nil
}

// ZeroGrad zeroes the gradients of every array t's ops read or wrote,
// each buffer's whole gradient once: zero_grad(t).
func (th *Thread) ZeroGrad(t *Tape) error {
	for _, views := range t.seen {
		if g := views[0].WholeGrad(); g != nil {
			if err := th.StoreArray(g, Int(0), CastUnsafe); err != nil {
				return err
			}
		}
	}
	return nil
}

// Reset zeroes t's gradients (ZeroGrad) and forgets its ops: t.reset(),
// as Warp's Tape.reset.
func (th *Thread) Reset(t *Tape) error {
	if err := th.ZeroGrad(t); err != nil {
		return err
	}
	t.ops = nil
	t.seen = map[uint64][]*mem.Array{}
	return nil
}

// tapeAttr is t.reset() and t.len.
func tapeAttr(th *Thread, t *Tape, name string) (Value, error) {
	switch name {
	case "reset":
		return &Builtin{Name: "reset", Fn: func(th *Thread, args *Args) (Value, error) {
			if err := args.Check(0, 0); err != nil {
				return nil, err
			}
			return Nil, th.Reset(t)
		}}, nil
	case "len":
		return Int(t.Len()), nil
	}
	return nil, fmt.Errorf("tape has no attribute %s (attributes: reset, len)", name)
}
