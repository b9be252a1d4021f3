package syntax

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/gscript-lang/gscript/lang/ast"
)

func mustParse(t *testing.T, src string) *ast.File {
	t.Helper()
	f, err := Parse("t.gs", []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return f
}

func TestStatements(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let a = 1", "(let [a] _ 1)"},
		{"let b: f32 = 2", "(let [b] f32 2)"},
		{"let x: array[f32] = y", "(let [x] array[f32,1] y)"},
		{"let x: array[i32, 2] = y", "(let [x] array[i32,2] y)"},
		{"let i, j = tid()", "(let [i j] _ (call tid))"},
		{"const N = 16 * 2", "(const N _ (* 16 2))"},
		{"const W: i32 = -1", "(const W i32 (- 1))"},
		{"struct P { pos: vec3, vel: vec3, mass: f32 }", "(struct P [pos:vec3 vel:vec3 mass:f32])"},
		{"struct P { a: f32, }", "(struct P [a:f32])"},
		{"struct P {\n  a: f32\n  b: Q,\n  c: mat33,\n}", "(struct P [a:f32 b:Q c:mat33])"},
		{"struct P {\n  a: f32, b: i32\n}", "(struct P [a:f32 b:i32])"},
		{"struct P { a: f32; b: u8 }", "(struct P [a:f32 b:u8])"},
		{"struct E {}", "(struct E [])"},
		{"struct E {\n}", "(struct E [])"},
		{"a = a + 1; a += 2", "(= a (+ a 1)); (+= a 2)"},
		{"a -= 1\na *= 2\na /= 3\na %= 4", "(-= a 1); (*= a 2); (/= a 3); (%= a 4)"},
		{"x[i] = v; m[i, j] = v", "(= (index x i) v); (= (index m i j) v)"},
		{"config.debug = true", "(= (. config debug) true)"},
		{"device = \"cuda:0\"", "(= device \"cuda:0\")"},
		{"let device = \"cpu\"", "(let [device] _ \"cpu\")"},
		{"area(2, 3)", "(call area 2 3)"},
		{"if c { }", "(if c {} _)"},
		{"if c { a = 1 } else { a = 2 }", "(if c {(= a 1)} {(= a 2)})"},
		{"if c {\n} else if d {\n} else {\n}", "(if c {} (if d {} {}))"},
		{"for i in range(n) { s += i }", "(for i (call range n) {(+= s i)})"},
		{"while c { break; continue }", "(while c {break; continue})"},
		{"fn area(w, h) { return w * h }", "(fn area [w h] {(return (* w h))})"},
		{"fn f() { return }", "(fn f [] {(return _)})"},
		{"fn f() {\n return\n}", "(fn f [] {(return _)})"},
		{"fn f(a,\n b,\n) {}", "(fn f [a b] {})"},
		{"assert cond, \"message\"", "(assert cond \"message\")"},
		{"assert x > 0", "(assert (> x 0) _)"},
		{"kernel saxpy(x: array[f32], y: array[f32], a: f32) {\n let i = tid()\n y[i] = a * x[i] + y[i]\n}",
			"(kernel saxpy [x:array[f32,1] y:array[f32,1] a:f32] {(let [i] _ (call tid)); (= (index y i) (+ (* a (index x i)) (index y i)))})"},
		{"func sq(v: f32) -> f32 { return v * v }", "(func sq [v:f32] f32 {(return (* v v))})"},
		{"func noop(v: f32) { }", "(func noop [v:f32] _ {})"},
		{"array x: f32[n] = 1.0", "(array x f32 [n] 1.0 _ _)"},
		{"array z: f32[n, 2] on \"cuda:0\"", "(array z f32 [n 2] _ \"cuda:0\" _)"},
		{"array z: f32[n] = [1, 2] on d using managed", "(array z f32 [n] [1 2] d managed)"},
		{"array z: u8[4] using \"pinned\"", "(array z u8 [4] _ _ \"pinned\")"},
		{"launch saxpy[n](x, y, 3.0)", "(launch saxpy [n] [x y 3.0] _)"},
		{"launch k[a, b](x,\n y,\n) on \"cpu\"", "(launch k [a b] [x y] \"cpu\")"},
		{"launch k[n]()", "(launch k [n] [] _)"},
		{"launch k[grid(cdiv(n, 256))](x)", "(launch k grid[(call cdiv n 256)] [x] _)"},
		{"launch k[grid(a, b, c)](x) on d", "(launch k grid[a b c] [x] d)"},
		{"launch grid[n](x)", "(launch grid [n] [x] _)"},
		{"launch k[grid + 1](x)", "(launch k [(+ grid 1)] [x] _)"},
		{"kernel k(x: array[f32]) block(256) {\n let i = thread_id()\n}",
			"(kernel k [x:array[f32,1]] block[256] {(let [i] _ (call thread_id))})"},
		{"kernel k() block(4 * 4, 2) { }", "(kernel k [] block[(* 4 4) 2] {})"},
		{"kernel block(block: i32) { }", "(kernel block [block:i32] {})"},
		{"kernel k(x: array[f32]) fast {\n x[tid()] = 1.0\n}", "(kernel k [x:array[f32,1]] fast {(= (index x (call tid)) 1.0)})"},
		{"kernel k() block(256) fast { }", "(kernel k [] block[256] fast {})"},
		{"kernel fast(fast: i32) {\n if fast { }\n}", "(kernel fast [fast:i32] {(if fast {} _)})"},
		{"kernel k() block(16, 16) {\n shared t: f32[16, 17]\n local acc: i32[4]\n}",
			"(kernel k [] block[16 16] {(shared t f32 [16 17]); (local acc i32 [4])})"},
		{"func f() {\n local v: f64[2, 2]\n}", "(func f [] _ {(local v f64 [2 2])})"},
		{"device \"cuda:1\" { f() }", "(device \"cuda:1\" {(call f)})"},
		{"device d {\n}", "(device d {})"},
		{"device (\"cuda:\" + s) {}", "(device (paren (+ \"cuda:\" s)) {})"},
		{"allocator managed {\n array z: f32[n] on \"cuda:0\"\n}", "(allocator managed _ {(array z f32 [n] _ \"cuda:0\" _)})"},
		{"allocator mempool on \"cuda:0\" { }", "(allocator mempool \"cuda:0\" {})"},
		{"allocator \"managed_pool\" { }", "(allocator \"managed_pool\" _ {})"},
		{"capture g on \"cuda:0\" {\n launch k[n](x)\n}", "(capture g \"cuda:0\" {(launch k [n] [x] _)})"},
		{"capture g { }", "(capture g _ {})"},
		{"tape t {\n launch k[n](x)\n}", "(tape t {(launch k [n] [x] _)})"},
		{"tape t { }", "(tape t {})"},
		{"for i in range(3) {\n tape t { f(x) }\n}", "(for i (call range 3) {(tape t {(call f x)})})"},
		{"tape = 1; let tape = 2", "(= tape 1); (let [tape] _ 2)"},
		{"tape(t)\nt.tape = x.tape\nbackward(tape, loss)", "(call tape t); (= (. t tape) (. x tape)); (call backward tape loss)"},
		{"tape[0] = 1; tape += 1", "(= (index tape 0) 1); (+= tape 1)"},
		{"fn tape(tape) { return tape }", "(fn tape [tape] {(return tape)})"},
		{"kernel k(x: array[f32]) adjoint k_adj {\n x[tid()] = 1.0\n}", "(kernel k [x:array[f32,1]] adjoint k_adj {(= (index x (call tid)) 1.0)})"},
		{"kernel k() adjoint k_adj fast { }", "(kernel k [] adjoint k_adj fast {})"},
		{"kernel k() block(256) adjoint a { }", "(kernel k [] block[256] adjoint a {})"},
		{"kernel adjoint(adjoint: i32) {\n let a = adjoint\n}", "(kernel adjoint [adjoint:i32] {(let [a] _ adjoint)})"},
		{"adjoint = f(adjoint)\nlet x = adjoint.adjoint", "(= adjoint (call f adjoint)); (let [x] _ (. adjoint adjoint))"},
		{"kernel fast() adjoint fast fast { }", "(kernel fast [] adjoint fast fast {})"},
		{"replay(g)", "(call replay g)"},
		{"{ let a = 1; { b() } }", "{(let [a] _ 1); {(call b)}}"},
		{"array([1, 2])", "(call array [1 2])"},
		{"let a = array([1, 2], dtype=f32)", "(let [a] _ (call array [1 2] dtype=f32))"},
		{"zeros(3, device=\"cpu\", allocator=\"managed\")", "(call zeros 3 device=\"cpu\" allocator=\"managed\")"},
		{"print(z.memory_kind)", "(call print (. z memory_kind))"},
		{"#!/usr/bin/env gscript\nprint(1)", "(call print 1)"},
		{"a = 1;;; b = 2;", "(= a 1); (= b 2)"},
		{"", ""},
		{"// nothing\n\n", ""},
	}
	for _, tt := range tests {
		f := mustParse(t, tt.src)
		if got := dumpFile(f); got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestExpressions(t *testing.T) {
	tests := []struct{ src, want string }{
		{"1 + 2 * 3", "(+ 1 (* 2 3))"},
		{"1 * 2 + 3", "(+ (* 1 2) 3)"},
		{"a - b - c", "(- (- a b) c)"},
		{"a / b * c", "(* (/ a b) c)"},
		{"a || b && c", "(|| a (&& b c))"},
		{"a && b || c", "(|| (&& a b) c)"},
		{"a == b && c < d", "(&& (== a b) (< c d))"},
		{"a + b == c * d", "(== (+ a b) (* c d))"},
		{"a | b ^ c & d", "(^ (| a b) (& c d))"},
		{"1 << n + 1", "(+ (<< 1 n) 1)"},
		{"a >> 2 % 3", "(% (>> a 2) 3)"},
		{"a != b <= c >= d > e", "(> (>= (<= (!= a b) c) d) e)"},
		{"-x * y", "(* (- x) y)"},
		{"!a && !b", "(&& (! a) (! b))"},
		{"~x ^ +y", "(^ (~ x) (+ y))"},
		{"- -x", "(- (- x))"},
		{"-a[i].b(c)", "(- (call (. (index a i) b) c))"},
		{"(a + b) * c", "(* (paren (+ a b)) c)"},
		{"f(a, b, k=v)", "(call f a b k=v)"},
		{"f()(1)", "(call (call f) 1)"},
		{"f(\n  a,\n  k=1,\n)", "(call f a k=1)"},
		{"a[i]", "(index a i)"},
		{"a[i, j + 1]", "(index a i (+ j 1))"},
		{"a[lo:hi]", "(index a (: lo hi _))"},
		{"a[:hi]", "(index a (: _ hi _))"},
		{"a[lo:]", "(index a (: lo _ _))"},
		{"a[:]", "(index a (: _ _ _))"},
		{"a[::]", "(index a (: _ _ _))"},
		{"a[lo:hi:step]", "(index a (: lo hi step))"},
		{"a[::-1]", "(index a (: _ _ (- 1)))"},
		{"a[8:2:-2]", "(index a (: 8 2 (- 2)))"},
		{"m[:, j]", "(index m (: _ _ _) j)"},
		{"m[i, :]", "(index m i (: _ _ _))"},
		{"m[1:3, 2:8:2]", "(index m (: 1 3 _) (: 2 8 2))"},
		{"m[i + 1:, ::k]", "(index m (: (+ i 1) _ _) (: _ _ k))"},
		{"a @ b", "(@ a b)"},
		{"a @ b * c", "(* (@ a b) c)"},
		{"a + b @ c", "(+ a (@ b c))"},
		{"-a @ b.T", "(@ (- a) (. b T))"},
		{"a.shape[0]", "(index (. a shape) 0)"},
		{"x.to(\"cpu\").reshape([2, 2])", "(call (. (call (. x to) \"cpu\") reshape) [2 2])"},
		{"[]", "[]"},
		{"[1, 2,]", "[1 2]"},
		{"[[1, 2], [3, 4]]", "[[1 2] [3 4]]"},
		{"[\n1,\n2\n]", "[1 2]"},
		{"true && false || nil == nil", "(|| (&& true false) (== nil nil))"},
		{"\"a\" + \"b\"", "(+ \"a\" \"b\")"},
		{"f(device=\"cpu\")", "(call f device=\"cpu\")"},
		{"x = 1 +\n 2", "(= x (+ 1 2))"},
	}
	for _, tt := range tests {
		src := tt.src
		if !strings.HasPrefix(src, "x = ") {
			src = "x = " + src
		}
		f := mustParse(t, src)
		as, ok := f.Stmts[0].(*ast.AssignStmt)
		if !ok || len(f.Stmts) != 1 {
			t.Errorf("Parse(%q) = %s, want one assignment", src, dumpFile(f))
			continue
		}
		got := dump(as.Value)
		if strings.HasPrefix(tt.src, "x = ") {
			got = dump(as)
		}
		if got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.src, got, tt.want)
		}
	}
}

