package words_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/interp"
	"github.com/gscript-lang/gscript/lang/ir"
	"github.com/gscript-lang/gscript/lang/syntax"
	"github.com/gscript-lang/gscript/lang/words"
	"github.com/gscript-lang/gscript/stdlib"
)

// TestKernelBuiltinsMatchTheChecker: every builtin Kernel lists is one
// the checker accepts in a kernel, and every op of the IR's table that
// the checker accepts as a builtin is listed (a new kernel builtin
// completes as soon as it exists).
func TestKernelBuiltinsMatchTheChecker(t *testing.T) {
	in, err := interp.New(interp.Options{Predeclared: stdlib.Universe()})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	isBuiltin := func(name string) bool {
		err := in.Check("k.gs", []byte("kernel k(x: array[f32]) {\n    "+name+"()\n}\n"))
		return err == nil || !strings.Contains(err.Error(), "undefined: "+name) && !strings.Contains(err.Error(), "cannot use host builtin")
	}
	kernel := words.Kernel()
	for _, n := range kernel {
		if !slices.Contains(words.KernelKeywords, n) && !slices.Contains(words.KernelValues, n) && !isBuiltin(n) {
			t.Errorf("Kernel lists %s, which the checker does not know in a kernel", n)
		}
	}
	for _, op := range ir.Ops() {
		info, _ := op.Info()
		// A keyword (const) is no builtin: it fails to parse, not to resolve.
		if isBuiltin(info.Name) && !slices.Contains(kernel, info.Name) && !slices.Contains(syntax.Keywords(), info.Name) {
			t.Errorf("the checker knows kernel builtin %s: add it to check.KernelBuiltins", info.Name)
		}
	}
}
