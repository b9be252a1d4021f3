// Conformance scripts: each chunk runs on every backend and must print the
// same lines there. Integer arithmetic is exact on every backend: wrap-around,
// truncating division, shifts.
kernel intops(a: array[i32], out: array[i32, 2]) {
    let i = tid()
    let x = a[i]
    out[i, 0] = x / 3
    out[i, 1] = x % 3
    out[i, 2] = x << 2
    out[i, 3] = x >> 1
    out[i, 4] = x * 1000000
}
array a: i32[4] = [7, -7, 1 << 30, -1]
array out: i32[4, 5]
launch intops[4](a, out)
print(out[0])    //> [2, 1, 28, 3, 7000000]
print(out[1])    //> [-2, -1, -28, -4, -7000000]
print(out[2, 4], out[3, 3])  //> 0 -1
---
// atomics: a histogram is the same whatever the order of the threads
kernel hist(x: array[i32], h: array[i32]) {
    let i = tid()
    atomic_add(h, x[i] % 4, 1)
}
let n = 1000
array x: i32[n] = arange(n)
array h: i32[4]
launch hist[n](x, h)
print(h, sum(h))   //> [250, 250, 250, 250] 1000
---
// 2-D launch over a non-square grid: every element written exactly once
kernel fill2(m: array[f32, 2], s: f32) {
    let i, j = tid()
    m[i, j] = f32(i * 100 + j) * s
}
array m: f32[3, 5]
launch fill2[3, 5](m, 0.5)
print(m[2], sum(m))   //> [100.0, 100.5, 101.0, 101.5, 102.0] 765.0
---
// device funcs, loops and select; sqrt is correctly rounded everywhere
func steps(v: i32) -> i32 {
    let s = 0
    let x = v
    while x != 1 {
        x = select(x % 2 == 0, x / 2, 3 * x + 1)
        s += 1
    }
    return s
}
kernel k(out: array[i32], r: array[f64]) {
    let i = tid()
    out[i] = steps(i + 1)
    r[i] = sqrt(f64(i))
}
array out: i32[8]
array r: f64[8]
launch k[8](out, r)
print(out)           //> [0, 1, 7, 2, 5, 8, 16, 3]
print(r[4], r[1])    //> 2.0 1.0
---
// a run-time error in a kernel names the same line on every backend (the
// cpu always checks bounds; CUDA in debug mode)
config.debug = true
kernel bad(x: array[f32]) {
    let i = tid()
    x[i + 1] = 1  ### "kernel bad: index 4 out of bounds for axis 0 of array x"
}
array x: f32[4]
launch bad[4](x)
