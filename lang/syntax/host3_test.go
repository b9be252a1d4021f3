package syntax

import (
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

// The host language v3's forms (HOST.md section 3) and the tree each
// produces, in dump's notation: (tuple ...) is a ListLit with Tuple set,
// {k: v} a DictLit, (= [a b] v) an AssignStmt with Targets, (for [i v]
// ...) a ForStmt with Vars, (try body var catch) a TryStmt.
func TestHostV3Forms(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = 2 ** 3 ** 2", "(= x (** 2 (** 3 2)))"},
		{"x = -2 ** 2", "(= x (- (** 2 2)))"},
		{"x = 2 ** -1", "(= x (** 2 (- 1)))"},
		{"x = -a ** -b ** c", "(= x (- (** a (- (** b c)))))"},
		{"x = a.b[1] ** f(2) * 3", "(= x (* (** (index (. a b) 1) (call f 2)) 3))"},
		{"x = a * b ** 2 + 1", "(= x (+ (* a (** b 2)) 1))"},
		{"x = !a ** b", "(= x (! (** a b)))"},
		{"x **= 2", "(**= x 2)"},
		{"b = k in d", "(= b (in k d))"},
		{"b = k not in d", "(= b (not in k d))"},
		{"b = k not\tin d || a + 1 in l", "(= b (|| (not in k d) (in (+ a 1) l)))"},
		{"b = a < b in c", "(= b (in (< a b) c))"},
		{"not = 1; x = not + notin", "(= not 1); (= x (+ not notin))"},
		{"x = not(1); y = not[0]", "(= x (call not 1)); (= y (index not 0))"},
		{"let d = {}", "(let [d] _ {})"},
		{`let d = {"a": 1, 2: "b",}`, `(let [d] _ {"a": 1, 2: "b"})`},
		{"d = {\n  1: [2, {}],\n  3: {4: 5},\n}", "(= d {1: [2 {}], 3: {4: 5}})"},
		{`f({"a": 1}, k={})`, `(call f {"a": 1} k={})`},
		{"x = [{}, {1: 2}]", "(= x [{} {1: 2}])"},
		{"fn f() { return {\"x\": 1} }", `(fn f [] {(return {"x": 1})})`},
		{"for k in {\"a\": 1} { print(k) }", `(for k {"a": 1} {(call print k)})`},
		{"for k in {} {}", "(for k {} {})"},
		{"if x == {} { }", "(if (== x {}) {} _)"},
		{"assert {1: 2}, {}", "(assert {1: 2} {})"},
		{"{ x = 1 }", "{(= x 1)}"},
		{"{}", "{}"},
		{"try { f() } catch e { g(e) }", "(try {(call f)} e {(call g e)})"},
		{"try {\n  f()\n} catch {\n}", "(try {(call f)} _ {})"},
		{"x = try_ + catch_", "(= x (+ try_ catch_))"},
		{"a, b = b, a", "(= [a b] (tuple b a))"},
		{"l[0], r.x, c = f()", "(= [(index l 0) (. r x) c] (call f))"},
		{"let a, b = 1, 2", "(let [a b] _ (tuple 1 2))"},
		{"let a = 1, [2]", "(let [a] _ (tuple 1 [2]))"},
		{"fn f() { return q, r }", "(fn f [] {(return (tuple q r))})"},
		{"for i, v in enumerate(l) { }", "(for [i v] (call enumerate l) {})"},
		{"for k, v, w in d.items() { }", "(for [k v w] (call (. d items)) {})"},
	}
	for _, tt := range tests {
		if got := dumpFile(mustParse(t, tt.src)); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// Each new node carries its positions.
func TestHostV3Positions(t *testing.T) {
	f := mustParse(t, "try { x = {1: 2} } catch e {\n  a, b = 3, 4\n}\nfor i, v in l {}")
	try := f.Stmts[0].(*ast.TryStmt)
	if try.Pos.Col != 1 || try.CatchPos.Col != 20 || try.Var.Pos.Col != 26 || try.Catch.Pos.Col != 28 {
		t.Errorf("try positions: %v %v %v %v", try.Pos, try.CatchPos, try.Var.Pos, try.Catch.Pos)
	}
	dict := try.Body.Stmts[0].(*ast.AssignStmt).Value.(*ast.DictLit)
	if dict.Pos.Col != 11 || dict.Keys[0].Start().Col != 12 || dict.Values[0].Start().Col != 15 {
		t.Errorf("dict positions: %v %v %v", dict.Pos, dict.Keys[0].Start(), dict.Values[0].Start())
	}
	as := try.Catch.Stmts[0].(*ast.AssignStmt)
	tup := as.Value.(*ast.ListLit)
	if as.Pos.Line != 2 || as.Pos.Col != 3 || as.OpPos.Col != 8 || !tup.Tuple || tup.Pos.Col != 10 || as.Target != nil {
		t.Errorf("unpacking: %+v, value at %v", as, tup.Pos)
	}
	loop := f.Stmts[1].(*ast.ForStmt)
	if loop.Var != nil || len(loop.Vars) != 2 || loop.Vars[1].Pos.Col != 8 {
		t.Errorf("for names: %v %v", loop.Var, loop.Vars)
	}
}

// Errors of the new forms are positioned and worded for the user.
func TestHostV3Errors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = {1 2}", `t.gs:1:8: unexpected number 2, expected ":"`},
		{"x = {a: }", `t.gs:1:9: unexpected "}", expected expression`},
		{"x = {1: 2 3: 4}", `t.gs:1:11: unexpected number 3, expected "," or "}"`},
		{"x = {: 1}", `t.gs:1:6: unexpected ":", expected "}"`},
		{"try { f() }\ng()", "t.gs:1:12: unexpected newline: try needs a catch block after its }"},
		{"try { f() }\ncatch e { }", "t.gs:1:12: unexpected newline before catch: put catch on the line of the closing }"},
		{"catch e { }", "t.gs:1:1: unexpected keyword catch: catch follows the } of a try block"},
		{"try { } catch 1 { }", `t.gs:1:15: unexpected number 1, expected "{"`},
		{"a, b += 1", "t.gs:1:6: += takes one target: several targets are assigned with ="},
		{"a, 1 = 1, 2", "t.gs:1:4: cannot assign to a literal"},
		{"a, b", "t.gs:1:4: a list of expressions is not a statement (to unpack, write a, b = value)"},
		{"for a, in x { }", "t.gs:1:8: unexpected keyword in, expected name"},
		{"x = not y", "t.gs:1:5: not is no operator here: write !x for logical not (not only appears in `x not in y`)"},
		{"if not done { }", "t.gs:1:4: not is no operator here: write !x for logical not (not only appears in `x not in y`)"},
		{"x = 2 ** ** 3", `t.gs:1:10: unexpected "**", expected expression`},
		{"x = a not b", "t.gs:1:7: unexpected name not at end of statement"},
		{"let try = 1", `t.gs:1:5: unexpected keyword try, expected name`},
	}
	for _, tt := range tests {
		_, err := Parse("t.gs", []byte(tt.src))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Parse(%q)\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
}

// A chain of "**" recurses in the grammar, so the scanner bounds it as it
// bounds prefix operators; long expressions with many separate powers pass.
func TestPowChainLimit(t *testing.T) {
	_, err := Parse("t.gs", []byte("x = 2"+strings.Repeat(" ** 2", maxUnaryRun+1)))
	if err == nil || !strings.Contains(err.Error(), "too deeply nested") {
		t.Errorf("a %d-long ** chain: %v", maxUnaryRun+1, err)
	}
	mustParse(t, "x = [a"+strings.Repeat(" ** 2, a", maxUnaryRun+1)+"]")
	mustParse(t, "x = a"+strings.Repeat(" ** 2 + a", maxUnaryRun+1))
	mustParse(t, "x = a"+strings.Repeat(" ** 2 - a", maxUnaryRun+1))
	_, err = Parse("t.gs", []byte("x = 2"+strings.Repeat(" ** -2", maxUnaryRun+1)))
	if err == nil || !strings.Contains(err.Error(), "too deeply nested") {
		t.Errorf("a %d-long ** - chain: %v", maxUnaryRun+1, err)
	}
}

// The REPL keeps reading while a dict is open, across lines.
func TestDictContinuation(t *testing.T) {
	var c Continuation
	for _, line := range []string{"let d = {", `  "a": 1,`, `  "b": {`} {
		if c.Feed(line); !c.Open() {
			t.Fatalf("closed after %q", line)
		}
	}
	if c.Feed("}}"); c.Open() {
		t.Error("still open after }}")
	}
}

// The REPL asks for more after an open dict or a dangling "**" or "in",
// and not after a try block without its catch (catch must follow on the
// line of the "}").
func TestHostV3Incomplete(t *testing.T) {
	for src, want := range map[string]bool{
		"let d = {":            true,
		"let d = {1: 2,\n":     true,
		"x = 2 **":             true,
		"x = k not in":         true,
		"try {":                true,
		"try { f() }":          false,
		"let d = {1: 2}":       false,
		"x = {1 2}":            false,
		"try { } catch e {\n ": true,
	} {
		_, err := Parse("t.gs", []byte(src))
		if got := IsIncomplete(err); got != want {
			t.Errorf("IsIncomplete(%q) = %v (%v), want %v", src, got, err, want)
		}
	}
}
