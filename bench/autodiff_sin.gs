// autodiff_sin.gs: forward and backward of sum(sin(x) * 2.0) over 2^26
// f32 on the default device, recorded on a tape: as an array expression
// (one fused kernel and a reduction forward, the expression's adjoint
// backward) and as a kernel launch (its generated adjoint backward). The
// median of 10 after a round that builds the kernels, in ms, with a
// synchronize() per step; compare with ../shared/bench/workloads.py
// autograd (torch_autograd_sin_2p26_fwd_bwd) in the same visit.
kernel sin2(x: array[f32], y: array[f32]) {
    let i = tid()
    y[i] = sin(x[i]) * 2.0
}
fn median(ts) {
    let s = sorted(ts)
    return (s[len(s) / 2 - 1] + s[len(s) / 2]) / 2.0
}
let n = 1 << 26
let x = rand(n, requires_grad=true)
fn step() {
    let loss = nil
    tape t {
        loss = sum(sin(x) * 2.0)
    }
    backward(t, loss)
    return loss
}
fn kstep() {
    let loss = nil
    let y = empty(n)
    tape t {
        launch sin2[n](x, y)
        loss = sum(y)
    }
    backward(t, loss)
    return loss
}
step()
synchronize()
assert abs(x.grad[5] - 2.0 * cos(x[5])) < 1e-5, "gradient of sin(x) * 2"
kstep()
synchronize()
assert abs(x.grad[5] - 4.0 * cos(x[5])) < 1e-5, "gradient of the sin2 kernel"
let ts = []
let tk = []
allocator mempool {
    for k in range(10) {
        let t0 = time()
        step()
        synchronize()
        let t1 = time()
        kstep()
        synchronize()
        ts.append(t1 - t0)
        tk.append(time() - t1)
    }
}
print("autodiff_sin", device_info().device, "2^26 f32 sum(sin(x) * 2.0) forward and backward", round(median(ts) * 1e5) / 100.0, "ms; as a kernel", round(median(tk) * 1e5) / 100.0, "ms")
