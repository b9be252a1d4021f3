package ir

import (
	"strings"
	"testing"
)

// particles is a well-formed field kernel over p, an array of 28-byte
// Particles {f32 pos[3], vel[3], mass}: p[i].pos[0] += p[i].vel[0] *
// p[i].mass, with a local Particle the value passes through.
func particles() *Kernel {
	f := &Func{Name: "step", Params: []Param{{Name: "p", Elem: U8, NDim: 2}},
		Locals: []Buffer{{Name: "tmp", Elem: U8, Dims: []int{28}}}}
	i, x, v, m, r := f.NewReg(I32), f.NewReg(F32), f.NewReg(F32), f.NewReg(F32), f.NewReg(F32)
	f.Body = []Stmt{
		&Inst{Op: OpTid, Dst: i, Imm: 0},
		&Inst{Op: OpLoadField, Dst: x, Param: 0, Args: []Reg{i}, Imm: 0},
		&Inst{Op: OpLoadField, Dst: v, Param: 0, Args: []Reg{i}, Imm: 12},
		&Inst{Op: OpLoadField, Dst: m, Param: 0, Args: []Reg{i}, Imm: 24},
		&Inst{Op: OpFma, Dst: r, Args: []Reg{v, m, x}},
		&Inst{Op: OpStoreField, Dst: NoReg, Space: SpaceLocal, Param: 0, Args: []Reg{r}, Imm: 0},
		&Inst{Op: OpLoadField, Dst: r, Space: SpaceLocal, Param: 0, Imm: 0},
		&Inst{Op: OpStoreField, Dst: NoReg, Param: 0, Args: []Reg{i, r}, Imm: 0},
	}
	return &Kernel{Entry: f, TidDims: 1}
}

func TestVerifyFields(t *testing.T) {
	if err := Verify(particles()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(k *Kernel)
		want   string
	}{
		{"elem", func(k *Kernel) { k.Entry.Params[0].Elem = F32 }, "(load_field): field access to p, an array of f32, not u8"},
		{"indices", func(k *Kernel) { inst(k, 1).Args = []Reg{0, 0} }, "(load_field): has 2 operands, want 1 indices and 0 values"},
		{"index type", func(k *Kernel) { inst(k, 1).Args = []Reg{1} }, "(load_field): index 0 has type f32"},
		{"no value", func(k *Kernel) { inst(k, 7).Args = []Reg{0} }, "(store_field): has 1 operands, want 1 indices and 1 values"},
		{"misaligned", func(k *Kernel) { inst(k, 2).Imm = 13 }, "(load_field): byte offset 13 (int) is not a non-negative multiple of 4"},
		{"negative", func(k *Kernel) { inst(k, 2).Imm = -4 }, "byte offset -4 (int)"},
		{"not an int", func(k *Kernel) { inst(k, 2).Imm = 4.0 }, "byte offset 4 (float64)"},
		{"past the element", func(k *Kernel) { inst(k, 5).Imm = 28 }, "(store_field): f32 at byte 28 of tmp, whose elements have 28 bytes"},
		{"element size", func(k *Kernel) { k.Entry.Locals[0].Dims = []int{30} }, "f32 at byte 0 of tmp, whose elements have 30 bytes (want a multiple of 4"},
		{"destination", func(k *Kernel) { inst(k, 1).Dst = NoReg }, "(load_field): does not apply to invalid"},
		{"store destination", func(k *Kernel) { inst(k, 7).Dst = 0 }, "(store_field): destination has type i32, want invalid"},
	}
	for _, tt := range tests {
		k := particles()
		tt.mutate(k)
		err := Verify(k)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Verify = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// FieldNeeds gives the entry's parameters what the accesses need, also
// those of a func called with the array, and leaves buffers and the other
// parameters out.
func TestFieldNeeds(t *testing.T) {
	k := particles()
	if got := FieldNeeds(k); len(got) != 1 || got[0] != (FieldNeed{Param: 0, Bytes: 28, Align: 4}) {
		t.Fatalf("FieldNeeds = %+v", got)
	}
	g := &Func{Name: "b1", Params: []Param{{Name: "q", Elem: U8, NDim: 2}}}
	c, gi, gx := g.NewReg(Bool), g.NewReg(I32), g.NewReg(F64)
	g.Body = []Stmt{&Inst{Op: OpConst, Dst: c, Imm: true}, &If{Cond: c, Then: []Stmt{&Loop{Body: []Stmt{
		&Inst{Op: OpConst, Dst: gi, Imm: int64(0)},
		&Inst{Op: OpLoadField, Dst: gx, Param: 0, Args: []Reg{gi}, Imm: int64(16)},
		&Break{},
	}}}}}
	k.Entry.Params = append(k.Entry.Params, Param{Name: "rec", Elem: U8, NDim: 2}, Param{Name: "plain", Elem: F32, NDim: 1})
	k.Funcs = []*Func{g}
	k.Entry.Body = append(k.Entry.Body,
		&Inst{Op: OpCall, Dst: NoReg, Callee: 0, Args: []Reg{NoReg}, ArrayArgs: []int{1}},
		&Inst{Op: OpCall, Dst: NoReg, Callee: 0, Args: []Reg{NoReg}, ArrayArgs: []int{0}})
	if err := Verify(k); err != nil {
		t.Fatal(err)
	}
	want := []FieldNeed{{Param: 0, Bytes: 28, Align: 8}, {Param: 1, Bytes: 24, Align: 8}}
	got := FieldNeeds(k)
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("FieldNeeds = %+v, want %+v", got, want)
	}
	if FieldNeeds(saxpy()) != nil {
		t.Error("a kernel without field accesses needs something")
	}
}
