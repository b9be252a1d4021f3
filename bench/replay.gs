// replay.gs: CUDA graph replay overhead per captured kernel: 100 launches
// (3 array arguments, 1 thread each) captured once, the graph replayed 2000
// times. Compare with ../shared/bench/baseline.cu's "C graph replay" in the
// same visit.
kernel k3(a: array[f32], b: array[f32], c: array[f32]) {
    if len(a) < 0 {
        a[0] = b[0] + c[0]
    }
}
array a: f32[1]
array b: f32[1]
array c: f32[1]
launch k3[1](a, b, c)                             // compile and load before the capture
capture g {
    for i in range(100) { launch k3[1](a, b, c) }
}
replay(g, 10)
synchronize()
let reps = 2000
let t0 = time()
replay(g, reps)
synchronize()
let dt = time() - t0
print("gscript graph replay on", a.device, ":", round(dt / float(reps * 100) * 1e6 * 1000.0) / 1000.0, "us/kernel,", g)
