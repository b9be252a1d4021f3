// Fast math (TYPES.md section 5): a fast kernel may differ from the strict
// cpu in the last bits, so these chunks print only what fast math cannot
// change: rounded values, agreement within a tolerance, integer results.
// Both kernels call one func, compiled with each kernel's math.
func eight(i: i32, v: f32, out: array[f32, 2]) {
    out[i, 0] = sqrt(v)
    out[i, 1] = rsqrt(v)
    out[i, 2] = 1.0 / v
    out[i, 3] = sin(v)
    out[i, 4] = exp(v)
    out[i, 5] = log(v)
    out[i, 6] = v * v + v
    out[i, 7] = pow(v, 1.5)
}
kernel strict_math(x: array[f32], out: array[f32, 2]) {
    let i = tid()
    eight(i, x[i], out)
}
kernel fast_math(x: array[f32], out: array[f32, 2]) fast {
    let i = tid()
    eight(i, x[i], out)
}
let n = 1000
let x = linspace(0.5, 4.0, n)
let s = zeros([n, 8])
let f = zeros([n, 8])
launch strict_math[n](x, s)
launch fast_math[n](x, f)
print(allclose(f, s, rtol=1e-5, atol=1e-5))   //> true
print(round(float(f[n - 1, 0]), 4), round(float(f[n - 1, 1]), 4), round(float(f[n - 1, 2]), 4))   //> 2.0 0.5 0.25
print(round(float(f[n - 1, 6]), 3), round(float(f[n - 1, 7]), 3), round(float(f[0, 4]), 3))   //> 20.0 8.0 1.649
---
// integer arithmetic and the control flow it decides are exact in a fast
// kernel
kernel collatz(out: array[i32], r: array[f32]) fast {
    let i = tid()
    let x = i + 1
    let s = 0
    while x != 1 {
        x = select(x % 2 == 0, x / 2, 3 * x + 1)
        s += 1
    }
    out[i] = s
    r[i] = f32(s) * 0.5
}
array out: i32[8]
array r: f32[8]
launch collatz[8](out, r)
print(out)   //> [0, 1, 7, 2, 5, 8, 16, 3]
print(r)     //> [0.0, 0.5, 3.5, 1.0, 2.5, 4.0, 8.0, 1.5]
---
// config.fast_math makes script kernels fast from then on; kernels the
// library builds (here x / 3.0) stay strict, and turning it off compiles
// the strict kernel again
kernel third(x: array[f32], y: array[f32]) {
    let i = tid()
    y[i] = x[i] / 3.0
}
let x = linspace(1, 8, 8)
let y = zeros(8)
config.fast_math = true
print(config.fast_math)   //> true
launch third[8](x, y)
print(allclose(y, x / 3.0, rtol=1e-6, atol=0))   //> true
print(x / 3.0)   //> [0.33333334, 0.6666667, 1.0, 1.3333334, 1.6666666, 2.0, 2.3333333, 2.6666667]
config.fast_math = false
launch third[8](x, y)
print(y)   //> [0.33333334, 0.6666667, 1.0, 1.3333334, 1.6666666, 2.0, 2.3333333, 2.6666667]