func TestLiteralValues(t *testing.T) {
	tests := []struct {
		src  string
		kind string
		val  any
	}{
		{"42", "int", uint64(42)},
		{"0x2A", "int", uint64(42)},
		{"0X2a", "int", uint64(42)},
		{"0b101", "int", uint64(5)},
		{"0o17", "int", uint64(15)},
		{"0", "int", uint64(0)},
		{"1_000_000", "int", uint64(1000000)},
		{"0x_FF", "int", uint64(255)},
		{"18446744073709551615", "int", uint64(math.MaxUint64)},
		{"1.5", "float", 1.5},
		{".5", "float", 0.5},
		{"1e-3", "float", 1e-3},
		{"2.", "float", 2.0},
		{"1E+2", "float", 100.0},
		{"0.5", "float", 0.5},
		{"1_0.2_5", "float", 10.25},
		{"1e400000000000000000000", "float", nil}, // error, see TestErrors
		{`"abc"`, "string", "abc"},
		{`"a\tb\n\"q\"\\"`, "string", "a\tb\n\"q\"\\"},
		{`"\x41\u00e9\U0001F600\101"`, "string", "Aé😀A"},
		{`""`, "string", ""},
		{`"é"`, "string", "é"},
	}
	for _, tt := range tests {
		if tt.val == nil {
			continue
		}
		f := mustParse(t, "x = "+tt.src)
		lit, ok := f.Stmts[0].(*ast.AssignStmt).Value.(*ast.BasicLit)
		if !ok || lit.Kind != tt.kind || lit.Value != tt.val || lit.Raw != tt.src {
			t.Errorf("literal %s = %#v, want %s %#v", tt.src, f.Stmts[0].(*ast.AssignStmt).Value, tt.kind, tt.val)
		}
	}
}

