package interp

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// TestChunks: launches of whole rows of axis 0, at most 2^31-1 elements
// each.
func TestChunks(t *testing.T) {
	const max = math.MaxInt32
	tests := []struct {
		shape []int
		want  [][2]int
		err   string
	}{
		{[]int{5}, [][2]int{{0, 5}}, ""},
		{[]int{0, 7}, nil, ""},
		{[]int{}, [][2]int{{0, 1}}, ""},
		{[]int{max + 5}, [][2]int{{0, max}, {max, max + 5}}, ""},
		{[]int{3, 1 << 30}, [][2]int{{0, 1}, {1, 2}, {2, 3}}, ""},
		{[]int{5, 1 << 29}, [][2]int{{0, 3}, {3, 5}}, ""},
		{[]int{2, max + 1}, nil, "rows hold more than 2^31-1 elements"},
	}
	for _, tc := range tests {
		var got [][2]int
		err := Chunks(tc.shape, func(lo, hi int) error { got = append(got, [2]int{lo, hi}); return nil })
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Chunks(%v): err %v, want %q", tc.shape, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Chunks(%v) = %v, %v; want %v", tc.shape, got, err, tc.want)
		}
	}
}

// TestKernelArgs: arguments are checked against the kernel's parameters
// as they are added, scalars converted to the parameter's dtype.
func TestKernelArgs(t *testing.T) {
	k := &ir.Kernel{Entry: &ir.Func{Name: "k", Params: []ir.Param{{Name: "x", Elem: ir.F32, NDim: 1}, {Name: "n", Elem: ir.I32}, {Name: "s", Elem: ir.F32}}}}
	f32, err := mem.NewTracker(nil).New(mem.HostAllocator{}, mem.CPUDevice, ir.F32, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	i32, err := mem.NewTracker(nil).New(mem.HostAllocator{}, mem.CPUDevice, ir.I32, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	a := ArgsFor(k).Array(f32).Int(-3).Float(0.5)
	if a.err != nil || len(a.vals) != 3 || a.arrays[0] != f32 || a.arrays[1] != nil {
		t.Fatalf("good arguments: %v", a.err)
	}
	if a.vals[1].Bits != uint64(math.MaxUint64-2) || a.vals[2].Bits != uint64(math.Float32bits(0.5)) {
		t.Errorf("packed %#x %#x", a.vals[1].Bits, a.vals[2].Bits)
	}
	if a := ArgsFor(k).Array(f32).Value(Int(7)).Value(Scalar{T: ir.F32, Bits: 0x7fa00000}); a.err != nil || a.vals[1].Bits != 7 || a.vals[2].Bits != 0x7fa00000 {
		t.Errorf("values: %v %#x", a.err, a.vals[2].Bits)
	}
	bad := []struct {
		args *KernelArgs
		want string
	}{
		{ArgsFor(k).Array(i32), "argument 1 (x) of kernel k: want array[f32], got array[i32]"},
		{ArgsFor(k).Int(1), "argument 1 (x) of kernel k: want array[f32], got i64"},
		{ArgsFor(k).Array(f32).Int(1 << 40), "argument 2 (n) of kernel k: 1099511627776 overflows i32"},
		{ArgsFor(k).Array(f32).Array(f32), "argument 2 (n) of kernel k: want i32, got array"},
		{ArgsFor(k).Array(f32).Value(Float(0.5)), "argument 2 (n) of kernel k: cannot use float 0.5 as i32"},
		{ArgsFor(k).Array(f32).Ints(1, 2, 3), "kernel k takes 3 arguments, got more"},
	}
	for _, b := range bad {
		if b.args.err == nil || !strings.Contains(b.args.err.Error(), b.want) {
			t.Errorf("err %v, want %q", b.args.err, b.want)
		}
	}
	th := &Thread{}
	if err := th.LaunchLibrary(mem.CPUDevice, []int{4}, ArgsFor(k).Array(f32)); err == nil || !strings.Contains(err.Error(), "takes 3 arguments, got 1") {
		t.Errorf("too few arguments: %v", err)
	}
}
