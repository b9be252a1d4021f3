package interp_test

import (
	"context"
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/dtype"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/stdlib"
)

var vec3 = dtype.Type{Kind: dtype.Vec, Elem: ir.F32, N: 3}

// flatSet is what the checker will lower `kernel set(v: array[vec3], s:
// vec3, k: i32)` to (dtype.FlattenParams): one f32 [n, 3] array, three
// f32 scalars, an i32.
const flatSet = `
kernel set(v: array[f32, 2], sx: f32, sy: f32, sz: f32, k: i32) {
    let i = tid()
    v[i, 0] = sx + f32(k)
    v[i, 1] = sy
    v[i, 2] = sz
}
`

// setKernel is set with its source signature, as interp builds Kernel
// values from check.Info.Signatures.
func setKernel(t *testing.T) *interp.Kernel {
	t.Helper()
	p, err := interp.Compile("flat.gs", []byte(flatSet), stdlib.Universe())
	if err != nil {
		t.Fatal(err)
	}
	k := p.Kernels()[0]
	k.Params = []dtype.Param{{Name: "v", Type: vec3, NDim: 1}, {Name: "s", Type: vec3}, {Name: "k", Type: dtype.Of(ir.I32)}}
	if got, want := dtype.FlattenParams(k.Params), k.IR.Entry.Params; len(got) != len(want) {
		t.Fatalf("FlattenParams gives %d IR params, the kernel has %d", len(got), len(want))
	}
	return k
}

func f32Vector(xs ...float32) *interp.Vector {
	v := &interp.Vector{T: dtype.Type{Kind: dtype.Vec, Elem: ir.F32, N: len(xs)}}
	for _, x := range xs {
		v.Lanes = append(v.Lanes, uint64(math.Float32bits(x)))
	}
	return v
}

// vecInterp is an interpreter with set and the vector s = vec3(1, 2, 3)
// predeclared.
func vecInterp(t *testing.T) *interp.Interp {
	t.Helper()
	env := stdlib.Universe()
	env["set"] = setKernel(t)
	env["s"] = f32Vector(1, 2, 3)
	in, err := interp.New(interp.Options{Stdout: io.Discard, Device: "cpu", Predeclared: env})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

// TestLaunchVectorArgs: an array[vec3] parameter takes a vec3 array's
// memory, a vec3 by value a vector's lanes as consecutive scalars.
func TestLaunchVectorArgs(t *testing.T) {
	in := vecInterp(t)
	src := "let a = zeros(4, dtype=vec3)\nlaunch set[4](a, s, 10)\nlet b = a[1:3]\nlaunch set[2](b, a[0], 10)\n"
	if err := in.Exec(context.Background(), "t.gs", []byte(src)); err != nil {
		t.Fatal(err)
	}
	v, _ := in.Global("a")
	a := v.(*interp.Array)
	if a.ElemType() != vec3 || !slices.Equal(a.Shape(), []int{4}) {
		t.Fatalf("a is %s %v", a.ElemType(), a.Shape())
	}
	got := make([]float32, 12)
	if err := interp.CopyToSlice(a, got); err != nil {
		t.Fatal(err)
	}
	want := []float32{11, 2, 3, 21, 2, 3, 21, 2, 3, 11, 2, 3}
	if !slices.Equal(got, want) {
		t.Errorf("lanes %v, want %v", got, want)
	}
}

// TestLaunchVectorArgErrors: mismatches are named in source types.
func TestLaunchVectorArgErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"launch set[4](zeros([4, 3]), s, 0)", `want array\[vec3\], got array\[f32, 2\] \(use \.view\(vec3\)\)`},
		{"launch set[4](zeros([4, 4]), s, 0)", `want array\[vec3\], got array\[f32, 2\]$`},
		{"launch set[4](zeros(4, dtype=vec3d), s, 0)", `want array\[vec3\], got array\[vec3d\]`},
		{"launch set[4](zeros([4, 2], dtype=vec3), s, 0)", `want array\[vec3\], got array\[vec3, 2\]`},
		{"launch set[4](zeros(4, dtype=vec3), 1.0, 0)", `argument 2 \(s\) of kernel set: want vec3, got float 1.0`},
		{"launch set[4](zeros(4, dtype=vec3), zeros(2, dtype=vec3d)[0], 0)", `want vec3, got vec3d`},
		{"launch set[4](zeros(4, dtype=vec3), s)", `kernel set takes 3 arguments, got 2`},
		{"launch set[4](zeros(4, dtype=vec3), s, s)", `argument 3 \(k\) of kernel set: cannot use`},
	} {
		in := vecInterp(t)
		err := in.Exec(context.Background(), "t.gs", []byte(c.src))
		if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
			t.Errorf("%s: got %v, want %q", c.src, err, c.want)
		}
	}
}

