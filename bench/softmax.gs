// softmax.gs: row softmax of 8192 x 4096 f32, one block of 256 threads per
// row (block_max, block_sum), and the same with one thread per row. GB/s
// count one read and one write of the matrix. Compare with
// ../shared/bench/workloads.py arraylib (torch_softmax_rows) and softmax.
kernel softmax(x: array[f32, 2], y: array[f32, 2]) block(256) {
    let row = block_id()
    let t = thread_id()
    let m = x.shape[1]
    let big: f32 = -3.0e38
    for j in range(t, m, 256) {
        big = max(big, x[row, j])
    }
    big = block_max(big)
    let s: f32 = 0.0
    for j in range(t, m, 256) {
        s += exp(x[row, j] - big)
    }
    s = block_sum(s)
    let inv = 1.0 / s
    for j in range(t, m, 256) {
        y[row, j] = exp(x[row, j] - big) * inv
    }
}
kernel softmax_rows(x: array[f32, 2], y: array[f32, 2]) {
    let row = tid()
    let m = x.shape[1]
    let big: f32 = -3.0e38
    for j in range(m) {
        big = max(big, x[row, j])
    }
    let s: f32 = 0.0
    for j in range(m) {
        s += exp(x[row, j] - big)
    }
    for j in range(m) {
        y[row, j] = exp(x[row, j] - big) / s
    }
}
kernel init(x: array[f32, 2]) {
    let i, j = tid()
    x[i, j] = f32((i * 31 + j * 17) % 1013) / 1013.0
}
let rows = 8192
let cols = 4096
array x: f32[rows, cols]
array y: f32[rows, cols]
array ref: f32[rows, cols]
launch init[rows, cols](x)
fn rate(reps, block) {
    let t0 = time()
    for r in range(reps) {
        if block {
            launch softmax[grid(rows)](x, y)
        } else {
            launch softmax_rows[rows](x, ref)
        }
    }
    synchronize()
    return round(8.0 * float(rows * cols) / ((time() - t0) / float(reps)) / 1e9)
}
rate(1, true)
rate(1, false)
print("gscript softmax block per row 8192x4096 f32:", rate(20, true), "GB/s")
print("gscript softmax thread per row 8192x4096 f32:", rate(3, false), "GB/s")
assert allclose(y, ref, rtol=1e-4, atol=1e-7), "softmax results agree"
