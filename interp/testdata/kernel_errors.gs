kernel bad(x: array[f32], y: array[f64]) {
    let i = tid()
    y[i] = x[i] + y[i]                 ### "mismatched types f32 and f64"
}
---
kernel bad(x: array[i32]) {
    let i = tid()
    x[i] = 1.5                         ### "1.5"
}
---
kernel bad(x: array[f32, 2]) {
    let i = tid()
    x[i] = 1.0                         ### "2 dimensions"
}
---
let host = 3
kernel bad(x: array[f32]) {
    let i = tid()
    x[i] = f32(host)                   ### "cannot use host variable host"
}
---
kernel bad(x: array[f32]) {
    let i = tid()
    x[i] = sqrt(i)                     ### "sqrt"
}
---
kernel bad(x: array[u8]) {
    let i = tid()
    x[i] = 300                         ### "overflows"
}
---
// a type error stops the script before its first statement
print("not printed")
kernel bad(x: array[f32]) {
    x[0] = undefined_thing             ### "undefined: undefined_thing"
}
---
func f(a: i32) -> i32 {
    if a > 0 {
        return 1
    }
}                                      ### "missing return"
---
func f(a: i32) -> i32 {
    return g(a)
}
func g(a: i32) -> i32 {
    return f(a) ### "recursive func call: f -> g -> f"
}
---
// launch-time checks: count, dtype, ndim, scalar range, tid arity, size
kernel k(x: array[f32], s: i32) {
    x[tid()] = f32(s)
}
array a: f32[4]
launch k[4](a)                         ### "kernel k takes 2 arguments, got 1"
---
kernel k(x: array[f32], s: i32) {
    x[tid()] = f32(s)
}
array b: f64[4]
launch k[4](b, 1)                      ### "argument 1 \(x\) of kernel k: want array\[f32\], got array\[f64\]"
---
kernel k(x: array[f32], s: i32) {
    x[tid()] = f32(s)
}
array a: f32[4]
launch k[4](a, 3000000000)             ### "argument 2 \(s\) of kernel k: .*overflows i32"
---
// a finite float beyond f32's range is an error, not a silent inf
kernel kf(x: array[f32], v: f32) {
    x[tid()] = v
}
array a: f32[4]
launch kf[4](a, 3.4e38)
print(a[0])                            //> 3.4e+38
launch kf[4](a, 1e40)                  ### "argument 2 \(v\) of kernel kf: 1e\+40 is out of range for f32"
---
kernel k(x: array[f32], s: i32) {
    x[tid()] = f32(s)
}
array a: f32[4]
launch k[4](a, 1.5)                    ### "not an integer"
---
kernel k2(x: array[f32, 2]) {
    let i, j = tid()
    x[i, j] = 1.0
}
array m: f32[2, 2]
launch k2[4](m)                        ### "unpacks tid\(\) into 2 names but is launched with 1"
---
kernel k(x: array[f32]) {
    x[0] = 1.0
}
array a: f32[4]
launch k[65536, 65536](a)              ### "2\^31-1"
---
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array a: f32[4]
launch k[-1](a)                        ### "negative launch dimension"
---
let notk = 3
launch notk[1]()                       ### "not a kernel"
---
// out-of-bounds accesses are errors on the cpu, with kernel, array, index, shape
//!cpu
kernel oob(x: array[f32]) {
    let i = tid()
    x[i + 1] = 1.0                     ### "kernel oob: index 4 out of bounds for axis 0 of array a with shape \[4\]"
}
array a: f32[4]
launch oob[4](a)
---
//!cpu
kernel div(x: array[i32], d: i32) {
    let i = tid()
    x[i] = x[i] / d                    ### "integer division by zero"
}
array a: i32[4] = 1
launch div[4](a, 0)
---
// errors inside a kernel launched from a fn carry the call chain
//!cpu
kernel oob(x: array[f32]) {
    x[9] = 1.0                         ### "out of bounds"
}
fn go(a) {
    launch oob[1](a)
}
go(zeros(2))
---
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
array a: f32[4]
free(a)
launch k[4](a)                         ### "freed"
---
kernel k(x: array[f32]) {
    x[tid()] = 1.0
}
k(1)                                   ### "kernel k cannot be called"
