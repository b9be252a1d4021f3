package backend_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/backend"
	"github.com/gscript-lang/gscript/runtime/mem"
)

// fake records what it was asked to compile.
type fake struct{ got []mem.Device }

func (f *fake) Compile(k *ir.Kernel, dev mem.Device, opts backend.Options) (backend.Program, error) {
	f.got = append(f.got, dev)
	return nil, errors.New("fake compiles nothing")
}

func TestRegistry(t *testing.T) {
	// No backend is linked into this test: a device type without one is
	// an error that names the device.
	cuda1 := mem.Device{Type: mem.CUDA, Ordinal: 1}
	if _, err := backend.For(cuda1); err == nil || !strings.Contains(err.Error(), "cuda:1") {
		t.Fatalf("For without a backend: %v", err)
	}
	f := &fake{}
	backend.Register(mem.CUDA, f)
	b, err := backend.For(cuda1)
	if err != nil || b != f {
		t.Fatalf("For after Register = %v, %v", b, err)
	}
	if _, err := backend.Compile(&ir.Kernel{}, cuda1, backend.Options{}); err == nil || len(f.got) != 1 || f.got[0] != cuda1 {
		t.Fatalf("Compile did not reach the registered backend: %v, %v", err, f.got)
	}
	if _, err := backend.For(mem.CPUDevice); err == nil {
		t.Fatal("a CUDA registration answered for the cpu")
	}
}

func TestArrayArg(t *testing.T) {
	tr := mem.NewTracker(nil)
	a, err := tr.New(mem.HostAllocator{}, mem.CPUDevice, ir.F32, []int{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Free()
	arg := backend.ArrayArg(a, 0x1000, "m")
	want := backend.Array{Data: 0x1000, Shape: [4]int{3, 4}, Strides: [4]int{4, 1}, Name: "m"}
	if arg.Array != want || arg.Bits != 0 {
		t.Fatalf("ArrayArg = %+v, want %+v", arg, want)
	}
	if !arg.Array.UnitInner(2) {
		t.Error("a contiguous array's innermost stride is not unit")
	}
	col := backend.Array{Shape: [4]int{3, 4}, Strides: [4]int{1, 3}}
	if col.UnitInner(2) {
		t.Error("a transposed view counts as unit stride")
	}
	if one := (backend.Array{Shape: [4]int{3, 1}, Strides: [4]int{1, 3}}); !one.UnitInner(2) {
		t.Error("an innermost axis of one element has no stride that matters")
	}
}

func TestCheckGrid(t *testing.T) {
	k := &ir.Kernel{Entry: &ir.Func{Name: "k"}, Block: []int{16, 16}}
	for _, tt := range []struct {
		dims []int
		want string
	}{
		{[]int{2, 3}, ""},
		{[]int{0, 1 << 30}, ""},
		{[]int{4}, "has a 2-D block ([16 16]) and is launched over a 1-D grid"},
		{[]int{65536, 1}, "grid axis 0 has 65536 blocks, want 0..65535"},
		{[]int{1, -1}, "grid axis 1 has -1 blocks"},
	} {
		err := backend.CheckGrid(k, tt.dims)
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckGrid(%v) = %v, want %q", tt.dims, err, tt.want)
		}
	}
	if err := backend.CheckGrid(&ir.Kernel{Entry: &ir.Func{Name: "flat"}}, []int{1, 2, 3}); err != nil {
		t.Errorf("a flat kernel: %v", err)
	}
}
