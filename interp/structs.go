package interp

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Host structs (TYPES.md section 2). A struct's name is a StructType; a
// struct value is a *Vector whose T is the struct type, its Lanes the
// fields' lanes in field order, as an array element holds them.
//
//   - StructType's type() is "dtype", as vec3's and f32's are: it is what
//     a dtype= argument takes for arrays of structs (structarrays.go).
//   - Calling it constructs: positional arguments in field order, then
//     keyword arguments by field name; an omitted field is zero, as in a
//     Go composite literal. A scalar field takes a number (or a bool for a
//     bool field) by ConvertScalar's rules; a vector, matrix, quaternion
//     or struct field a value of exactly its type (a scalar does not
//     broadcast into a vector field: write vec3(s)).
//   - p.field reads a field: a typed Scalar (a Bool for bool), as an
//     array element read gives, or a *Vector for a compound field.
//   - Values are immutable, as vectors are: p.f = v is an error. A value
//     is shared by every variable holding it, so a field store would be
//     visible through all of them; building a new value says what it does.
//   - == and != compare two values of one struct type field by field,
//     lane by lane with each lane's scalar ==, as NumPy compares records:
//     a NaN field makes them unequal, 0.0 equals -0.0. Values of two
//     struct types do not compare (an error), even with equal fields.

// StructType is a struct type value; calling it constructs a value.
type StructType struct{ S *dtype.Struct }

func (*StructType) Type() string     { return "dtype" }
func (t *StructType) String() string { return t.S.Name }

// isStruct reports whether v is a struct value.
func isStruct(v *Vector) bool { return v.T.Kind == dtype.StructKind }

// fieldNames lists s's fields for messages.
func fieldNames(s *dtype.Struct) string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// construct is S(args...): see the rules above.
func (t *StructType) construct(args *Args) (Value, error) {
	s := t.S
	if len(args.Positional) > len(s.Fields) {
		return nil, fmt.Errorf("%s has %d fields, got %d positional arguments", s.Name, len(s.Fields), len(args.Positional))
	}
	vals := make([]Value, len(s.Fields))
	copy(vals, args.Positional)
	for i, name := range args.Names {
		k := slices.IndexFunc(s.Fields, func(f dtype.Field) bool { return f.Name == name })
		if k < 0 {
			return nil, fmt.Errorf("%s has no field %s (fields: %s)", s.Name, name, fieldNames(s))
		}
		if vals[k] != nil {
			return nil, fmt.Errorf("%s: field %s given twice", s.Name, name)
		}
		vals[k] = args.Kw[i]
	}
	out := &Vector{T: s.Type(), Lanes: make([]uint64, 0, s.Type().Lanes())}
	for k, f := range s.Fields {
		lanes, err := fieldLanes(s, f, vals[k])
		if err != nil {
			return nil, err
		}
		out.Lanes = append(out.Lanes, lanes...)
	}
	return out, nil
}

// fieldLanes converts v (nil: omitted) to the lanes of field f of s.
func fieldLanes(s *dtype.Struct, f dtype.Field, v Value) ([]uint64, error) {
	if v == nil {
		return make([]uint64, f.Type.Lanes()), nil
	}
	if f.Type.IsScalar() {
		bits, err := ElemBits(v, f.Type.Elem)
		if err != nil {
			return nil, fmt.Errorf("%s field %s (%s): %v", s.Name, f.Name, f.Type, err)
		}
		return []uint64{bits}, nil
	}
	if x, ok := v.(*Vector); ok && x.T == f.Type {
		return x.Lanes, nil
	}
	hint := ""
	if _, ok := toNum(v); ok && !isStructType(f.Type) {
		hint = fmt.Sprintf(" (a number does not fill a %s: write %s(...))", f.Type, f.Type)
	}
	return nil, fmt.Errorf("%s field %s is %s: cannot use %s%s", s.Name, f.Name, f.Type, describe(v), hint)
}

func isStructType(t dtype.Type) bool { return t.Kind == dtype.StructKind }

// structField is p.name on a struct value.
func structField(v *Vector, name string) (Value, error) {
	s := v.T.St
	f, ok := s.Field(name)
	if !ok {
		return nil, fmt.Errorf("%s has no field %s (fields: %s)", s.Name, name, fieldNames(s))
	}
	lo, hi := s.FieldLanes(f)
	if f.Type.IsScalar() {
		return ConvertScalarBits(f.Type.Elem, v.Lanes[lo]), nil
	}
	return &Vector{T: f.Type, Lanes: slices.Clone(v.Lanes[lo:hi])}, nil
}

// structEqual is a == b on two struct values (see the rules above).
func structEqual(a, b *Vector) (bool, error) {
	if a.T != b.T {
		return false, fmt.Errorf("cannot compare %s and %s: they are different struct types", a.T, b.T)
	}
	for k := range a.Lanes {
		if !laneEqual(a.T.LaneType(k), a.Lanes[k], b.Lanes[k]) {
			return false, nil
		}
	}
	return true, nil
}

// laneEqual is == on two raw lanes of type t: floats by value, integers
// and bools by their bits within t's size.
func laneEqual(t ir.Type, a, b uint64) bool {
	switch t {
	case ir.F32:
		return math.Float32frombits(uint32(a)) == math.Float32frombits(uint32(b))
	case ir.F64:
		return math.Float64frombits(a) == math.Float64frombits(b)
	}
	mask := uint64(math.MaxUint64)
	if n := t.Size(); n < 8 {
		mask = 1<<(8*n) - 1
	}
	return a&mask == b&mask
}
