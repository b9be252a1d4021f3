// managed_loop.gs: a loop of launches over small managed arrays (4 KiB),
// config.prefetch "auto" against "off", 3 interleaved rounds of 20000
// launches: the automatic policy must add nothing measurable to a launch
// whose arrays the GPU already holds (MEMORY.md section 8).
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1024
array x: f32[n] on "cuda:0" using managed
array y: f32[n] on "cuda:0" using managed
launch saxpy[n](x, y, 1.0) on "cuda:0"
synchronize()
fn loop(mode, reps) {
    config.prefetch = mode
    let t0 = time()
    for r in range(reps) {
        launch saxpy[n](x, y, 0.0) on "cuda:0"
    }
    synchronize()
    return (time() - t0) / float(reps) * 1e6
}
for round in range(3) {
    print(format("round %d: off %.2f us, auto %.2f us per launch", round, loop("off", 20000), loop("auto", 20000)))
}
