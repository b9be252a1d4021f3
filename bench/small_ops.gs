// small_ops.gs: the fixed cost of one array statement on the default
// device (argv[1] names another), 1024 f32 elements so that the cost is
// the statement's, not the data's: a fill, a copy with a cast, an
// in-place expression, an allocating expression, a reduction read back,
// and a launch. Best of 5 loops of 2000, microseconds a statement, each
// loop ending with a synchronize(). Compare builds on one machine
// (docs/benchmarks.md, "The house, third pass").
array probe: f32[1]
let dev = probe.device
if len(argv) > 1 {
    dev = argv[1]
}
kernel bump(x: array[f32]) {
    let i = tid()
    x[i] = x[i] + 1.0
}
array s: f32[1024] = 0.0 on dev
array e: f32[1024] = 1.0 on dev
array d: i32[1024] = 0 on dev
fn fills(n) {
    for i in range(n) {
        s[:] = 0.0
    }
}
fn copies(n) {
    for i in range(n) {
        d[:] = e
    }
}
fn updates(n) {
    for i in range(n) {
        s += 0.5 * e
    }
}
fn temps(n) {
    for i in range(n) {
        let z = s * e + s
    }
}
fn sums(n) {
    for i in range(n) {
        let v = sum(e)
    }
}
fn launches(n) {
    for i in range(n) {
        launch bump[1024](s) on dev
    }
}
fn bench(name, f) {
    f(200)
    synchronize()
    let best = 1e30
    for r in range(5) {
        let t0 = time()
        f(2000)
        synchronize()
        best = min(best, (time() - t0) / 2000.0 * 1e6)
    }
    print(format("%-8s %-26s %8.2f us", dev, name, best))
}
bench("s[:] = 0.0 (fill)", fills)
bench("d[:] = e (copy, i32 <- f32)", copies)
bench("s += 0.5 * e", updates)
bench("let z = s * e + s", temps)
bench("sum(e) (read back)", sums)
bench("launch bump[1024](s)", launches)
