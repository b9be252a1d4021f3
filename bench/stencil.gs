// stencil.gs: Jacobi-2d on 4096^2 f32 with a shared 18x18 tile per 16x16
// block, beside the same stencil reading global memory. GB/s count one
// read and one write of the grid per step. Compare with
// ../shared/bench/workloads.py jacobi2d.
kernel jacobi_tiled(u: array[f32, 2], v: array[f32, 2]) block(16, 16) {
    shared tile: f32[18, 18]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let n = u.shape[0]
    let m = u.shape[1]
    let i0 = by * 16 - 1
    let j0 = bx * 16 - 1
    for k in range(ty * 16 + tx, 18 * 18, 256) {
        let ti = k / 18
        let tj = k % 18
        let i = i0 + ti
        let j = j0 + tj
        if i >= 0 && i < n && j >= 0 && j < m {
            tile[ti, tj] = u[i, j]
        } else {
            tile[ti, tj] = 0.0
        }
    }
    sync()
    let i = by * 16 + ty
    let j = bx * 16 + tx
    if i < n && j < m {
        if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
            v[i, j] = u[i, j]
        } else {
            let y = ty + 1
            let x = tx + 1
            v[i, j] = 0.25 * (tile[y - 1, x] + tile[y + 1, x] + tile[y, x - 1] + tile[y, x + 1])
        }
    }
}
kernel jacobi(u: array[f32, 2], v: array[f32, 2]) {
    let i, j = tid()
    let n = u.shape[0]
    let m = u.shape[1]
    if i == 0 || j == 0 || i == n - 1 || j == m - 1 {
        v[i, j] = u[i, j]
        return
    }
    v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
}
kernel init(u: array[f32, 2]) {
    let i, j = tid()
    u[i, j] = f32((i * 13 + j * 7) % 101)
}
let n = 4096
array a: f32[n, n]
array b: f32[n, n]
array c: f32[n, n]
array d: f32[n, n]
launch init[n, n](a)
launch init[n, n](c)
fn rate(reps, tiled) {
    let t0 = time()
    for r in range(reps) {
        if tiled {
            launch jacobi_tiled[grid(n / 16, n / 16)](a, b)
            launch jacobi_tiled[grid(n / 16, n / 16)](b, a)
        } else {
            launch jacobi[n, n](c, d)
            launch jacobi[n, n](d, c)
        }
    }
    synchronize()
    return round(8.0 * float(n * n) / ((time() - t0) / float(2 * reps)) / 1e9)
}
rate(1, true)
rate(1, false)
print("gscript jacobi2d shared tile 4096^2 f32:", rate(50, true), "GB/s")
print("gscript jacobi2d global 4096^2 f32:", rate(50, false), "GB/s")
assert equal(a, c), "tiled and plain stencils agree"
