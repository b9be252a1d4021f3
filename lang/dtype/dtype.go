// Package dtype describes the element types of values and arrays beyond
// the scalars of package ir: the small linear-algebra types of TYPES.md
// section 1 (vectors, matrices, quaternions). The checker, the host
// interpreter, the standard library and .npy I/O all read them from here,
// so a vec3 means the same thing everywhere.
//
// # Decisions
//
//   - A compound value is a fixed group of scalar lanes of one type
//     (Elem), in C order: a vec3 is lanes x, y, z; a mat33 its rows one
//     after another (lane r*M + c); a quat x, y, z, w (Warp's order).
//     Kernels lower every compound value to that many scalar registers,
//     so the kernel IR and both backends stay scalar (TYPES.md's "small
//     structs with __device__ operators in a generated header" would give
//     the same code after NVRTC's scalar replacement, with two backends to
//     keep in step instead of none).
//   - An array of a compound type is, underneath, an array of Elem with
//     the type's Dims as extra trailing axes, contiguous in them: a vec3[n]
//     array is an f32 [n, 3] array, a mat33[n] an f32 [n, 3, 3]. That is
//     what .npy files hold and what a.view(f32) shows, and what a kernel's
//     array[vec3] parameter receives (ir.Param Elem f32, NDim + 1).
//     Arrays have at most 4 axes in all (mem.MaxDims), so an array of
//     vectors has at most 3 of its own and one of matrices at most 2.
//   - By value, a compound kernel or func parameter is Lanes consecutive
//     scalar IR parameters (FlattenParams), of LaneType each.
//   - Structs: struct.go.
package dtype

import (
	"fmt"
	"math"
	"strings"

	"github.com/gscript-lang/gscript/internal/repr"
	"github.com/gscript-lang/gscript/lang/ir"
)

// Kind is the shape class of a type.
type Kind uint8

const (
	Scalar Kind = iota
	Vec
	Mat
	Quat
)

// Type is a scalar, vector, matrix or quaternion type. It is comparable;
// the zero Type is invalid.
type Type struct {
	Kind Kind
	Elem ir.Type // the lanes' scalar type (the type itself for a scalar; u8, the storage, for a struct)
	N, M int     // Vec: N lanes; Mat: N rows of M columns; Quat: N = 4
	St   *Struct // a struct type's declaration (Kind StructKind)
}

// Of is the scalar type t.
func Of(t ir.Type) Type { return Type{Kind: Scalar, Elem: t} }

// Valid reports whether t is a type (not the zero Type).
func (t Type) Valid() bool { return t.Elem != ir.Invalid }

// IsScalar reports whether t is a scalar type.
func (t Type) IsScalar() bool { return t.Kind == Scalar }

// Lanes is the number of scalar components (1 for a scalar).
func (t Type) Lanes() int {
	switch t.Kind {
	case Vec:
		return t.N
	case Mat:
		return t.N * t.M
	case Quat:
		return 4
	case StructKind:
		return len(t.St.lanes)
	}
	return 1
}

// Dims are the trailing array axes a compound element adds (nil for a
// scalar): [N] for a vector or quaternion, [N, M] for a matrix.
func (t Type) Dims() []int {
	switch t.Kind {
	case Vec, Quat:
		return []int{t.Lanes()}
	case Mat:
		return []int{t.N, t.M}
	case StructKind:
		return []int{t.St.Size}
	}
	return nil
}

// Size is the size of one element in bytes.
func (t Type) Size() int {
	if t.Kind == StructKind {
		return t.St.Size
	}
	return t.Lanes() * t.Elem.Size()
}

// suffix is the name suffix of a compound type's lane type.
var suffix = map[ir.Type]string{ir.F32: "", ir.F64: "d", ir.I32: "i"}

// String is the type's name: f32, vec3, mat33d, quat.
func (t Type) String() string {
	s, ok := suffix[t.Elem]
	switch {
	case t.Kind == Scalar:
		return t.Elem.String()
	case t.Kind == StructKind:
		return t.St.Name
	case !ok:
	case t.Kind == Vec:
		return fmt.Sprintf("vec%d%s", t.N, s)
	case t.Kind == Mat:
		return fmt.Sprintf("mat%d%d%s", t.N, t.M, s)
	case t.Kind == Quat:
		return "quat" + s
	}
	return fmt.Sprintf("dtype(%d, %s, %d, %d)", t.Kind, t.Elem, t.N, t.M)
}

// compounds lists every compound type, in the order help shows them.
var compounds = func() []Type {
	var out []Type
	for _, e := range []ir.Type{ir.F32, ir.F64, ir.I32} {
		for n := 2; n <= 4; n++ {
			out = append(out, Type{Kind: Vec, Elem: e, N: n})
		}
	}
	for _, e := range []ir.Type{ir.F32, ir.F64} {
		for n := 2; n <= 4; n++ {
			out = append(out, Type{Kind: Mat, Elem: e, N: n, M: n})
		}
	}
	return append(out, Type{Kind: Quat, Elem: ir.F32, N: 4}, Type{Kind: Quat, Elem: ir.F64, N: 4})
}()

