// Checker tests (lang/check/script_test.go): operators on typed and untyped operands.
// rem float
kernel k(a: f32) {
    let b = a % 2 ### "operator % not defined on f32"
}
---
// bitand float
kernel k(a: f32) {
    let b = a & a ### "operator & not defined on f32"
}
---
// shift mixed ints
kernel k(a: i64, s: u8, x: array[i64]) {
    x[0] = a << s
    x[1] = a >> 2
}
---
// shift untyped left
kernel k(s: u32, x: array[i32]) {
    x[0] = 1 << s
}
---
// shift float
kernel k(a: f32) {
    let b = a << 1 ### "invalid shift: a \(variable of type f32\) must be an integer"
}
---
// shift negative
kernel k(a: i32) {
    let b = a << -1 ### "invalid shift count -1"
}
---
// comparison result
kernel k(a: f32, b: f32, x: array[bool]) {
    x[0] = a < b
    x[1] = a == b && b != 0
}
---
// bool ordering
kernel k(a: bool, b: bool) {
    let c = a < b ### "operator < not defined on bool"
}
---
// and non bool
kernel k(a: i32) {
    let c = a && true ### "operator && not defined on a \(variable of type i32\)"
}
---
// or right non bool
kernel k(a: bool, b: f32) {
    let c = a || b ### "operator \|\| not defined on b"
}
---
// unary ops
kernel k(a: f32, i: i32, b: bool) {
    let x = -a
    let y = ~i
    let z = !b
    let w = +a
}
---
// bitnot float
kernel k(a: f32) {
    let x = ~a ### "operator ~ not defined on a \(variable of type f32\)"
}
---
// not int
kernel k(a: i32) {
    let x = !a ### "operator ! not defined on a"
}
---
// neg bool
kernel k(b: bool) {
    let x = -b ### "operator - not defined on b"
}
---
// untyped float rem
kernel k() {
    let b = 1 % 2.5 ### "operator % not defined on untyped float constant"
}
---
// untyped mixed kinds
kernel k() {
    let b = 1 == true ### "mismatched types untyped int and untyped bool in =="
}
---
// untyped comparison
kernel k(x: array[bool]) {
    x[0] = 1 < 2.5
    x[1] = 3 / 2 == 1
}
---
// div by zero
kernel k(a: i32) {
    let b = a / 0 ### "division by zero"
}
---
// rem by zero
kernel k(a: i32) {
    let b = a % (1 - 1) ### "division by zero"
}
---
// float div by zero
kernel k(a: f32) {
    let b = a / 0.0 ### "division by zero"
}
