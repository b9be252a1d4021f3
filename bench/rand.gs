// rand.gs: rand(2^28) f32 on the default device, best of 10 after a
// warm-up round, results from the stream-ordered pool (as CuPy's come
// from its pool), with a synchronize() per call; GB/s count 4 bytes per
// element as ../shared/bench/workloads.py arraylib (cupy_rand_f32) does.
// argv[1], when given, is log2 of the size (for small cpu runs).
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
let lg = 28
if len(argv) > 1 {
    lg = int(argv[1])
}
let n = 1 << lg
let r = rand(n, seed=1)
synchronize()
assert r[0] >= 0.0 && r[0] < 1.0, "rand range"
let best = 1e30
allocator mempool {
    for k in range(10) {
        let t0 = time()
        r = rand(n, seed=k)
        synchronize()
        best = min(best, time() - t0)
    }
}
print("rand", device_info().device, "2^" + str(lg), "f32", rate(4 * n, best), "GB/s")
