package kernel

import (
	"math"
	"slices"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/cuda/codegen"
)

// The launch picks the build whose promises its arguments keep.
func TestVariant(t *testing.T) {
	k := &ir.Kernel{Entry: &ir.Func{Params: []ir.Param{{Name: "a", Elem: ir.F32, NDim: 2}, {Name: "s", Elem: ir.F32}}}}
	p := &program{k: k}
	arg := func(shape, strides [2]int) []backend.Arg {
		return []backend.Arg{{Array: backend.Array{Shape: [4]int{shape[0], shape[1]}, Strides: [4]int{strides[0], strides[1]}}}, {}}
	}
	cases := []struct {
		name           string
		shape, strides [2]int
		want           int
	}{
		{"contiguous", [2]int{1 << 20, 3}, [2]int{3, 1}, variantUnitStride | variantIndex32},
		{"strided lanes", [2]int{1 << 20, 3}, [2]int{6, 2}, variantIndex32},
		{"reversed", [2]int{1 << 20, 3}, [2]int{-3, 1}, variantUnitStride | variantIndex32},
		{"just fits", [2]int{1 << 30, 2}, [2]int{1, 1 << 30}, variantIndex32},
		{"too big", [2]int{1 << 30, 3}, [2]int{3, 1}, variantUnitStride},
		{"huge stride", [2]int{1, 2}, [2]int{math.MaxInt32 + 1, 1}, variantUnitStride},
		{"long axis", [2]int{math.MaxInt32 + 1, 1}, [2]int{0, 1}, variantUnitStride},
		{"empty", [2]int{0, 3}, [2]int{1 << 40, 1}, variantUnitStride | variantIndex32},
	}
	for _, c := range cases {
		if got := p.variant(arg(c.shape, c.strides)); got != c.want {
			t.Errorf("%s: variant %b, want %b", c.name, got, c.want)
		}
	}
}

// The vector bit needs every array that vector accesses reach aligned
// for them: the data address, unit lanes and the other strides.
func TestVariantVector(t *testing.T) {
	k := kernels(t, `
kernel k(v: array[vec4], w: array[f32], d: array[vec2d, 2]) {
    let i = tid()
    w[i] = v[i].x + f32(d[i, 0].y)
}
kernel scalar(x: array[vec3]) {
    x[tid()] = x[0]
}
`)
	p := &program{k: k["k"], vec: codegen.VectorNeeds(k["k"])}
	if want := []codegen.VectorNeed{{Param: 0, Lanes: 4}, {Param: 2, Lanes: 2}}; !slices.Equal(p.vec, want) {
		t.Fatalf("needs %v, want %v", p.vec, want)
	}
	const all = variantUnitStride | variantIndex32 | variantVector
	args := func(edit func(v, w, d *backend.Array)) []backend.Arg {
		a := []backend.Arg{
			{Array: backend.Array{Data: 0x10000, Shape: [4]int{64, 4}, Strides: [4]int{4, 1}}},
			{Array: backend.Array{Data: 0x20004, Shape: [4]int{64}, Strides: [4]int{1}}}, // no vector access: any address
			{Array: backend.Array{Data: 0x30010, Shape: [4]int{8, 8, 2}, Strides: [4]int{16, 2, 1}}},
		}
		if edit != nil {
			edit(&a[0].Array, &a[1].Array, &a[2].Array)
		}
		return a
	}
	cases := []struct {
		name string
		edit func(v, w, d *backend.Array)
		want int
	}{
		{"aligned", nil, all},
		{"vec4 data 8 bytes off", func(v, w, d *backend.Array) { v.Data += 8 }, all &^ variantVector},
		{"vec4 data 4 bytes off", func(v, w, d *backend.Array) { v.Data += 4 }, all &^ variantVector},
		{"vec2d data 8 bytes off", func(v, w, d *backend.Array) { d.Data += 8 }, all &^ variantVector},
		{"vec4 every other element", func(v, w, d *backend.Array) { v.Strides[0] = 8 }, all},
		{"vec4 rows of f32[n, 6]", func(v, w, d *backend.Array) { v.Strides[0] = 6 }, all &^ variantVector},
		{"lanes apart", func(v, w, d *backend.Array) { v.Strides = [4]int{8, 2} }, variantIndex32},
		{"reversed", func(v, w, d *backend.Array) { v.Data += 63 * 16; v.Strides[0] = -4 }, all},
		{"vec2d outer stride", func(v, w, d *backend.Array) { d.Strides[0] = 17 }, all &^ variantVector},
		{"one row: its stride is never used", func(v, w, d *backend.Array) { d.Shape[0], d.Strides[0] = 1, 17 }, all},
		{"empty, misaligned", func(v, w, d *backend.Array) { v.Shape[0], v.Data = 0, 0x10004 }, all},
	}
	for _, c := range cases {
		if got := p.variant(args(c.edit)); got != c.want {
			t.Errorf("%s: variant %b, want %b", c.name, got, c.want)
		}
	}
	// A Debug build and a kernel without vector accesses never take it.
	p.debug = true
	if got := p.variant(args(nil)); got != variantUnitStride|variantIndex32 {
		t.Errorf("debug: variant %b", got)
	}
	q := &program{k: k["scalar"], vec: codegen.VectorNeeds(k["scalar"])}
	if got := q.variant([]backend.Arg{{Array: backend.Array{Data: 0x10000, Shape: [4]int{8, 3}, Strides: [4]int{3, 1}}}}); q.vec != nil || got != variantUnitStride|variantIndex32 {
		t.Errorf("vec3: needs %v, variant %b", q.vec, got)
	}
}