// TestPositions checks that every node starts at its first token: the
// source at Start().Offset must begin with that token's text.
func TestPositions(t *testing.T) {
	src, err := os.ReadFile("testdata/sample.gs")
	if err != nil {
		t.Fatal(err)
	}
	f := mustParse(t, string(src))
	if len(f.Stmts) < 10 {
		t.Fatalf("sample parsed to %d statements", len(f.Stmts))
	}
	count := 0
	walk(f, func(n ast.Node) {
		count++
		p := n.Start()
		if !p.IsValid() || p.File != "t.gs" {
			t.Errorf("%s has invalid position %v", dump(n), p)
			return
		}
		if lineCol(src, p.Offset) != [2]int{p.Line, p.Col} {
			t.Errorf("%s: offset %d is not %d:%d", dump(n), p.Offset, p.Line, p.Col)
		}
		if want := firstText(n); !strings.HasPrefix(string(src[p.Offset:]), want) {
			t.Errorf("%s at %v: source there is %q, want prefix %q", dump(n), p, clip(src[p.Offset:]), want)
		}
		checkInnerPositions(t, src, n)
	})
	if count < 100 {
		t.Errorf("walked only %d nodes", count)
	}
}

func checkInnerPositions(t *testing.T, src []byte, n ast.Node) {
	at := func(p ast.Pos, want string) {
		if !strings.HasPrefix(string(src[p.Offset:]), want) {
			t.Errorf("%s: position %v holds %q, want %q", dump(n), p, clip(src[p.Offset:]), want)
		}
	}
	switch n := n.(type) {
	case *ast.BinaryExpr:
		at(n.OpPos, n.Op.String())
	case *ast.AssignStmt:
		at(n.OpPos, n.Op.String())
	case *ast.CallExpr:
		at(n.Lparen, "(")
	case *ast.IndexExpr:
		at(n.Lbrack, "[")
	case *ast.SliceComponent:
		at(n.Colon, ":")
	case *ast.Block:
		at(n.End, "}")
	case *ast.StructDecl:
		at(n.End, "}")
	case *ast.TryStmt:
		at(n.CatchPos, "catch")
	case *ast.KernelDecl:
		if n.Block != nil {
			at(n.BlockPos, "block")
		}
	case *ast.LaunchStmt:
		if n.Grid.IsValid() {
			at(n.Grid, "grid")
		}
	}
}

