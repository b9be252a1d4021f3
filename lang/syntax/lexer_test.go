package syntax

import (
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// tokString renders the token stream compactly: terminators as ";" (typed),
// "NL" (newline) or "$" (implied), keywords as KW:word.
func tokString(toks []lexer.Token) string {
	var parts []string
	for _, t := range toks {
		switch t.Type {
		case lexer.EOF:
			parts = append(parts, "EOF")
		case tTerm:
			parts = append(parts, map[string]string{termSemi: ";", termNewline: "NL", termImplied: "$"}[t.Value])
		case tKeyword:
			parts = append(parts, "KW:"+t.Value)
		default:
			parts = append(parts, t.Value)
		}
	}
	return strings.Join(parts, " ")
}

func TestTerminatorInsertion(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a = 1\nb = 2\n", "a = 1 NL b = 2 NL EOF"},
		{"a = 1", "a = 1 $ EOF"},
		{"a = 1 +\n 2\n", "a = 1 + 2 NL EOF"},                  // after a binary operator
		{"f(1,\n 2)\n", "f ( 1 , 2 ) NL EOF"},                  // inside ( and after ,
		{"x = [1,\n2\n]\n", "x = [ 1 , 2 ] NL EOF"},            // inside [
		{"if x {\n a = 1\n}\n", "KW:if x { a = 1 NL } NL EOF"}, // inside { newlines count
		{"{ a = 1 }", "{ a = 1 $ } $ EOF"},                     // implied before }
		{"{}", "{ } $ EOF"},                                    // no empty statement
		{"a; b;; c", "a ; b ; c $ EOF"},                        // ;; dropped
		{";\n;a", "a $ EOF"},                                   // leading ; dropped
		{"return\n", "KW:return NL EOF"},                       // keywords that end statements
		{"break\ncontinue\nx = true\ny = nil\n", "KW:break NL KW:continue NL x = KW:true NL y = KW:nil NL EOF"},
		{"let a =\n 3\n", "KW:let a = 3 NL EOF"}, // = does not end a statement
		{"f(x) // call\n// only a comment\n", "f ( x ) NL EOF"},
		{"#!/usr/bin/env gscript\nx\n", "x NL EOF"},
		{"x\n#!no\n", "x NL ! no NL EOF"},  // #! only on line 1 (the # is an error)
		{"f(\n{\n}\n)", "f ( { } ) $ EOF"}, // innermost bracket decides
		{"a[i]\n(b)\n", "a [ i ] NL ( b ) NL EOF"},
		{"\n\n\n", "EOF"},
		{"x\r\ny\r\n", "x NL y NL EOF"},
		{"fn f() -> f32 {}", "KW:fn f ( ) -> f32 { } $ EOF"},
		{"a<<=b", "a << = b $ EOF"},
		{"a<=b>=c!=d==e&&f||g", "a <= b >= c != d == e && f || g $ EOF"},
	}
	for _, tt := range tests {
		s := scan("t.gs", []byte(tt.src))
		if got := tokString(s.toks); got != tt.want {
			t.Errorf("scan(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestTokenPositions(t *testing.T) {
	s := scan("t.gs", []byte("let a = 1\n  foo(\"é\", x)"))
	want := []struct {
		val       string
		line, col int
	}{
		{"let", 1, 1}, {"a", 1, 5}, {"=", 1, 7}, {"1", 1, 9}, {"\n", 1, 10},
		{"foo", 2, 3}, {"(", 2, 6}, {`"é"`, 2, 7}, {",", 2, 11}, {"x", 2, 13}, {")", 2, 14},
	}
	for i, w := range want {
		tok := s.toks[i]
		if tok.Value != w.val || tok.Pos.Line != w.line || tok.Pos.Column != w.col || tok.Pos.Filename != "t.gs" {
			t.Errorf("token %d = %q at %d:%d, want %q at %d:%d", i, tok.Value, tok.Pos.Line, tok.Pos.Column, w.val, w.line, w.col)
		}
	}
	if off := s.toks[5].Pos.Offset; off != 12 {
		t.Errorf("offset of foo = %d, want 12", off)
	}
}

func TestContextualKeywords(t *testing.T) {
	tests := []struct{ src, want string }{
		{"array x: f32[3]", "KW:array x : f32 [ 3 ] $ EOF"},
		{"array([1, 2])", "array ( [ 1 , 2 ] ) $ EOF"},
		{"let a = array([1])", "KW:let a = array ( [ 1 ] ) $ EOF"},
		{"array = 3", "array = 3 $ EOF"},
		{"device \"cpu\" {}", "KW:device \"cpu\" { } $ EOF"},
		{"device d {}", "KW:device d { } $ EOF"},
		{"device devs[0] {}", "KW:device devs [ 0 ] { } $ EOF"},
		{"device (\"cu\" + \"da\") {}", "KW:device ( \"cu\" + \"da\" ) { } $ EOF"},
		{"device = \"cuda:0\"", "device = \"cuda:0\" $ EOF"},
		{"device(\"x\")", "device ( \"x\" ) $ EOF"},
		{"device.x = 1", "device . x = 1 $ EOF"},
		{"let device = \"cpu\"", "KW:let device = \"cpu\" $ EOF"},
		{"zeros(3, device=\"cpu\", allocator=\"managed\")", "zeros ( 3 , device = \"cpu\" , allocator = \"managed\" ) $ EOF"},
		{"allocator managed {}", "KW:allocator managed { } $ EOF"},
		{"allocator \"pinned\" on \"cpu\" {}", "KW:allocator \"pinned\" KW:on \"cpu\" { } $ EOF"},
		{"allocator = 1", "allocator = 1 $ EOF"},
		{"{ device \"cpu\" {} }", "{ KW:device \"cpu\" { } $ } $ EOF"},
		{"x; array y: i32[1]", "x ; KW:array y : i32 [ 1 ] $ EOF"},
		{"f(array, device)", "f ( array , device ) $ EOF"},
		{"config.debug = true", "config . debug = KW:true $ EOF"},
		{"kernel k(x: f32) block(4, 8) {}", "KW:kernel k ( x : f32 ) KW:block ( 4 , 8 ) { } $ EOF"},
		{"kernel block(block: i32) {}", "KW:kernel block ( block : i32 ) { } $ EOF"},
		{"let block = f(block)", "KW:let block = f ( block ) $ EOF"},
		{"f(x)\nblock(2)", "f ( x ) NL block ( 2 ) $ EOF"},
		{"launch k[grid(n)](x)", "KW:launch k [ KW:grid ( n ) ] ( x ) $ EOF"},
		{"launch grid[grid](x)", "KW:launch grid [ grid ] ( x ) $ EOF"},
		{"launch k[n, grid(n)](x)", "KW:launch k [ n , grid ( n ) ] ( x ) $ EOF"},
		{"x = a[grid(1)]", "x = a [ grid ( 1 ) ] $ EOF"},
		{"tape t {}", "KW:tape t { } $ EOF"},
		{"{ tape t {} }", "{ KW:tape t { } $ } $ EOF"},
		{"tape = f(tape)", "tape = f ( tape ) $ EOF"},
		{"tape.reset()", "tape . reset ( ) $ EOF"},
		{"x = tape\ntape(1)", "x = tape NL tape ( 1 ) $ EOF"},
		{"kernel k() adjoint a fast {}", "KW:kernel k ( ) KW:adjoint a KW:fast { } $ EOF"},
		{"kernel k() block(2) adjoint a {}", "KW:kernel k ( ) KW:block ( 2 ) KW:adjoint a { } $ EOF"},
		{"kernel adjoint(adjoint: i32) {}", "KW:kernel adjoint ( adjoint : i32 ) { } $ EOF"},
		{"x = f(adjoint) + adjoint", "x = f ( adjoint ) + adjoint $ EOF"},
		{"x = f(y) adjoint", "x = f ( y ) adjoint $ EOF"},
		{"kernel k() adjoint fast {}", "KW:kernel k ( ) KW:adjoint fast { } $ EOF"},
		{"array x: f32[3] = 1.0 requires_grad", "KW:array x : f32 [ 3 ] = 1.0 KW:requires_grad $ EOF"},
		{"array x: f32[3]\nrequires_grad(x)", "KW:array x : f32 [ 3 ] NL requires_grad ( x ) $ EOF"},
		{"let requires_grad = 1\nx = requires_grad", "KW:let requires_grad = 1 NL x = requires_grad $ EOF"},
	}
	for _, tt := range tests {
		s := scan("t.gs", []byte(tt.src))
		if got := tokString(s.toks); got != tt.want {
			t.Errorf("scan(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

// TestKeywords checks that every word Keywords lists lexes as a keyword:
// alone, or for a contextual one in its declaration, scope or launch (the
// form's token at the index given).
func TestKeywords(t *testing.T) {
	forms := map[string]struct {
		src string
		at  int
	}{
		"array": {"array x: f32[1]", 0}, "device": {"device d {}", 0}, "allocator": {"allocator a {}", 0},
		"block": {"kernel k() block(32) {}", 4}, "grid": {"launch k[grid(1)]()", 3},
		"fast": {"kernel k() fast {}", 4}, "tape": {"tape t {}", 0}, "adjoint": {"kernel k() adjoint a {}", 4},
		"requires_grad": {"array x: f32[1] requires_grad", 7},
	}
	kws := Keywords()
	if !slices.IsSorted(kws) || len(kws) != len(keywords)+len(contextualKeywords) {
		t.Errorf("Keywords() = %q", kws)
	}
	for _, kw := range kws {
		form, ok := forms[kw]
		if !ok {
			form.src = kw
		}
		if tok := scan("t.gs", []byte(form.src)).toks[form.at]; tok.Type != tKeyword || tok.Value != kw {
			t.Errorf("%q: token %d is %q (type %d), want the keyword %s", form.src, form.at, tok.Value, tok.Type, kw)
		}
	}
}