// TestVectorEmbedding: Go code reads an array's element type, converts
// vectors, and views a wrapped slice as vec3 elements.
func TestVectorEmbedding(t *testing.T) {
	in := vecInterp(t)
	a, err := interp.WrapSlice(in, []float32{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	v, err := interp.ViewAs(a, vec3)
	if err != nil {
		t.Fatal(err)
	}
	if v.ElemType() != vec3 || v.Size() != 2 || v.NDim() != 1 {
		t.Fatalf("view: %s, %d elements, %d-D", v.ElemType(), v.Size(), v.NDim())
	}
	if got, err := interp.Format(v); got != "[vec3(1.0, 2.0, 3.0), vec3(4.0, 5.0, 6.0)]" {
		t.Errorf("Format: %q, %v", got, err)
	}
	s := f32Vector(1, 2.5, -3)
	if got, _ := s.Float32s(); !slices.Equal(got, []float32{1, 2.5, -3}) {
		t.Errorf("Float32s: %v", got)
	}
	if got := s.Float64s(); !slices.Equal(got, []float64{1, 2.5, -3}) {
		t.Errorf("Float64s: %v", got)
	}
	d := &interp.Vector{T: dtype.Type{Kind: dtype.Vec, Elem: ir.F64, N: 2}, Lanes: []uint64{math.Float64bits(0.1), math.Float64bits(2)}}
	if _, err := d.Float32s(); err == nil {
		t.Error("Float32s of a vec2d: no error")
	}
	if got := d.Float64s(); !slices.Equal(got, []float64{0.1, 2}) {
		t.Errorf("Float64s: %v", got)
	}
}

// TestLaunchStridedLanes: an array of vec3 built in Go over memory whose
// lanes are not contiguous reads correctly on the host but is refused by
// a launch, which passes lanes as a contiguous last axis.
func TestLaunchStridedLanes(t *testing.T) {
	in := vecInterp(t)
	m, err := interp.WrapSlice(in, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := m.A.Transpose() // [4, 3], lanes 4 apart
	if err != nil {
		t.Fatal(err)
	}
	bad := &interp.Array{A: tr, Elem: vec3}
	if got, _ := interp.Format(bad); got != "[vec3(1.0, 5.0, 9.0), vec3(2.0, 6.0, 10.0), vec3(3.0, 7.0, 11.0), vec3(4.0, 8.0, 12.0)]" {
		t.Errorf("Format: %s", got)
	}
	if err := in.Exec(context.Background(), "t.gs", []byte("fn run(x) {\n launch set[4](x, s, 0)\n}\n")); err != nil {
		t.Fatal(err)
	}
	_, err = in.Call(context.Background(), "run", bad)
	if want := "lanes contiguous"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("launch over strided lanes: %v, want %q", err, want)
	}
	if _, err := interp.ViewAs(&interp.Array{A: tr}, vec3); err == nil {
		t.Error("view(vec3) of strided lanes: no error")
	}
}
