package syntax

import (
	"runtime"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

// parseAllocs parses src and returns the error and the bytes allocated.
func parseAllocs(t *testing.T, src []byte) (error, uint64) {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Parse("f.gs", src)
	runtime.ReadMemStats(&after)
	return err, after.TotalAlloc - before.TotalAlloc
}

// wantOnly checks that err is exactly one error, at line:col, containing
// want.
func wantOnly(t *testing.T, err error, line, col int, want string) {
	t.Helper()
	list, ok := err.(ast.ErrorList)
	if !ok || len(list) != 1 || !strings.Contains(list[0].Msg, want) || list[0].Pos.Line != line || list[0].Pos.Col != col {
		t.Fatalf("got %v, want one error at %d:%d containing %q", err, line, col, want)
	}
}

// Each size limit is reported at its position before the parser runs:
// scanning allocates a few hundred bytes per token, parsing ~4 KB.
func TestSizeLimits(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		line, col int
		want      string
		maxAlloc  uint64
	}{
		{"source", "let a = 1\n//" + strings.Repeat("x", MaxSourceBytes), 2, MaxSourceBytes - 10 + 1, "MaxSourceBytes", 1 << 20},
		{"tokens", strings.Repeat("a\n", MaxTokens/2) + "b", MaxTokens/2 + 1, 1, "MaxTokens", 1 << 10 * MaxTokens},
		{"list", "let a = [" + strings.Repeat("1,", MaxListElems+5) + "]", 1, 9 + 2*MaxListElems, "MaxListElems", 1 << 10 * 2 * MaxListElems},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err, alloc := parseAllocs(t, []byte(tt.src))
			wantOnly(t, err, tt.line, tt.col, tt.want)
			if alloc > tt.maxAlloc {
				t.Errorf("allocated %d bytes for %d bytes of input", alloc, len(tt.src))
			}
		})
	}
}

// Lists just under the limit, and indexing with many indices, are fine.
func TestListLimitCountsListsOnly(t *testing.T) {
	if _, err := Parse("f.gs", []byte("let a = ["+strings.Repeat("1,", MaxListElems-1)+"1]")); err != nil {
		t.Fatalf("a list of MaxListElems elements: %.200v", err)
	}
	if _, err := Parse("f.gs", []byte("a["+strings.Repeat("[1,2],", 10)+"1]")); err != nil {
		t.Fatal(err)
	}
}

// Chains build trees as deep as they are long; every kind is bounded at
// MaxExprDepth, reported at the node that exceeds it.
func TestExprDepthLimit(t *testing.T) {
	chain := func(n int, first, op string) string { return first + strings.Repeat(op, n-1) }
	tests := []struct {
		name string
		expr func(depth int) string
		col  func(depth int) int // column of the node at depth MaxExprDepth+1
	}{
		{"binary", func(d int) string { return chain(d, "a", "+a") }, func(d int) int { return 9 + 2*(d-1) - 1 }},
		{"attribute", func(d int) string { return chain(d, "a", ".b") }, func(d int) int { return 9 + 2*(d-1) }},
		{"call", func(d int) string { return chain(d, "f", "()") }, func(d int) int { return 9 + 2*(d-1) - 1 }},
		{"mixed", func(d int) string { return chain(d, "a", "+a*a") }, func(d int) int { return 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Parse("f.gs", []byte("let x = "+tt.expr(MaxExprDepth))); err != nil && tt.name != "mixed" {
				t.Fatalf("depth %d: %.200v", MaxExprDepth, err)
			}
			_, err := Parse("f.gs", []byte("let x = "+tt.expr(MaxExprDepth+2)))
			list, ok := err.(ast.ErrorList)
			if !ok || len(list) != 1 || !strings.Contains(list[0].Msg, "MaxExprDepth") {
				t.Fatalf("depth %d: got %.300v", MaxExprDepth+2, err)
			}
			if c := tt.col(MaxExprDepth + 1); c != 0 && list[0].Pos.Col != c {
				t.Errorf("reported at column %d, want %d", list[0].Pos.Col, c)
			}
		})
	}
}

