// reduce.gs: the reductions of ARRAYS.md section 6 on the default device,
// best of 5 after a round that builds the kernels, GB/s of data read. Each
// timing includes reading the host result (along an axis: a
// synchronize()), as ../shared/bench/workloads.py's float(cp.sum(x)) does:
// sum, max, argmax, dot and the fused sum(x * y) (one pass, no temporary:
// 8 bytes read per element, as dot) of 2^28 f32 and sum(m, axis=1) of a 16384 x
// 16384 f32 matrix; then the same of 2^26 f32 (a 4096 x 16384 matrix) on
// the cpu. Compare with workloads.py reduce (cupy_reduce_sum, _max, _dot)
// and arraylib (cupy_argmax, cupy_sum_axis1) in the same visit, and the
// cpu line with numpy.sum on the same machine.
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 1024) * 0.0009765625
}
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
fn bench(dev, n) {
    array x: f32[n] on dev
    array y: f32[n] = 0.5 on dev
    launch init[n](x) on dev
    let m = x.reshape([n / 16384, 16384])
    synchronize()
    let best = [1e30, 1e30, 1e30, 1e30, 1e30, 1e30]
    for r in range(6) {
        let t0 = time()
        let s = sum(x)
        let t1 = time()
        let mx = max(x)
        let t2 = time()
        let am = argmax(x)
        let t3 = time()
        let d = dot(x, y)
        let t4 = time()
        let rows = sum(m, axis=1)
        synchronize()
        let t5 = time()
        let fs = sum(x * y)
        let t6 = time()
        assert s == float(n) * 1023.0 / 2048.0 && mx == f32(1023.0 / 1024.0) && am == 1023, "wrong results"
        assert d == s * 0.5 && rows[0] == f32(8184.0) && fs == d, "wrong results"
        if r > 0 {
            let ts = [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5]
            for k in range(6) {
                best[k] = min(best[k], ts[k])
            }
        }
    }
    let b = 4 * n
    print("reduce", dev, "n", n, "sum", rate(b, best[0]), "max", rate(b, best[1]), "argmax", rate(b, best[2]),
        "dot", rate(2 * b, best[3]), "sum(x*y)", rate(2 * b, best[5]), "sum_axis1", rate(b, best[4]), "GB/s")
}
bench(str(device_info().device), 1 << 28)
bench("cpu", 1 << 26)
