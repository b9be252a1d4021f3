package interp

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/gscript-lang/gscript/internal/repr"
	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// Value is a host value. Type returns the name `type(v)` gives; String the
// form `print` writes.
type Value interface {
	Type() string
	String() string
}

// Host value types.
type (
	// NilType is the type of nil.
	NilType struct{}
	// Bool is a host bool.
	Bool bool
	// Int is a 64-bit host int; arithmetic on it reports overflow.
	Int int64
	// Float is a 64-bit host float.
	Float float64
	// String is a host string.
	String string
	// Scalar is a typed number read from an array (or made by f32(x) ...):
	// its dtype survives arithmetic by NumPy's NEP 50 rules.
	Scalar struct {
		T    ir.Type
		Bits uint64 // raw bits as stored in an array element
	}
	// List is a mutable list (list.go). Its elements live in one of two
	// storages, by its strategy (kind): ints or floats unboxed in nums (as
	// a cell's n holds them; one slice for both keeps a List, and so each
	// of the many small ones such as d.items()'s pairs, at 64 bytes), any
	// values in vals. version counts the size changes its methods make,
	// which an iterator over it checks (iter.go).
	List struct {
		nums    []uint64
		vals    []Value
		kind    listKind
		version uint64
	}
	// Array is a gscript array. Elem is the element type of an array of
	// a vector, matrix or quaternion type, whose memory A has that type's
	// Dims as extra trailing axes (vecarrays.go); it is the zero Type for
	// an array of scalars (A's dtype).
	Array struct {
		A    *mem.Array
		Elem dtype.Type
	}
	// Kind is a memory kind value (CUDA_MANAGED ...).
	Kind mem.Kind
	// DType is a dtype value (f32 ...); calling it converts.
	DType ir.Type
	// VecType is a vector, matrix or quaternion type value (vec3, mat33,
	// quat ...): a dtype= argument, and a constructor when called.
	VecType struct{ T dtype.Type }
	// Vector is a host vector, matrix or quaternion: T's lanes as raw
	// bits, in dtype's C order (an array element read gives one).
	Vector struct {
		T     dtype.Type
		Lanes []uint64
	}
	// Record is an ordered set of named fields (device_info, mem_info).
	// Display, when set, is what the REPL shows for it instead of the
	// fields (explain_access: its text).
	Record struct {
		Names   []string
		Values  []Value
		Display string
	}
)

// Nil is the nil value.
var Nil Value = NilType{}

func (NilType) Type() string   { return "nil" }
func (NilType) String() string { return "nil" }
func (Bool) Type() string      { return "bool" }
func (b Bool) String() string {
	if b {
		return "true"
	}
	return "false"
}
func (Int) Type() string       { return "int" }
func (i Int) String() string   { return strconv.FormatInt(int64(i), 10) }
func (Float) Type() string     { return "float" }
func (f Float) String() string { return repr.FormatFloat(float64(f), 64) }
func (String) Type() string    { return "string" }
func (s String) String() string {
	return string(s)
}
func (s Scalar) Type() string   { return s.T.String() }
func (s Scalar) String() string { return formatBits(s.T, s.Bits) }
func (*List) Type() string      { return "list" }
func (l *List) String() string {
	s, _ := (*Thread)(nil).format(l, false) // cut short past MaxStringBytes
	return s
}
func (*Array) Type() string { return "array" }
func (a *Array) String() string {
	s, err := formatArray(a)
	if err != nil {
		return "<array: " + err.Error() + ">"
	}
	return s
}
func (Kind) Type() string        { return "memory_kind" }
func (k Kind) String() string    { return mem.Kind(k).String() }
func (DType) Type() string       { return "dtype" }
func (d DType) String() string   { return ir.Type(d).String() }
func (VecType) Type() string     { return "dtype" }
func (v VecType) String() string { return v.T.String() }
func (v *Vector) Type() string   { return v.T.String() }
func (v *Vector) String() string { return v.T.Format(v.Lanes) }
func (*Record) Type() string     { return "record" }
func (r *Record) String() string {
	s, _ := (*Thread)(nil).format(r, false)
	return s
}

