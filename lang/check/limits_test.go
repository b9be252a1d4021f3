package check

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

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

// The uniformity graph of a block kernel grows with the body, not with
// the body times its nesting: a barrier and an instruction deep inside
// 190 conditions cost one control edge each.
func TestUniformityOfDeepNestingIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("kernel k(x: array[f32], n: i32) block(32) {\n")
	const depth = 190
	for i := range depth {
		fmt.Fprintf(&b, "if n > %d {\n", i)
	}
	for range 12000 {
		b.WriteString("x[0] = x[1] + 1.0; sync()\n")
	}
	b.WriteString("if x[2] > 0.0 { sync() }\n")
	b.WriteString(strings.Repeat("}\n", depth+1))
	f := parse(t, b.String())
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := newTestChecker().Check(f)
	d := time.Since(start)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "sync() under a condition that differs between threads of a block: x[2]") {
		t.Fatalf("got %.300v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; d > checkTimeLimit || alloc > 1<<30 {
		t.Errorf("Check took %v and %d MB", d, alloc>>20)
	}
}
