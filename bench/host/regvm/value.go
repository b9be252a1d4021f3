package regvm

import (
	"fmt"
	"math"
	"strconv"
)

// Value is a script value as the VM hands it to Go: the few kinds the
// measured programs and their error tests need.
type Value interface {
	Type() string
	String() string
}

type (
	Int    int64
	Float  float64
	String string
	Bool   bool
	none   struct{}
)

// Nil is the value of a fn that returns nothing.
var Nil Value = none{}

func (Int) Type() string     { return "int" }
func (Float) Type() string   { return "float" }
func (String) Type() string  { return "string" }
func (Bool) Type() string    { return "bool" }
func (none) Type() string    { return "nil" }
func (i Int) String() string { return strconv.FormatInt(int64(i), 10) }
func (f Float) String() string {
	return strconv.FormatFloat(float64(f), 'g', -1, 64)
}
func (s String) String() string { return string(s) }
func (b Bool) String() string   { return strconv.FormatBool(bool(b)) }
func (none) String() string     { return "nil" }

// Fn is a fn value: a global slot holds one, and CALL looks it up there on
// every call (a global can be rebound). It runs with its program's
// globals, whoever calls it (interp's Closure keeps its globals so: a
// program's fn called from another chunk), so a call switches them.
type Fn struct {
	proto   *Proto
	globals *Globals
}

// Globals are a program's global slots.
type Globals struct{ vals []cell }

func (*Fn) Type() string     { return "fn" }
func (f *Fn) String() string { return fmt.Sprintf("<fn %s>", f.proto.Name) }

// cell is a register, as interp's cell is a slot: an int or a float
// unboxed in n (v is an intMark or a floatMark), or any other value in v.
// The zero cell is an unset register.
type cell struct {
	v Value
	n uint64
}

// intMark and floatMark tag an unboxed number: zero-size types, so that
// the tag test is one type word compared and the tag allocates nothing.
type (
	intMark   struct{}
	floatMark struct{}
)

func (intMark) Type() string     { return "int" }
func (intMark) String() string   { return "<unboxed int>" }
func (floatMark) Type() string   { return "float" }
func (floatMark) String() string { return "<unboxed float>" }

func intCell(i int64) cell     { return cell{intMark{}, uint64(i)} }
func floatCell(f float64) cell { return cell{floatMark{}, math.Float64bits(f)} }

// toCell unboxes an int or a float: every number in a register is
// unboxed, so that the fast paths test one tag.
func toCell(v Value) cell {
	switch x := v.(type) {
	case Int:
		return intCell(int64(x))
	case Float:
		return floatCell(float64(x))
	}
	return cell{v: v}
}

// box is the cell's Value (nil for an unset register).
func (c cell) box() Value {
	switch c.v.(type) {
	case intMark:
		return Int(int64(c.n))
	case floatMark:
		return Float(math.Float64frombits(c.n))
	}
	return c.v
}

// typeName is the type of the cell's value, for errors.
func (c cell) typeName() string {
	if c.v == nil {
		return "unset"
	}
	return c.v.Type()
}

// setInt stores an int into a register, writing the tag only when the
// register held no int (the tag word is a pointer: a write barrier).
func setInt(dst *cell, r int64) {
	if _, ok := dst.v.(intMark); !ok {
		dst.v = intMark{}
	}
	dst.n = uint64(r)
}
