// npy_io.gs: .npy save and load of 2^28 f32 (1 GiB), a host array and an
// array on the default device, best of 3 (GB/s of data). Compare with
// ../shared/bench/workloads.py npy_io (numpy_npy_*_host, cupy_npy_*_dev) in
// the same visit.
kernel init(x: array[f32]) {
    let i = tid()
    x[i] = f32(i % 65536) * 0.25 - 100.0
}
let n = 1 << 28
let path = "/tmp/gscript_bench_npy_io.npy"
fn rate(t) {
    return round(4.0 * float(n) / t / 1e7) / 100.0
}
fn bench(dev) {
    array x: f32[n] on dev
    launch init[n](x) on dev
    synchronize()
    let bs = 1e30
    let bl = 1e30
    for r in range(3) {
        let t0 = time()
        save(path, x)
        let t1 = time()
        let y = load(path, device=dev)
        synchronize()
        let t2 = time()
        free(y)
        bs = min(bs, t1 - t0)
        bl = min(bl, t2 - t1)
    }
    print("npy_io", dev, "save", rate(bs), "GB/s load", rate(bl), "GB/s")
}
bench("cpu")
bench(str(device_info().device))
