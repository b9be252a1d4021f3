package fuse

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Producer is expressions fused into a reduction (stdlib/reduce's
// Producer): instead of materialising them, the reduction's pass 1 loads
// their array leaves at each element index and computes their values in
// registers, so sum(a * b) reads a and b once and allocates nothing. The
// values are computed by the same instructions, in the same dtypes, as a
// materialising kernel would, so the reduction sees the same bits.
type Producer struct {
	p     *plan
	shape []int
}

// NewProducer numbers the leaves of roots (expressions of one shape and
// device; an array shared by two roots is one leaf) for one reduction.
func NewProducer(roots ...*Expr) (*Producer, error) {
	p := newPlanOf(roots...)
	var dev *mem.Device
	for _, r := range roots {
		if !slices.Equal(r.shape, roots[0].shape) {
			return nil, fmt.Errorf("shapes %s and %s differ", interp.ShapeString(roots[0].shape), interp.ShapeString(r.shape))
		}
		var err error
		if dev, err = joinDevice(dev, r.dev); err != nil {
			return nil, err
		}
		p.collect(r, r.shape)
	}
	if dev == nil {
		return nil, fmt.Errorf("an array expression without arrays") // Binary never builds one
	}
	return &Producer{p: p, shape: roots[0].shape}, nil
}

// Types are the dtypes of the roots' values: the reduction's inputs.
func (pr *Producer) Types() []ir.Type {
	ts := make([]ir.Type, len(pr.p.roots))
	for i, r := range pr.p.roots {
		ts[i] = r.t
	}
	return ts
}

// Arrays are the array leaves, each broadcast to the expressions' shape
// (stride 0 on stretched axes), so the reduction indexes them all alike.
func (pr *Producer) Arrays() ([]*mem.Array, error) {
	out := make([]*mem.Array, len(pr.p.arrays))
	for i, a := range pr.p.arrays {
		if a.Freed() {
			return nil, mem.ErrFreed
		}
		var err error
		if out[i], err = a.BroadcastTo(pr.shape); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ScalarValues are the scalar leaves' values, in parameter order.
func (pr *Producer) ScalarValues() []interp.Value {
	vs := make([]interp.Value, len(pr.p.scalars))
	for i, s := range pr.p.scalars {
		vs[i] = s.val
	}
	return vs
}

// Key names the emitted code: the roots' trees with their leaf numbers
// and dtypes (the reduction adds ranks and its own Spec).
func (pr *Producer) Key() string {
	var b strings.Builder
	for i, r := range pr.p.roots {
		if i > 0 {
			b.WriteByte(';')
		}
		pr.p.writeKey(&b, r)
	}
	return b.String()
}

// Leaves are the array leaves' dtypes, Scalars the scalar leaves'.
func (pr *Producer) Leaves() []ir.Type {
	ts := make([]ir.Type, len(pr.p.arrays))
	for i, a := range pr.p.arrays {
		ts[i] = a.DType()
	}
	return ts
}

func (pr *Producer) Scalars() []ir.Type {
	ts := make([]ir.Type, len(pr.p.scalars))
	for i, s := range pr.p.scalars {
		ts[i] = s.t
	}
	return ts
}

// Emit appends to b the instructions that compute each root from its
// leaves' values: leaves[i] holds array leaf i's element, scalars[i]
// scalar leaf i's value.
func (pr *Producer) Emit(b *ir.Builder, leaves, scalars []ir.Reg) []ir.Reg {
	g := &gen{Builder: b, p: pr.p,
		array:  func(slot int) ir.Reg { return leaves[slot] },
		scalar: func(slot int) ir.Reg { return scalars[slot] }}
	out := make([]ir.Reg, len(pr.p.roots))
	for i, r := range pr.p.roots {
		out[i] = g.expr(r)
	}
	return out
}
