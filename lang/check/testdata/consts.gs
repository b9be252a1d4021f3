// Checker tests (lang/check/script_test.go): const declarations (TYPES.md
// section 3) where kernels need constants, and inf and nan.
// block shape, shared and local extents from consts, in any order
kernel k(x: array[f32, 2]) block(N, N) {
    shared t: f32[N + 2 * HALO, N + 2 * HALO]
    local acc: f32[UNROLL]
    let ty, tx = thread_id()
    let i, j = tid()
    t[ty + HALO, tx + HALO] = x[i, j]
    sync()
    for u in range(UNROLL) {
        acc[u] = t[ty, tx] * SCALE
    }
    x[i, j] = acc[0]
}
const N = 16
const HALO = 1
const UNROLL = N / 4
const SCALE = 0.5
---
// an untyped const takes the type of its use; a typed one keeps its own
const K = 3
const W: i64 = 3
kernel k(x: array[f64], y: array[i64]) {
    let i = tid()
    x[i] = x[i] * K
    y[i] = y[i] + W
}
---
// a parameter or variable of the kernel hides a const
const N = 4
kernel k(x: array[i32], N: i32) {
    let i = tid()
    x[i] = N
}
---
const W: i32 = 2
kernel k(x: array[f32]) {
    x[tid()] = W ### "cannot use W \(constant 2 of type i32\) as f32 value"
}
---
const N = 2048
kernel k() block(N) {}                     ### "block extent 2048 along x \(axis 0\) is too large"
---
const N = 0
kernel k() {
    local a: f32[N] ### "must be at least 1"
}
---
const N: f32 = 2
kernel k() {
    local a: f32[N] ### "local array extent N \(constant 2 of type f32\) must be an integer constant"
}
---
// inf and nan in a kernel take the float type of their use, f32 by default
kernel k(x: array[f32], y: array[f64]) {
    let i = tid()
    x[i] = max(x[i], -inf)
    y[i] = max(-inf, y[i]) + nan
    y[i] = -inf
    let m: f64 = -(-inf)
    let d = inf
    let e: f32 = d
    if y[i] < inf && m > -inf {
        y[i] = f64(nan) + f64(e)
    }
}
---
kernel k(y: array[f64]) {
    let d = inf
    y[tid()] = d ### "cannot use d \(variable of type f32\) as f64 value"
}
---
kernel k(y: array[i32]) {
    y[tid()] = inf ### "cannot use inf \(value of type f32\) as i32 value"
}
---
// consts made of other consts and every operator kind
const A = (1 << 4) | 3 & ~0
const B = A % 5 == 4 || !true
const C = -2.5 * A / 4
const Z: u8 = 0
const D = ~Z
kernel k(x: array[f32], y: array[u8]) {
    let i = tid()
    if B {
        x[i] = C + f32(A)
    }
    y[i] = D
}
---
const T: i32 = 1
const U: i64 = 2
const V = T + U                            ### "mismatched types i32 and i64 in a const"
---
const S = 1 << 2000                        ### "shift count 2000 must be between 0 and 1024"
---
const F = 1.5 % 2                          ### "operator % not defined on 1.5 and 2 in a const"
---
const G = -true                            ### "operator - not defined on true in a const"
---
const H: vec = 1                           ### "a const has a scalar type \(one of bool u8 i32 i64 u32 u64 f32 f64\), not vec"
---
const N = 1
N += 1                                     ### "cannot assign to const N"
---
if true {
    const N = 1 ### "const N must be declared at top level"
}
---
const N = 1
const N = 2                                ### "N redeclared in this block"
