// autodiff_replay.gs: the MLP training step of bench/autodiff_mlp.gs
// (forward, backward, the SGD update of both weights) run eagerly and
// captured into one graph and replayed, the median of 10 of each in ms.
// The replay is the step's kernels alone: its time over the eager step's
// is what the host's work between them costs.
//
//   gscript run bench/autodiff_replay.gs [replays]
//
// With replays, one eager step then 50 replays alone, for a profiler's
// sum of the kernels (nsys profile --stats=true) beside the replays'
// time.
fn median(ts) {
    let s = sorted(ts)
    return (s[len(s) / 2 - 1] + s[len(s) / 2]) / 2.0
}
let b = 4096
let d = 1024
let h = 1024
let k = 10
let w1 = requires_grad(randn([d, h], seed=1) * 0.03)
let w2 = requires_grad(randn([h, k], seed=2) * 0.03)
let xb = randn([b, d], seed=3)
let labels = randint(0, k, b, seed=4)
let onehot = where(labels.reshape([b, 1]) == arange(k).reshape([1, k]), 1.0, 0.0).astype(f32)
fn step() {
    let loss = nil
    tape t {
        let z = tanh(xb @ w1) @ w2
        let m = max(z, axis=1).reshape([b, 1])
        let lse = log(sum(exp(z - m), axis=1)).reshape([b, 1]) + m
        loss = sum((lse - z) * onehot) / b
    }
    backward(t, loss)
    w1 -= 0.01 * w1.grad
    w2 -= 0.01 * w2.grad
    zero_grad(t)
}
allocator mempool {
    step()
    synchronize()
    capture g {
        step()
    }
    if len(argv) > 1 && argv[1] == "replays" {
        replay(g)
        synchronize()
        let t0 = time()
        replay(g, 50)
        synchronize()
        print("autodiff_replay", device_info().device, "50 replays of the MLP training step:", round((time() - t0) / 50.0 * 1e5) / 100.0, "ms each;", str(g))
        exit(0)
    }
    let te = []
    let tr = []
    for r in range(10) {
        let t0 = time()
        step()
        synchronize()
        let t1 = time()
        replay(g)
        synchronize()
        te.append(t1 - t0)
        tr.append(time() - t1)
    }
    print("autodiff_replay", device_info().device, "MLP training step: eager", round(median(te) * 1e5) / 100.0, "ms; replayed graph", round(median(tr) * 1e5) / 100.0, "ms;", str(g))
}
