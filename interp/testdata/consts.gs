// Consts (TYPES.md section 3): top-level constant expressions that host
// code and kernels share, and the predeclared inf and nan.
// a const is a host value too, usable before its declaration (as in Go)
print(M, N, HALF, ON, type(N), type(HALF))  //> 32 16 0.5 true int float
const N = 16
const M = N * 2
const HALF = 1 / 2.0
const ON = N > 8 && !false
---
// a typed const is a scalar of its type
const W: i32 = 7
const X: f64 = 1.5
print(W, type(W), X, type(X))              //> 7 i32 1.5 f64
const Z: u8 = 0
const D = ~Z
print(D, type(D))                          //> 255 u8
---
// block shape, shared and local extents, loop bounds from consts
const T = 4
const HALO = 1
kernel sums(x: array[f32], out: array[f32]) block(T) {
    shared t: f32[T + 2 * HALO]
    local acc: f32[T]
    let i = tid()
    t[thread_id() + HALO] = x[i]
    sync()
    for k in range(T) {
        acc[k] = f32(k)
    }
    let s = 0.0
    for k in range(T) {
        s += acc[k]
    }
    out[i] = t[thread_id() + HALO] + s
}
let x = full(8, 1.0, dtype=f32)
array o: f32[8]
launch sums[grid(2)](x, o)
print(o)                                   //> [7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0]
---
// a 2-D block from consts
const B = 2
kernel ids(out: array[i32, 2]) block(B, B) {
    shared t: i32[B, B]
    let ty, tx = thread_id()
    t[ty, tx] = ty * 10 + tx
    sync()
    let i, j = tid()
    out[i, j] = t[ty, tx] + B
}
array m: i32[2, 2]
launch ids[grid(1, 1)](m)
print(m)                                   //> [[2, 3], [12, 13]]
---
// an untyped const takes the type its use needs in a kernel
const SCALE = 3
kernel scale(x: array[f64]) {
    let i = tid()
    x[i] = x[i] * SCALE + f64(SCALE)
}
let y = full(2, 1.0, dtype=f64)
launch scale[2](y)
print(y)                                   //> [6.0, 6.0]
---
// inf and nan in host code
let m = -inf
print(inf, m, nan, nan == nan, nan != nan, inf > 1e308)  //> inf -inf nan false true true
print(type(inf), inf == inf + 1, -inf < -1e308)   //> float true true
---
// inf and nan in a kernel take the float type of their use (f32 by default)
kernel lim(x: array[f32], y: array[f64]) {
    let i = tid()
    let m = -inf
    x[i] = max(x[i], m)
    y[i] = min(y[i], -inf)
    if i == 1 {
        x[i] = inf
        y[i] = inf
    }
    if i == 2 {
        x[i] = nan
        y[i] = nan
    }
}
let z = full(3, 2.0, dtype=f32)
let w = full(3, 2.0, dtype=f64)
launch lim[3](z, w)
print(z, w)                                //> [2.0, inf, nan] [-inf, inf, nan]
---
// consts of an import are reached as mod.N in host code
import "testdata/constlib.gs"
print(constlib.SIZE, constlib.TWICE)       //> 8 16
---
const N = 1
N = 2                                      ### "cannot assign to const N"
---
fn f() {
    const K = 1 ### "const K must be declared at top level"
}
---
let n = 3
const K = n + 1                            ### "n is not a constant"
---
const K = len([1])                         ### "len\(\[1\]\) is not a constant expression"
---
const A = B + 1                            ### "const A refers to itself"
const B = A
---
const N = 1
let N = 2                                  ### "N redeclared: it is the const declared at"
---
const S = "s"                              ### "a const is a number or a bool"
---
const Q = 1 / 0                            ### "division by zero in a const"
---
const I = inf                              ### "inf cannot be used in a const"
---
const U = V                                ### "undefined: V"
---
const E: u8 = 300                          ### "cannot be represented as u8"
---
kernel k() {
    const K = 1 ### "const declaration \(consts are declared at top level\) not allowed in a kernel"
}
---
const D = 2.5
kernel k() block(D) {}                     ### "block extent D \(untyped float constant\) must be an integer constant"
---
// an imported const is a host value: a const or a kernel cannot use mod.N
import "testdata/constlib.gs"
const M = constlib.SIZE                    ### "constlib.SIZE is not a constant expression"
---
const BIG = 1 << 70                        ### "constant 1180591620717411303424 overflows the host int \(64 bits\)"
