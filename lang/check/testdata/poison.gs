// Checker tests (lang/check/script_test.go): a declaration with an error, then uses of the bad name: exactly the one error
// is reported (uses of a poisoned name neither panic nor cascade).
// param type in range
kernel A(samples:A){for A in range(samples){}} ### "unknown type A"
---
// param type in arithmetic
kernel k(a: f16, x: array[f32]) { x[0] = a * 2.5 + f32(a); let b: i32 = a; a = 1.5; a += 1 } ### "unknown type f16"
---
// param type in builtins
kernel k(a: f16, x: array[f32]) { x[0] = sqrt(a) + select(a, a, 1.0) + min(a, 2); print(a); if a { }; while a { } } ### "unknown type f16"
---
// param type as index
kernel k(a: f16, x: array[f32]) { x[a] = x[a]; atomic_add(x, a, a) } ### "unknown type f16"
---
// array elem type
kernel k(x: array[f16]) { let i = tid(); x[i] = x[i] + 1; let n = len(x) + x.shape[0]; atomic_add(x, i, 1) } ### "unknown type f16"
---
// array of arrays
kernel k(x: array[array[f32]]) { x[0] = 1.5 } ### "array element type must be one of"
---
// array rank
kernel k(x: array[f32, 9]) { x[0, 1] = 1.5 } ### "array rank 9 out of range"
---
// scalar param as array
kernel k(a: array[f16], i: i32) { let b = a[i] * 2.0; a[i] = b } ### "unknown type f16"
---
// func param type
func g(a: f16, b: f32) -> f32 { return a + b } ### "unknown type f16"
kernel k(x: array[f32]) { x[0] = g(1, 2) }
---
// func array param type
func g(v: array[f16]) -> f32 { return v[0] } ### "unknown type f16"
kernel k(x: array[f32]) { x[0] = g(x) }
---
// func result type
func g(a: f32) -> f16 { return a * 2 } ### "unknown type f16"
kernel k(x: array[f32]) { x[0] = g(1) + 1; g(2) }
---
// func result array
func g() -> array[f32] { return 1 } ### "func result cannot be an array"
kernel k(x: array[f32]) { x[0] = g() }
---
// let type
kernel k(x: array[f32]) { let a: f16 = 1; x[0] = a + 1.5; a = 2 } ### "unknown type f16"
---
// let invalid value
kernel k(x: array[f32]) { let a = nope; x[0] = a + 1.5; let b: bool = a } ### "undefined: nope"
---
// let no value
func g() { }
kernel k(x: array[f32]) { let a = g(); x[0] = a * 1.5 } ### "g\(\) \(no value\) used as value"
---
// let array
kernel k(x: array[f32]) { let a = x; x[0] = a * 1.5 } ### "cannot store array x in a local variable"
---
// bad range header
kernel k(x: array[f32]) { for i in range(2.5) { x[i] = i * 1.5 } } ### "range bounds must be integers"
---
// range body errors still reported
kernel k() { for i in range(nope) { } } ### "undefined: nope"
---
// poisoned loop body: its own errors are still reported
kernel k() { for i in range(nope) { let a = other } } ### "undefined: nope" ### "undefined: other"