// Compounds returns every compound type (vec2 ... quatd).
func Compounds() []Type { return append([]Type(nil), compounds...) }

// ByName maps a type name (a scalar or compound one) to its Type.
func ByName(name string) (Type, bool) {
	if t := ir.TypeByName(name); t != ir.Invalid {
		return Of(t), true
	}
	for _, t := range compounds {
		if t.String() == name {
			return t, true
		}
	}
	return Type{}, false
}

// IsCompoundName reports whether name names a vector, matrix or
// quaternion type.
func IsCompoundName(name string) bool {
	t, ok := ByName(name)
	return ok && !t.IsScalar()
}

// WithElem is t with lanes of type e (vec3 with F64 is vec3d); ok is
// false when no such type exists (a quaternion of i32).
func (t Type) WithElem(e ir.Type) (Type, bool) {
	if t.Kind == Scalar {
		return Of(e), e != ir.Invalid
	}
	if t.Kind == StructKind {
		return t, false
	}
	u := t
	u.Elem = e
	_, ok := ByName(u.String())
	return u, ok
}

// Component names the lanes of vectors (up to 4) and quaternions.
const Component = "xyzw"

// ComponentIndex is the lane of a component name (x y z w) in t, or -1
// when t has no such component.
func (t Type) ComponentIndex(name string) int {
	if len(name) != 1 || (t.Kind != Vec && t.Kind != Quat) {
		return -1
	}
	i := strings.IndexByte(Component, name[0])
	if i < 0 || i >= t.Lanes() {
		return -1
	}
	return i
}

// Format prints a value of t from its lanes' raw bits (as stored in an
// array element: math.Float32bits for f32, the int's bits for i32):
// vec3(1.0, 2.0, 3.0), mat22([1.0, 2.0], [3.0, 4.0]), quat(0.0, 0.0, 0.0, 1.0).
func (t Type) Format(bits []uint64) string {
	if t.Kind == StructKind {
		return t.St.format(bits)
	}
	var b strings.Builder
	b.WriteString(t.String())
	b.WriteByte('(')
	if t.Kind == Mat {
		for r := 0; r < t.N; r++ {
			if r > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('[')
			writeLanes(&b, t.Elem, bits[r*t.M:(r+1)*t.M])
			b.WriteByte(']')
		}
	} else {
		writeLanes(&b, t.Elem, bits)
	}
	b.WriteByte(')')
	return b.String()
}

func writeLanes(b *strings.Builder, e ir.Type, bits []uint64) {
	for i, x := range bits {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(FormatLane(e, x))
	}
}

// FormatLane prints one lane as the host prints a scalar of type e.
func FormatLane(e ir.Type, bits uint64) string {
	switch e {
	case ir.F32:
		return repr.FormatFloat(float64(math.Float32frombits(uint32(bits))), 32)
	case ir.F64:
		return repr.FormatFloat(math.Float64frombits(bits), 64)
	case ir.I32:
		return fmt.Sprint(int32(bits))
	case ir.I64:
		return fmt.Sprint(int64(bits))
	case ir.Bool: // a struct's bool field
		return fmt.Sprint(bits != 0)
	}
	return fmt.Sprint(bits)
}

// Param is a kernel or func parameter as the source declares it: a value
// of Type (NDim 0) or an array of Type elements with NDim axes of its own.
type Param struct {
	Name string
	Type Type
	NDim int
}

// IRParams is the number of ir.Params p becomes: Lanes scalars for a
// compound value, one array otherwise.
func (p Param) IRParams() int {
	if p.NDim == 0 {
		return p.Type.Lanes()
	}
	return 1
}

// FlattenParams lowers source parameters to IR parameters: a compound
// value becomes Lanes scalar parameters named name.x ... (name[k] for
// matrices), an array of a compound type one array of Elem with the
// type's Dims appended.
func FlattenParams(ps []Param) []ir.Param {
	var out []ir.Param
	for _, p := range ps {
		switch {
		case p.NDim > 0:
			out = append(out, ir.Param{Name: p.Name, Elem: p.Type.Elem, NDim: p.NDim + len(p.Type.Dims())})
		case p.Type.IsScalar():
			out = append(out, ir.Param{Name: p.Name, Elem: p.Type.Elem})
		default:
			for k := 0; k < p.Type.Lanes(); k++ {
				out = append(out, ir.Param{Name: p.Name + "." + p.Type.LaneName(k), Elem: p.Type.LaneType(k)})
			}
		}
	}
	return out
}

// LaneName names lane k: x y z w for vectors of up to 4 lanes and
// quaternions, the row and column digits ("01") for matrices, the field
// path ("pos.x") for structs.
func (t Type) LaneName(k int) string {
	if t.Kind == StructKind {
		return t.St.lanes[k].name
	}
	if t.Kind == Mat {
		return fmt.Sprintf("%d%d", k/t.M, k%t.M)
	}
	if k < len(Component) {
		return Component[k : k+1]
	}
	return fmt.Sprint(k)
}
