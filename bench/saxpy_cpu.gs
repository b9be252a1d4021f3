// saxpy_cpu.gs: saxpy over 2^24 f32 on the cpu device, timed from the script.
// The Go benchmarks BenchmarkScriptSaxpy / BenchmarkScriptSaxpyGoLoop
// (interp) compare the same launch with a plain Go loop in one run.
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 24
array x: f32[n] = 1.0
array y: f32[n] = 2.0
launch saxpy[n](x, y, 3.0)               // warm-up: compiles the kernel for the cpu
let reps = 20
let t0 = time()
for r in range(reps) {
    launch saxpy[n](x, y, 3.0)
}
let dt = (time() - t0) / float(reps)
print("saxpy 2^24 f32 on cpu:", round(dt * 1e6) / 1000.0, "ms per launch,", round(12.0 * float(n) / dt / 1e7) / 100.0, "GB/s")
assert y[0] == f32(2.0 + 3.0 * float(reps + 1)), "saxpy result"
