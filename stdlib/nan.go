package stdlib

import (
	"fmt"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/runtime/mem"
	"github.com/gscript-lang/gscript/stdlib/reduce"
)

// errAllNaN is NumPy's ValueError of nanargmin and nanargmax over a run
// of NaN only.
func errAllNaN(name string) error {
	return fmt.Errorf("%s: All-NaN slice encountered", name)
}

// checkAllNaN fails when an axis nanargmin or nanargmax left -1 in out
// (a run of NaN only): the smallest index, read back after a wait, so
// that NumPy's error is raised (the one read back of an axis reduction).
func checkAllNaN(th *interp.Thread, name string, out *mem.Array) error {
	least, err := fullReduce(th, name, reduce.Spec{Kind: reduce.Min, In: [2]ir.Type{out.DType()}}, nil, []*mem.Array{out}, nil)
	if err != nil {
		return err
	}
	n, err := interp.ToInt(least)
	if err == nil && n < 0 {
		return errAllNaN(name)
	}
	return err
}
