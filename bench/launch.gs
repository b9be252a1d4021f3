// launch.gs: script-level launch overhead on the default device: a launch
// statement in a for loop, 3 array arguments, 1 thread each. Compare with
// ../shared/bench/baseline.cu's "C empty launch" in the same visit.
kernel k3(a: array[f32], b: array[f32], c: array[f32]) {
    if len(a) < 0 {
        a[0] = b[0] + c[0]
    }
}
array a: f32[1]
array b: f32[1]
array c: f32[1]
for i in range(2000) {
    launch k3[1](a, b, c)
} // warm-up: compile, load, first launches
synchronize()
let n = 200000
let t0 = time()
for i in range(n) {
    launch k3[1](a, b, c)
}
let t1 = time()
synchronize()
let t2 = time()
print("gscript launch on", a.device, "(3 array args, 1 thread): submit", round((t1 - t0) / float(n) * 1e8) / 100.0, "us/launch, incl sync", round((t2 - t0) / float(n) * 1e8) / 100.0, "us/launch")