// ErrorValue is a caught script error, the e of `catch e`: e.message is
// the text without the position, e.position "f.gs:9:12" ("" when it had
// none), str(e) both. Err is the error caught, for embedders.
type ErrorValue struct {
	Message  string
	Position string
	Err      error
}

func (*ErrorValue) Type() string { return "error" }
func (e *ErrorValue) String() string {
	if e.Position == "" {
		return e.Message
	}
	return e.Position + ": " + e.Message
}

// newErrorValue is the ErrorValue a catch block binds for err.
func newErrorValue(err error) *ErrorValue {
	var ee *EvalError
	if errors.As(err, &ee) {
		pos := ""
		if ee.Pos.IsValid() {
			pos = ee.Pos.String()
		}
		return &ErrorValue{Message: ee.Msg, Position: pos, Err: err}
	}
	return &ErrorValue{Message: err.Error(), Err: err}
}

// errorAttrs are an ErrorValue's attributes.
var errorAttrs = []string{"message", "position"}

func (e *ErrorValue) attr(name string) (Value, error) {
	switch name {
	case "message":
		return String(e.Message), nil
	case "position":
		return String(e.Position), nil
	}
	return nil, fmt.Errorf("error has no attribute %s (attributes: message, position)", name)
}

// Get returns the field named name.
func (r *Record) Get(name string) (Value, bool) {
	for i, n := range r.Names {
		if n == name {
			return r.Values[i], true
		}
	}
	return nil, false
}

// Kernel is a checked kernel; it compiles for a backend on first launch.
type Kernel struct {
	Name string
	IR   *ir.Kernel
	// Params is the source signature (check.Info.Signatures), which
	// launches check arguments against; IR's parameters are its
	// flattened form. Nil: IR's parameters are the source ones.
	Params  []dtype.Param
	Pos     ast.Pos       // the declaration's
	Adjoint *Kernel       // the declared custom adjoint, nil if none
	ad      kernelADCache // what tapes need of the kernel (tapelaunch.go)
}

func (*Kernel) Type() string     { return "kernel" }
func (k *Kernel) String() string { return "<kernel " + k.Name + ">" }

// DeviceFunc is a device func: callable from kernels only.
type DeviceFunc struct{ Name string }

func (*DeviceFunc) Type() string     { return "func" }
func (f *DeviceFunc) String() string { return "<func " + f.Name + ">" }

// Closure is a host fn with the frame it was declared in.
type Closure struct {
	Decl    *ast.FnDecl
	code    *fnCode // its compiled body
	parent  *frame
	globals *globalTable // the table of the chunk that defined it
}

func (*Closure) Type() string     { return "fn" }
func (c *Closure) String() string { return "<fn " + c.Decl.Name.Name + ">" }

// Builtin is a Go function callable from scripts.
type Builtin struct {
	Name string
	Fn   func(th *Thread, args *Args) (Value, error)
	// Operands marks a builtin whose positional arguments may be array
	// expressions (Deferred), passed unmaterialised so that it can fuse
	// them (math functions, where, minimum ...).
	Operands bool
}

func (*Builtin) Type() string     { return "fn" }
func (b *Builtin) String() string { return "<builtin " + b.Name + ">" }

// formatBits prints a raw element value of type t.
func formatBits(t ir.Type, bits uint64) string {
	switch t {
	case ir.Bool:
		return Bool(bits != 0).String()
	case ir.U8, ir.U32, ir.U64:
		return strconv.FormatUint(bits, 10)
	case ir.I32:
		return strconv.FormatInt(int64(int32(bits)), 10)
	case ir.I64:
		return strconv.FormatInt(int64(bits), 10)
	case ir.F32:
		return repr.FormatFloat(float64(math.Float32frombits(uint32(bits))), 32)
	case ir.F64:
		return repr.FormatFloat(math.Float64frombits(bits), 64)
	}
	return fmt.Sprintf("<%s %#x>", t, bits)
}
