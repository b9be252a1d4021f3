package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
	"github.com/gscript-lang/gscript/lang/syntax"
)

// Ten errors are listed, then how many more there were, and a huge name is
// not echoed whole.
func TestErrorListIsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "x%d\n", i)
	}
	b.WriteString(strings.Repeat("y", 1<<20) + "\n")
	_, err := newTestChecker().Check(parse(t, b.String()))
	list, ok := err.(ast.ErrorList)
	if !ok || len(list) != 11 || list[10].Msg != "too many errors: 191 more" {
		t.Fatalf("got %d errors: %.500v", len(list), err)
	}
	_, err = newTestChecker().Check(parse(t, "let a = "+strings.Repeat("y", 1<<20)))
	if err == nil || len(err.Error()) > 400 {
		t.Fatalf("message of %d bytes", len(err.Error()))
	}
}

// A kernel expression too deep for the checker's recursion is a syntax
// error before the checker runs.
func TestDeepKernelExpressionIsASyntaxError(t *testing.T) {
	src := "kernel k(x: array[f32]) {\n let i = tid()\n x[i] = x[i]" + strings.Repeat(" + x[i]", syntax.MaxExprDepth) + "\n}\n"
	_, err := syntax.Parse("t.gs", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "MaxExprDepth") {
		t.Fatalf("got %.300v", err)
	}
}
