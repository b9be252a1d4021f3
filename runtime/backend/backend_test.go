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

// CheckFields refuses an array of structs whose byte axis is too short or
// strided, or whose data or other strides are misaligned for its fields;
// axes of one element have no stride that matters.
func TestCheckFields(t *testing.T) {
	k := &ir.Kernel{Entry: &ir.Func{Name: "k", Params: []ir.Param{{Name: "s", Elem: ir.F32}, {Name: "p", Elem: ir.U8, NDim: 3}}}}
	needs := []ir.FieldNeed{{Param: 1, Bytes: 28, Align: 8}}
	good := backend.Array{Data: 0x1000, Shape: [4]int{4, 2, 32}, Strides: [4]int{64, 32, 1}}
	for _, tt := range []struct {
		name   string
		mutate func(a *backend.Array)
		want   string
	}{
		{"good", func(a *backend.Array) {}, ""},
		{"wider element", func(a *backend.Array) { a.Shape[2], a.Strides[0], a.Strides[1] = 40, 80, 40 }, ""},
		{"axis of one", func(a *backend.Array) { a.Shape[1], a.Strides[1] = 1, 3 }, ""},
		{"empty", func(a *backend.Array) { a.Shape[0], a.Data = 0, 0 }, ""},
		{"short", func(a *backend.Array) { a.Shape[2] = 27 }, "kernel k: argument p has 27 bytes per element (its last axis), its fields need 28"},
		{"byte stride", func(a *backend.Array) { a.Strides[2] = 2 }, "argument p has stride 2 on its byte axis (the last), want 1"},
		{"data", func(a *backend.Array) { a.Data = 0x1004 }, "argument p is at address 0x1004, not a multiple of 8"},
		{"stride", func(a *backend.Array) { a.Strides[0] = 60 }, "argument p has a stride of 60 bytes on axis 0, not a multiple of 8"},
		{"named", func(a *backend.Array) { a.Shape[2], a.Name = 0, "parts" }, "argument parts has 0 bytes per element"},
	} {
		a := good
		tt.mutate(&a)
		err := backend.CheckFields(k, needs, []backend.Arg{{Bits: 1}, {Array: a}})
		if (tt.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: CheckFields = %v, want %q", tt.name, err, tt.want)
		}
	}
	args := []backend.Arg{{}, {Array: good}}
	if n := testing.AllocsPerRun(100, func() { _ = backend.CheckFields(k, needs, args) }); n != 0 {
		t.Errorf("CheckFields allocates %v times per launch", n)
	}
}
