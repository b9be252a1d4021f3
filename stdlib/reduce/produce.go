package reduce

import "github.com/gscript-lang/gscript/lang/ir"

// Producer computes a full reduction's input elements from other arrays
// (its leaves) inside pass 1: an elementwise expression fused into the
// reduction (stdlib/fuse), so that sum(a * b) reads a and b once and
// makes no temporary. Pass 1 loads every leaf at the element index, as it
// loads plain inputs, and Emit computes the reduction's inputs from them.
type Producer interface {
	// Key names what Emit emits (with Leaves and Scalars): kernels are
	// cached by it.
	Key() string
	// Leaves are the dtypes of the arrays loaded, Scalars of the scalar
	// parameters read at the kernel's entry.
	Leaves() []ir.Type
	Scalars() []ir.Type
	// Emit appends to body, a statement list of f, the instructions
	// computing the reduction's Kind.Inputs() values from the leaves'
	// elements and the scalars' values.
	Emit(b *ir.Builder, leaves, scalars []ir.Reg) []ir.Reg
}

// direct is the Producer of plain inputs: each leaf is an input.
type direct struct{ ts []ir.Type }

func (d direct) Key() string        { return "" }
func (d direct) Leaves() []ir.Type  { return d.ts }
func (d direct) Scalars() []ir.Type { return nil }

func (d direct) Emit(_ *ir.Builder, leaves, _ []ir.Reg) []ir.Reg { return leaves }

// producerOf is pr, or the plain inputs of s without one.
func producerOf(s Spec, pr Producer) Producer {
	if pr == nil {
		return direct{inputTypes(s)}
	}
	return pr
}
