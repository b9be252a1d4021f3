// Checker tests (lang/check/script_test.go): untyped constants, strict typing and conversions.
// saxpy
kernel k(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
---
// int const in float
kernel k(x: array[f32]) {
    let i = tid()
    x[i] = 2 * x[i] + 1
}
---
// float const in int
kernel k(x: array[i32]) {
    let i = tid()
    x[i] = 1.5 ### "cannot use 1.5 \(untyped float constant\) as i32 value"
}
---
// integral float const in int
kernel k() {
    let x: i32 = 2.0 ### "cannot use 2.0 \(untyped float constant\) as i32 value"
}
---
// mismatched f32 f64
kernel k(a: f32, b: f64) {
    let c = a + b ### "mismatched types f32 and f64 in \+"
}
---
// mismatched i32 i64
kernel k(a: i32, b: i64) {
    let c = a < b ### "mismatched types i32 and i64 in <"
}
---
// overflow u8
kernel k() {
    let x: u8 = 300 ### "constant 300 overflows u8"
}
---
// overflow conversion
kernel k() {
    let x = i32(3000000000) ### "constant 3000000000 overflows i32"
}
---
// overflow default
kernel k() {
    let x = 3000000000 ### "constant 3000000000 overflows i32"
}
---
// exact untyped arithmetic
kernel k() {
    let x: u8 = 255 + 1 - 1
}
---
// overflow folded
kernel k() {
    let x: u8 = 255 + 1 ### "constant 256 overflows u8"
}
---
// typed const overflow
kernel k() {
    let x = u8(200) + u8(100) ### "constant 300 overflows u8"
}
---
// negated unsigned
kernel k() {
    let x = -u32(1) ### "constant -1 overflows u32"
}
---
// bitnot unsigned const
kernel k() {
    let x: u8 = ~u8(1)
}
---
// float constant division
kernel k(a: f32) {
    let x = a * (1 / 2.0)
}
---
// int constant division truncates
kernel k() {
    let x: u8 = 7 / 2 * 73
}
---
// f32 overflow
kernel k() {
    let x: f32 = 1e39 ### "constant .* overflows f32"
}
---
// conversion
kernel k(x: array[f32], n: i64) {
    let i = tid()
    x[i] = f32(i) + f32(n) * f32(u8(3))
}
---
// conversion truncated
kernel k() {
    let x = i32(1.5) ### "cannot convert 1.5 \(untyped float constant\) to i32 \(truncated\)"
}
---
// conversion exact float
kernel k() {
    let x = i32(2.0)
}
---
// conversion from bool
kernel k(b: bool) {
    let x = i32(b) ### "cannot convert b \(variable of type bool\) to i32"
}
---
// conversion arity
kernel k(a: f32) {
    let x = i32(a, a) ### "i32 expects 1 argument, got 2"
}
---
// bool constant to float
kernel k(x: array[f32]) {
    x[0] = true ### "cannot use true \(untyped bool constant\) as f32 value"
}
