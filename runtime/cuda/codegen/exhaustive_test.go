package codegen

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/ir/irtest"
)

// TestEveryOp prints CUDA C for every op of the table at every operand type
// its row allows: an op added to the table fails here until codegen
// implements it (its switches report an op they do not know as an error).
func TestEveryOp(t *testing.T) {
	for _, op := range ir.Ops() {
		for _, c := range irtest.Cases(op) {
			if _, err := Source(c.Kernel, Options{}); err != nil {
				t.Errorf("%s: %v", c, err)
			}
			if _, err := Source(c.Kernel, Options{Debug: true}); err != nil {
				t.Errorf("%s (debug): %v", c, err)
			}
		}
	}
}
