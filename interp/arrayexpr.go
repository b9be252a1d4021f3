package interp

import (
	"fmt"
	"slices"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Array expressions (ARRAYS.md section 2). The evaluator hands every
// operator with an array operand to the ArrayOps that the standard
// library registers (stdlib/fuse): it builds a Deferred value, the tree
// of a whole-array expression, instead of computing. The operands of
// operators and of builtins marked Operands are evaluated without
// materialising (evalOperand), so a whole statement becomes one tree;
// anything else that consumes a value materialises it first (eval), in
// one fused kernel.

// Deferred is an array expression not computed yet.
type Deferred interface {
	Value
	// Materialise computes the expression into a new array, allocated
	// through th's allocator scopes, with one kernel launch.
	Materialise(th *Thread) (*Array, error)
}

// ArrayOps evaluates operators whose operands include arrays.
type ArrayOps interface {
	// Binary applies op (an arithmetic, bit or comparison operator) to
	// x and y, at least one of them an *Array or a Deferred.
	Binary(th *Thread, op token.Op, x, y Value) (Value, error)
	// Unary applies a prefix operator (token.Sub, Add, Not or BitNot) to an
	// *Array or a Deferred.
	Unary(th *Thread, op token.Op, x Value) (Value, error)
	// AsType is x.astype(t).
	AsType(th *Thread, x Value, t ir.Type) (Value, error)
	// Store writes v (a Deferred, an array or a scalar, broadcast to dst's
	// shape) into dst in place, its values cast to dst's dtype by cast:
	// the one engine of slice assignment, `op=`, fills and copies. A
	// right-hand side that overlaps dst through another view is read as
	// if copied first.
	Store(th *Thread, dst *mem.Array, v Value, cast Cast) error
}

// Cast is how a store converts values to the target's dtype, NumPy's
// casting= of assignment and in-place operators.
type Cast int

const (
	// CastUnsafe converts any dtype as a kernel conversion does
	// (ir.Convert): `dst[...] = v`, fills and copies, as NumPy's `=`.
	CastUnsafe Cast = iota
	// CastSameKind refuses a conversion to a lower kind (float into int,
	// ir.CanCastSameKind): `y op= v`, as NumPy's in-place operators.
	CastSameKind
)

var arrayOps ArrayOps

// RegisterArrayOps installs the array expression engine; stdlib/fuse
// calls it in its init, as a backend registers itself. Without one,
// operators on arrays are errors.
func RegisterArrayOps(ops ArrayOps) { arrayOps = ops }

// IsArrayOperand reports whether v is an array or an array expression.
func IsArrayOperand(v Value) bool {
	switch v.(type) {
	case *Array, Deferred:
		return true
	}
	return false
}

// materialise computes a Deferred value; other values pass unchanged.
func (th *Thread) materialise(v Value) (Value, error) {
	if d, ok := v.(Deferred); ok {
		return d.Materialise(th)
	}
	return v, nil
}

// unaryOp is unary for host values and array operands.
func (th *Thread) unaryOp(op token.Op, x Value) (Value, error) {
	if arrayOps != nil && IsArrayOperand(x) {
		return arrayOps.Unary(th, op, x)
	}
	return unary(op, x)
}

// StoreArray writes v into dst in place with cast (ArrayOps.Store): slice
// assignment `dst[...] = v` with v an array expression, array or scalar.
func (th *Thread) StoreArray(dst *mem.Array, v Value, cast Cast) error {
	if arrayOps == nil {
		return fmt.Errorf("array expressions are not available (no stdlib/fuse)")
	}
	return arrayOps.Store(th, dst, v, cast)
}

// StoreTarget is dst as a store of a value of shape src writes it. NumPy
// drops the leading extents of 1 that src has beyond dst's rank
// (a[:, :] = ones([1, 3, 2]) into a [3, 2] view), which is dst viewed with
// those unit axes prepended (stride 0 on an extent of 1 aliases nothing).
// Any other src gives dst back, for the caller's broadcast check to refuse
// with the two shapes. Every store (AssignView's copy, ArrayOps.Store)
// goes through it, so the rule is decided here once.
func StoreTarget(dst *mem.Array, src []int) *mem.Array {
	lead := len(src) - dst.NDim()
	if lead <= 0 || slices.ContainsFunc(src[:lead], func(d int) bool { return d != 1 }) {
		return dst
	}
	v, err := dst.BroadcastTo(append(slices.Clone(src[:lead]), dst.Shape()...))
	if err != nil {
		return dst
	}
	return v
}

// updateArray is `dst op= v` on an array: computed in place, one kernel.
func (th *Thread) updateArray(dst *Array, op token.Op, v Value) error {
	if arrayOps == nil {
		return errOperands(op, dst, v)
	}
	e, err := arrayOps.Binary(th, op, dst, v)
	if err != nil {
		return err
	}
	return arrayOps.Store(th, dst.A, e, CastSameKind)
}

// asType is the astype method of arrays and array expressions.
func asType(x Value) *Builtin {
	return &Builtin{Name: "astype", Fn: func(th *Thread, args *Args) (Value, error) {
		if err := args.Check(1, 1); err != nil {
			return nil, err
		}
		t, ok := args.Positional[0].(DType)
		if !ok {
			return nil, fmt.Errorf("astype takes a dtype (f32, i32, ...), not %s", describe(args.Positional[0]))
		}
		if arrayOps == nil {
			return nil, fmt.Errorf("array expressions are not available (no stdlib/fuse)")
		}
		if a, ok := x.(*Array); ok && a.Compound() {
			_, err := a.Plain("astype")
			return nil, err
		}
		return arrayOps.AsType(th, x, ir.Type(t))
	}}
}
