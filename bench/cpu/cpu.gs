// cpu.gs: the gscript side of bench/cpu/run.sh on the cpu device: the
// workloads and data of cpu.c and cpu.py, "name best_ms" lines.
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 7) - 3.0
}

kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}

// jacobi-2d's interior, as cpu.c's loop (the border is left alone).
kernel jacobi(u: array[f32, 2], v: array[f32, 2]) {
    let r, c = tid()
    let i = r + 1
    let j = c + 1
    v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
}

let n = 1 << 24
let side = 4096
let reps = 10
array x: f32[n] = 0.0
launch init[n](x)
array y: f32[n] = 1.0
array v: f32[side, side] = 0.0
let x2 = x.reshape(side, side)
let a = f32(0.5)
array m1: f32[1024, 1024] = 1.0
let z = x
array z2: f32[n] = 0.0
let s = x[0]

fn best(name, f) {
    f()
    let b = 1e30
    for r in range(reps) {
        let t0 = time()
        f()
        b = min(b, time() - t0)
    }
    print(name, format("%.3f", b * 1e3))
}

fn w_axpy() {
    y += a * x
}
fn w_axpbz() {
    z = a * x + y
}
fn w_axpbz_store() {
    z2[:] = a * x + y
}
fn w_where() {
    z = where(x > 0, x, 0)
}
fn w_where_store() {
    z2[:] = where(x > 0, x, 0)
}
fn w_sum() {
    s = sum(x)
}
fn w_max() {
    s = max(x)
}
fn w_sum_axis1() {
    z = sum(x2, axis=1)
}
fn w_cumsum() {
    z = cumsum(x)
}
fn w_saxpy() {
    launch saxpy[n](x, y, a)
}
fn w_jacobi() {
    launch jacobi[side - 2, side - 2](x2, v)
}
fn w_matmul() {
    z = matmul(m1, m1)
}

best("axpy", w_axpy)
best("axpbz", w_axpbz)
best("axpbz_store", w_axpbz_store)
best("where", w_where)
best("where_store", w_where_store)
best("sum", w_sum)
best("max", w_max)
best("sum_axis1", w_sum_axis1)
best("cumsum", w_cumsum)
best("saxpy", w_saxpy)
best("jacobi", w_jacobi)
best("matmul", w_matmul)
