package cpu

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
	"github.com/gscript-lang/gscript/runtime/backend"
)

// TestEveryOp compiles a kernel for every op of the table at every operand
// type its row allows: an op added to the table fails here until this
// executor implements it.
func TestEveryOp(t *testing.T) {
	for _, op := range ir.Ops() {
		for _, c := range irtest.Cases(op) {
			if _, err := Compile(c.Kernel, backend.Options{}); err != nil {
				t.Errorf("%s: %v", c, err)
			}
		}
	}
}

// TestCompileVerifies: malformed IR is refused by ir.Verify, with its
// message naming the func and instruction.
func TestCompileVerifies(t *testing.T) {
	k := irtest.Cases(ir.OpAdd)[0].Kernel
	in := k.Entry.Body[len(k.Entry.Body)-2].(*ir.Inst) // the add
	in.Args = in.Args[:1]
	_, err := Compile(k, backend.Options{})
	if err == nil || !strings.Contains(err.Error(), "ir: func k: instruction") || !strings.Contains(err.Error(), "(add): has 1 operands, want 2") {
		t.Errorf("Compile = %v", err)
	}
}
