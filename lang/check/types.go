package check

import (
	"fmt"
	"go/constant"
	"go/token"
	"math"
	"strings"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

const scalarNameList = "bool u8 i32 i64 u32 u64 f32 f64"

func isScalarName(name string) bool { return ir.TypeByName(name) != ir.Invalid }

// mode says what an operand is.
type mode uint8

const (
	modeInvalid mode = iota // an error was already reported
	modeNoValue             // a call without a result
	modeConst               // a constant: typed when t != ir.Invalid, untyped otherwise
	modeValue               // a value in register reg
	modeArray               // an array parameter
	modeVec                 // a vector, matrix or quaternion value in registers regs (vec.go)
)

// operand is the result of checking (and lowering) an expression.
type operand struct {
	mode mode
	t    ir.Type
	val  constant.Value
	reg  ir.Reg
	arr  *kvar
	// ct and regs describe a modeVec operand: its type and one register
	// per lane (t is then ct.Elem).
	ct    dtype.Type
	regs  []ir.Reg
	isVar bool
	expr  ast.Expr
	// nonFinite marks inf, nan and their negations: f32 values (go/constant
	// has no infinities) that another float type may claim, re-emitted
	// with value ieee, so that they act as untyped float constants do.
	nonFinite bool
	ieee      float64
}

func invalid() operand { return operand{mode: modeInvalid} }

func (o operand) untyped() bool { return o.mode == modeConst && o.t == ir.Invalid }

// kindName names the kind of an untyped constant.
func kindName(v constant.Value) string {
	switch v.Kind() {
	case constant.Bool:
		return "bool"
	case constant.Float:
		return "float"
	}
	return "int"
}

// String describes the operand the way go/types does in messages.
func (o operand) String() string {
	src := exprString(o.expr)
	switch o.mode {
	case modeNoValue:
		return src + " (no value)"
	case modeArray:
		return fmt.Sprintf("%s (%s)", src, o.arr.typeString())
	case modeVec:
		if o.isVar {
			return fmt.Sprintf("%s (variable of type %s)", src, o.ct)
		}
		return fmt.Sprintf("%s (value of type %s)", src, o.ct)
	case modeConst:
		if o.t == ir.Invalid {
			return fmt.Sprintf("%s (untyped %s constant)", src, kindName(o.val))
		}
		return fmt.Sprintf("%s (constant %s of type %s)", src, o.val.String(), o.t)
	case modeValue:
		if o.isVar {
			return fmt.Sprintf("%s (variable of type %s)", src, o.t)
		}
		return fmt.Sprintf("%s (value of type %s)", src, o.t)
	}
	return src
}

func arrayTypeString(elem ir.Type, ndim int) string {
	if ndim == 1 {
		return fmt.Sprintf("array[%s]", elem)
	}
	return fmt.Sprintf("array[%s, %d]", elem, ndim)
}

// defaultType is the type an untyped constant takes when nothing
// constrains it.
func defaultType(v constant.Value) ir.Type {
	switch v.Kind() {
	case constant.Bool:
		return ir.Bool
	case constant.Float:
		return ir.F32
	}
	return ir.I32
}

var intRanges = map[ir.Type][2]constant.Value{
	ir.U8:  {constant.MakeInt64(0), constant.MakeInt64(math.MaxUint8)},
	ir.I32: {constant.MakeInt64(math.MinInt32), constant.MakeInt64(math.MaxInt32)},
	ir.I64: {constant.MakeInt64(math.MinInt64), constant.MakeInt64(math.MaxInt64)},
	ir.U32: {constant.MakeInt64(0), constant.MakeInt64(math.MaxUint32)},
	ir.U64: {constant.MakeInt64(0), constant.MakeUint64(math.MaxUint64)},
}

// represent converts constant v (of an int, float or bool kind) to type t.
// ok is false when v does not fit t; exact is false when a float had to be
// truncated to reach an int type (the caller decides if that is allowed).
func represent(v constant.Value, t ir.Type) (out constant.Value, ok bool) {
	switch {
	case t == ir.Bool:
		return v, v.Kind() == constant.Bool
	case v.Kind() == constant.Bool:
		return v, false
	case t.IsInt():
		iv := constant.ToInt(v)
		if iv.Kind() != constant.Int {
			return v, false
		}
		r := intRanges[t]
		return iv, constant.Compare(iv, token.GEQ, r[0]) && constant.Compare(iv, token.LEQ, r[1])
	case t.IsFloat():
		f, _ := constant.Float64Val(constant.ToFloat(v))
		if t == ir.F32 {
			f = float64(math.Float32frombits(uint32(ir.FromFloat(f, ir.F32)))) // the rounding of ir.Convert
		}
		if math.IsInf(f, 0) {
			return v, false
		}
		return constant.MakeFloat64(f), true
	}
	return v, false
}

// imm converts a constant of type t to an ir.Inst Imm value.
func imm(v constant.Value, t ir.Type) any {
	switch {
	case t == ir.Bool:
		return constant.BoolVal(v)
	case t.IsFloat():
		f, _ := constant.Float64Val(constant.ToFloat(v))
		return f
	case t.IsSigned():
		i, _ := constant.Int64Val(constant.ToInt(v))
		return i
	default:
		u, _ := constant.Uint64Val(constant.ToInt(v))
		return u
	}
}

func isZero(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(v) == 0
	}
	return false
}

// exprString prints an expression for messages.
func exprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case nil:
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.BasicLit:
		b.WriteString(e.Raw)
	case *ast.BoolLit:
		fmt.Fprint(b, e.Value)
	case *ast.NilLit:
		b.WriteString("nil")
	case *ast.ListLit:
		if e.Tuple {
			writeList(b, e.Elems)
			return
		}
		b.WriteByte('[')
		writeList(b, e.Elems)
		b.WriteByte(']')
	case *ast.DictLit:
		b.WriteByte('{')
		for i := range e.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, e.Keys[i])
			b.WriteString(": ")
			writeExpr(b, e.Values[i])
		}
		b.WriteByte('}')
	case *ast.UnaryExpr:
		b.WriteString(e.Op.String())
		writeExpr(b, e.X)
	case *ast.BinaryExpr:
		writeExpr(b, e.X)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.Y)
	case *ast.CallExpr:
		writeExpr(b, e.Fun)
		b.WriteByte('(')
		writeList(b, e.Args)
		for i, kw := range e.Kwargs {
			if i > 0 || len(e.Args) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(kw.Name.Name + "=")
			writeExpr(b, kw.Value)
		}
		b.WriteByte(')')
	case *ast.IndexExpr:
		writeExpr(b, e.X)
		b.WriteByte('[')
		writeList(b, e.Indices)
		b.WriteByte(']')
	case *ast.SliceComponent:
		writeExpr(b, e.Lo)
		b.WriteByte(':')
		writeExpr(b, e.Hi)
		if e.Step != nil {
			b.WriteByte(':')
			writeExpr(b, e.Step)
		}
	case *ast.AttrExpr:
		writeExpr(b, e.X)
		b.WriteString("." + e.Name.Name)
	case *ast.ParenExpr:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	default:
		fmt.Fprintf(b, "%T", e)
	}
}

func writeList(b *strings.Builder, list []ast.Expr) {
	for i, x := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		writeExpr(b, x)
	}
}
