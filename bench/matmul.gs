// matmul.gs: 4096^2 f32 matrix product by a register-tiled block kernel
// (128x128 tile per block of 16x16 threads, 8x8 outputs per thread in a
// local array, 8-deep shared tiles, explicit fma), beside the naive
// one-thread-per-element kernel and the tiled one with each thread's rows
// and columns 16 apart. All three give the same bits (fma in the same
// order). Compare with ../shared/bench/workloads.py
// matmul (cuBLAS through CuPy and PyTorch, TF32 off).
// As sgemm_strided, but each thread's 8 rows (and 8 columns) are two runs
// of 4 neighbours, 64 apart: a run is 16 aligned bytes of the shared
// tile, which the compiler reads in one 128-bit load, and the 8 threads of
// a load phase read 128 neighbouring bytes (no bank conflicts).
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
                ra[i] = as[q, ty * 4 + i % 4 + 64 * (i / 4)]
                rb[i] = bs[q, tx * 4 + i % 4 + 64 * (i / 4)]
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
            c[row0 + ty * 4 + i % 4 + 64 * (i / 4), col0 + tx * 4 + j % 4 + 64 * (j / 4)] = acc[i, j]
        }
    }
}
kernel sgemm_strided(a: array[f32, 2], b: array[f32, 2], c: array[f32, 2]) block(16, 16) {
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
let n = 4096                                 // gscript run bench/matmul.gs [N], N a multiple of 128
if len(argv) > 1 {
    n = int(argv[1])
}
array a: f32[n, n]
array b: f32[n, n]
array c: f32[n, n]
array ref: f32[n, n]
launch init[n, n](a, b)
fn tflops(reps, kind) {
    let t0 = time()
    for r in range(reps) {
        if kind == "strided" {
            launch sgemm_strided[grid(n / 128, n / 128)](a, b, c)
        } else if kind == "tiled" {
            launch sgemm[grid(n / 128, n / 128)](a, b, c)
        } else {
            launch naive[n, n](a, b, ref)
        }
    }
    synchronize()
    return round(2.0 * float(n) * float(n) * float(n) / ((time() - t0) / float(reps)) / 1e9, 2)
}
tflops(1, "tiled")
tflops(1, "naive")
let reps = 10
if a.device == "cpu" {
    reps = 1
}
print("gscript sgemm tiled", n, "^2 f32 on", a.device, ":", tflops(reps, "tiled"), "GFLOP/s")
print("gscript sgemm naive", n, "^2 f32 on", a.device, ":", tflops(max(1, reps / 3), "naive"), "GFLOP/s")
assert array_equal(c, ref), "tiled and naive agree"
tflops(1, "strided")
print("gscript sgemm tiled, strided fragments", n, "^2 f32 on", a.device, ":", tflops(reps, "strided"), "GFLOP/s")
assert array_equal(c, ref), "both tiled kernels agree with the naive one"
