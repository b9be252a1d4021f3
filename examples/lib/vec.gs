// lib/vec.gs: vector helpers for examples/imports.gs. It lives in lib/ so
// that CI, which runs every examples/*.gs, runs only the scripts; importing
// it runs its top level once, however many files import it.

// eps is the tolerance the helpers' checks allow, read as vec.eps.
let eps = 1e-5

// scale_add computes y = a*x + y, one thread per element.
kernel scale_add(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}

// norm is the Euclidean length of a 1-D array.
fn norm(v) {
    return sqrt(sum(v * v))
}

// close reports whether two numbers agree within eps, relative to b.
fn close(a, b) {
    return abs(a - b) <= eps * abs(b)
}