func firstText(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Ident:
		return n.Name
	case *ast.BasicLit:
		return n.Raw
	case *ast.BoolLit:
		return dump(n)
	case *ast.NilLit:
		return "nil"
	case *ast.ListLit:
		if n.Tuple {
			return firstText(n.Elems[0])
		}
		return "["
	case *ast.DictLit:
		return "{"
	case *ast.TryStmt:
		return "try"
	case *ast.ParenExpr:
		return "("
	case *ast.UnaryExpr:
		return n.Op.String()
	case *ast.Block:
		return "{"
	case *ast.TypeExpr:
		return n.Name
	case *ast.LetStmt:
		return "let"
	case *ast.IfStmt:
		return "if"
	case *ast.ForStmt:
		return "for"
	case *ast.WhileStmt:
		return "while"
	case *ast.BranchStmt:
		return n.Tok
	case *ast.ReturnStmt:
		return "return"
	case *ast.AssertStmt:
		return "assert"
	case *ast.FnDecl:
		return "fn"
	case *ast.StructDecl:
		return "struct"
	case *ast.KernelDecl:
		return "kernel"
	case *ast.FuncDecl:
		return "func"
	case *ast.ArrayDecl:
		return "array"
	case *ast.LaunchStmt:
		return "launch"
	case *ast.BufferDecl:
		if n.Shared {
			return "shared"
		}
		return "local"
	case *ast.DeviceBlock:
		return "device"
	case *ast.AllocatorBlock:
		return "allocator"
	case *ast.CaptureBlock:
		return "capture"
	case *ast.TapeBlock:
		return "tape"
	case *ast.BinaryExpr:
		return firstText(n.X)
	case *ast.CallExpr:
		return firstText(n.Fun)
	case *ast.IndexExpr:
		return firstText(n.X)
	case *ast.SliceComponent:
		if n.Lo != nil {
			return firstText(n.Lo)
		}
		return ":"
	case *ast.AttrExpr:
		return firstText(n.X)
	case *ast.AssignStmt:
		if n.Targets != nil {
			return firstText(n.Targets[0])
		}
		return firstText(n.Target)
	case *ast.ExprStmt:
		return firstText(n.X)
	}
	return "?"
}

