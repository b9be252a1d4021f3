// Checker tests (lang/check/script_test.go): the host language v3's forms
// (HOST.md sections 2-3) check in host code, and kernels and funcs refuse
// the host-only ones.
// host code: every new form checks
let d = {"a": 1, 2: [3, {}], "n": {1: 2}}
let e = {}
d["b"] = 2 ** 3 ** 2
d["b"] **= 2
let p, q = 1, 2
p, q = q, p
for k, v in d.items() {
    if k in d && v not in [1, 2] {
        print(k, v)
    }
}
fn divmod(a, b) {
    return a / b, a % b
}
let r, m = divmod(7, 2)
try {
    print(d["zz"])
} catch err {
    print(err)
}
try {
    print(1)
} catch {}
---
// the catch name is seen only in the catch block
try {
    print(1)
} catch err {
    print(err)
}
print(err)                                           ### "undefined: err"
---
// the try block is a scope of its own
try {
    let x = 1
} catch {
    print(x) ### "undefined: x"
}
---
// every name of a multi-name for is bound in the body, and only there
for i, v in [[1, 2]] {
    print(i + v)
}
print(v)                                             ### "undefined: v"
---
// a name repeated in a for clause
for i, i in [[1, 2]] {}                              ### "i repeated in the for clause"
---
// every unpacking target must be assignable
let a = 1
a, b = 1, 2                                          ### "undefined: b"
---
// unpacking into a predeclared name
let a = 1
a, print = 1, 2                                      ### "cannot assign to predeclared print"
---
// dict keys and values resolve
let d = {k: 1}                                       ### "undefined: k"
---
// a const power folds exactly
const N = 2 ** 10
const F = 2 ** -1
const M: i32 = 3 ** 2
kernel k(x: array[i32], y: array[f32]) {
    let i = tid()
    x[i] = N + M
    y[i] = F
}
---
// a const power too large
const N = 10 ** 100000                               ### "constant 10 \*\* 100000 overflows"
---
// a typed int const power that is a float
const N: i32 = 2
const M = N ** -1                                    ### "N \*\* -1 is a float, not i32"
---
// in a kernel, a float power lowers as pow does; constants fold
kernel k(x: array[f32], n: f32) {
    let i = tid()
    x[i] = x[i] ** 2.0 + n ** x[i] + 2 ** 10
    x[i] **= 0.5
}
---
// f64 powers too
func cube(a: f64) -> f64 {
    return a ** 3
}
kernel k(x: array[f64]) {
    let i = tid()
    x[i] = cube(x[i]) ** -2
}
---
// an int power in a kernel is refused
kernel k(x: array[i32]) {
    let i = tid()
    x[i] = x[i] ** 2                                 ### "\*\* of i32 values is not available in a kernel: use a float operand"
}
---
// a constant int power that overflows its type
kernel k(x: array[i32]) {
    let i = tid()
    x[i] = 2 ** 40 ### "constant 1099511627776 overflows i32"
}
---
// a constant int power too large to fold
kernel k(x: array[i64]) {
    let i = tid()
    x[i] = 3 ** 200 ### "constant 3 \*\* 200 overflows"
}
---
// dicts are host-only
kernel k(x: array[f32]) {
    let d = {} ### "dicts are host-only: a kernel cannot build one"
}
---
// in is host-only
kernel k(x: array[f32]) {
    let b = 1 in x ### "in is host-only: a kernel has no lists"
}
---
// not in is host-only in a func
func f(a: i32) -> bool {
    return a not in a ### "not in is host-only: a func has no lists"
}
---
// try is host-only
kernel k(x: array[f32]) {
    try {} catch {} ### "try is host-only: a kernel cannot catch errors"
}
---
// several assignment targets are host-only
kernel k(x: array[f32]) {
    let a = 1.0
    let b = 2.0
    a, b = b, a ### "unpacking is host-only: a kernel cannot assign several targets"
}
---
// several for names are host-only
kernel k(x: array[f32]) {
    for i, v in range(3) {} ### "unpacking is host-only: a kernel cannot loop over several names"
}
---
// a let of a bare list of values is host-only
kernel k(x: array[f32]) {
    let a, b = 1, 2 ### "a list of values is host-only: a kernel cannot unpack one"
}
---
// returning several values is host-only
func f(a: i32) -> i32 {
    return a, a ### "returning several values is host-only: a func cannot return a list"
}
---
// method calls are host-only
kernel k(x: array[f32]) {
    x.append(1) ### "method calls are host-only: a kernel cannot call x.append"
}
