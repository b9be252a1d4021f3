// Checker tests (lang/check/script_test.go): kernel statements: assignment, if, while, return, what a kernel may not contain.
// assign scalar param
kernel k(a: f32, x: array[f32]) {
    a = a + 1
    a *= 2
    x[0] = a
}
---
// assign mismatch
kernel k(a: i32) {
    a = 1.5 ### "cannot use 1.5 \(untyped float constant\) as i32 value in assignment"
}
---
// compound float rem
kernel k(a: f32) {
    a %= 2 ### "operator % not defined on f32"
}
---
// if non bool
kernel k(a: f32) {
    if a {} ### "non-bool a \(variable of type f32\) used as if condition"
}
---
// while non bool
kernel k(a: i32) {
    while a {} ### "non-bool a \(variable of type i32\) used as while condition"
}
---
// else if
kernel k(a: f32, x: array[f32]) {
    if a > 0 {
        x[0] = 1
    } else if a < 0 {
        x[0] = 2
    } else {
        x[0] = 3
    }
}
---
// not used
kernel k(a: f32) {
    a + 1 ### "a \+ 1 \(value of type f32\) is not used"
}
---
// break outside loop
kernel k() {
    break ### "break is not in a loop"
}
---
// continue in loop
kernel k() {
    for i in range(3) {
        if i == 1 {
            continue
        }
        break
    }
}
---
// kernel return value
kernel k() {
    return 1 ### "kernel k cannot return a value"
}
---
// kernel bare return
kernel k(a: f32) {
    if a > 0 {
        return
    }
}
---
// array decl in kernel
kernel k() {
    array z: f32[3] ### "array declaration not allowed in a kernel"
}
---
// launch in kernel
kernel j() {}
kernel k() {
    launch j[1]() ### "launch not allowed in a kernel"
}
---
// tape in kernel and func
kernel k() {
    tape t {} ### "tape block not allowed in a kernel"
}
func f() {
    tape t {} ### "tape block not allowed in a func"
}
---
// keyword arg
kernel k(a: f32) {
    let b = sqrt(a, x=1) ### "keyword arguments are not allowed"
}
---
// string outside print
kernel k() {
    let s = "a" ### "string \"a\" allowed only as a print argument"
}
---
// nil in kernel
kernel k() {
    let a = nil ### "nil not allowed in a kernel"
}
---
// list in kernel
kernel k() {
    let a = [1, 2] ### "list not allowed in a kernel"
}
---
// slice in kernel
kernel k(x: array[f32]) {
    let a = x[0:2] ### "slices are only available in host code"
}
---
// slice store and strided slice in kernel
kernel k(x: array[f32, 2]) {
    x[0, ::2] = 1.0 ### "slices are only available in host code"
}
---
// matrix product in kernel
kernel k(x: array[f32], y: array[f32]) {
    let a = x[0] @ y[0] ### "the matrix product @ is only available in host code"
}
---
// assign shape
kernel k(x: array[f32]) {
    x.shape[0] = 1 ### "cannot assign to x.shape\[0\]"
}
---
// assign func
func g() {}
kernel k() {
    g = 1 ### "cannot assign to g \(not a variable\)"
}
---
// assign builtin
kernel k() {
    sqrt = 1 ### "cannot assign to sqrt \(not a variable\)"
}
---
// assign undefined
kernel k() {
    zz = 1 ### "undefined: zz"
}
---
// assert in kernel
kernel k() {
    assert true ### "assert not allowed in a kernel"
}
---
// constant shifts
kernel k(x: array[u8]) {
    x[0] = 1 << 7
    x[1] = 256 >> 1
    x[2] = u8(1) << 3
}
---
// huge constant shift count
kernel k(x: array[i32]) {
    x[0] = 1 << (1 << 64) ### "shift count 18446744073709551616 too large"
}
---
// constant shift overflow
kernel k(x: array[u8]) {
    x[0] = u8(1) << 8 ### "constant 256 overflows u8"
}
