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

// CheckLaunch refuses every launch that breaks a rule with its one
// message, naming the part of the launch it is about, and allocates
// nothing for a good launch.
func TestCheckLaunch(t *testing.T) {
	params := []ir.Param{{Name: "x", Elem: ir.F32, NDim: 2}, {Name: "s", Elem: ir.F32}}
	flat := &ir.Kernel{Entry: &ir.Func{Name: "k", Params: params}}
	tid2 := &ir.Kernel{Entry: &ir.Func{Name: "k2", Params: params}, TidDims: 2}
	blk := &ir.Kernel{Entry: &ir.Func{Name: "b", Params: params}, Block: []int{16, 16}}
	x := backend.Array{Data: 0x1000, Shape: [4]int{2, 3}, Strides: [4]int{3, 1}}
	args := []backend.Arg{{Array: x}, {Bits: 1}}
	with := func(mutate func(a *backend.Array)) []backend.Arg {
		a := x
		mutate(&a)
		return []backend.Arg{{Array: a}, {Bits: 1}}
	}
	for _, tt := range []struct {
		k     *ir.Kernel
		dims  []int
		args  []backend.Arg
		part  backend.LaunchPart
		index int
		want  string
	}{
		{flat, []int{4}, args, 0, 0, ""},
		{flat, []int{2, 0, 1 << 40}, args, 0, 0, ""}, // no threads
		{tid2, []int{2, 3}, args, 0, 0, ""},
		{blk, []int{2, 3}, args, 0, 0, ""},
		{blk, []int{0, 1 << 30}, args, 0, 0, ""},
		{flat, []int{4}, args[:1], backend.PartLaunch, 0, "kernel k takes 2 arguments, got 1"},
		{flat, nil, args, backend.PartLaunch, 0, "kernel k: a launch has 1 to 4 dimensions, got 0"},
		{flat, []int{1, 1, 1, 1, 1}, args, backend.PartLaunch, 0, "kernel k: a launch has 1 to 4 dimensions, got 5"},
		{tid2, []int{6}, args, backend.PartDim, 0, "kernel k2 unpacks tid() into 2 names but is launched with 1 dimensions"},
		{flat, []int{4, -1}, args, backend.PartDim, 1, "kernel k: negative launch dimension -1"},
		{flat, []int{1 << 15, 1 << 15, 4}, args, backend.PartDim, 2, "kernel k: launch of more than 2^31-1 threads"},
		{blk, []int{4}, args, backend.PartGrid, 0, "kernel b has a 2-D block (block(16, 16)) and is launched over a 1-D grid"},
		{blk, []int{65536, 1}, args, backend.PartGrid, 0, "kernel b: grid axis 0 has 65536 blocks, want 0..65535"},
		{blk, []int{1, -1}, args, backend.PartDim, 1, "kernel b: negative launch dimension -1"},
		{blk, []int{1 << 16, 1 << 16}, args, backend.PartDim, 1, "kernel b: launch of more than 2^31-1 blocks"},
		{flat, []int{4}, with(func(a *backend.Array) { a.Shape[1] = -3 }), backend.PartArg, 0, "kernel k: argument x has negative extent -3"},
		{flat, []int{4}, with(func(a *backend.Array) { a.Data, a.Name = 0, "m" }), backend.PartArg, 0, "kernel k: argument m has no data"},
		{flat, []int{4}, with(func(a *backend.Array) { a.Data, a.Shape[0] = 0, 0 }), 0, 0, ""}, // empty
	} {
		err := backend.CheckLaunch(tt.k, nil, tt.dims, tt.args)
		var le *backend.LaunchError
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s over %v: %v", tt.k.Entry.Name, tt.dims, err)
		case tt.want == "":
		case !errors.As(err, &le) || err.Error() != tt.want:
			t.Errorf("%s over %v: %v, want %q", tt.k.Entry.Name, tt.dims, err, tt.want)
		case le.Part != tt.part || le.Index != tt.index:
			t.Errorf("%s over %v: part %d index %d, want %d %d", tt.k.Entry.Name, tt.dims, le.Part, le.Index, tt.part, tt.index)
		}
	}
	dims := []int{2, 3}
	if n := testing.AllocsPerRun(100, func() { _ = backend.CheckLaunch(blk, nil, dims, args) }); n != 0 {
		t.Errorf("CheckLaunch allocates %v times per launch", n)
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
		err := backend.CheckLaunch(k, needs, []int{1}, []backend.Arg{{Bits: 1}, {Array: a}})
		var le *backend.LaunchError
		if (tt.want == "") != (err == nil) || err != nil && (!strings.Contains(err.Error(), tt.want) || !errors.As(err, &le) || le.Part != backend.PartArg || le.Index != 1) {
			t.Errorf("%s: CheckLaunch = %v, want %q of argument 1", tt.name, err, tt.want)
		}
	}
	args := []backend.Arg{{}, {Array: good}}
	if n := testing.AllocsPerRun(100, func() { _ = backend.CheckFields(k, needs, args) }); n != 0 {
		t.Errorf("CheckFields allocates %v times per launch", n)
	}
}
