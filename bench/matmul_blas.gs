// matmul_blas.gs: the matmul builtin on n^2 matrices through the device's
// BLAS (cuBLAS on CUDA: cublasGemmEx on gscript's stream; OpenBLAS, or gonum
// without it, on the cpu: gscript devices says which), f32 with TF32 off
// and on (config.allow_tf32) and f64. Compare with
// ../shared/bench/workloads.py arraylib matmul (torch.matmul) and with
// bench/matmul.gs (the generated tiled kernel).
let n = 4096                                 // gscript run bench/matmul_blas.gs [N]
if len(argv) > 1 {
    n = int(argv[1])
}
let reps = 20
if zeros(1).device == "cpu" {
    reps = 1
}
fn tflops(dtype, tf32) {
    config.allow_tf32 = tf32
    let a = ones([n, n], dtype=dtype)
    let b = full([n, n], 0.5, dtype=dtype)
    let c = zeros([n, n], dtype=dtype)
    matmul(a, b, out=c)                      // warm: the handle, cuBLAS's kernel choice
    synchronize()
    let t0 = time()
    for r in range(reps) {
        matmul(a, b, out=c)
    }
    synchronize()
    let dt = (time() - t0) / float(reps)
    assert c[n - 1, n - 1] == 0.5 * float(n), "c[n-1, n-1] is n/2"
    config.allow_tf32 = false
    return 2.0 * float(n) * float(n) * float(n) / dt / 1e12
}
print(format("gscript matmul %d^2 f32: %.1f TFLOP/s (tf32 off)", n, tflops(f32, false)))
print(format("gscript matmul %d^2 f32: %.1f TFLOP/s (tf32 on)", n, tflops(f32, true)))
print(format("gscript matmul %d^2 f64: %.1f TFLOP/s", n, tflops(f64, false)))
