// autodiff_sin.gs: forward and backward of sum(sin(x) * 2.0) over 2^26
// f32 on the default device, recorded on a tape: one fused kernel and a
// reduction forward, the expression's adjoint backward. The median of 10
// after a round that builds the kernels, in ms, with a synchronize() per
// step; compare with ../shared/bench/workloads.py autograd
// (torch_autograd_sin_2p26_fwd_bwd) in the same visit.
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
step()
synchronize()
assert abs(x.grad[5] - 2.0 * cos(x[5])) < 1e-5, "gradient of sin(x) * 2"
let ts = []
allocator mempool {
    for k in range(10) {
        let t0 = time()
        step()
        synchronize()
        ts.append(time() - t0)
    }
}
print("autodiff_sin", device_info().device, "2^26 f32 sum(sin(x) * 2.0) forward and backward", round(median(ts) * 1e5) / 100.0, "ms")
