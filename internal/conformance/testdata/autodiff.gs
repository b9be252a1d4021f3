// Tapes on every backend: recorded launches run their generated adjoints
// (lang/ad), backward seeds the loss, gradients accumulate into leaves
// and are computed anew for intermediates, zero_grad and reset clear
// them. Per-element kernels give the same bits on every device.
kernel square(x: array[f64], y: array[f64]) {
    let i = tid()
    y[i] = x[i] * x[i] + sin(x[i])
}
kernel total(y: array[f64], out: array[f64]) {
    let i = tid()
    atomic_add(out, 0, y[i])
}
array x: f64[4] = [0.0, 0.5, 1.0, 2.0] requires_grad
let y = zeros(4, dtype=f64)
let loss = zeros(1, dtype=f64)
tape t {
    launch square[4](x, y)
    launch total[4](y, loss)
}
print(t, x.requires_grad, y.requires_grad, loss[0] > 7.0)  //> <tape t: 2 operations> true true true
backward(t, loss)
print(x.grad)                          //> [1.0, 1.8775825618903728, 2.5403023058681398, 3.583853163452858]
backward(t, loss)
print(x.grad[3], y.grad)               //> 7.167706326905716 [1.0, 1.0, 1.0, 1.0]
zero_grad(t)
print(x.grad[3], loss.grad)            //> 0.0 [0.0]
t.reset()
print(t.len)                           //> 0
---
// vectors, a loop and a branch through a kernel; the gradient of a vec3
// array is a vec3 array
kernel pull(p: array[vec3d], q: array[vec3d], k: f64) {
    let i = tid()
    let v = p[i]
    for s in range(3) {
        if length(v) > 1.0 {
            v = v * k
        } else {
            v = v + vec3d(k)
        }
    }
    q[i] = v
}
let p = array([[0.1, 0.2, 0.3], [1.0, 2.0, 2.0]], dtype=vec3d, requires_grad=true)
let q = zeros(2, dtype=vec3d)
tape t {
    launch pull[2](p, q, 0.5)
}
backward(t, q, grads=1.0)
print(p.grad)                          //> [vec3d(0.5, 0.5, 0.5), vec3d(0.25, 0.25, 0.25)]
---
// a declared adjoint replaces the generated one
kernel double(x: array[f64], y: array[f64]) adjoint double_adj {
    let i = tid()
    y[i] = 2.0 * x[i]
}
kernel double_adj(x: array[f64], y: array[f64], x_grad: array[f64], y_grad: array[f64]) {
    let i = tid()
    x_grad[i] += 2.0 * y_grad[i]
}
let x = ones(3, dtype=f64, requires_grad=true)
let y = zeros(3, dtype=f64)
tape t {
    launch double[3](x, y)
}
backward(t, y, grads=ones(3, dtype=f64))
print(x.grad)                          //> [2.0, 2.0, 2.0]
---
// what a tape refuses: a kernel that overwrites its input, and a write
// over an array it recorded
kernel scale(x: array[f64]) {
    let i = tid()
    x[i] = x[i] * 2.0
}
kernel copyk(x: array[f64], y: array[f64]) {
    let i = tid()
    y[i] = x[i]
}
let x = ones(2, dtype=f64, requires_grad=true)
let y = zeros(2, dtype=f64)
try {
    tape t {
        launch scale[2](x)
    }
} catch e {
    print(e.message)                   //> kernel scale overwrites its input x; its adjoint would replay with the new values: write to a new array (at autodiff.gs:5:6): a tape cannot record it
}
try {
    tape t {
        launch copyk[2](x, y)
        launch copyk[2](x, y)
    }
} catch e {
    print(e.message)                   //> kernel copyk writes over an array that tape t recorded earlier; a tape records each array written once: write the result to a new array
}
