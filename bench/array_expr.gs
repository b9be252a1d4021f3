// array_expr.gs: fused array expressions against the hand-written saxpy
// kernel, on 2^28 f32 in device memory (ARRAYS.md section 6: `y = a * x +
// y` >= 0.95x the kernel). Bandwidth counts 12 bytes per element (read x
// and y, write the result). Then a 1000-iteration loop of one array
// statement: the kernel cache makes it one build, so the time per
// iteration is a launch's.
kernel saxpy(x: array[f32], y: array[f32], a: f32) {
    let i = tid()
    y[i] = a * x[i] + y[i]
}
let n = 1 << 28
let a = 2.0
array x: f32[n] = 1.0
array y: f32[n] = 2.0
let reps = 20
fn report(name, dt) {
    print(format("%-28s %8.3f ms %8.0f GB/s", name, dt * 1e3, 12.0 * float(n) / dt / 1e9))
}

launch saxpy[n](x, y, a)                          // warm-up (and the NVRTC build)
synchronize()
let t0 = time()
for r in range(reps) {
    launch saxpy[n](x, y, a)
}
synchronize()
report("kernel saxpy", (time() - t0) / float(reps))

y += a * x                                        // warm-up: the first build of this shape
synchronize()
t0 = time()
for r in range(reps) {
    y += a * x
}
synchronize()
report("y += a * x (in place)", (time() - t0) / float(reps))

let z = a * x + y                                 // warm-up: z's allocation, and enough statements for
for r in range(8) {                               // the pool to reach its steady state (dropped arrays
    z = a * x + y                                 // are collected every 4 GiB of device allocations)
}
synchronize()
t0 = time()
for r in range(reps) {
    z = a * x + y                                 // a new array each time, as NumPy
}
synchronize()
report("z = a * x + y (allocates)", (time() - t0) / float(reps))
print(format("pool cache after the loop: %d bytes", mem_info(x.device).cached))
free(z)
if x.device != "cpu" {
    allocator mempool {                           // stream-ordered allocation: cheap rebinding
        let m = a * x + y
        for r in range(8) {
            m = a * x + y
        }
        synchronize()
        t0 = time()
        for r in range(reps) {
            m = a * x + y
        }
        synchronize()
        report("z = a * x + y (mempool)", (time() - t0) / float(reps))
    }
}

// the first run of a new expression shape builds its kernel; later runs find it
t0 = time()
let w = x * a - y
synchronize()
print(format("first y = x * a - y (build): %.3f ms", (time() - t0) * 1e3))
free(w)

array s: f32[1024] = 0.0
array e: f32[1024] = 1.0
s += 0.5 * e
synchronize()
let loops = 1000
t0 = time()
for r in range(loops) {
    s += 0.5 * e
}
synchronize()
print(format("1000-iteration loop of s += 0.5 * e: %.2f us per iteration", (time() - t0) / float(loops) * 1e6))
assert s[0] == f32(500.5), "loop result"
assert y[n - 1] == f32(2.0 + 2.0 * float(2 * reps + 2)), "saxpy and y += a * x results"
free(x)
free(y)
