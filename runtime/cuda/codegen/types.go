package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// ctype is the C spelling of an IR type.
func ctype(t ir.Type) (string, bool) {
	switch t {
	case ir.Bool:
		return "bool", true
	case ir.U8:
		return "unsigned char", true
	case ir.I32:
		return "int", true
	case ir.I64:
		return "long long", true
	case ir.U32:
		return "unsigned int", true
	case ir.U64:
		return "unsigned long long", true
	case ir.F32:
		return "float", true
	case ir.F64:
		return "double", true
	}
	return "", false
}

// utype is the unsigned C type of an integer type's width; signed arithmetic
// is done in it because signed overflow is undefined in C but wraps in gscript.
func utype(t ir.Type) string {
	if t.Size() == 8 {
		return "unsigned long long"
	}
	return "unsigned int"
}

// immBits returns an immediate's raw bits as a t (ir.ImmBits, plus the
// int32, uint32 and float32 Go types that hand-built IR may use).
func immBits(t ir.Type, imm any) (uint64, error) {
	switch v := imm.(type) {
	case int32:
		imm = int64(v)
	case uint32:
		imm = uint64(v)
	case float32:
		imm = float64(v)
	}
	if b, ok := ir.ImmBits(imm, t); ok {
		return b, nil
	}
	return 0, fmt.Errorf("constant %v (%T) cannot be a %s", imm, imm, t)
}

// immFloat converts an immediate to a float64 holding t's value (rounded to
// float32 first when t is F32).
func immFloat(t ir.Type, imm any) (float64, error) {
	var f float64
	switch v := imm.(type) {
	case int64:
		f = float64(v)
		if t == ir.F32 {
			f = float64(float32(v)) // one rounding, straight to f32
		}
	case int:
		return immFloat(t, int64(v))
	case int32:
		return immFloat(t, int64(v))
	case uint64:
		f = float64(v)
		if t == ir.F32 {
			f = float64(float32(v))
		}
	case uint32:
		return immFloat(t, uint64(v))
	case float64:
		f = v
	case float32:
		f = float64(v)
	case bool:
		if v {
			f = 1
		}
	default:
		return 0, fmt.Errorf("constant %v (%T) cannot be a %s", imm, imm, t)
	}
	if t == ir.F32 {
		f = float64(float32(f))
	}
	return f, nil
}

// literal spells imm as a C expression of type t. Every literal is exact:
// integers are written with their width's suffix, finite floats with their
// shortest round-trip decimal (which a correctly rounding C++ front end reads
// back to the same bits), and NaN/Inf through a bit cast.
func literal(t ir.Type, imm any) (string, error) {
	switch {
	case t == ir.Bool:
		b, err := immBits(t, imm)
		if err != nil {
			return "", err
		}
		if b != 0 {
			return "true", nil
		}
		return "false", nil
	case t.IsInt():
		b, err := immBits(t, imm)
		if err != nil {
			return "", err
		}
		return intLiteral(t, b), nil
	case t.IsFloat():
		f, err := immFloat(t, imm)
		if err != nil {
			return "", err
		}
		return floatLiteral(t, f), nil
	}
	return "", fmt.Errorf("no literal for type %s", t)
}

func intLiteral(t ir.Type, b uint64) string {
	switch t {
	case ir.U8:
		return fmt.Sprintf("((unsigned char)%d)", b)
	case ir.I32:
		v := int32(uint32(b))
		if v == math.MinInt32 {
			return "(-2147483647 - 1)"
		}
		return strconv.FormatInt(int64(v), 10)
	case ir.U32:
		return strconv.FormatUint(b, 10) + "u"
	case ir.I64:
		v := int64(b)
		if v == math.MinInt64 {
			return "(-9223372036854775807LL - 1LL)"
		}
		return strconv.FormatInt(v, 10) + "LL"
	}
	return strconv.FormatUint(b, 10) + "ull"
}

func floatLiteral(t ir.Type, f float64) string {
	if t == ir.F32 {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Sprintf("__uint_as_float(0x%08xu)", math.Float32bits(float32(f)))
		}
		return decimal(strconv.FormatFloat(f, 'g', -1, 32)) + "f"
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Sprintf("__longlong_as_double(0x%016xLL)", math.Float64bits(f))
	}
	return decimal(strconv.FormatFloat(f, 'g', -1, 64))
}

// decimal makes Go's %g output a C floating literal ("1" -> "1.0").
func decimal(s string) string {
	if strings.ContainsAny(s, ".e") {
		return s
	}
	return s + ".0"
}

// ident reduces a gscript identifier to ASCII C identifier characters. It is
// only used after a unique prefix (p3_, gs_f2_), so collisions don't matter.
func ident(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// EntryName returns the C name of kernel k's entry: "gs_" + the kernel name
// when it is plain ASCII, otherwise "gsu_" + an injective escape (every rune
// other than an ASCII letter or digit, "_" included, becomes _<hex>_), so two
// different kernel names never share an entry name.
func EntryName(k *ir.Kernel) string {
	if k == nil || k.Entry == nil {
		return "gs_"
	}
	name := k.Entry.Name
	if ident(name) == name && name != "" {
		return "gs_" + name
	}
	var b strings.Builder
	b.WriteString("gsu_")
	for _, r := range name {
		if r < 128 && (r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "_%x_", r)
		}
	}
	return b.String()
}
