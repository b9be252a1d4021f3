package npy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// descrs is what Write puts in 'descr' for each gscript dtype: exactly the
// dtype.str NumPy itself writes on a little-endian machine.
var descrs = map[ir.Type]string{
	ir.Bool: "|b1",
	ir.U8:   "|u1",
	ir.I32:  "<i4",
	ir.I64:  "<i8",
	ir.U32:  "<u4",
	ir.U64:  "<u8",
	ir.F32:  "<f4",
	ir.F64:  "<f8",
}

// names are the NumPy names of the dtypes, for messages.
var names = map[ir.Type]string{
	ir.Bool: "bool", ir.U8: "uint8", ir.I32: "int32", ir.I64: "int64",
	ir.U32: "uint32", ir.U64: "uint64", ir.F32: "float32", ir.F64: "float64",
}

// ElemShape is the element shape of h's data read as an array of t: for
// a compound type, the shape without its trailing lane axes, which must
// be t's Dims, of its lane type, after at least one other axis; for a
// scalar type, the shape, whose dtype must be t.
func ElemShape(h Header, t dtype.Type) ([]int, error) {
	dims := t.Dims()
	n := len(h.Shape) - len(dims)
	if h.DType == t.Elem && n >= 0 && (n > 0 || t.IsScalar()) && slices.Equal(h.Shape[n:], dims) {
		return h.Shape[:n], nil
	}
	held := fmt.Sprintf(".npy holds %s %s", names[h.DType], shapeString(h.Shape))
	if t.IsScalar() {
		return nil, fmt.Errorf("%s; dtype=%s needs %s data", held, t, names[t.Elem])
	}
	return nil, fmt.Errorf("%s; dtype=%s needs %s data with %s", held, t, names[t.Elem], t.LaneAxes())
}

// supported maps a descr without its byte-order character to the dtype.
var supported = map[string]ir.Type{
	"b1": ir.Bool, "?": ir.Bool,
	"u1": ir.U8, "B": ir.U8,
	"i4": ir.I32,
	"i8": ir.I64,
	"u4": ir.U32,
	"u8": ir.U64,
	"f4": ir.F32,
	"f8": ir.F64,
}

// numpyNames names the NumPy dtypes gscript lacks, for error messages.
var numpyNames = map[string]string{
	"i1": "int8", "b": "int8", "i2": "int16", "u2": "uint16",
	"f2": "float16", "e": "float16", "f12": "float96", "f16": "float128",
	"c8": "complex64", "c16": "complex128", "c24": "complex192", "c32": "complex256",
	"O": "object", "O8": "object", "O4": "object",
}

// numpyKinds names whole kinds whose size varies (S5, U10, M8[ns], ...).
var numpyKinds = map[byte]string{
	'S': "bytes", 'a': "bytes", 'U': "str", 'V': "void", 'M': "datetime64", 'm': "timedelta64",
	'c': "complex", 'f': "float", 'i': "int", 'u': "uint", 'b': "bool",
}

// dtypeOf interprets the 'descr' value: the dtype and whether the file's
// elements are big-endian. '=' and '|' mean the writer's native order,
// which we take to be little-endian (every platform gscript runs on).
func dtypeOf(v any) (ir.Type, bool, error) {
	s, ok := v.(string)
	if !ok {
		return 0, false, fmt.Errorf("'descr' must be a string, found %s", repr(v))
	}
	body, big := s, false
	if len(s) > 0 && strings.IndexByte("<>=|", s[0]) >= 0 {
		body, big = s[1:], s[0] == '>'
	}
	if t, ok := supported[body]; ok {
		return t, big && t.Size() > 1, nil
	}
	return 0, false, unsupportedDtype(s, body)
}

func unsupportedDtype(s, body string) error {
	name := numpyNames[body]
	if name == "" && body != "" {
		if kind, ok := numpyKinds[body[0]]; ok {
			name = kind
		}
	}
	if name == "" {
		return fmt.Errorf("unsupported dtype %s (not a NumPy dtype gscript knows)", repr(s))
	}
	return fmt.Errorf("unsupported dtype %s (%s); gscript supports bool, u8, i32, i64, u32, u64, f32 and f64",
		repr(s), name)
}
