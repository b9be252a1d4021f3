package check

import (
	"regexp"
	"testing"
)

// typeTests: a source chunk and the expected error (a regexp), or "" for
// success. Every successful case also has its IR validated.
var typeTests = []struct {
	name, src, err string
}{
	// untyped constants and strict typing
	{"saxpy", `kernel k(x: array[f32], y: array[f32], a: f32) { let i = tid(); y[i] = a * x[i] + y[i] }`, ""},
	{"int const in float", `kernel k(x: array[f32]) { let i = tid(); x[i] = 2 * x[i] + 1 }`, ""},
	{"float const in int", `kernel k(x: array[i32]) { let i = tid(); x[i] = 1.5 }`, `cannot use 1.5 \(untyped float constant\) as i32 value`},
	{"integral float const in int", `kernel k() { let x: i32 = 2.0 }`, `cannot use 2.0 \(untyped float constant\) as i32 value`},
	{"mismatched f32 f64", `kernel k(a: f32, b: f64) { let c = a + b }`, `mismatched types f32 and f64 in \+`},
	{"mismatched i32 i64", `kernel k(a: i32, b: i64) { let c = a < b }`, `mismatched types i32 and i64 in <`},
	{"overflow u8", `kernel k() { let x: u8 = 300 }`, `constant 300 overflows u8`},
	{"overflow conversion", `kernel k() { let x = i32(3000000000) }`, `constant 3000000000 overflows i32`},
	{"overflow default", `kernel k() { let x = 3000000000 }`, `constant 3000000000 overflows i32`},
	{"exact untyped arithmetic", `kernel k() { let x: u8 = 255 + 1 - 1 }`, ""},
	{"overflow folded", `kernel k() { let x: u8 = 255 + 1 }`, `constant 256 overflows u8`},
	{"typed const overflow", `kernel k() { let x = u8(200) + u8(100) }`, `constant 300 overflows u8`},
	{"negated unsigned", `kernel k() { let x = -u32(1) }`, `constant -1 overflows u32`},
	{"bitnot unsigned const", `kernel k() { let x: u8 = ~u8(1) }`, ""},
	{"float constant division", `kernel k(a: f32) { let x = a * (1 / 2.0) }`, ""},
	{"int constant division truncates", `kernel k() { let x: u8 = 7 / 2 * 73 }`, ""},
	{"f32 overflow", `kernel k() { let x: f32 = 1e39 }`, `constant .* overflows f32`},
	{"conversion", `kernel k(x: array[f32], n: i64) { let i = tid(); x[i] = f32(i) + f32(n) * f32(u8(3)) }`, ""},
	{"conversion truncated", `kernel k() { let x = i32(1.5) }`, `cannot convert 1.5 \(untyped float constant\) to i32 \(truncated\)`},
	{"conversion exact float", `kernel k() { let x = i32(2.0) }`, ""},
	{"conversion from bool", `kernel k(b: bool) { let x = i32(b) }`, `cannot convert b \(variable of type bool\) to i32`},
	{"conversion arity", `kernel k(a: f32) { let x = i32(a, a) }`, `i32 expects 1 argument, got 2`},
	{"bool constant to float", `kernel k(x: array[f32]) { x[0] = true }`, `cannot use true \(untyped bool constant\) as f32 value`},

	// names
	{"host variable", "let n = 3\nkernel k(x: array[f32]) { x[0] = n }", `kernel k cannot use host variable n; pass it as a parameter`},
	{"host variable declared later", "kernel k(x: array[f32]) { x[0] = m }\nlet m = 3", `kernel k cannot use host variable m`},
	{"host variable in func", "let n = 3\nfunc g() -> i32 { return n }", `func g cannot use host variable n`},
	{"host builtin", `kernel k() { zeros(3) }`, `kernel k cannot use host builtin zeros`},
	{"undefined in kernel", `kernel k() { let a = foo + 1 }`, `undefined: foo`},
	{"shadow builtin", `kernel k(sqrt: f32) { let abs = 1; let c = sqrt * f32(abs) }`, ""},
	{"unknown param type", `kernel k(a: f16) { }`, `unknown type f16`},
	{"unknown param type in range", `kernel A(samples:A){for A in range(samples){}}`, `unknown type A`}, // fuzz crash 4501a070589e9da5
	{"duplicate param", `kernel k(a: f32, a: f32) { }`, `duplicate parameter a`},
	{"let shadowing", `kernel k(a: f32) { let a = i32(a); let a = a + 1; let b: i32 = a }`, ""},
	{"block scope", `kernel k() { if true { let a = 1 }; let b = a }`, `undefined: a`},

	// arrays
	{"index count", `kernel k(x: array[f32, 2]) { let i = tid(); x[i] = 1 }`, `array x has 2 dimensions, indexed with 1`},
	{"index float", `kernel k(x: array[f32], f: f32) { x[0] = x[f] }`, `index f \(variable of type f32\) must be an integer`},
	{"index negative", `kernel k(x: array[f32]) { x[-1] = 0 }`, `index -1 \(untyped int constant\) must not be negative`},
	{"index any int type", `kernel k(x: array[f32, 3], a: u64, b: u8, c: i64) { x[a, b, c] = x[0, 1, c] }`, ""},
	{"assign array", `kernel k(x: array[f32], y: array[f32]) { x = y }`, `cannot assign to array x`},
	{"array in local", `kernel k(x: array[f32]) { let y = x }`, `cannot store array x in a local variable`},
	{"array arithmetic", `kernel k(x: array[f32]) { let y = x + 1 }`, `operator \+ not defined on x \(array\[f32\]\)`},
	{"index scalar", `kernel k(a: f32) { let y = a[0] }`, `cannot index a \(variable of type f32\)`},
	{"len and shape", `kernel k(x: array[f32, 2], y: array[i32]) { y[0] = len(x) + x.shape[1] + len(y) }`, ""},
	{"shape out of range", `kernel k(x: array[f32, 2]) { let n = x.shape[2] }`, `axis 2 out of range: x has 2 dimensions`},
	{"shape not constant", `kernel k(x: array[f32, 2], a: i32) { let n = x.shape[a] }`, `x.shape must be indexed by a constant integer`},
	{"shape unindexed", `kernel k(x: array[f32, 2]) { let n = x.shape }`, `x.shape must be indexed by a constant axis`},
	{"other attribute", `kernel k(x: array[f32]) { let n = x.size }`, `x.size undefined`},
	{"compound store", `kernel k(x: array[i32]) { x[0] += 2; x[1] %= 3; x[2] -= 1; x[3] *= 2; x[4] /= 2 }`, ""},
	{"store type", `kernel k(x: array[f32], a: f64) { x[0] = a }`, `cannot use a \(variable of type f64\) as f32 value in assignment`},
	{"array rank type", `kernel k(x: array[array[f32]]) { }`, `array element type must be one of`},

	// statements
	{"assign scalar param", `kernel k(a: f32, x: array[f32]) { a = a + 1; a *= 2; x[0] = a }`, ""},
	{"assign mismatch", `kernel k(a: i32) { a = 1.5 }`, `cannot use 1.5 \(untyped float constant\) as i32 value in assignment`},
	{"compound float rem", `kernel k(a: f32) { a %= 2 }`, `operator % not defined on f32`},
	{"if non bool", `kernel k(a: f32) { if a { } }`, `non-bool a \(variable of type f32\) used as if condition`},
	{"while non bool", `kernel k(a: i32) { while a { } }`, `non-bool a \(variable of type i32\) used as while condition`},
	{"else if", `kernel k(a: f32, x: array[f32]) { if a > 0 { x[0] = 1 } else if a < 0 { x[0] = 2 } else { x[0] = 3 } }`, ""},
	{"not used", `kernel k(a: f32) { a + 1 }`, `a \+ 1 \(value of type f32\) is not used`},
	{"break outside loop", `kernel k() { break }`, `break is not in a loop`},
	{"continue in loop", `kernel k() { for i in range(3) { if i == 1 { continue }; break } }`, ""},
	{"kernel return value", `kernel k() { return 1 }`, `kernel k cannot return a value`},
	{"kernel bare return", `kernel k(a: f32) { if a > 0 { return } }`, ""},
	{"array decl in kernel", `kernel k() { array z: f32[3] }`, `array declaration not allowed in a kernel`},
	{"launch in kernel", "kernel j() { }\nkernel k() { launch j[1]() }", `launch not allowed in a kernel`},
	{"keyword arg", `kernel k(a: f32) { let b = sqrt(a, x=1) }`, `keyword arguments are not allowed`},
	{"string outside print", `kernel k() { let s = "a" }`, `string "a" allowed only as a print argument`},

	{"nil in kernel", `kernel k() { let a = nil }`, `nil not allowed in a kernel`},
	{"list in kernel", `kernel k() { let a = [1, 2] }`, `list not allowed in a kernel`},
	{"slice in kernel", `kernel k(x: array[f32]) { let a = x[0:2] }`, `slice expression not allowed in a kernel`},
	{"assign shape", `kernel k(x: array[f32]) { x.shape[0] = 1 }`, `cannot assign to x.shape\[0\]`},
	{"assign func", "func g() { }\nkernel k() { g = 1 }", `cannot assign to g \(not a variable\)`},
	{"assign builtin", `kernel k() { sqrt = 1 }`, `cannot assign to sqrt \(not a variable\)`},
	{"assign undefined", `kernel k() { zz = 1 }`, `undefined: zz`},
	{"assert in kernel", `kernel k() { assert true }`, `assert not allowed in a kernel`},
	{"constant shifts", `kernel k(x: array[u8]) { x[0] = 1 << 7; x[1] = 256 >> 1; x[2] = u8(1) << 3 }`, ""},
	{"huge constant shift count", `kernel k(x: array[i32]) { x[0] = 1 << (1 << 64) }`, `shift count 18446744073709551616 too large`},
	{"constant shift overflow", `kernel k(x: array[u8]) { x[0] = u8(1) << 8 }`, `constant 256 overflows u8`},

	// for loops
	{"range forms", `kernel k(x: array[f32], n: i32, s: i32) { for i in range(n) { x[i] = 0 }; for i in range(1, n) { }; for i in range(n, 0, -1) { }; for i in range(0, n, s) { } }`, ""},
	{"range typed var", `kernel k(n: i64) { for i in range(n) { let j: i64 = i } }`, ""},
	{"range default i32", `kernel k() { for i in range(10) { let j: i32 = i } }`, ""},
	{"range mismatch", `kernel k(n: i64, m: i32) { for i in range(m, n) { } }`, `mismatched types i32 and i64 in range`},
	{"range float", `kernel k(n: f32) { for i in range(n) { } }`, `range bounds must be integers, got f32`},
	{"range float const", `kernel k() { for i in range(2.5) { } }`, `range bounds must be integers, got f32`},
	{"range step zero", `kernel k() { for i in range(0, 10, 0) { } }`, `range step must not be zero`},
	{"range not range", `kernel k(x: array[f32]) { for i in x { } }`, `for loops in a kernel must iterate over range`},
	{"range elsewhere", `kernel k() { let r = range(3) }`, `range\(...\) is allowed only in a for loop`},

	// operators
	{"rem float", `kernel k(a: f32) { let b = a % 2 }`, `operator % not defined on f32`},
	{"bitand float", `kernel k(a: f32) { let b = a & a }`, `operator & not defined on f32`},
	{"shift mixed ints", `kernel k(a: i64, s: u8, x: array[i64]) { x[0] = a << s; x[1] = a >> 2 }`, ""},
	{"shift untyped left", `kernel k(s: u32, x: array[i32]) { x[0] = 1 << s }`, ""},
	{"shift float", `kernel k(a: f32) { let b = a << 1 }`, `invalid shift: a \(variable of type f32\) must be an integer`},
	{"shift negative", `kernel k(a: i32) { let b = a << -1 }`, `invalid shift count -1`},
	{"comparison result", `kernel k(a: f32, b: f32, x: array[bool]) { x[0] = a < b; x[1] = a == b && b != 0 }`, ""},
	{"bool ordering", `kernel k(a: bool, b: bool) { let c = a < b }`, `operator < not defined on bool`},
	{"and non bool", `kernel k(a: i32) { let c = a && true }`, `operator && not defined on a \(variable of type i32\)`},
	{"or right non bool", `kernel k(a: bool, b: f32) { let c = a || b }`, `operator \|\| not defined on b`},
	{"unary ops", `kernel k(a: f32, i: i32, b: bool) { let x = -a; let y = ~i; let z = !b; let w = +a }`, ""},
	{"bitnot float", `kernel k(a: f32) { let x = ~a }`, `operator ~ not defined on a \(variable of type f32\)`},
	{"not int", `kernel k(a: i32) { let x = !a }`, `operator ! not defined on a`},
	{"neg bool", `kernel k(b: bool) { let x = -b }`, `operator - not defined on b`},
	{"untyped float rem", `kernel k() { let b = 1 % 2.5 }`, `operator % not defined on untyped float constant`},
	{"untyped mixed kinds", `kernel k() { let b = 1 == true }`, `mismatched types untyped int and untyped bool in ==`},
	{"untyped comparison", `kernel k(x: array[bool]) { x[0] = 1 < 2.5; x[1] = 3 / 2 == 1 }`, ""},
	{"div by zero", `kernel k(a: i32) { let b = a / 0 }`, `division by zero`},
	{"rem by zero", `kernel k(a: i32) { let b = a % (1 - 1) }`, `division by zero`},
	{"float div by zero", `kernel k(a: f32) { let b = a / 0.0 }`, `division by zero`},

	// builtins
	{"math", `kernel k(a: f32, d: f64, x: array[f32]) { x[0] = sqrt(a) + pow(a, 2) + fma(a, a, 1) + clamp(a, 0, 1) + f32(atan2(d, d)) + sqrt(2) }`, ""},
	{"math int", `kernel k(i: i32, x: array[i32]) { x[0] = abs(i) + min(i, 3) + max(2, i) + clamp(i, 0, 10) + sign(i) + abs(-3) }`, ""},
	{"sqrt int", `kernel k(i: i32) { let r = sqrt(i) }`, `sqrt needs a float argument, got i32`},
	{"min mismatch", `kernel k(a: i32, b: i64) { let r = min(a, b) }`, `mismatched types i32 and i64 in min`},
	{"abs bool", `kernel k(b: bool) { let r = abs(b) }`, `abs needs a numeric argument, got bool`},
	{"isnan bool result", `kernel k(a: f64, x: array[f32]) { if isnan(a) || isinf(a) || !isfinite(a) { x[0] = 1 } }`, ""},
	{"isnan not float", `kernel k(a: f32) { let b: f32 = isnan(a) }`, `cannot use isnan\(a\) \(value of type bool\) as f32 value`},
	{"math arity", `kernel k(a: f32) { let b = pow(a) }`, `pow expects 2 arguments, got 1`},
	{"select", `kernel k(a: f32, b: bool, x: array[f32]) { x[0] = select(b, a, 1.0); x[1] = select(a > 0, 1.5, 2) }`, ""},
	{"select untyped ints", `kernel k(a: f32, x: array[f32]) { x[1] = select(a > 0, 1, 2) }`, `cannot use select\(a > 0, 1, 2\) \(value of type i32\) as f32 value`},
	{"select cond", `kernel k(a: f32) { let c = select(a, a, a) }`, `cannot use a \(variable of type f32\) as bool value in select condition`},
	{"select mismatch", `kernel k(a: f32, d: f64, b: bool) { let c = select(b, a, d) }`, `mismatched types f32 and f64 in select`},
	{"atomics", `kernel k(h: array[i32], g: array[f32, 2]) { let i = tid(); atomic_add(h, i, 1); let old = atomic_sub(h, 0, 2); atomic_max(g, 0, i, 1.5); let c: i32 = atomic_cas(h, i, 0, old) }`, ""},
	{"atomic u8", `kernel k(h: array[u8]) { atomic_add(h, 0, 1) }`, `atomic_add is not supported on array\[u8\]`},
	{"atomic index count", `kernel k(h: array[i32, 2]) { atomic_add(h, 0, 1) }`, `atomic_add on h \(2 dimensions\) needs 2 indices and 1 value\(s\), got 2 arguments`},
	{"atomic value type", `kernel k(h: array[i32]) { atomic_add(h, 0, 1.5) }`, `cannot use 1.5 \(untyped float constant\) as i32 value in argument to atomic_add`},
	{"atomic not array", `kernel k(a: i32) { atomic_add(a, 0, 1) }`, `first argument to atomic_add must be an array`},
	{"print", `kernel k(a: f32, x: array[i32]) { let i = tid(); print("i =", i, "a", a, x[i], true, 3) }`, ""},
	{"print array", `kernel k(x: array[i32]) { print(x) }`, `cannot print array x in a kernel`},
	{"print placeholder", `kernel k() { print("a {} b") }`, `print string cannot contain \{\}`},
	{"print value", `kernel k() { let p = print(1) }`, `print\(1\) \(no value\) used as value`},
	{"len scalar", `kernel k(a: f32) { let n = len(a) }`, `invalid argument: a \(variable of type f32\) for len`},

	// tid
	{"tid 2d", `kernel k(x: array[f32, 2]) { let i, j = tid(); x[i, j] = 0 }`, ""},
	{"tid arity", "kernel k(x: array[f32, 2]) {\n let i = tid()\n let a, b = tid()\n}", `tid\(\) returns 2 values here but 1 in line 2`},
	{"tid expr", "kernel k(x: array[f32]) { x[tid()] = 1 }", ""},
	{"tid in func", `func f() -> i32 { return tid() }`, `tid\(\) is only available in kernels, not in func f`},
	{"tid too many", `kernel k() { let a, b, c, d, e = tid() }`, `tid\(\) returns at most 4 values, not 5`},
	{"multi let needs tid", `kernel k(a: f32) { let x, y = a }`, `let with 2 names needs tid\(\) on the right`},
	{"tid args", `kernel k() { let i = tid(1) }`, `tid\(\) takes no arguments`},

	// funcs
	{"func call", "func sq(a: f32) -> f32 { return a * a }\nkernel k(x: array[f32]) { let i = tid(); x[i] = sq(x[i]) + sq(2) }", ""},
	{"func hoisted", "kernel k(x: array[f32]) { x[0] = g(1) }\nfunc g(a: f32) -> f32 { return a }", ""},
	{"func array param", "func total(v: array[f32], n: i32) -> f32 { let s: f32 = 0; for i in range(n) { s += v[i] }; return s }\nkernel k(x: array[f32], y: array[f32]) { y[0] = total(x, len(x)) }", ""},
	{"func array mismatch", "func total(v: array[f32]) -> f32 { return v[0] }\nkernel k(x: array[f64]) { let t = total(x) }", `cannot use x \(array\[f64\]\) as array\[f32\] value in argument to total`},
	{"func arg type", "func g(a: f32) { }\nkernel k(d: f64) { g(d) }", `cannot use d \(variable of type f64\) as f32 value in argument to g`},
	{"func arg count", "func g(a: f32) { }\nkernel k() { g() }", `not enough arguments in call to g: have 0, want 1`},
	{"func no value", "func g(a: f32) { }\nkernel k() { let x = g(1) }", `g\(1\) \(no value\) used as value`},
	{"missing return", `func f(a: f32) -> f32 { if a > 0 { return a } }`, `missing return`},
	{"return if else", `func f(a: f32) -> f32 { if a > 0 { return a } else if a < 0 { return -a } else { return 0 } }`, ""},
	{"return infinite loop", `func f(a: f32) -> f32 { while true { if a > 0 { return a } } }`, ""},
	{"loop with break", `func f(a: f32) -> f32 { while true { break } }`, `missing return`},
	{"return nothing", `func f(a: f32) -> f32 { return }`, `not enough return values: func f returns f32`},
	{"return extra", `func f(a: f32) { return a }`, `too many return values: func f has no result`},
	{"return type", `func f(a: f64) -> f32 { return a }`, `cannot use a \(variable of type f64\) as f32 value in return statement`},
	{"recursion", `func f(a: i32) -> i32 { return f(a) }`, `recursive func call: f -> f`},
	{"mutual recursion", "func f(a: i32) -> i32 { return g(a) }\nfunc g(a: i32) -> i32 { return f(a) }", `recursive func call: f -> g -> f`},
	{"func result array", `func f() -> array[f32] { }`, `func result cannot be an array`},
	{"kernel not top level", "if true {\n kernel k() { }\n}", `kernel k must be declared at top level`},
	{"func in fn", "fn h() {\n func g() { }\n}", `func g must be declared at top level`},
	{"call kernel var", `kernel k(a: f32) { a(1) }`, `cannot call non-function a \(variable of type f32\)`},
	{"func as value", "func g() { }\nkernel k() { let x = g }", `func g must be called`},
}

func TestTypeCheck(t *testing.T) {
	for _, tc := range typeTests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestChecker()
			info, err := c.Check(parse(t, tc.src))
			if tc.err == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v\n%s", err, tc.src)
				}
				for _, k := range info.Kernels {
					validate(t, k)
				}
				return
			}
			if err == nil {
				t.Fatalf("no error, want %q\n%s", tc.err, tc.src)
			}
			if regexp.MustCompile("internal checker error").MatchString(err.Error()) {
				t.Fatalf("checker panicked: %v", err)
			}
			if !regexp.MustCompile(tc.err).MatchString(err.Error()) {
				t.Fatalf("error %q does not match %q", err, tc.err)
			}
		})
	}
}
