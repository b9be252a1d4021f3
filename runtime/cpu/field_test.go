package cpu

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// fieldArgs are random bytes for a and zeros for out, of the case's
// shapes (C order).
func fieldArgs(c irtest.Case, rng *rand.Rand) (a, out []byte, args []Arg) {
	shape := c.Shape(0)
	n := 1
	for _, d := range shape {
		n *= d
	}
	a, out = make([]byte, n), make([]byte, n)
	for i := range a {
		a[i] = byte(rng.IntN(256))
	}
	return a, out, []Arg{slice(a, shape...), slice(out, c.Shape(1)...)}
}

// Every field case copies every thread's element, at every field of its
// type, through a parameter, shared or local array: out holds a's bytes
// (a bool's byte as 0 or 1), with and without race detection.
func TestFieldCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 0
	for _, op := range []ir.Op{ir.OpLoadField, ir.OpStoreField} {
		for _, c := range irtest.Cases(op) {
			for _, debug := range []bool{false, true} {
				p, err := Compile(c.Kernel, backend.Options{Debug: debug})
				if err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				a, out, args := fieldArgs(c, rng)
				dims := []int{64}
				if c.Kernel.IsBlock() {
					dims = []int{1}
				}
				if err := p.Launch(dims, args, Options{}); err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				for i, x := range a {
					if c.T == ir.Bool && x != 0 {
						x = 1
					}
					if out[i] != x {
						t.Fatalf("%s (debug %v): byte %d is %#x, want %#x", c, debug, i, out[i], x)
					}
				}
				n++
			}
		}
	}
	if n < 2*2*3*(8+3) {
		t.Errorf("only %d field kernels ran", n)
	}
}

// A launch whose array of structs cannot hold the fields, or would
// misalign them, is an error before any thread runs; an index past the
// elements is a bounds error as for a load.
func TestFieldLaunchChecks(t *testing.T) {
	k, shapes := irtest.FieldCopy(ir.F64, 40, false, ir.SpaceParam)
	p, err := Compile(k, backend.Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]uint64, 64*48/8) // 8-aligned, room for wider views
	bytes := func(off int) []byte {
		return unsafeBytes(buf)[off:]
	}
	out := make([]byte, 64*40)
	for _, tt := range []struct {
		name string
		a    Arg
		want string
	}{
		{"short", slice(bytes(0)[:64*36], 64, 36), "kernel k: argument a has 36 bytes per element (its last axis), its fields need 40"},
		{"byte stride", func() Arg { a := slice(bytes(0)[:64*40], 64, 40); a.Array.Strides = [4]int{80, 2}; return a }(),
			"argument a has stride 2 on its byte axis (the last), want 1"},
		{"row stride", func() Arg { a := slice(bytes(0), 64, 40); a.Array.Strides[0] = 44; return a }(),
			"argument a has a stride of 44 bytes on axis 0, not a multiple of 8"},
		{"data", slice(bytes(4)[:64*40], 64, 40), "not a multiple of 8 as its fields need"},
	} {
		before := append([]byte(nil), out...)
		err := p.Launch([]int{64}, []Arg{tt.a, slice(out, shapes[1]...)}, Options{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Launch = %v, want %q", tt.name, err, tt.want)
		}
		if string(out) != string(before) {
			t.Errorf("%s: a refused launch wrote out", tt.name)
		}
	}
	wide := slice(bytes(0), 64, 48) // 48-byte elements: the fields fit
	wide.Array.Shape[1] = 40
	if err := p.Launch([]int{64}, []Arg{wide, slice(out, shapes[1]...)}, Options{}); err != nil {
		t.Errorf("a view of 40 bytes of 48-byte elements: %v", err)
	}
	err = p.Launch([]int{65}, []Arg{slice(bytes(0)[:64*40], 64, 40), slice(out, shapes[1]...)}, Options{})
	var ke *KernelError
	if !errors.As(err, &ke) || !strings.Contains(ke.Msg, "index 64 out of bounds for axis 0 of array a with shape [64, 40]") {
		t.Errorf("bounds: %v", err)
	}
}

// A device func's field accesses to its array parameter need of the
// kernel's argument what they need of the parameter.
func TestFieldInFunc(t *testing.T) {
	g := &ir.Func{Name: "mass", Params: []ir.Param{{Name: "q", Elem: ir.U8, NDim: 2}, {Name: "i", Elem: ir.I32}}, Results: []ir.Type{ir.F32}}
	gi, gm := g.NewReg(ir.I32), g.NewReg(ir.F32)
	g.Body = []ir.Stmt{
		&ir.Inst{Op: ir.OpParam, Dst: gi, Param: 1},
		&ir.Inst{Op: ir.OpLoadField, Dst: gm, Param: 0, Args: []ir.Reg{gi}, Imm: 24},
		&ir.Return{Values: []ir.Reg{gm}},
	}
	b := kernel("k", arr("p", ir.U8, 2), arr("out", ir.F32, 1))
	i := b.tid(0)
	m := b.f.NewReg(ir.F32)
	b.emit(&ir.Inst{Op: ir.OpCall, Dst: ir.NoReg, Dsts: []ir.Reg{m}, Callee: 0, Args: []ir.Reg{ir.NoReg, i}, ArrayArgs: []int{0, -1}})
	b.store(1, i, m)
	b.k.Funcs = []*ir.Func{g}
	p := b.compile(t)
	parts := make([]float32, 4*7) // Particle {f32 pos[3], vel[3], mass}
	for k := range 4 {
		parts[7*k+6] = float32(k) + 0.5
	}
	out := make([]float32, 4)
	pa := slice(unsafeBytes(parts), 4, 28)
	if err := p.Launch([]int{4}, []Arg{pa, slice(out)}, Options{}); err != nil {
		t.Fatal(err)
	}
	if out[3] != 3.5 || out[0] != 0.5 {
		t.Errorf("masses = %v", out)
	}
	pa.Array.Shape[1] = 24
	if err := p.Launch([]int{4}, []Arg{pa, slice(out)}, Options{}); err == nil || !strings.Contains(err.Error(), "its fields need 28") {
		t.Errorf("short elements through a func: %v", err)
	}
}

// Debug race detection covers the bytes of a shared field.
func TestFieldRace(t *testing.T) {
	b := kernel("r", arr("out", ir.I32, 1)).block(64)
	s := b.shared("s", ir.U8, 2, 8)
	one := i32c(b, 1)
	v := b.konst(ir.F64, 1.0)
	b.emit(&ir.Inst{Op: ir.OpStoreField, Dst: ir.NoReg, Space: ir.SpaceShared, Param: s, Args: []ir.Reg{one, v}, Imm: 0})
	p, err := Compile(b.k, backend.Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	err = p.Launch([]int{1}, []Arg{slice(make([]int32, 64))}, Options{})
	if err == nil || !strings.Contains(err.Error(), "shared-memory race on s[1, 0]") {
		t.Errorf("Launch = %v, want a race on s[1, 0]", err)
	}
}

// unsafeBytes is the memory of xs as bytes (xs's alignment).
func unsafeBytes[T any](xs []T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*int(unsafe.Sizeof(xs[0])))
}
