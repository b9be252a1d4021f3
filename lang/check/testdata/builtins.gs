// Checker tests (lang/check/script_test.go): device builtins: math, select, atomics, print, len.
// math
kernel k(a: f32, d: f64, x: array[f32]) {
    x[0] = sqrt(a) + pow(a, 2) + fma(a, a, 1) + clamp(a, 0, 1) + f32(atan2(d, d)) + sqrt(2)
}
---
// math int
kernel k(i: i32, x: array[i32]) {
    x[0] = abs(i) + min(i, 3) + max(2, i) + clamp(i, 0, 10) + sign(i) + abs(-3)
}
---
// sqrt int
kernel k(i: i32) {
    let r = sqrt(i) ### "sqrt needs a float argument, got i32"
}
---
// min mismatch
kernel k(a: i32, b: i64) {
    let r = min(a, b) ### "mismatched types i32 and i64 in min"
}
---
// abs bool
kernel k(b: bool) {
    let r = abs(b) ### "abs needs a numeric argument, got bool"
}
---
// isnan bool result
kernel k(a: f64, x: array[f32]) {
    if isnan(a) || isinf(a) || !isfinite(a) {
        x[0] = 1
    }
}
---
// isnan not float
kernel k(a: f32) {
    let b: f32 = isnan(a) ### "cannot use isnan\(a\) \(value of type bool\) as f32 value"
}
---
// math arity
kernel k(a: f32) {
    let b = pow(a) ### "pow expects 2 arguments, got 1"
}
---
// select
kernel k(a: f32, b: bool, x: array[f32]) {
    x[0] = select(b, a, 1.0)
    x[1] = select(a > 0, 1.5, 2)
}
---
// select untyped ints
kernel k(a: f32, x: array[f32]) {
    x[1] = select(a > 0, 1, 2) ### "cannot use select\(a > 0, 1, 2\) \(value of type i32\) as f32 value"
}
---
// select cond
kernel k(a: f32) {
    let c = select(a, a, a) ### "cannot use a \(variable of type f32\) as bool value in select condition"
}
---
// select mismatch
kernel k(a: f32, d: f64, b: bool) {
    let c = select(b, a, d) ### "mismatched types f32 and f64 in select"
}
---
// atomics
kernel k(h: array[i32], g: array[f32, 2]) {
    let i = tid()
    atomic_add(h, i, 1)
    let old = atomic_sub(h, 0, 2)
    atomic_max(g, 0, i, 1.5)
    let c: i32 = atomic_cas(h, i, 0, old)
}
---
// atomic u8
kernel k(h: array[u8]) {
    atomic_add(h, 0, 1) ### "atomic_add is not supported on array\[u8\]"
}
---
// atomic index count
kernel k(h: array[i32, 2]) {
    atomic_add(h, 0, 1) ### "atomic_add on h \(2 dimensions\) needs 2 indices and 1 value\(s\), got 2 arguments"
}
---
// atomic value type
kernel k(h: array[i32]) {
    atomic_add(h, 0, 1.5) ### "cannot use 1.5 \(untyped float constant\) as i32 value in argument to atomic_add"
}
---
// atomic not array
kernel k(a: i32) {
    atomic_add(a, 0, 1) ### "first argument to atomic_add must be an array"
}
---
// print
kernel k(a: f32, x: array[i32]) {
    let i = tid()
    print("i =", i, "a", a, x[i], true, 3)
}
---
// print array
kernel k(x: array[i32]) {
    print(x) ### "cannot print array x in a kernel"
}
---
// print placeholder
kernel k() {
    print("a {} b") ### "print string cannot contain \{\}"
}
---
// print value
kernel k() {
    let p = print(1) ### "print\(1\) \(no value\) used as value"
}
---
// len scalar
kernel k(a: f32) {
    let n = len(a) ### "invalid argument: a \(variable of type f32\) for len"
}
