package stdlib

import (
	"fmt"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestMatmulReference compares matmul on the cpu with a naive host
// product for several shapes: non-square, vectors, batched, broadcast
// batches, transposed views (BLAS's transpose flag) and a view that
// needs a gather, in f32, f64 and i32.
func TestMatmulReference(t *testing.T) {
	in, err := interp.New(interp.Options{Predeclared: Universe(), Device: "cpu"})
	if err != nil {
		t.Fatal(err)
	}
	th := in.Thread()
	for _, tt := range []struct {
		a, b   []int
		ta, tb []int // permutations applied after making the arrays (nil: none)
	}{
		{[]int{3, 5}, []int{5, 7}, nil, nil},
		{[]int{1, 9}, []int{9, 1}, nil, nil},
		{[]int{6}, []int{6, 4}, nil, nil},
		{[]int{4, 6}, []int{6}, nil, nil},
		{[]int{2, 3, 4}, []int{2, 4, 5}, nil, nil},
		{[]int{1, 3, 4}, []int{3, 4, 5}, nil, nil},
		{[]int{3, 4}, []int{2, 4, 5}, nil, nil},
		{[]int{5, 3}, []int{7, 5}, []int{1, 0}, []int{1, 0}},
		{[]int{2, 4, 3}, []int{2, 5, 4}, []int{0, 2, 1}, []int{0, 2, 1}},
		{[]int{4, 2, 3}, []int{4, 5}, []int{1, 2, 0}, nil}, // batch axis innermost: gathered
		{[]int{130, 129}, []int{129, 131}, nil, nil},
	} {
		for _, dt := range []ir.Type{ir.F32, ir.F64, ir.I32} {
			name := fmt.Sprintf("%v%v@%v%v/%s", tt.a, tt.ta, tt.b, tt.tb, dt)
			a, b := testMatrix(t, th, dt, tt.a, tt.ta, 1), testMatrix(t, th, dt, tt.b, tt.tb, 2)
			got, err := matmul(th, &interp.Args{Fn: "matmul", Positional: []interp.Value{&interp.Array{A: a}, &interp.Array{A: b}}})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want := naiveMatmul(t, th, a, b)
			if s := got.String(); s != want {
				t.Errorf("%s:\n got %s\nwant %s", name, s, want)
			}
		}
	}
}

// testMatrix is an array of small integers (exact products) of shape
// shape, then permuted by perm.
func testMatrix(t *testing.T, th *interp.Thread, dt ir.Type, shape, perm []int, seed int) *mem.Array {
	a, err := th.NewArray(dt, shape, interp.String("cpu"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := a.HostBytes()
	for i := range a.Size() {
		v := int64((i*seed*7+3)%9) - 4
		bits, err := interp.ElemBits(interp.Int(v), dt)
		if err != nil {
			t.Fatal(err)
		}
		mem.StoreBits(b, dt, i, bits)
	}
	if perm != nil {
		if a, err = a.Permute(perm); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

// naiveMatmul is NumPy's matmul by its definition, element by element,
// printed as the interpreter prints arrays.
func naiveMatmul(t *testing.T, th *interp.Thread, a, b *mem.Array) string {
	as, bs := a.Shape(), b.Shape()
	at := func(x *mem.Array, idx ...int) float64 {
		off, err := x.Offset(idx)
		if err != nil {
			t.Fatal(err)
		}
		bits, _ := x.LoadElem(off)
		return elemFloat(x.DType(), bits)
	}
	// a as [ba, m, k] and b as [bb, k, n] through index functions.
	m, k := 1, as[len(as)-1]
	if len(as) > 1 {
		m = as[len(as)-2]
	}
	n := 1
	if len(bs) > 1 {
		n = bs[len(bs)-1]
	}
	ba, bb := 1, 1
	if len(as) == 3 {
		ba = as[0]
	}
	if len(bs) == 3 {
		bb = bs[0]
	}
	getA := func(z, i, q int) float64 {
		switch len(as) {
		case 1:
			return at(a, q)
		case 2:
			return at(a, i, q)
		}
		return at(a, min(z, ba-1), i, q)
	}
	getB := func(z, q, j int) float64 {
		switch len(bs) {
		case 1:
			return at(b, q)
		case 2:
			return at(b, q, j)
		}
		return at(b, min(z, bb-1), q, j)
	}
	var shape []int
	batch := max(ba, bb)
	if len(as) == 3 || len(bs) == 3 {
		shape = append(shape, batch)
	}
	if len(as) > 1 {
		shape = append(shape, m)
	}
	if len(bs) > 1 {
		shape = append(shape, n)
	}
	out, err := th.NewArray(a.DType(), shape, interp.String("cpu"), nil)
	if err != nil {
		t.Fatal(err)
	}
	ob, _ := out.HostBytes()
	e := 0
	for z := range batch {
		for i := range m {
			for j := range n {
				s := 0.0
				for q := range k {
					s += getA(z, i, q) * getB(z, q, j)
				}
				var v interp.Value = interp.Float(s)
				if !a.DType().IsFloat() {
					v = interp.Int(int64(s))
				}
				bits, err := interp.ElemBits(v, a.DType())
				if err != nil {
					t.Fatal(err)
				}
				mem.StoreBits(ob, a.DType(), e, bits)
				e++
			}
		}
	}
	return (&interp.Array{A: out}).String()
}

// elemFloat is an element's value as a float64 (exact for these tests).
func elemFloat(t ir.Type, bits uint64) float64 {
	f, _ := interp.ToFloat(interp.ConvertScalarBits(t, bits))
	return f
}
