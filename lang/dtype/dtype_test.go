package dtype

import (
	"math"
	"reflect"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

func TestNamesRoundTrip(t *testing.T) {
	want := []string{"vec2", "vec3", "vec4", "vec2d", "vec3d", "vec4d", "vec2i", "vec3i", "vec4i",
		"mat22", "mat33", "mat44", "mat22d", "mat33d", "mat44d", "quat", "quatd"}
	var got []string
	for _, c := range Compounds() {
		got = append(got, c.String())
		back, ok := ByName(c.String())
		if !ok || back != c {
			t.Errorf("ByName(%s) = %v, %v", c, back, ok)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("compounds %v, want %v", got, want)
	}
	if s, ok := ByName("f32"); !ok || s != Of(ir.F32) || !s.IsScalar() {
		t.Errorf("ByName(f32) = %v, %v", s, ok)
	}
	for _, bad := range []string{"vec5", "vec3f", "mat23", "quati", ""} {
		if _, ok := ByName(bad); ok {
			t.Errorf("ByName(%q) found a type", bad)
		}
	}
}

func TestShapes(t *testing.T) {
	cases := []struct {
		name  string
		lanes int
		dims  []int
		size  int
	}{
		{"f64", 1, nil, 8}, {"vec3", 3, []int{3}, 12}, {"vec4i", 4, []int{4}, 16},
		{"mat33d", 9, []int{3, 3}, 72}, {"quat", 4, []int{4}, 16},
	}
	for _, c := range cases {
		ty, _ := ByName(c.name)
		if ty.Lanes() != c.lanes || !reflect.DeepEqual(ty.Dims(), c.dims) || ty.Size() != c.size {
			t.Errorf("%s: lanes %d dims %v size %d", c.name, ty.Lanes(), ty.Dims(), ty.Size())
		}
	}
}

func TestComponentsAndElem(t *testing.T) {
	v3, _ := ByName("vec3")
	q, _ := ByName("quat")
	if v3.ComponentIndex("z") != 2 || v3.ComponentIndex("w") != -1 || q.ComponentIndex("w") != 3 {
		t.Error("component indices")
	}
	if d, ok := v3.WithElem(ir.F64); !ok || d.String() != "vec3d" {
		t.Errorf("vec3 with f64 = %v %v", d, ok)
	}
	if _, ok := q.WithElem(ir.I32); ok {
		t.Error("quat of i32 exists")
	}
}

func f32s(xs ...float32) []uint64 {
	var out []uint64
	for _, x := range xs {
		out = append(out, uint64(math.Float32bits(x)))
	}
	return out
}

func TestFormat(t *testing.T) {
	v3, _ := ByName("vec3")
	m, _ := ByName("mat22")
	q, _ := ByName("quat")
	vi, _ := ByName("vec2i")
	neg := int32(-4)
	for _, c := range []struct{ got, want string }{
		{v3.Format(f32s(1, 2.5, 0.1)), "vec3(1.0, 2.5, 0.1)"},
		{m.Format(f32s(1, 2, 3, 4)), "mat22([1.0, 2.0], [3.0, 4.0])"},
		{q.Format(f32s(0, 0, 0, 1)), "quat(0.0, 0.0, 0.0, 1.0)"},
		{vi.Format([]uint64{3, uint64(uint32(neg))}), "vec2i(3, -4)"},
		{FormatLane(ir.Bool, 1) + FormatLane(ir.Bool, 0), "truefalse"},
		{FormatLane(ir.I64, uint64(int64(neg))), "-4"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

func TestFlattenParams(t *testing.T) {
	v3, _ := ByName("vec3")
	m, _ := ByName("mat22d")
	got := FlattenParams([]Param{
		{Name: "n", Type: Of(ir.I32)}, {Name: "v", Type: v3}, {Name: "a", Type: v3, NDim: 1},
		{Name: "m", Type: m}, {Name: "ms", Type: m, NDim: 2},
	})
	want := []ir.Param{
		{Name: "n", Elem: ir.I32}, {Name: "v.x", Elem: ir.F32}, {Name: "v.y", Elem: ir.F32}, {Name: "v.z", Elem: ir.F32},
		{Name: "a", Elem: ir.F32, NDim: 2},
		{Name: "m.00", Elem: ir.F64}, {Name: "m.01", Elem: ir.F64}, {Name: "m.10", Elem: ir.F64}, {Name: "m.11", Elem: ir.F64},
		{Name: "ms", Elem: ir.F64, NDim: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// TestStructLayout checks NumPy's align=True offsets (numpy.dtype(...,
// align=True).fields and .itemsize give these numbers).
func TestStructLayout(t *testing.T) {
	v3, _ := ByName("vec3")
	d3, _ := ByName("vec3d")
	p, err := NewStruct("Particle", []Field{{Name: "pos", Type: v3}, {Name: "vel", Type: v3}, {Name: "mass", Type: Of(ir.F32)}})
	if err != nil {
		t.Fatal(err)
	}
	if p.Size != 28 || p.Align != 4 || p.Fields[2].Offset != 24 {
		t.Errorf("Particle: size %d align %d mass at %d", p.Size, p.Align, p.Fields[2].Offset)
	}
	// [('a', u1), ('b', <f8, (3,)), ('c', <i4)] align=True: offsets 0, 8, 32; itemsize 40
	m, err := NewStruct("Mixed", []Field{{Name: "a", Type: Of(ir.U8)}, {Name: "b", Type: d3}, {Name: "c", Type: Of(ir.I32)}})
	if err != nil {
		t.Fatal(err)
	}
	offs := []int{m.Fields[0].Offset, m.Fields[1].Offset, m.Fields[2].Offset}
	if !reflect.DeepEqual(offs, []int{0, 8, 32}) || m.Size != 40 || m.Align != 8 {
		t.Errorf("Mixed: offsets %v size %d align %d", offs, m.Size, m.Align)
	}
	// nested: [('flag', u1), ('m', Mixed)]: Mixed aligned to 8
	n, err := NewStruct("Outer", []Field{{Name: "flag", Type: Of(ir.Bool)}, {Name: "m", Type: m.Type()}})
	if err != nil {
		t.Fatal(err)
	}
	ty := n.Type()
	if n.Fields[1].Offset != 8 || n.Size != 48 || ty.Lanes() != 6 {
		t.Errorf("Outer: m at %d size %d lanes %d", n.Fields[1].Offset, n.Size, ty.Lanes())
	}
	if ty.LaneOffset(3) != 8+8+8 || ty.LaneType(5) != ir.I32 || ty.LaneName(2) != "m.b.x" {
		t.Errorf("Outer lanes: offset %d type %s name %s", ty.LaneOffset(3), ty.LaneType(5), ty.LaneName(2))
	}
	if !reflect.DeepEqual(ty.Dims(), []int{48}) || ty.Size() != 48 || ty.String() != "Outer" {
		t.Errorf("Outer dims %v size %d name %s", ty.Dims(), ty.Size(), ty)
	}
	if _, err := NewStruct("D", []Field{{Name: "a", Type: v3}, {Name: "a", Type: v3}}); err == nil {
		t.Error("duplicate field accepted")
	}
	bits := append(f32s(1, 2, 3, 0, 0, 0), uint64(math.Float32bits(2)))
	if got := p.Type().Format(bits); got != "Particle(pos=vec3(1.0, 2.0, 3.0), vel=vec3(0.0, 0.0, 0.0), mass=2.0)" {
		t.Errorf("format: %s", got)
	}
	params := FlattenParams([]Param{{Name: "o", Type: ty}, {Name: "ps", Type: p.Type(), NDim: 1}})
	if len(params) != 7 || params[0].Elem != ir.Bool || params[0].Name != "o.flag" || params[6] != (ir.Param{Name: "ps", Elem: ir.U8, NDim: 2}) {
		t.Errorf("flatten: %+v", params)
	}
}