func lineCol(src []byte, off int) [2]int {
	line, col := 1, 1
	for _, c := range src[:off] {
		col++
		if c == '\n' {
			line, col = line+1, 1
		}
	}
	return [2]int{line, col}
}

func clip(b []byte) string {
	if len(b) > 12 {
		b = b[:12]
	}
	return string(b)
}

func TestSpecificPositions(t *testing.T) {
	f := mustParse(t, "fn f(a) {\n  let x = a +  b\n}\n  g(1)[2]")
	fn := f.Stmts[0].(*ast.FnDecl)
	let := fn.Body.Stmts[0].(*ast.LetStmt)
	bin := let.Value.(*ast.BinaryExpr)
	idx := f.Stmts[1].(*ast.ExprStmt).X.(*ast.IndexExpr)
	checks := []struct {
		name string
		got  ast.Pos
		want string
	}{
		{"fn", fn.Pos, "t.gs:1:1"}, {"fn name", fn.Name.Pos, "t.gs:1:4"}, {"param", fn.Params[0].Name.Pos, "t.gs:1:6"},
		{"body", fn.Body.Pos, "t.gs:1:9"}, {"body end", fn.Body.End, "t.gs:3:1"}, {"let", let.Pos, "t.gs:2:3"},
		{"binary", bin.Start(), "t.gs:2:11"}, {"op", bin.OpPos, "t.gs:2:13"}, {"y", bin.Y.Start(), "t.gs:2:16"},
		{"index", idx.Start(), "t.gs:4:3"}, {"lbrack", idx.Lbrack, "t.gs:4:7"}, {"lparen", idx.X.(*ast.CallExpr).Lparen, "t.gs:4:4"},
	}
	for _, c := range checks {
		if c.got.String() != c.want {
			t.Errorf("%s at %v, want %s", c.name, c.got, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"let = 3", `1:5: unexpected "=", expected name`},
		{"if x = 1 {\n}", `1:6: unexpected "=", expected "{" after if condition`},
		{"if x\n{\n}", `1:5: unexpected newline, expected "{" after if condition`},
		{"while x y {}", `1:9: unexpected name y, expected "{" after while condition`},
		{"for i range(3) {}", `1:7: unexpected name range, expected "in"`},
		{"for i in xs\n{}", `1:12: unexpected newline, expected "{" after for clause`},
		{"fn f(a) return a", `1:9: unexpected keyword return, expected "{" after fn signature`},
		{"capture g on d x {}", `1:16: unexpected name x, expected "{" after capture name`},
		{"if a {\n}\nelse {\n}", `3:1: unexpected keyword else: put else on the line of the closing }`},
		{"x = 1 else", `1:7: unexpected keyword else at end of statement`},
		{"f(1; 2)", `1:4: unexpected ";", expected "," or ")"`},
		{"{ x = 1 +\n}", `2:1: unexpected "}", expected expression`},
		{"if a {} else b {}", `1:14: unexpected name b, expected "if" or "{" after else`},
		{"a = 1 b = 2", `1:7: unexpected name b at end of statement`},
		{"}", `1:1: unexpected "}"`},
		{"x = )", `1:5: unexpected ")", expected expression`},
		{"x = 1 + * 2", `1:9: unexpected "*", expected expression`},
		{"f(a b)", `1:5: unexpected name b, expected "," or ")"`},
		{"{ if x }", `1:8: unexpected "}", expected "{" after if condition`},
		{"x = a[]", `1:7: unexpected "]", expected index or slice`},
		{"x = a[1,]", `1:9: unexpected "]", expected index or slice`},
		{"x = a[1:2:3:4]", `1:12: unexpected ":", expected "," or "]"`},
		{"let a: = 1", `1:8: unexpected "=", expected type`},
		{"x = 1 = 2", `1:7: unexpected "=" at end of statement`},
		{"1 = 2", `1:1: cannot assign to a literal`},
		{"f() = 2", `1:1: cannot assign to a call`},
		{"f(k=1, 2)", `1:8: positional argument after keyword argument`},
		{"f(a.b=1)", `1:6: keyword argument name must be a plain name, as in f(x, dtype=f32)`},
		{"f(k=1, k=2)", `1:8: keyword argument k repeated (first at 1:3)`},
		{"launch k[1](x=1)", `1:14: launch arguments are positional (no name=value)`},
		{"fn f(a: f32) {}", `1:9: fn parameters have no types (use func for a typed device function)`},
		{"kernel k(a) {}", `1:10: missing type for kernel parameter a`},
		{"struct P { a }", `1:12: missing type for field a of struct P`},
		{"struct P { a: f32 b: f32 }", `1:19: unexpected name b, expected "," or newline`},
		{"struct P { a: f32,, }", `1:19: unexpected ",", expected "}"`},
		{"struct { a: f32 }", `1:8: unexpected "{", expected name`},
		{"kernel k(a: f32) -> f32 {}", `1:18: a kernel has no result type (only func declares one)`},
		{"let a: array = 1", `1:8: array type needs an element type, as in array[f32] or array[f32, 2]`},
		{"let a: f32[i32] = 1", `1:8: type f32 takes no element type (only array[...] does)`},
		{"let a: array[f32, 0] = 1", `1:19: invalid array rank 0`},
		{"device d on e {}", `1:13: a device block takes no on clause (write device EXPR { ... })`},
		{"capture 1 {}", `1:9: capture needs a graph name, as in capture g { ... }`},
		{"tape t.x {}", `1:6: tape needs a name, as in tape t { ... }`},
		{"tape t on d {}", `1:11: a tape block takes no on clause (write tape NAME { ... })`},
		{"tape t x {}", `1:8: unexpected name x, expected "{" after tape name`},
		{"tape t\n{}", `1:7: unexpected newline, expected "{" after tape name`},
		{"fn f() adjoint g {}", `1:8: a fn has no custom adjoint (only a kernel declares adjoint NAME)`},
		{"func f() adjoint g {}", `1:10: a func has no custom adjoint (only a kernel declares adjoint NAME)`},
		{"kernel k() adjoint {}", `1:12: unexpected name adjoint, expected "{" after kernel signature`},
		{"kernel k() adjoint a b {}", `1:22: unexpected name b, expected "{" after kernel signature`},
		{"kernel k() fast adjoint a {}", `1:12: unexpected name fast, expected "{" after kernel signature`},
		{"kernel k() adjoint a block(2) {}", `1:22: unexpected name block, expected "{" after kernel signature`},
		{"array x f32[3]", `1:9: unexpected name f32, expected ":"`},
		{"array x: f32[] = 1", `1:14: unexpected "]", expected expression`},
		{"launch k(x)", `1:9: unexpected "(", expected "["`},
		{"launch k[grid(n) + 1](x)", `1:18: unexpected "+", expected "," or "]"`},
		{"launch k[grid()](x)", `1:15: unexpected ")", expected expression`},
		{"launch k[grid(n)]", `1:18: unexpected newline, expected "("`},
		{"kernel k() block() {}", `1:18: unexpected ")", expected expression`},
		{"kernel k() block(2 {}", `1:20: unexpected "{", expected "," or ")"`},
		{"kernel k() block(2) [", `1:21: unexpected "[", expected "{" after kernel signature`},
		{"fn f() block(2) {}", `1:8: a fn has no block shape (only a kernel declares block(...))`},
		{"func f() block(2) {}", `1:10: a func has no block shape (only a kernel declares block(...))`},
		{"func f() -> i32 block(2) {}", `1:17: unexpected name block, expected "{" after func signature`},
		{"func f() fast {}", `1:10: a func cannot be fast (only a kernel is: a func called from it follows its kernel)`},
		{"kernel k() fast block(2) {}", `1:12: unexpected name fast, expected "{" after kernel signature`},
		{"shared t f32[2]", `1:10: unexpected name f32, expected ":"`},
		{"local t: f32", `1:13: unexpected newline, expected "["`},
		{"local t: f32[]", `1:14: unexpected "]", expected expression`},
		{"shared = 1", `1:8: unexpected "=", expected name`},
		{"let local = 1", `1:5: unexpected keyword local, expected name`},
		// lexical errors
		{"x = 1__0", `1:5: '_' must separate successive digits in 1__0`},
		{"x = 1_", `1:5: '_' must separate successive digits in 1_`},
		{"x = 0x", `1:5: hexadecimal literal 0x has no digits`},
		{"x = 0b", `1:5: binary literal 0b has no digits`},
		{"x = 0b102", `1:5: invalid digit '2' in binary literal 0b102`},
		{"x = 0o8", `1:5: invalid digit '8' in octal literal 0o8`},
		{"x = 0xG", `1:5: invalid character 'G' in number 0xG`},
		{"x = 12abc", `1:5: invalid character 'a' in number 12abc`},
		{"x = 010", `1:5: invalid number 010: leading zeros are not allowed (write 0o10 for octal, 10 for decimal)`},
		{"x = 08", `1:5: invalid number 08: leading zeros are not allowed (write 8 for decimal)`},
		{"x = 1e", `1:5: exponent has no digits in 1e`},
		{"x = 1e+", `1:5: exponent has no digits in 1e+`},
		{"x = 1.5x", `1:5: invalid character 'x' in number 1.5x`},
		{"x = 1e400", `1:5: float literal 1e400 is out of range`},
		{"x = 18446744073709551616", `1:5: integer literal 18446744073709551616 is too large (the maximum is 18446744073709551615)`},
		{"x = 0x1_0000_0000_0000_0000", `1:5: integer literal 0x1_0000_0000_0000_0000 is too large (the maximum is 18446744073709551615)`},
		{`x = "a\qb"`, `1:7: invalid escape sequence in string literal`},
		{"x = \"abc\ny = 1", `1:5: string literal not terminated`},
		{"x = 'a'", `1:5: unexpected character '\'': strings use double quotes`},
		{"x = 1 # 2", `1:7: unexpected character '#'`},
	}
	for _, tt := range tests {
		_, err := Parse("t.gs", []byte(tt.src))
		var list ast.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("Parse(%q) error = %v, want an ErrorList", tt.src, err)
			continue
		}
		if got := list[0].Error(); got != "t.gs:"+tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant t.gs:%s", tt.src, err, tt.want)
		}
	}
}

