// Checker tests (lang/check/script_test.go): device funcs: calls, returns, recursion, declaration rules.
// func call
func sq(a: f32) -> f32 {
    return a * a
}
kernel k(x: array[f32]) {
    let i = tid()
    x[i] = sq(x[i]) + sq(2)
}
---
// func hoisted
kernel k(x: array[f32]) {
    x[0] = g(1)
}
func g(a: f32) -> f32 {
    return a
}
---
// func array param
func total(v: array[f32], n: i32) -> f32 {
    let s: f32 = 0
    for i in range(n) {
        s += v[i]
    }
    return s
}
kernel k(x: array[f32], y: array[f32]) {
    y[0] = total(x, len(x))
}
---
// func array mismatch
func total(v: array[f32]) -> f32 {
    return v[0]
}
kernel k(x: array[f64]) {
    let t = total(x) ### "cannot use x \(array\[f64\]\) as array\[f32\] value in argument to total"
}
---
// func arg type
func g(a: f32) {}
kernel k(d: f64) {
    g(d) ### "cannot use d \(variable of type f64\) as f32 value in argument to g"
}
---
// func arg count
func g(a: f32) {}
kernel k() {
    g() ### "not enough arguments in call to g: have 0, want 1"
}
---
// func no value
func g(a: f32) {}
kernel k() {
    let x = g(1) ### "g\(1\) \(no value\) used as value"
}
---
// missing return
func f(a: f32) -> f32 {
    if a > 0 {
        return a
    }
} ### "missing return"
---
// return if else
func f(a: f32) -> f32 {
    if a > 0 {
        return a
    } else if a < 0 {
        return -a
    } else {
        return 0
    }
}
---
// return infinite loop
func f(a: f32) -> f32 {
    while true {
        if a > 0 {
            return a
        }
    }
}
---
// loop with break
func f(a: f32) -> f32 {
    while true {
        break
    }
} ### "missing return"
---
// return nothing
func f(a: f32) -> f32 {
    return ### "not enough return values: func f returns f32"
}
---
// return extra
func f(a: f32) {
    return a ### "too many return values: func f has no result"
}
---
// return type
func f(a: f64) -> f32 {
    return a ### "cannot use a \(variable of type f64\) as f32 value in return statement"
}
---
// recursion
func f(a: i32) -> i32 {
    return f(a) ### "recursive func call: f -> f"
}
---
// mutual recursion
func f(a: i32) -> i32 {
    return g(a)
}
func g(a: i32) -> i32 {
    return f(a) ### "recursive func call: f -> g -> f"
}
---
// func result array
func f() -> array[f32] {}  ### "func result cannot be an array"
---
// kernel not top level
if true {
    kernel k() {} ### "kernel k must be declared at top level"
}
---
// func in fn
fn h() {
    func g() {} ### "func g must be declared at top level"
}
---
// call kernel var
kernel k(a: f32) {
    a(1) ### "cannot call non-function a \(variable of type f32\)"
}
---
// func as value
func g() {}
kernel k() {
    let x = g ### "func g must be called"
}
