// vec_update.gs: p += v * dt over 2^26 particles, with vec3 arrays (12
// bytes per element, array-of-structs) against the same update over
// three f32 arrays per quantity (struct-of-arrays), on the default
// device, best of 10 after a warm-up launch. GB/s count 36 bytes per
// particle (p read and written, v read). TYPES.md's target: the vec3
// form at >= 0.95x the f32 form. argv[1], when given, is log2 of the
// particle count (for small cpu runs).
fn rate(bytes, t) {
    return round(float(bytes) / t / 1e7) / 100.0
}
kernel upd3(p: array[vec3], v: array[vec3], dt: f32) {
    let i = tid()
    p[i] += v[i] * dt
}
kernel upd1(px: array[f32], py: array[f32], pz: array[f32], vx: array[f32], vy: array[f32], vz: array[f32], dt: f32) {
    let i = tid()
    px[i] += vx[i] * dt
    py[i] += vy[i] * dt
    pz[i] += vz[i] * dt
}
let lg = 26
if len(argv) > 1 {
    lg = int(argv[1])
}
let n = 1 << lg
let p = zeros(n, dtype=vec3)
let v = full(n, vec3(1.0, 2.0, 3.0))
let px = zeros(n)
let py = zeros(n)
let pz = zeros(n)
let vx = full(n, 1.0)
let vy = full(n, 2.0)
let vz = full(n, 3.0)
launch upd3[n](p, v, 0.5)
launch upd1[n](px, py, pz, vx, vy, vz, 0.5)
synchronize()
assert p[n - 1] == vec3(0.5, 1.0, 1.5) && pz[n - 1] == f32(1.5), "one update"
let best = [1e30, 1e30]
for k in range(10) {
    let t0 = time()
    launch upd3[n](p, v, 0.5)
    synchronize()
    let t1 = time()
    launch upd1[n](px, py, pz, vx, vy, vz, 0.5)
    synchronize()
    let t2 = time()
    best = [min(best[0], t1 - t0), min(best[1], t2 - t1)]
}
print("vec_update", device_info().device, "2^" + str(lg), "vec3", rate(36 * n, best[0]), "GB/s; three f32 arrays", rate(36 * n, best[1]), "GB/s; ratio", round(best[1] / best[0] * 100.0) / 100.0)
