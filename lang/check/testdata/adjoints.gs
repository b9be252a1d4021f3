// Checker tests (lang/check/script_test.go): custom adjoints, `kernel
// k(...) adjoint k_adj`, lang/check/adjoint.go.
// an adjoint takes k's params, then one gradient per float array, declared before or after k
kernel k(x: array[f32], n: array[i32], a: f32, y: array[f64, 2]) adjoint k_adj {
    let i = tid()
    y[i, 0] = f64(a * x[i]) + f64(n[i])
}
kernel k_adj(x: array[f32], n: array[i32], a: f32, y: array[f64, 2], xg: array[f32], yg: array[f64, 2]) {
    let i = tid()
    xg[i] += a * f32(yg[i, 0])
}
kernel first(v: array[f32]) {
    v[tid()] = 0.0
}
kernel second(v: array[f32]) adjoint first2 {
    v[tid()] = 1.0
}
kernel first2(v: array[f32], g: array[f32]) {}
---
// vector arrays get gradients of their own type; integer vectors and scalars get none
kernel k(p: array[vec3], q: array[vec3i], s: vec3) adjoint k_adj {
    p[tid()] = s
}
kernel k_adj(p: array[vec3], q: array[vec3i], s: vec3, p_grad: array[vec3]) {}
---
// a kernel without float arrays: its adjoint takes its params only
kernel k(n: array[i32]) adjoint k_adj {}
kernel k_adj(m: array[i32]) {}
---
// the gradient arrays are missing
kernel k(x: array[f32], y: array[f32]) adjoint k_adj {} ### "adjoint k_adj of kernel k must take \(x: array\[f32\], y: array\[f32\], x_grad: array\[f32\], y_grad: array\[f32\]\); it takes \(x: array\[f32\], y: array\[f32\]\)"
kernel k_adj(x: array[f32], y: array[f32]) {}
---
// a gradient of the wrong rank and element type
kernel k(x: array[f32, 2]) adjoint k_adj {} ### "must take \(x: array\[f32, 2\], x_grad: array\[f32, 2\]\); it takes \(x: array\[f32, 2\], g: array\[f64\]\)"
kernel k_adj(x: array[f32, 2], g: array[f64]) {}
---
// a vec3 array's gradient is a vec3 array, not its f32 lanes
kernel k(p: array[vec3]) adjoint k_adj {} ### "must take \(p: array\[vec3\], p_grad: array\[vec3\]\); it takes \(p: array\[vec3\], g: array\[f32, 2\]\)"
kernel k_adj(p: array[vec3], g: array[f32, 2]) {}
---
// the forward params come first, in order
kernel k(a: f32, x: array[f32]) adjoint k_adj {} ### "must take \(a: f32, x: array\[f32\], x_grad: array\[f32\]\); it takes \(x: array\[f32\], a: f32, g: array\[f32\]\)"
kernel k_adj(x: array[f32], a: f32, g: array[f32]) {}
---
// the adjoint must be a kernel of this file
kernel k(x: array[f32]) adjoint nope {} ### "adjoint nope of kernel k is not a kernel declared in this file"
---
// a func is no adjoint
func f(x: f32) -> f32 {
    return x
}
kernel k(x: array[f32]) adjoint f {} ### "adjoint f of kernel k is not a kernel declared in this file"
---
// a kernel is not its own adjoint
kernel k(x: array[f32]) adjoint k {} ### "kernel k cannot be its own adjoint"
---
// block kernels declare none, and are none
kernel k(x: array[f32]) block(32) adjoint k_adj {} ### "block kernel k cannot declare an adjoint \(block kernels are not differentiable yet\)"
kernel k_adj(x: array[f32], g: array[f32]) {}
---
kernel k(x: array[f32]) adjoint k_adj {} ### "adjoint k_adj of kernel k is a block kernel; an adjoint is launched as its kernel is, over threads"
kernel k_adj(x: array[f32], g: array[f32]) block(32) {}
---
// a parameter type error is reported once, not again as a mismatch
kernel k(x: array[f33]) adjoint k_adj {} ### "f33"
kernel k_adj(x: array[f32], g: array[f32]) {}
---
// adjoint stays a name elsewhere
kernel adjoint(adjoint: array[f32]) {
    adjoint[tid()] = 1.0
}
let y = zeros(4)
launch adjoint[4](y)
