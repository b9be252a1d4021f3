// sort.gs: sort of 2^28 f32 and of 2^28 u32 keys, argsort of 2^26 f32 and
// unique of 2^26 i32 in [0, 2^20) on the default device, each the median
// of 5 runs after six that build the kernels, with a synchronize() per
// run, as ../shared/bench/workloads.py indexing() times cupy.sort,
// cupy.argsort and cupy.unique (Gkeys/s: keys / seconds / 1e9). On the
// cpu the sizes are 16 times smaller (the host path keeps 8-byte keys).
// Six runs come first, as in array_expr.gs and gather.gs: each drops its
// result, which goes back to its allocator when a Go collection finds it
// (every 4 GiB of device allocations that nobody freed), and before the
// first collection every result is fresh memory (the H200, 2^28 f32:
// 11.0, 9.6 and 9.2 ms for the first runs after the build, 8.0-8.9 after).
fn median(ts) {
    let s = sorted(ts)
    return s[len(s) / 2]
}
fn gkeys(n, f) {
    for k in range(6) {
        f()
    }
    synchronize()
    let ts = []
    for k in range(5) {
        let t0 = time()
        f()
        synchronize()
        ts.append(time() - t0)
    }
    return round(float(n) / median(ts) / 1e7) / 100.0
}
let shrink = 1
if device_info().device == "cpu" {
    shrink = 16
}
let big = (1 << 28) / shrink
let n = (1 << 26) / shrink
let x = rand(big, seed=1)
let u = (rand(big, seed=2, dtype=f64) * 4294967296.0).astype(u32)
let y = rand(n, seed=3)
let xi = randint(0, 1 << 20, n, seed=4)
fn sort_x() {
    return sort(x)
}
fn sort_u() {
    return sort(u)
}
fn argsort_y() {
    return argsort(y)
}
fn unique_xi() {
    return unique(xi)
}
let rs = gkeys(big, sort_x)
let s = sort(x)
assert all(s[1:] >= s[:-1]), "sort is sorted"
free(s)
let ru = gkeys(big, sort_u)
let ra = gkeys(n, argsort_y)
let rq = gkeys(n, unique_xi)
print("sort", device_info().device, format("f32 %d: %.2f Gkeys/s; u32 %d: %.2f; argsort f32 %d: %.2f; unique i32 %d: %.2f", big, rs, big, ru, n, ra, n, rq))
