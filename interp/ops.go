package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/token"
)

// binary applies a binary operator (not && or ||) to host values. th
// (which may be nil) sizes concatenations against its memory budget.
func binary(th *Thread, op token.Op, x, y Value) (Value, error) {
	if op == token.In || op == token.NotIn {
		in, err := contains(y, x)
		if err != nil {
			return nil, err
		}
		return Bool(in == (op == token.In)), nil
	}
	if arrayOps != nil && (IsArrayOperand(x) || IsArrayOperand(y)) {
		return arrayOps.Binary(th, op, x, y)
	}
	if isVector(x) || isVector(y) {
		return vectorBinary(op, x, y)
	}
	switch op {
	case token.Eql, token.Neq:
		eq, err := equal(x, y)
		if err != nil {
			return nil, err
		}
		return Bool(eq == (op == token.Eql)), nil
	case token.Lss, token.Leq, token.Gtr, token.Geq:
		return compare(op, x, y)
	case token.Add:
		switch a := x.(type) {
		case String:
			if b, ok := y.(String); ok {
				return th.concat(a, b, false)
			}
		case *List:
			if b, ok := y.(*List); ok {
				return th.concatLists(a, b)
			}
		}
	case token.Mul:
		if v, ok, err := th.repeat(x, y); ok {
			return v, err
		}
	case token.Pow:
		return power(x, y)
	}
	if _, ok := toNum(x); !ok {
		return nil, errOperands(op, x, y)
	}
	return binaryNum(op, x, y)
}

// equal compares two values; values of different types compare only when
// both are numbers.
func equal(x, y Value) (bool, error) { return equalDepth(x, y, 0) }

// equalDepth compares lists nested up to maxFormatDepth deep: a list that
// contains itself would otherwise recurse until the Go stack overflows.
func equalDepth(x, y Value, depth int) (bool, error) {
	if isVector(x) || isVector(y) {
		eq, err := vectorBinary(token.Eql, x, y)
		return err == nil && bool(eq.(Bool)), err
	}
	if a, ok := toNum(x); ok {
		b, ok := toNum(y)
		if !ok {
			return false, fmt.Errorf("cannot compare %s and %s", x.Type(), y.Type())
		}
		c, ordered := compareNum(a, b)
		return ordered && c == 0, nil
	}
	if x.Type() != y.Type() {
		return false, fmt.Errorf("cannot compare %s and %s", x.Type(), y.Type())
	}
	switch a := x.(type) {
	case *Vector:
		// Type names matched; a struct may be named as another kind is.
		if b, ok := y.(*Vector); ok && (isStruct(a) || isStruct(b)) {
			return structEqual(a, b)
		}
	case *List:
		return listEqual(a, y.(*List), depth)
	case *Dict:
		if depth >= maxFormatDepth {
			return false, fmt.Errorf("cannot compare dicts nested more than %d deep", maxFormatDepth)
		}
		return dictEqual(a, y.(*Dict), depth)
	}
	return x == y, nil
}

func compare(op token.Op, x, y Value) (Value, error) {
	var c int
	if a, ok := toNum(x); ok {
		b, ok := toNum(y)
		if !ok {
			return nil, fmt.Errorf("cannot compare %s and %s", x.Type(), y.Type())
		}
		var ordered bool
		if c, ordered = compareNum(a, b); !ordered {
			return Bool(false), nil
		}
	} else if a, ok := x.(String); ok {
		b, ok := y.(String)
		if !ok {
			return nil, fmt.Errorf("cannot compare %s and %s", x.Type(), y.Type())
		}
		c = cmp3(a < b, a > b)
	} else if a, ok := x.(*List); ok {
		b, ok := y.(*List)
		if !ok {
			return nil, fmt.Errorf("cannot compare %s and %s", x.Type(), y.Type())
		}
		var err error
		if c, err = compareLists(a, b, 0); err != nil {
			return nil, err
		}
	} else {
		return nil, fmt.Errorf("operator %s not defined on %s", op, x.Type())
	}
	switch op {
	case token.Lss:
		return Bool(c < 0), nil
	case token.Leq:
		return Bool(c <= 0), nil
	case token.Gtr:
		return Bool(c > 0), nil
	case token.Geq:
		return Bool(c >= 0), nil
	}
	return nil, fmt.Errorf("unknown operator %s", op)
}

// compareLists orders lists lexicographically, as Python does: the first
// unequal elements decide, else the shorter list is less (sorted(d.items())
// sorts by key). A NaN element orders as unequal and not less.
func compareLists(a, b *List, depth int) (int, error) {
	if depth >= maxFormatDepth {
		return 0, fmt.Errorf("cannot compare lists nested more than %d deep", maxFormatDepth)
	}
	for i := range min(a.Len(), b.Len()) {
		x, y := a.At(i), b.At(i)
		eq, err := equalDepth(x, y, depth+1)
		if err != nil {
			return 0, err
		}
		if eq {
			continue
		}
		if la, ok := x.(*List); ok {
			if lb, ok := y.(*List); ok {
				return compareLists(la, lb, depth+1)
			}
		}
		lt, err := compare(token.Lss, x, y)
		if err != nil {
			return 0, err
		}
		if lt.(Bool) {
			return -1, nil
		}
		return 1, nil
	}
	return cmp3(a.Len() < b.Len(), a.Len() > b.Len()), nil
}