// Ten errors are listed, then how many more there were.
func TestTooManyErrors(t *testing.T) {
	_, err := Parse("f.gs", []byte(strings.Repeat("let = 1\n", 500)))
	list := err.(ast.ErrorList)
	if len(list) != 11 || list[10].Msg != "too many errors: 490 more" || list[10].Pos.Line != 11 {
		t.Fatalf("got %d errors, last %v", len(list), list[len(list)-1])
	}
}

// A huge token is quoted clipped, and invalid UTF-8 as \x escapes.
func TestMessagesClipTokens(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, src := range []string{"a " + long, "a = 0b" + long, "a = " + strings.Repeat("9", 1<<20)} {
		_, err := Parse("f.gs", []byte(src))
		if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "...") {
			t.Errorf("message of %d bytes: %.300v", len(err.Error()), err)
		}
	}
	_, err := Parse("f.gs", []byte("a = \xff"))
	wantOnly(t, err, 1, 5, `invalid UTF-8 byte \xff`)
}

func TestByteOrderMark(t *testing.T) {
	f, err := Parse("f.gs", []byte("\uFEFFlet a = 1\nlet b = a"))
	if err != nil {
		t.Fatal(err)
	}
	if p := f.Stmts[0].Start(); p.Line != 1 || p.Col != 1 || p.Offset != 3 {
		t.Errorf("first statement at %+v", p)
	}
	_, err = Parse("f.gs", []byte("\uFEFF#!/usr/bin/env gscript\nlet a = \uFEFF"))
	wantOnly(t, err, 2, 9, "unexpected character")
}

// grammarText matches participle's grammar notation, which must never
// reach a message.
var grammarText = []string{"(?!", "PExpr", "PBin", "PStmt", "PList", "PSuffix", "<float>", "<string>", "too many iterations", "@@"}

func TestMessagesHaveNoGrammarText(t *testing.T) {
	for _, src := range []string{"let a = [1 2]", "f(a b)", "x = 1.5 2.5", `x = "a" "b"`, "let a = [", "a[1 2]", "fn f(a b) {}", "x.1", "launch k[1](a b)"} {
		_, err := Parse("f.gs", []byte(src))
		if err == nil {
			t.Fatalf("%q parsed", src)
		}
		for _, g := range grammarText {
			if strings.Contains(err.Error(), g) {
				t.Errorf("%q: %v", src, err)
			}
		}
	}
}

// Continuation follows brackets and strings across lines like the scanner.
func TestContinuation(t *testing.T) {
	tests := []struct {
		lines []string
		open  bool
	}{
		{[]string{"fn f() {", "  let a = [1,", "2]"}, true},
		{[]string{"fn f() {", "  let a = [1,", "2]", "}"}, false},
		{[]string{`let s = "a // (`}, true},
		{[]string{`let s = "a`, `b"`}, false}, // strings do not span lines: complete, with an error
		{[]string{`x = ")" // {`}, false},
		{[]string{"let a =", "1 +"}, true}, // a newline after an operator does not end the statement
		{[]string{"let a =", "1 +", "", "// note"}, true},
		{[]string{"let a =", "1 +", "2"}, false},
		{[]string{"let a = f(x) // (", "print(a)"}, false},
		{[]string{"return"}, false},
		{[]string{strings.Repeat("(", maxNesting+1)}, false},
	}
	for _, tt := range tests {
		var c Continuation
		for _, l := range tt.lines {
			c.Feed(l)
		}
		if c.Open() != tt.open {
			t.Errorf("%q: Open() = %v", tt.lines, c.Open())
		}
	}
}

// An endless source is read only up to the limit, and parsing it reports
// the size.
func TestReadSourceIsBounded(t *testing.T) {
	src, err := ReadSource(endless{})
	if err != nil || len(src) != MaxSourceBytes+1 {
		t.Fatalf("read %d bytes, %v", len(src), err)
	}
	if _, err := Parse("z.gs", src); err == nil || !strings.Contains(err.Error(), "MaxSourceBytes") {
		t.Errorf("Parse = %v", err)
	}
}

// endless reads as an infinite stream of spaces, like /dev/zero.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}
