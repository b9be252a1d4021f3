// matmul.gs: 4096^2 f32 matrix product by a register-tiled block kernel
// (128x128 tile per block of 16x16 threads, 8x8 outputs per thread in a
// local array, 8-deep shared tiles, explicit fma), beside the naive
// one-thread-per-element kernel. Compare with ../shared/bench/workloads.py
// matmul (cuBLAS through CuPy and PyTorch, TF32 off).
kernel sgemm(a: array[f32, 2], b: array[f32, 2], c: array[f32, 2]) block(16, 16) {
    shared as: f32[8, 128]
    shared bs: f32[8, 128]
    local acc: f32[8, 8]
    local ra: f32[8]
    local rb: f32[8]
    let ty, tx = thread_id()
    let by, bx = block_id()
    let t = ty * 16 + tx
    let k = a.shape[1]
    let row0 = by * 128
    let col0 = bx * 128
    for kk in range(0, k, 8) {
        for p in range(4) {
            let e = t + 256 * p
            as[e % 8, e / 8] = a[row0 + e / 8, kk + e % 8]
            bs[e / 128, e % 128] = b[kk + e / 128, col0 + e % 128]
        }
        sync()
        for q in range(8) {
            for i in range(8) {
                ra[i] = as[q, ty + 16 * i]
                rb[i] = bs[q, tx + 16 * i]
            }
            for i in range(8) {
                for j in range(8) {
                    acc[i, j] = fma(ra[i], rb[j], acc[i, j])
                }
            }
        }
        sync()
    }
    for i in range(8) {
        for j in range(8) {
            c[row0 + ty + 16 * i, col0 + tx + 16 * j] = acc[i, j]
        }
    }
}
kernel naive(a: array[f32, 2], b: array[f32, 2], c: array[f32, 2]) {
    let i, j = tid()
    let s: f32 = 0.0
    for q in range(a.shape[1]) {
        s = fma(a[i, q], b[q, j], s)
    }
    c[i, j] = s
}
kernel init(a: array[f32, 2], b: array[f32, 2]) {
    let i, j = tid()
    a[i, j] = f32((i * 7 + j * 3) % 17) / 17.0 - 0.5
    b[i, j] = f32((i * 5 + j * 11) % 13) / 13.0 - 0.5
}
let n = 4096
array a: f32[n, n]
array b: f32[n, n]
array c: f32[n, n]
array ref: f32[n, n]
launch init[n, n](a, b)
fn tflops(reps, tiled) {
    let t0 = time()
    for r in range(reps) {
        if tiled {
            launch sgemm[grid(n / 128, n / 128)](a, b, c)
        } else {
            launch naive[n, n](a, b, ref)
        }
    }
    synchronize()
    return round(2.0 * float(n) * float(n) * float(n) / ((time() - t0) / float(reps)) / 1e10) / 100.0
}
tflops(1, true)
tflops(1, false)
print("gscript sgemm tiled 4096^2 f32:", tflops(10, true), "TFLOP/s")
print("gscript sgemm naive 4096^2 f32:", tflops(3, false), "TFLOP/s")
assert allclose(c, ref, rtol=1e-4, atol=1e-3), "tiled and naive agree"
