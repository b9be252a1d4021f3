package irtest

import (
	"testing"

	"github.com/gscript-lang/gscript/lang/ir"
)

// Every case is valid IR, and every op has cases.
func TestCasesVerify(t *testing.T) {
	for _, op := range ir.Ops() {
		cs := Cases(op)
		if len(cs) == 0 {
			t.Errorf("no cases for %s", op)
		}
		for _, c := range cs {
			if err := ir.Verify(c.Kernel); err != nil {
				t.Errorf("%s: %v", c, err)
			}
		}
	}
}
