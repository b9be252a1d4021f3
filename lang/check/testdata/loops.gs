// Checker tests (lang/check/script_test.go): for loops over range in kernels.
// range forms
kernel k(x: array[f32], n: i32, s: i32) {
    for i in range(n) {
        x[i] = 0
    }
    for i in range(1, n) {}
    for i in range(n, 0, -1) {}
    for i in range(0, n, s) {}
}
---
// range typed var
kernel k(n: i64) {
    for i in range(n) {
        let j: i64 = i
    }
}
---
// range default i32
kernel k() {
    for i in range(10) {
        let j: i32 = i
    }
}
---
// range mismatch
kernel k(n: i64, m: i32) {
    for i in range(m, n) {} ### "mismatched types i32 and i64 in range"
}
---
// range float
kernel k(n: f32) {
    for i in range(n) {} ### "range bounds must be integers, got f32"
}
---
// range float const
kernel k() {
    for i in range(2.5) {} ### "range bounds must be integers, got f32"
}
---
// range step zero
kernel k() {
    for i in range(0, 10, 0) {} ### "range step must not be zero"
}
---
// range not range
kernel k(x: array[f32]) {
    for i in x {} ### "for loops in a kernel must iterate over range"
}
---
// range elsewhere
kernel k() {
    let r = range(3) ### "range\(...\) is allowed only in a for loop"
}