func TestSeveralErrors(t *testing.T) {
	src := "let = 1\nx = 2\nfn f() {\n  y = )\n  z = 1\n}\ng(1))\nlet ok = 3\nw = 08\n"
	f, err := Parse("t.gs", []byte(src))
	want := []string{
		`t.gs:1:5: unexpected "=", expected name`,
		`t.gs:4:7: unexpected ")", expected expression`,
		`t.gs:7:5: unexpected ")" at end of statement`,
		`t.gs:9:5: invalid number 08: leading zeros are not allowed (write 8 for decimal)`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("errors:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	if got := dumpFile(f); got != "(= x 2); (let [ok] _ 3); (= w 08)" {
		t.Errorf("partial file = %s", got)
	}
}

func TestIncomplete(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"if x {", true},
		{"if x {\n  y = 1\n", true},
		{"f(1,", true},
		{"f(1,\n", true},
		{`"abc`, true},
		{"print(\"abc\n", true},
		{"let a =", true},
		{"let a =\n", true},
		{"1 +", true},
		{"x = [1,\n 2", true},
		{"fn f(a) {\n  if a {\n", true},
		{"kernel k(", true},
		{"let = 3", false},
		{"let a = 1", false},
		{"if x {\n let = 3\n", false},
		{"x = )", false},
		{"if x", false}, // a newline can never continue it: Go-style terminators
		{"\"abc\ny = 1", false},
		{"x = 08 +", false},
		{strings.Repeat("(", 300), false},
	}
	for _, tt := range tests {
		_, err := Parse("t.gs", []byte(tt.src))
		if got := IsIncomplete(err); got != tt.want {
			t.Errorf("IsIncomplete(Parse(%q)) = %v, want %v (err %v)", tt.src, got, tt.want, err)
		}
	}
	if IsIncomplete(nil) || IsIncomplete(errors.New("unexpected end of input")) {
		t.Error("IsIncomplete is true for an error that is no ErrorList")
	}
}

