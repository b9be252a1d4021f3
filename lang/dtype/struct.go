package dtype

import (
	"fmt"
	"strings"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Structs (TYPES.md section 2).
//
//   - A struct's fields are laid out as NumPy's structured dtype with
//     align=True lays them out, which is C's layout: each field at the
//     next offset that is a multiple of its alignment (a scalar's size; a
//     vector's, matrix's or quaternion's lane size; a nested struct's
//     largest), the size rounded up to a multiple of the struct's
//     alignment. So .npy files of such a dtype load and save as they are.
//   - Its lanes are its fields' lanes in field order (a nested struct's
//     in turn), each with its own scalar type and byte offset: a struct
//     value lives in registers as a vector does.
//   - An array of structs is, underneath, an array of u8 with one
//     trailing axis of Size bytes (Dims); kernels read and write its
//     lanes with typed accesses at their offsets.

// Struct is a declared struct type. Two declarations are two types, even
// with the same fields: a Type of Kind StructKind compares by pointer.
type Struct struct {
	Name   string
	Fields []Field
	Size   int // bytes, padded to a multiple of Align
	Align  int
	lanes  []lane
}

// Field is a struct field with its byte offset.
type Field struct {
	Name   string
	Type   Type
	Offset int
}

type lane struct {
	t    ir.Type
	off  int
	name string
}

// StructKind is the Kind of struct types.
const StructKind Kind = 4

// MaxStructLanes bounds the scalar lanes of a struct (registers per value).
const MaxStructLanes = 1024

// NewStruct lays out a struct of the given fields (names and types; the
// offsets are computed).
func NewStruct(name string, fields []Field) (*Struct, error) {
	s := &Struct{Name: name, Align: 1}
	seen := map[string]bool{}
	for _, f := range fields {
		if seen[f.Name] {
			return nil, fmt.Errorf("duplicate field %s in struct %s", f.Name, name)
		}
		seen[f.Name] = true
		if !f.Type.Valid() {
			return nil, fmt.Errorf("field %s of struct %s has no type", f.Name, name)
		}
		a := f.Type.Align()
		f.Offset = (s.Size + a - 1) / a * a
		s.Size = f.Offset + f.Type.Size()
		s.Align = max(s.Align, a)
		for k := range f.Type.Lanes() {
			s.lanes = append(s.lanes, lane{f.Type.LaneType(k), f.Offset + f.Type.LaneOffset(k), f.Name + laneSuffixName(f.Type, k)})
		}
		s.Fields = append(s.Fields, f)
	}
	if len(s.lanes) > MaxStructLanes {
		return nil, fmt.Errorf("struct %s has %d scalar components, at most %d", name, len(s.lanes), MaxStructLanes)
	}
	s.Size = (s.Size + s.Align - 1) / s.Align * s.Align
	return s, nil
}

// laneSuffixName names lane k inside a field of type t: "" for a scalar,
// ".x" for a vector's, ".01" for a matrix's, ".pos.x" for a struct's.
func laneSuffixName(t Type, k int) string {
	if t.IsScalar() {
		return ""
	}
	return "." + t.LaneName(k)
}

// Type is the struct as a Type.
func (s *Struct) Type() Type { return Type{Kind: StructKind, Elem: ir.U8, St: s} }

// Field returns the field named name.
func (s *Struct) Field(name string) (Field, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// FieldLanes is the range of lanes [lo, hi) that field f covers.
func (s *Struct) FieldLanes(f Field) (lo, hi int) {
	for _, g := range s.Fields {
		if g.Name == f.Name {
			return lo, lo + g.Type.Lanes()
		}
		lo += g.Type.Lanes()
	}
	return 0, 0
}

// Align is the alignment of t in bytes (NumPy's align=True rules).
func (t Type) Align() int {
	if t.Kind == StructKind {
		return t.St.Align
	}
	return t.Elem.Size()
}

// LaneType is the scalar type of lane k.
func (t Type) LaneType(k int) ir.Type {
	if t.Kind == StructKind {
		return t.St.lanes[k].t
	}
	return t.Elem
}

// LaneOffset is the byte offset of lane k in a value of t.
func (t Type) LaneOffset(k int) int {
	if t.Kind == StructKind {
		return t.St.lanes[k].off
	}
	return k * t.Elem.Size()
}

// formatStruct prints Particle(pos=vec3(0.0, 0.0, 0.0), mass=1.0).
func (s *Struct) format(bits []uint64) string {
	var b strings.Builder
	b.WriteString(s.Name + "(")
	k := 0
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		n := f.Type.Lanes()
		b.WriteString(f.Name + "=")
		if f.Type.IsScalar() {
			b.WriteString(FormatLane(f.Type.Elem, bits[k]))
		} else {
			b.WriteString(f.Type.Format(bits[k : k+n]))
		}
		k += n
	}
	b.WriteByte(')')
	return b.String()
}
