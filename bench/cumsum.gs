// cumsum.gs: cumsum of 2^26 i32 (an i64 result, NumPy's dtype) on the
// default device, best of 10 after a round that builds the kernels, with
// a synchronize() per scan, results from the stream-ordered pool (as
// CuPy's come from its pool); GB/s count 8 bytes per element as
// ../shared/bench/workloads.py arraylib (cupy_cumsum_i32) does. Also
// cumsum(m, axis=1) of a 4096 x 16384 f32 matrix. Compare with
// workloads.py in the same visit (cupy_cumsum_i32 ~ 750-820 GB/s).
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
let n = 1 << 26
let x = ones(n, dtype=i32)
let m = ones([4096, 16384])
let s = cumsum(x)
let r = cumsum(m, axis=1)
synchronize()
assert s[n - 1] == n && s[12345] == 12346 && r[4095][16383] == f32(16384.0), "cumsum result"
let best = [1e30, 1e30]
allocator mempool {
    for k in range(10) {
        let t0 = time()
        s = cumsum(x)
        synchronize()
        let t1 = time()
        r = cumsum(m, axis=1)
        synchronize()
        let t2 = time()
        best = [min(best[0], t1 - t0), min(best[1], t2 - t1)]
    }
}
print("cumsum", device_info().device, "2^26 i32", rate(8 * n, best[0]), "GB/s; axis=1 of 4096 x 16384 f32", rate(8 * n, best[1]), "GB/s")