func TestErrorsSortedAndPartial(t *testing.T) {
	f, err := Parse("t.gs", []byte("x = 1 # 2\ny = 08\nz = )\n"))
	if f == nil || f.Name != "t.gs" {
		t.Fatalf("Parse returned file %v", f)
	}
	var list ast.ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("err = %v, want 3 errors", err)
	}
	for i := 1; i < len(list); i++ {
		if list[i].Pos.Before(list[i-1].Pos) {
			t.Errorf("errors not sorted: %v", err)
		}
	}
}

func TestNestingLimits(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 100000),
		"x = " + strings.Repeat("-", 100000) + "1",
		"if a {}" + strings.Repeat(" else if a {}", 5000),
		strings.Repeat("[", 250) + strings.Repeat("]", 250),
	} {
		_, err := Parse("t.gs", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "too deeply") {
			t.Errorf("Parse(%.20q...) = %v, want a nesting error", src, err)
		}
	}
	// Deep but reasonable nesting is fine.
	mustParse(t, "x = "+strings.Repeat("(", 150)+"1"+strings.Repeat(")", 150))
}

func TestStructPositions(t *testing.T) {
	d := mustParse(t, "struct P {\n  a: f32,\n  b: vec3\n}").Stmts[0].(*ast.StructDecl)
	checks := []struct {
		name string
		got  ast.Pos
		want string
	}{
		{"struct", d.Pos, "t.gs:1:1"}, {"name", d.Name.Pos, "t.gs:1:8"}, {"field", d.Fields[1].Name.Pos, "t.gs:3:3"},
		{"type", d.Fields[1].Type.Pos, "t.gs:3:6"}, {"end", d.End, "t.gs:4:1"},
	}
	for _, c := range checks {
		if c.got.String() != c.want {
			t.Errorf("%s at %v, want %s", c.name, c.got, c.want)
		}
	}
}
