// managed_first_use.gs: the first GPU saxpy over managed memory that the
// CPU has just written (a cpu launch), 2^28 f32 in x and in y: 2 GiB of
// managed memory in all. Three ways: config.prefetch = "off" (the GPU
// faults the pages over), "auto" (the launch prefetches both arrays in one
// batch) and an explicit prefetch(x) and prefetch(y) timed with the launch.
// 3 interleaved cycles, medians, GB/s of 12 bytes per element. Compare with
// ../shared/bench/workloads.py managed (cupy_managed_first,
// cupy_managed_prefetch) in the same visit. MEMORY.md section 8's goal:
// auto within 1.1x of explicit, and never slower than off.
kernel init(x: array[f32], y: array[f32]) {
    let i = tid()
    x[i] = 1.0
    y[i] = 2.0
}
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 28                                     // gscript run bench/managed_first_use.gs [N]
if len(argv) > 1 {
    n = int(argv[1])
}
array x: f32[n] on "cuda:0" using managed
array y: f32[n] on "cuda:0" using managed
array wx: f32[256] on "cuda:0" using managed      // warm-up: compile both kernels
array wy: f32[256] on "cuda:0" using managed
launch init[256](wx, wy) on "cpu"
launch saxpy[256](wx, wy, 2.0) on "cuda:0"
synchronize()

// first_use writes x and y on the cpu, then times the first saxpy.
fn first_use(mode) {
    config.prefetch = "off"
    if mode == "auto" {
        config.prefetch = "auto"
    }
    launch init[n](x, y) on "cpu"
    let t0 = time()
    if mode == "explicit" {
        prefetch(x, "cuda:0")
        prefetch(y, "cuda:0")
    }
    launch saxpy[n](x, y, 2.0) on "cuda:0"
    synchronize()
    let dt = time() - t0
    assert y[0] == 4.0 && y[n - 1] == 4.0, "saxpy result"
    return 12.0 * float(n) / dt / 1e9
}

fn median3(a, b, c) {
    if a > b {
        let t = a
        a = b
        b = t
    }
    if b > c {
        b = c
    }
    if a > b {
        return a
    }
    return b
}

let modes = ["off", "auto", "explicit"]
let runs = [[], [], []]
for cycle in range(3) {
    for k in range(3) {
        runs[k] = runs[k] + [first_use(modes[k])]
    }
}
let med = [0.0, 0.0, 0.0]
for k in range(3) {
    let r = runs[k]
    med[k] = median3(r[0], r[1], r[2])
    print("gscript managed first use, prefetch", modes[k], n, "f32 saxpy:", round(med[k] * 10.0) / 10.0, "GB/s (runs:",
        round(r[0]), round(r[1]), round(r[2]), ")")
}
print("auto / explicit:", round(med[1] / med[2] * 100.0) / 100.0, " auto / off:", round(med[1] / med[0] * 100.0) / 100.0)
free(x)
free(y)
