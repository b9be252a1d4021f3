// Checker tests (lang/check/script_test.go): names in kernels and funcs: host variables, builtins, parameters, scopes.
// host variable
let n = 3
kernel k(x: array[f32]) {
    x[0] = n ### "kernel k cannot use host variable n; pass it as a parameter"
}
---
// host variable declared later
kernel k(x: array[f32]) {
    x[0] = m ### "kernel k cannot use host variable m"
}
let m = 3
---
// host variable in func
let n = 3
func g() -> i32 {
    return n ### "func g cannot use host variable n"
}
---
// host builtin
kernel k() {
    zeros(3) ### "kernel k cannot use host builtin zeros"
}
---
// undefined in kernel
kernel k() {
    let a = foo + 1 ### "undefined: foo"
}
---
// shadow builtin
kernel k(sqrt: f32) {
    let abs = 1
    let c = sqrt * f32(abs)
}
---
// unknown param type
kernel k(a: f16) {}  ### "unknown type f16"
---
// unknown param type in range
kernel A(samples: A) { ### "unknown type A"
    for A in range(samples) {}
}
---
// duplicate param
kernel k(a: f32, a: f32) {}  ### "duplicate parameter a"
---
// let shadowing
kernel k(a: f32) {
    let a = i32(a)
    let a = a + 1
    let b: i32 = a
}
---
// block scope
kernel k() {
    if true {
        let a = 1
    }
    let b = a ### "undefined: a"
}
