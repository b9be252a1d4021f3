// replay.gs: CUDA graph replay overhead per captured kernel: 100 launches of
// an empty kernel captured once, the graph replayed 2000 times. Compare with
// ../shared/bench/baseline.cu's "C graph replay" (also an empty kernel) in
// the same visit.
kernel empty() {}
launch empty[1]()                                 // compile and load before the capture
capture g {
    for i in range(100) {
        launch empty[1]()
    }
}
replay(g, 10)
synchronize()
let reps = 2000
let t0 = time()
replay(g, reps)
synchronize()
let dt = time() - t0
print("gscript graph replay:", round(dt / float(reps * 100) * 1e6 * 1000.0) / 1000.0, "us/kernel,", g)
