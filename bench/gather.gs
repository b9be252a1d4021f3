// gather.gs: a[idx] of 2^26 f32 with 2^26 random i64 indices on the
// default device, the median of 10 after a round that builds the kernels,
// with a synchronize() per gather, results from the stream-ordered pool
// (as CuPy's come from its pool). GB/s count 16 bytes per element as
// ../shared/bench/workloads.py indexing() does for cupy.take (read idx 8 B
// and x 4 B, write 4 B); compare with its cupy_take in the same visit.
// Also take(x, idx) * 2.0 + y, one fused kernel (20 bytes per element).
// As in array_expr.gs, the pool first reaches its steady state: each
// round drops two 256 MiB results, which go back to the pool when a Go
// collection finds them (every 4 GiB of device allocations), so 16
// rounds come first; before that a round's results were fresh memory
// (2.02 ms a gather against 1.79 ms on the H200).
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
fn median(ts) {
    let s = sorted(ts)
    return (s[len(s) / 2 - 1] + s[len(s) / 2]) / 2.0
}
let n = 1 << 26
let x = rand(n)
let y = rand(n, seed=1)
let idx = randint(0, n, n, seed=2).astype(i64)
let g = x[idx]
let f = take(x, idx) * 2.0 + y
synchronize()
assert g[7] == x[idx[7]] && f[9] == x[idx[9]] * 2.0 + y[9], "gather result"
let plain = []
let fused = []
allocator mempool {
    for k in range(16) {
        g = x[idx]
        f = take(x, idx) * 2.0 + y
    }
    synchronize()
    for k in range(10) {
        let t0 = time()
        g = x[idx]
        synchronize()
        let t1 = time()
        f = take(x, idx) * 2.0 + y
        synchronize()
        let t2 = time()
        plain.append(t1 - t0)
        fused.append(t2 - t1)
    }
}
print("gather", device_info().device, "2^26 f32 x[idx]", rate(16 * n, median(plain)), "GB/s; take(x, idx) * 2.0 + y", rate(20 * n, median(fused)), "GB/s")