func unary(op token.Op, x Value) (Value, error) {
	switch op {
	case token.Sub:
		return negate(x)
	case token.Add:
		if _, ok := toNum(x); ok {
			return x, nil
		}
	case token.Not:
		if b, ok := x.(Bool); ok {
			return !b, nil
		}
	case token.BitNot:
		return bitNot(x)
	}
	return nil, fmt.Errorf("operator %s not defined on %s", op, x.Type())
}

// toInt accepts an Int or an integer Scalar.
func toInt(v Value) (int, error) {
	switch v := v.(type) {
	case Int:
		return int(v), nil
	case Scalar:
		if n, ok := toNum(v); ok && !n.c.float() {
			if i, ok := n.asInt64(); ok {
				return int(i), nil
			}
		}
	}
	return 0, fmt.Errorf("want an int, got %s", describe(v))
}

// ToInt is toInt for builtins.
func ToInt(v Value) (int, error) { return toInt(v) }

// ToFloat accepts any number.
func ToFloat(v Value) (float64, error) {
	if n, ok := toNum(v); ok {
		return n.float64(), nil
	}
	return 0, fmt.Errorf("want a number, got %s", describe(v))
}

// describe names a value for error messages: its type, and the value itself
// when it is short.
func describe(v Value) string {
	switch v.(type) {
	case Int, Float, Bool, Scalar:
		return v.Type() + " " + v.String()
	case String:
		s := string(v.(String))
		if len(s) <= 20 {
			return "string " + strconv.Quote(s)
		}
	}
	return v.Type()
}

// convertAnnotated applies a `let x: T = v` annotation on the host.
func convertAnnotated(v Value, t *ast.TypeExpr) (Value, error) {
	if t.Name == "array" {
		a, ok := v.(*Array)
		if !ok {
			return nil, fmt.Errorf("cannot use %s as %s", describe(v), typeString(t))
		}
		if a.ElemType().String() != t.Elem.Name || a.NDim() != t.NDim {
			return nil, fmt.Errorf("cannot use %s as %s", a.TypeString(), typeString(t))
		}
		return v, nil
	}
	dt := ir.TypeByName(t.Name)
	if dt == ir.Invalid {
		return nil, fmt.Errorf("unknown type %s", t.Name)
	}
	return ConvertScalar(v, dt)
}

func typeString(t *ast.TypeExpr) string {
	if t.Name != "array" {
		return t.Name
	}
	if t.NDim <= 1 {
		return "array[" + t.Elem.Name + "]"
	}
	return fmt.Sprintf("array[%s, %d]", t.Elem.Name, t.NDim)
}

// ConvertScalar converts a host number or bool to dtype t: ints must fit;
// floats convert to int types only when integral; bools only to bool.
func ConvertScalar(v Value, t ir.Type) (Value, error) {
	bits, err := ElemBits(v, t)
	if err != nil {
		return nil, err
	}
	if t == ir.Bool {
		return Bool(bits != 0), nil
	}
	return Scalar{T: t, Bits: bits}, nil
}

// ElemBits converts v to the raw bits of an element of type t, with the
// rules of ConvertScalar.
func ElemBits(v Value, t ir.Type) (uint64, error) {
	if b, ok := v.(Bool); ok {
		if t != ir.Bool {
			return 0, fmt.Errorf("cannot use bool as %s", t)
		}
		if b {
			return 1, nil
		}
		return 0, nil
	}
	n, ok := toNum(v)
	if !ok {
		return 0, fmt.Errorf("cannot use %s as %s", describe(v), t)
	}
	switch {
	case t == ir.Bool:
		return 0, fmt.Errorf("cannot use %s as bool", describe(v))
	case t.IsFloat():
		return floatBits(v, n, t)
	}
	if n.c.float() {
		f := n.f
		if f != math.Trunc(f) || math.IsInf(f, 0) {
			return 0, fmt.Errorf("cannot use %s as %s (not an integer)", describe(v), t)
		}
		if f < -(1<<63) || f >= 1<<64 {
			return 0, fmt.Errorf("%s overflows %s", describe(v), t)
		}
		if f < 0 {
			n = num{c: classInt, i: int64(f)}
		} else {
			n = num{c: numClass{t: ir.U64}, u: uint64(f)}
		}
	}
	if t == ir.U64 {
		u, ok := n.asUint64()
		if !ok {
			return 0, fmt.Errorf("%s overflows u64", describe(v))
		}
		return u, nil
	}
	i, ok := n.asInt64()
	if !ok {
		return 0, fmt.Errorf("%s overflows %s", describe(v), t)
	}
	s, err := intScalar(t, i)
	if err != nil {
		return 0, fmt.Errorf("%s overflows %s", describe(v), t)
	}
	return s.(Scalar).Bits, nil
}

