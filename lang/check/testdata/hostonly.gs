// Checker tests (lang/check/script_test.go): the host language v3's forms are host-only in kernels.
// dict literal
kernel k(x: array[f32]) { let d = {1: 2} } ### "dict \(dicts are host-only\) not allowed in a kernel"
---
// in
kernel k(x: array[f32]) { let b = 1 in 2 } ### "in is host-only"
---
// not in
func f(a: i32) -> bool { return a not in 3 } ### "not in is host-only"
---
// try
kernel k(x: array[f32]) { try { x[0] = 1.0 } catch { } } ### "try \(host-only"
---
// several targets
kernel k(x: array[f32]) { let a = 1; let b = 2; a, b = b, a } ### "assigning several targets .* is host-only"
---
// several for names
kernel k(x: array[f32]) { for i, j in range(3) { } } ### "a for with several names is host-only"
---
// a list of values
kernel k(x: array[f32]) { let a, b = 1, 2 } ### "host-only"
---
// ** is pow in a kernel
kernel k(x: array[f32]) { let i = tid(); x[i] = x[i] ** 2.0 + -x[i] ** 0.5 }
---
// host code takes them all
let d = {"a": 1, 2: [3]}
let a, b = 1, 2
a, b = b, a
for k, v in d.items() { }
try { let z = 1 } catch e { print(e.message) }
let p = [2 ** 10, 1 in [1], 2 not in [1]]
