// Checker tests (lang/check/script_test.go): tid(): thread indices.
// tid 2d
kernel k(x: array[f32, 2]) {
    let i, j = tid()
    x[i, j] = 0
}
---
// tid arity
kernel k(x: array[f32, 2]) {
    let i = tid()
    let a, b = tid() ### "tid\(\) returns 2 values here but 1 in line 3"
}
---
// tid expr
kernel k(x: array[f32]) {
    x[tid()] = 1
}
---
// tid in func
func f() -> i32 {
    return tid() ### "tid\(\) is only available in kernels, not in func f"
}
---
// tid too many
kernel k() {
    let a, b, c, d, e = tid() ### "tid\(\) returns at most 4 values, not 5"
}
---
// multi let needs tid
kernel k(a: f32) {
    let x, y = a ### "let with 2 names needs tid\(\) on the right"
}
---
// tid args
kernel k() {
    let i = tid(1) ### "tid\(\) takes no arguments"
}