// floatBits converts n to float type t. A finite value beyond f32's range
// is an error rather than a silent inf (as an int that does not fit is):
// 1e40 passed for an f32 parameter is a mistake, not a wish for infinity.
func floatBits(v Value, n num, t ir.Type) (uint64, error) {
	bits := n.bits(t)
	if t == ir.F32 && n.c.float() && !math.IsInf(n.f, 0) && math.IsInf(float64(math.Float32frombits(uint32(bits))), 0) {
		return 0, fmt.Errorf("%s is out of range for f32", v)
	}
	return bits, nil
}

// convertCall is `f32(x)` etc. on the host: like a kernel conversion, floats
// truncate toward zero into int types (the explicit conversion says so).
func convertCall(t DType, args *Args) (Value, error) {
	if err := args.Check(1, 1); err != nil {
		return nil, err
	}
	v := args.Positional[0]
	dt := ir.Type(t)
	if n, ok := toNum(v); ok && n.c.float() && dt.IsInt() {
		f := math.Trunc(n.f)
		if f != f || f < -(1<<63) || f >= 1<<64 {
			return nil, fmt.Errorf("%s overflows %s", describe(v), dt)
		}
		v = Float(f)
	}
	if s, ok := v.(String); ok {
		return parseNumber(string(s), dt)
	}
	return ConvertScalar(v, dt)
}

func parseNumber(s string, t ir.Type) (Value, error) {
	if t.IsFloat() {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("cannot convert %q to %s", s, t)
		}
		return ConvertScalar(Float(f), t)
	}
	i, err := strconv.ParseInt(s, 0, 64)
	if err != nil {
		return nil, fmt.Errorf("cannot convert %q to %s", s, t)
	}
	return ConvertScalar(Int(i), t)
}

// Binary applies a binary operator, for builtins (sized by the caps alone).
func Binary(op token.Op, x, y Value) (Value, error) { return binary(nil, op, x, y) }

// Equal reports x == y with the language's rules.
func Equal(x, y Value) (bool, error) { return equal(x, y) }

// Less reports x < y with the language's rules.
func Less(x, y Value) (bool, error) {
	v, err := compare(token.Lss, x, y)
	if err != nil {
		return false, err
	}
	return bool(v.(Bool)), nil
}

// ConvertScalarBits makes the host value of an element of type t.
func ConvertScalarBits(t ir.Type, bits uint64) Value { return elemValue(t, bits) }

// Negate is unary minus, for builtins.
func Negate(v Value) (Value, error) { return negate(v) }

// contains is `x in c`: an element of a list (==, values of other types
// are not equal), a key of a dict, a substring of a string.
func contains(c, x Value) (bool, error) {
	switch c := c.(type) {
	case *List:
		return c.find(x) >= 0, nil
	case *Dict:
		_, ok, err := c.Get(x)
		return ok, err
	case String:
		s, ok := x.(String)
		if !ok {
			return false, fmt.Errorf("`in` a string takes a string on the left, not %s", x.Type())
		}
		return strings.Contains(string(c), string(s)), nil
	case *Array:
		return false, fmt.Errorf("not yet supported: `in` on an array (write any(a == x))")
	}
	return false, fmt.Errorf("`in` takes a list, a dict or a string on the right, not %s", c.Type())
}

// repeat is `l * n` and `s * n` (either order): n copies, none when n
// is negative (Python's), sized against the caps first. ok is false for
// other operands.
func (th *Thread) repeat(x, y Value) (Value, bool, error) {
	if _, isInt := x.(Int); isInt {
		x, y = y, x
	}
	n, isInt := y.(Int)
	if !isInt {
		return nil, false, nil
	}
	count := max(int(n), 0)
	switch s := x.(type) {
	case String:
		if len(s) > 0 && count > MaxStringBytes/len(s) {
			return nil, true, fmt.Errorf("string of %d bytes repeated %d times is longer than the limit of %d bytes", len(s), count, MaxStringBytes)
		}
		if err := th.checkStringLen(len(s) * count); err != nil {
			return nil, true, err
		}
		v, err := th.holdString(strings.Repeat(string(s), count))
		return v, true, err
	case *List:
		v, err := th.repeatList(s, count)
		return v, true, err
	}
	return nil, false, nil
}

// InPlace is `x op= v` where op= can update x itself: a list's += extends
// it (l += other, a list, as Python) and returns it, a
// string's += appends into the thread's string buffer (amortised linear
// building). handled is false for every other case, which the engine
// computes with binary.
func (th *Thread) InPlace(op token.Op, old, v Value) (Value, bool, error) {
	if op != token.Add {
		return nil, false, nil
	}
	switch a := old.(type) {
	case *List:
		if _, ok := v.(*List); !ok {
			return nil, false, nil // binary names both operands
		}
		return a, true, th.extend(a, v)
	case String:
		if b, ok := v.(String); ok {
			s, err := th.concat(a, b, true)
			return s, true, err
		}
	}
	return nil, false, nil
}
