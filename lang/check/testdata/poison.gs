// Checker tests (lang/check/script_test.go): a declaration with an error, then uses of the bad name: exactly the one error
// is reported (uses of a poisoned name neither panic nor cascade).
// param type in range
kernel A(samples: A) { ### "unknown type A"
    for A in range(samples) {}
}
---
// param type in arithmetic
kernel k(a: f16, x: array[f32]) { ### "unknown type f16"
    x[0] = a * 2.5 + f32(a)
    let b: i32 = a
    a = 1.5
    a += 1
}
---
// param type in builtins
kernel k(a: f16, x: array[f32]) { ### "unknown type f16"
    x[0] = sqrt(a) + select(a, a, 1.0) + min(a, 2)
    print(a)
    if a {}
    while a {}
}
---
// param type as index
kernel k(a: f16, x: array[f32]) { ### "unknown type f16"
    x[a] = x[a]
    atomic_add(x, a, a)
}
---
// array elem type
kernel k(x: array[f16]) { ### "unknown type f16"
    let i = tid()
    x[i] = x[i] + 1
    let n = len(x) + x.shape[0]
    atomic_add(x, i, 1)
}
---
// array of arrays
kernel k(x: array[array[f32]]) { ### "array element type must be one of"
    x[0] = 1.5
}
---
// array rank
kernel k(x: array[f32, 9]) { ### "array rank 9 out of range"
    x[0, 1] = 1.5
}
---
// scalar param as array
kernel k(a: array[f16], i: i32) { ### "unknown type f16"
    let b = a[i] * 2.0
    a[i] = b
}
---
// func param type
func g(a: f16, b: f32) -> f32 { ### "unknown type f16"
    return a + b
}
kernel k(x: array[f32]) {
    x[0] = g(1, 2)
}
---
// func array param type
func g(v: array[f16]) -> f32 { ### "unknown type f16"
    return v[0]
}
kernel k(x: array[f32]) {
    x[0] = g(x)
}
---
// func result type
func g(a: f32) -> f16 { ### "unknown type f16"
    return a * 2
}
kernel k(x: array[f32]) {
    x[0] = g(1) + 1
    g(2)
}
---
// func result array
func g() -> array[f32] { ### "func result cannot be an array"
    return 1
}
kernel k(x: array[f32]) {
    x[0] = g()
}
---
// let type
kernel k(x: array[f32]) {
    let a: f16 = 1 ### "unknown type f16"
    x[0] = a + 1.5
    a = 2
}
---
// let invalid value
kernel k(x: array[f32]) {
    let a = nope ### "undefined: nope"
    x[0] = a + 1.5
    let b: bool = a
}
---
// let no value
func g() {}
kernel k(x: array[f32]) {
    let a = g() ### "g\(\) \(no value\) used as value"
    x[0] = a * 1.5
}
---
// let array
kernel k(x: array[f32]) {
    let a = x ### "cannot store array x in a local variable"
    x[0] = a * 1.5
}
---
// bad range header
kernel k(x: array[f32]) {
    for i in range(2.5) { ### "range bounds must be integers"
        x[i] = i * 1.5
    }
}
---
// range body errors still reported
kernel k() {
    for i in range(nope) {} ### "undefined: nope"
}
---
// poisoned loop body: its own errors are still reported
kernel k() {
    for i in range(nope) { ### "undefined: nope"
        let a = other ### "undefined: other"
    }
}
