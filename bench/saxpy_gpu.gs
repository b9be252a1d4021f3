// saxpy_gpu.gs: bandwidth of the saxpy kernel gscript generates, on 2^28 f32
// in device memory (3 x 4 bytes moved per element). Compare with
// ../shared/bench/baseline.cu's "C saxpy device 2^28 f32" in the same visit.
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
kernel init(x: array[f32], y: array[f32]) {
    let i = tid()
    x[i] = 1.0
    y[i] = 2.0
}
let n = 1 << 28
array x: f32[n]
array y: f32[n]
launch init[n](x, y)
launch saxpy[n](x, y, 2.0)                        // warm-up
synchronize()
let reps = 20
let t0 = time()
for r in range(reps) {
    launch saxpy[n](x, y, 2.0)
}
synchronize()
let dt = (time() - t0) / float(reps)
print("gscript saxpy on", x.device, "2^28 f32:", round(dt * 1e6) / 1000.0, "ms,", round(12.0 * float(n) / dt / 1e9), "GB/s")
assert y[n - 1] == f32(2.0 + 2.0 * float(reps + 1)), "saxpy result"
free(x)
free(y)
