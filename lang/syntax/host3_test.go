package syntax

import (
	"strings"
	"testing"
)

// The host language v3's syntax (HOST.md sections 2-3): each form and the
// tree it gives.
func TestHostV3Forms(t *testing.T) {
	tests := []struct{ src, want string }{
		{"x = -2 ** 2", "(= x (- (** 2 2)))"},
		{"x = 2 ** 3 ** 2", "(= x (** 2 (** 3 2)))"},
		{"x = (-2) ** 2", "(= x (** (paren (- 2)) 2))"},
		{"x = 2 ** -1", "(= x (** 2 (- 1)))"},
		{"x = a * b ** 2", "(= x (* a (** b 2)))"},
		{"x **= 2", "(**= x 2)"},
		{"x = a in l && b not in l", "(= x (&& (in a l) (not in b l)))"},
		{"x = a not  in l", "(= x (not in a l))"},
		{"not = 1; x = not + 1", "(= not 1); (= x (+ not 1))"},
		{"let d = {}", "(let [d] _ {})"},
		{`let d = {"a": 1, 2: [3], "n": {"m": x},}`, `(let [d] _ {"a":1 2:[3] "n":{"m":x}})`},
		{"let d = {\n  1: 2,\n  3: 4\n}", "(let [d] _ {1:2 3:4})"},
		{"f({1: 2})\nreturn_ = [{}, {1: 2}]", "(call f {1:2}); (= return_ [{} {1:2}])"},
		{"for k in {1: 2} { print(k) }", "(for k {1:2} {(call print k)})"},
		{"if x == {} { }", "(if (== x {}) {} _)"},
		{"{ x = 1 }", "{(= x 1)}"},
		{"a, b = b, a", "(= [a b] (tuple b a))"},
		{"l[0], r.x = f()", "(= [(index l 0) (. r x)] (call f))"},
		{"let q, r = 1, 2", "(let [q r] _ (tuple 1 2))"},
		{"for i, v in enumerate(l) { }", "(for [i v] (call enumerate l) {})"},
		{"try { f() } catch e { g(e) }", "(try {(call f)} e {(call g e)})"},
		{"try {\n  f()\n} catch {\n}", "(try {(call f)} _ {})"},
	}
	for _, tt := range tests {
		f := mustParse(t, tt.src)
		var got []string
		for _, s := range f.Stmts {
			got = append(got, dump(s))
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.src, g, tt.want)
		}
	}
	f := mustParse(t, "fn f() { return q, r }")
	if got := dump(f.Stmts[0]); !strings.Contains(got, "(return (tuple q r))") {
		t.Errorf("return q, r parsed as %s", got)
	}
}

func TestHostV3Errors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let d = {1 2}", `unexpected number 2, expected ":"`},
		{"let d = {a: }", `unexpected "}", expected expression`},
		{"try { }", `expected "catch"`},
		{"catch { }", `unexpected keyword catch`},
		{"a, b += 1", `+= assigns to one target`},
		{"for a, in x { }", `expected name`},
		{"a, b", `a list of expressions is not a statement`},
		{"try { }\ncatch { }", `unexpected`},
		{"let d = {1: 2", `"{" opened at 1:9 is not closed`},
	}
	for _, tt := range tests {
		_, err := Parse("t.gs", []byte(tt.src))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", tt.src, err, tt.want)
		}
	}
}
