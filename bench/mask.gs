// mask.gs: x[x > 0.5] of 2^26 uniform f32 on the default device, the
// median of 10 after a round that builds the kernels, with a
// synchronize() per selection, results from the stream-ordered pool.
// GB/s count 4 bytes per element (the input read) as
// ../shared/bench/workloads.py indexing() does for CuPy's x[x > 0.5];
// compare with its cupy_mask in the same visit. Also nonzero(x > 0.5).
// 16 rounds come first so that the pool reaches its steady state, as in
// gather.gs: the dropped results return to it only when a Go collection
// finds them.
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
fn median(ts) {
    let s = sorted(ts)
    return (s[len(s) / 2 - 1] + s[len(s) / 2]) / 2.0
}
let n = 1 << 26
let x = rand(n)
let s = x[x > 0.5]
let nz = nonzero(x > 0.5)
synchronize()
assert len(s) == count_nonzero(x > 0.5) && len(nz[0]) == len(s) && min(s) > 0.5, "mask result"
let sel = []
let nzs = []
allocator mempool {
    for k in range(16) {
        s = x[x > 0.5]
        nz = nonzero(x > 0.5)
    }
    synchronize()
    for k in range(10) {
        let t0 = time()
        s = x[x > 0.5]
        synchronize()
        let t1 = time()
        nz = nonzero(x > 0.5)
        synchronize()
        let t2 = time()
        sel.append(t1 - t0)
        nzs.append(t2 - t1)
    }
}
print("mask", device_info().device, "2^26 f32 x[x > 0.5]", rate(4 * n, median(sel)), "GB/s; nonzero(x > 0.5)", rate(4 * n, median(nzs)), "GB/s")
