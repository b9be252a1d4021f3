package check

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Field accesses print with their byte offset, and a field load is a
// memory read: its result varies between threads, as a load's does.
func TestFieldOps(t *testing.T) {
	f := &ir.Func{Name: "k", Params: []ir.Param{{Name: "p", Elem: ir.U8, NDim: 2}}}
	i, m := f.NewReg(ir.I32), f.NewReg(ir.F32)
	f.Body = []ir.Stmt{
		&ir.Inst{Op: ir.OpTid, Dst: i, Imm: 0},
		&ir.Inst{Op: ir.OpLoadField, Dst: m, Param: 0, Args: []ir.Reg{i}, Imm: 24},
		&ir.Inst{Op: ir.OpStoreField, Dst: ir.NoReg, Param: 0, Args: []ir.Reg{i, m}, Imm: 0},
	}
	got := Dump(&ir.Kernel{Entry: f, TidDims: 1})
	for _, want := range []string{"r1:f32 = load_field p+24 r0", "store_field p+0 r0, r1"} {
		if !strings.Contains(got, want) {
			t.Errorf("Dump lacks %q:\n%s", want, got)
		}
	}
	if !varies(ir.OpLoadField) {
		t.Error("a field load is uniform")
	}
}
