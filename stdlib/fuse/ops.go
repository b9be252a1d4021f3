package fuse

import (
	"errors"
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// binaryOps maps host operators to IR ops; each row says which dtypes
// the operator takes (ARRAYS.md section 2: no bool arithmetic, no float
// %, bit operators on ints and bools).
var binaryOps = map[token.Op]struct {
	op    ir.Op
	types ir.TypeSet
	cmp   bool // a comparison: the result is bool
}{
	token.Add: {ir.OpAdd, ir.Nums, false}, token.Sub: {ir.OpSub, ir.Nums, false},
	token.Mul: {ir.OpMul, ir.Nums, false}, token.Quo: {ir.OpDiv, ir.Nums, false},
	token.Rem: {ir.OpRem, ir.Ints, false},
	token.And: {ir.OpAnd, ir.Ints | ir.Bools, false}, token.Or: {ir.OpOr, ir.Ints | ir.Bools, false},
	token.Xor: {ir.OpXor, ir.Ints | ir.Bools, false},
	token.Pow: {ir.OpPow, ir.Nums, false}, // pow's op for floats; ints by squaring (intpow.go)
	token.Eql: {ir.OpEq, ir.Scalars, true}, token.Neq: {ir.OpNe, ir.Scalars, true},
	token.Lss: {ir.OpLt, ir.Nums, true}, token.Leq: {ir.OpLe, ir.Nums, true},
	token.Gtr: {ir.OpGt, ir.Nums, true}, token.Geq: {ir.OpGe, ir.Nums, true},
}

// Binary is `x op y` with at least one array operand.
func Binary(op token.Op, x, y interp.Value) (interp.Value, error) {
	row, ok := binaryOps[op]
	if !ok {
		return nil, fmt.Errorf("operator %s is not supported on arrays yet", op)
	}
	if err := plainOperands("operator "+op.String(), x, y); err != nil {
		return nil, err
	}
	a, err := Leaf(x)
	if err != nil {
		return nil, operandError(op, x, y, err)
	}
	b, err := Leaf(y)
	if err != nil {
		return nil, operandError(op, x, y, err)
	}
	in, err := resultType(a, b)
	if err != nil {
		return nil, err
	}
	if !row.types.Has(in) {
		return nil, fmt.Errorf("operator %s not defined on %s arrays", op, kindName(in))
	}
	if op == token.Pow {
		if err := checkIntPow(in, b); err != nil {
			return nil, err
		}
	}
	t := in
	if row.cmp {
		t = ir.Bool
	}
	e, err := node(row.op, in, t, a, b)
	return wrap(e, err)
}

// kindName names a dtype's kind for messages ("float", "bool", "u8").
func kindName(t ir.Type) string {
	switch {
	case t.IsFloat():
		return "float"
	case t == ir.Bool:
		return "bool"
	}
	return t.String()
}

func wrap(e *Expr, err error) (interp.Value, error) {
	if err != nil {
		return nil, err
	}
	return Value{e}, nil
}

// plainOperands refuses arrays of vector, matrix and quaternion types as
// operands of what: array expressions compute on scalar elements.
func plainOperands(what string, vs ...interp.Value) error {
	for _, v := range vs {
		if a, ok := v.(*interp.Array); ok && a.Compound() {
			_, err := a.Plain(what)
			return err
		}
	}
	return nil
}

// operandError is Binary's error for an operand Leaf refused: a freed
// array says so (interp names its variable), anything else is no operand
// of the operator.
func operandError(op token.Op, x, y interp.Value, err error) error {
	if errors.Is(err, mem.ErrFreed) {
		return err
	}
	return fmt.Errorf("operator %s not defined on %s and %s", op, x.Type(), y.Type())
}

// Unary is `op x` on an array operand.
func Unary(op token.Op, x interp.Value) (interp.Value, error) {
	if err := plainOperands("operator "+op.String(), x); err != nil {
		return nil, err
	}
	a, err := Leaf(x)
	if err != nil {
		return nil, err
	}
	var irop ir.Op
	var types ir.TypeSet
	switch op {
	case token.Add:
		if !ir.Nums.Has(a.t) {
			return nil, fmt.Errorf("operator %s not defined on %s arrays", op, kindName(a.t))
		}
		return x, nil
	case token.Sub:
		irop, types = ir.OpNeg, ir.Nums
	case token.Not:
		irop, types = ir.OpNot, ir.Bools
	case token.BitNot:
		irop, types = ir.OpBitNot, ir.Ints
	default:
		return nil, fmt.Errorf("operator %s is not supported on arrays", op)
	}
	if !types.Has(a.t) {
		return nil, fmt.Errorf("operator %s not defined on %s arrays", op, kindName(a.t))
	}
	return wrap(node(irop, a.t, a.t, a))
}

// AsType is x.astype(t): a conversion by the kernels' rule (ir.Convert).
func AsType(x interp.Value, t ir.Type) (interp.Value, error) {
	a, err := Leaf(x)
	if err != nil {
		return nil, err
	}
	if a.t == t && a.weak == false {
		return x, nil
	}
	return wrap(node(ir.OpConvert, a.t, t, a))
}

// arrayMath is the elementwise math function name of arrays (LANGUAGE.md
// section 4): the op table's math builtins marked Elementwise.
func arrayMath(name string) (ir.Op, ir.OpInfo, bool) {
	op, ok := ir.OpByBuiltin(name)
	info, _ := op.Info()
	return op, info, ok && info.Elementwise
}

// IsMath reports whether name is an elementwise math function of arrays.
func IsMath(name string) bool {
	_, _, ok := arrayMath(name)
	return ok
}

// Math applies the elementwise math function name to args (one or two
// operands, at least one an array). A function the table defines on ints
// too (abs, sign) keeps the operand type; the float functions compute an
// integer array in f64 (NumPy gives f64 for sqrt of an int array), and f32
// stays f32.
func Math(name string, args ...interp.Value) (interp.Value, error) {
	es, err := leaves(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	op, info, ok := arrayMath(name)
	switch {
	case !ok:
		return nil, fmt.Errorf("%s is not an elementwise math function of arrays", name)
	case info.Types&ir.Ints != 0:
		if len(es) != 1 || !info.Types.Has(es[0].t) || es[0].weak {
			return nil, fmt.Errorf("%s takes one numeric array", name)
		}
		return wrap(node(op, es[0].t, es[0].t, es[0]))
	case len(es) != info.Arity:
		return nil, fmt.Errorf("%s of arrays takes %d operands, got %d", name, info.Arity, len(es))
	}
	in := es[0].t
	if len(es) == 2 {
		if in, err = resultType(es[0], es[1]); err != nil {
			return nil, err
		}
	}
	if in == ir.Bool {
		return nil, fmt.Errorf("%s not defined on bool arrays", name)
	}
	if !in.IsFloat() {
		in = ir.F64
	}
	return wrap(node(op, in, info.ResultType(in), es...))
}

func leaves(args []interp.Value) ([]*Expr, error) {
	es := make([]*Expr, len(args))
	for i, v := range args {
		e, err := Leaf(v)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	return es, nil
}

// Extremum is minimum(a, b) or maximum(a, b): NumPy's, so a NaN in
// either operand gives NaN (ir.OpMin alone would return the other).
func Extremum(name string, a, b interp.Value) (interp.Value, error) {
	es, err := leaves([]interp.Value{a, b})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	e, err := extremum(name, es[0], es[1])
	return wrap(e, err)
}

func extremum(name string, a, b *Expr) (*Expr, error) {
	in, err := resultType(a, b)
	if err != nil {
		return nil, err
	}
	if !ir.Nums.Has(in) {
		return nil, fmt.Errorf("%s not defined on %s arrays", name, kindName(in))
	}
	op := ir.OpMin
	if name == "maximum" {
		op = ir.OpMax
	}
	e, err := node(op, in, in, a, b)
	if err == nil {
		e.nanOr = in.IsFloat()
	}
	return e, err
}

// Clip is clip(a, lo, hi) = minimum(maximum(a, lo), hi), as NumPy.
func Clip(a, lo, hi interp.Value) (interp.Value, error) {
	es, err := leaves([]interp.Value{a, lo, hi})
	if err != nil {
		return nil, fmt.Errorf("clip: %v", err)
	}
	m, err := extremum("maximum", es[0], es[1])
	if err != nil {
		return nil, fmt.Errorf("clip: %v", err)
	}
	e, err := extremum("minimum", m, es[2])
	return wrap(e, err)
}

// Where is where(cond, a, b): a where the bool cond holds, else b.
func Where(cond, a, b interp.Value) (interp.Value, error) {
	es, err := leaves([]interp.Value{cond, a, b})
	if err != nil {
		return nil, fmt.Errorf("where: %v", err)
	}
	if es[0].t != ir.Bool {
		return nil, fmt.Errorf("where: the condition must be bool, not %s (compare it: x != 0)", es[0].t)
	}
	in, err := resultType(es[1], es[2])
	if err != nil {
		return nil, err
	}
	return wrap(node(ir.OpSelect, in, in, es...))
}
