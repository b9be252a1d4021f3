package ir

// Machine is an abstract scalar machine: code written once over it (lang/
// linalg's vector, matrix and quaternion operations) either emits IR
// (Emit, and the checker's own instance, which also feeds its uniformity
// graph) or evaluates at once on raw bits (Host). Both run the same
// scalar ops in the same order, and Host evaluates each as a kernel does
// (Eval), so both give the same bits.
type Machine[R any] interface {
	// Op applies op to args whose type is t (for OpSelect: the type of
	// the two values, after the bool condition). The result has the op's
	// result type for t (OpInfo.ResultType: Bool for comparisons).
	// OpConvert goes through Convert instead.
	Op(op Op, t Type, args ...R) R
	// Convert converts x from type from to type to (Convert's rule).
	Convert(x R, from, to Type) R
	// Const is the constant v as scalar type t.
	Const(t Type, v float64) R
}

// Emit is the Machine that emits IR through a Builder, for kernels built
// in Go.
type Emit struct{ B *Builder }

var _ Machine[Reg] = Emit{}

// Op emits op; its destination has the op's result type for operands of
// type t.
func (e Emit) Op(op Op, t Type, args ...Reg) Reg {
	if info, ok := op.Info(); ok {
		t = info.ResultType(t)
	}
	return e.B.Op(op, t, args...)
}

// Convert emits the conversion of x to type to.
func (e Emit) Convert(x Reg, _, to Type) Reg { return e.B.Conv(to, x) }

// Const emits the constant v of type t.
func (e Emit) Const(t Type, v float64) Reg { return e.B.Const(t, v) }

// Host is the Machine that evaluates at once on raw bits (Eval's
// encoding), so that host values equal a kernel's bit for bit.
//
// The first failure (an integer division by zero, an op or type Eval
// refuses) is kept in Err; the op then yields 0.
type Host struct{ Err error }

var _ Machine[uint64] = (*Host)(nil)

// Op is Eval.
func (h *Host) Op(op Op, t Type, args ...uint64) uint64 {
	r, err := Eval(op, t, args...)
	if err != nil && h.Err == nil {
		h.Err = err
	}
	return r
}

// Convert is Convert.
func (h *Host) Convert(x uint64, from, to Type) uint64 { return Convert(x, from, to) }

// Const is v as type t (FromFloat).
func (h *Host) Const(t Type, v float64) uint64 { return FromFloat(v, t) }
